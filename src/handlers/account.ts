import { AppError } from '../errors/app-error.ts'
import { mintKey, revokeKey } from '../domain/access/keys.ts'
import { redeemIssuanceToken } from '../domain/access/issuance.ts'
import { usageOf } from '../domain/access/usage.ts'
import { requestMagicLink } from '../domain/access/signin.ts'
import { MAX_ACTIVE_KEYS, type Principal } from '../domain/access/types.ts'
import { topUpUrl } from '../domain/billing/metering.ts'
import * as accounts from '../store/accounts.ts'
import { readBalance } from '../store/credits.ts'
import type { IdParam, MintKeyBody, PrivacyRequestBody, RedeemBody, SignupBody } from '../schemas/access.ts'
import { receivePrivacyRequest } from '../domain/access/privacy.ts'
import type { Handler, ToolBinding } from '../pipeline/context.ts'

export function keyMetadata(k: accounts.KeyRow) {
  return {
    id: k.id,
    label: k.label,
    display_prefix: k.display_prefix,
    scopes: k.scopes,
    source: k.source,
    test: k.test,
    created_at: k.created_at.toISOString(),
    is_revoked: k.revoked_at !== null,
    revoked_at: k.revoked_at?.toISOString() ?? null,
  }
}

export function actorOf(p: Principal): string {
  switch (p.kind) {
    case 'key':
      return `key:${p.keyId}`
    case 'session':
      return `session:${p.sessionId}`
    default:
      return p.kind
  }
}

function consumerOf(p: Principal): string {
  if (p.kind !== 'key' && p.kind !== 'session') throw new AppError('AUTH_MISSING')
  return p.consumerId
}

export const accountHandlers = {
  signup: (async ({ body, deps, now, state }) => {
    if (body.company_name !== undefined && body.consent !== true) {
      throw new AppError('VALIDATION_FAILED', { details: [{ field: 'consent', message: 'must be true to sign up' }] })
    }
    await requestMagicLink(
      deps.sql,
      deps.config.baseUrl,
      { email: body.email, ...(body.company_name ? { company_name: body.company_name } : {}) },
      now,
      state.correlationId,
    )
    return { data: { ok: true } }
  }) satisfies Handler<{ body: typeof SignupBody }>,

  redeemIssuanceToken: (async ({ body, deps, now, state }) => {
    const minted = await redeemIssuanceToken(deps.sql, body.token, now, state.correlationId)
    return { data: { plaintext_key: minted.plaintext_key, scopes: minted.key.scopes, key: keyMetadata(minted.key) } }
  }) satisfies Handler<{ body: typeof RedeemBody }>,

  getAccount: (async ({ principal, deps }) => {
    if (principal.kind !== 'session') throw new AppError('AUTH_SESSION_REQUIRED')
    const c = (await accounts.findConsumer(deps.sql, principal.consumerId))!
    return {
      data: {
        consumer: {
          id: c.id,
          email: c.email,
          company_name: c.company_name,
          tier: c.tier,
          active: c.active,
          created_at: c.created_at.toISOString(),
        },
        csrf_token: principal.csrfToken,
      },
    }
  }) satisfies Handler,

  listAccountKeys: (async ({ principal, deps }) => {
    const keys = await accounts.listKeys(deps.sql, consumerOf(principal), true)
    return {
      data: {
        keys: keys.map(keyMetadata),
        active_count: keys.filter((k) => !k.revoked_at).length,
        max_active_keys: MAX_ACTIVE_KEYS,
      },
    }
  }) satisfies Handler,

  createAccountKey: (async ({ principal, body, deps, state }) => {
    const minted = await mintKey(
      deps.sql,
      consumerOf(principal),
      {
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.label ? { label: body.label } : {}),
        source: 'dashboard',
        test: body.test === true,
      },
      { actor: actorOf(principal), correlationId: state.correlationId },
    )
    return { data: { plaintext_key: minted.plaintext_key, scopes: minted.key.scopes, key: keyMetadata(minted.key) } }
  }) satisfies Handler<{ body: typeof MintKeyBody }>,

  revokeAccountKey: (async ({ principal, params, deps, state }) => {
    const r = await revokeKey(deps.sql, params.id, consumerOf(principal), {
      actor: actorOf(principal),
      correlationId: state.correlationId,
    })
    return { data: { key: keyMetadata(r.key), already_revoked: r.already_revoked } }
  }) satisfies Handler<{ params: typeof IdParam }>,

  getUsage: (async ({ principal, deps, now }) => {
    const consumerId = consumerOf(principal)
    const consumer = (await accounts.findConsumer(deps.sql, consumerId))!
    const keys =
      principal.kind === 'key'
        ? [(await accounts.findKey(deps.sql, principal.keyId))!]
        : await accounts.listKeys(deps.sql, consumerId, false)
    return { data: await usageOf(deps.sql, consumer.tier, keys, now) }
  }) satisfies Handler,

  submitPrivacyRequest: (async ({ body, deps, now, state }) => {
    const r = await receivePrivacyRequest(
      deps.sql,
      { email: body.email, requestType: body.request_type, details: body.details ?? null },
      now,
      state.correlationId,
    )
    return {
      data: {
        reference: r.id,
        request_type: r.request_type,
        status: 'received',
        received_at: r.received_at.toISOString(),
        respond_by: r.respond_by.toISOString(),
        message_nb:
          'Vi har mottatt henvendelsen og svarer på e-post senest innen fristen. Oppgi referansen hvis du skriver til oss igjen.',
        message_en:
          'We have received your request and will answer by e-mail within the deadline. Quote the reference if you write to us again.',
      },
    }
  }) satisfies Handler<{ body: typeof PrivacyRequestBody }>,

  getCreditBalance: (async ({ principal, deps }) => {
    const b = await readBalance(deps.sql, consumerOf(principal))
    const data = {
      balance_ore: b.balance_ore,
      currency: 'NOK' as const,
      updated_at: b.updated_at?.toISOString() ?? null,
      top_up_url: topUpUrl(deps.config.baseUrl),
    }
    if (principal.kind !== 'key' || !principal.test) return { data, meta: { served_from: 'live' } }
    return { data: { ...data, ...TEST_KEY_BALANCE_NOTE }, meta: { served_from: 'live' } }
  }) satisfies Handler,
}

/** A test key never spends: what the balance it reads means. */
const TEST_KEY_BALANCE_NOTE = {
  test_key_note_nb:
    'Dette er kontoens saldo. Kall med en testnøkkel trekker aldri kreditter; saldoen endres bare av kall med kontoens produksjonsnøkler og av påfyll.',
  test_key_note_en:
    'This is the account’s balance. Calls made with a test key never draw credits; the balance changes only with the account’s production keys and top-ups.',
}

export const accountTools: Record<string, ToolBinding> = {
  redeemIssuanceToken: {
    justification: () =>
      'The issuance token was valid: a read:* key was issued and the token used up. The key is shown this once.',
  },
  getCreditBalance: { justification: () => 'The prepaid balance of the account that owns this key, read now.' },
}
