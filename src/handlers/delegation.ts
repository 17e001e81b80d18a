/** Delegation and actions for production keys: thin adapters over domain/delegation and domain/actions. */
import { Type } from '@sinclair/typebox'
import { AppError, validationError } from '../errors/app-error.ts'
import { actionIdOf } from '../domain/actions/action-id.ts'
import { confirmationPath, mintApprovalToken } from '../domain/actions/approval.ts'
import { dryRun, type ActionInput } from '../domain/actions/dry-run.ts'
import { executeLive } from '../domain/actions/execute.ts'
import { delegateTarget } from '../domain/delegation/delegate.ts'
import { checkDelegationScopes } from '../domain/delegation/scopes.ts'
import { DELEGATION_RETURN_PATH } from '../domain/delegation/refresh.ts'
import { productionEnv, productionFacts } from '../domain/actions/production.ts'
import { parsePeriod } from '../domain/actions/period.ts'
import { consumerReceiptKey, consumerSigning, type ConsumerSigning } from '../domain/actions/receipt.ts'
import { requireLegalEntity } from '../domain/company/register.ts'
import { requestFullmakt, revokePrincipal, type DelegationEnv } from '../domain/delegation/fullmakt.ts'
import { fullmaktState, permissionsSnapshot } from '../domain/delegation/views.ts'
import { osloDate, osloTimestamp } from '../lib/oslo-time.ts'
import { appendAuditAt } from '../store/audit.ts'
import { receiptsPage } from '../store/delegations.ts'
import type { KeyPrincipal, Plan } from '../domain/access/types.ts'
import * as D from '../schemas/delegation.ts'
import { MAX_PAYLOAD_BYTES, payloadTooLarge } from '../domain/actions/payload.ts'
import type { AppDeps, Handler, HandlerContext, HandlerInput, ToolBinding } from '../pipeline/context.ts'

/** uuid v5 namespace of a consumer's default agent principal (system-user/delegate has no principal id). */

function keyOf(ctx: HandlerContext): KeyPrincipal {
  if (ctx.principal.kind !== 'key') throw new AppError('AUTH_MISSING')
  return ctx.principal
}

function signingOf(ctx: HandlerContext, consumerId: string): ConsumerSigning {
  return consumerSigning(ctx.deps.sql, ctx.deps.serverKeys, consumerId, () => ctx.deps.clock.now())
}

/** What the delegation domain needs to act for a consumer: a key's, or a signed-in person's (the confirmation page). */
export function delegationEnvFor(deps: AppDeps, who: { consumerId: string; plan: Plan }): DelegationEnv {
  return {
    sql: deps.sql,
    agency: deps.digitalAgency,
    signing: consumerSigning(deps.sql, deps.serverKeys, who.consumerId, () => deps.clock.now()),
    consumerId: who.consumerId,
    plan: who.plan,
    now: () => deps.clock.now(),
    logger: deps.logger,
    returnUrl: `${deps.config.baseUrl}${DELEGATION_RETURN_PATH}`,
  }
}

function delegationEnv(ctx: HandlerContext): DelegationEnv {
  return delegationEnvFor(ctx.deps, keyOf(ctx))
}

/**
 * What the schema cannot say: a period of no known form, and for `validate_action` the payload's
 * size in UTF-8 (spec Limits: `validate_action` payload 64 KiB; execute's body is bounded by the
 * write-body cap, 256 KB, at the edge). Both are malformed requests (400 naming the field), not
 * failed checks.
 */
function checkActionInput(body: ActionInput, payloadCap: 'validate_action' | 'write_body'): void {
  if (payloadCap === 'validate_action' && payloadTooLarge(body.payload)) {
    throw validationError([{ field: 'payload', message: `must be at most ${MAX_PAYLOAD_BYTES} bytes of UTF-8 JSON` }])
  }
  const period = parsePeriod(body.action_type, body.period)
  if (!period.ok) throw validationError(period.details)
}

async function dryRunOf(ctx: HandlerContext, body: ActionInput, payloadCap: 'validate_action' | 'write_body') {
  checkActionInput(body, payloadCap)
  const facts = await productionFacts(ctx.deps.reads, delegationEnv(ctx), body.org_number)
  return { data: { ...dryRun(body, facts, osloDate(ctx.deps.clock.now())), action_id: actionIdOf(body) } }
}

export const delegationHandlers = {
  getPermissions: (async (ctx) => ({
    data: await permissionsSnapshot(delegationEnv(ctx), ctx.params.org),
  })) satisfies Handler<{ params: typeof D.OrgOnlyParams }>,

  delegateSystemUser: (async (ctx) => {
    const p = keyOf(ctx)
    await requireLegalEntity(ctx.deps.reads, ctx.body.org_number)
    const target = await delegateTarget(
      ctx.deps.sql,
      p.consumerId,
      ctx.body.org_number,
      checkDelegationScopes(ctx.body.scopes),
    )
    return {
      data: await requestFullmakt(delegationEnv(ctx), {
        agent_principal_id: target.principalId,
        org_number: ctx.body.org_number,
        scopes: target.scopes,
      }),
      status: 201,
    }
  }) satisfies Handler<{ body: typeof D.DelegateBody }>,

  requestFullmakt: (async (ctx) => {
    await requireLegalEntity(ctx.deps.reads, ctx.body.org_number)
    return {
      data: await requestFullmakt(delegationEnv(ctx), {
        ...ctx.body,
        agent_principal_id: ctx.body.agent_principal_id.toLowerCase(),
      }),
      status: 201,
    }
  }) satisfies Handler<{ body: typeof D.FullmaktRequestBody }>,

  listFullmaktReceipts: (async (ctx) => {
    const p = keyOf(ctx)
    const { before, before_id } = ctx.query
    if ((before === undefined) !== (before_id === undefined))
      throw validationError([
        {
          field: before === undefined ? 'before' : 'before_id',
          message: 'before and before_id go together: both or neither',
        },
      ])
    const at = before === undefined ? null : new Date(before)
    if (at !== null && Number.isNaN(at.getTime()))
      throw validationError([{ field: 'before', message: 'must be an RFC 3339 date-time' }])
    const limit = ctx.query.limit ?? 20
    const rows = await receiptsPage(
      ctx.deps.sql,
      p.consumerId,
      limit + 1,
      at && before_id ? { at, id: before_id } : null,
    )
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      data: {
        receipts: page.map((r) => ({
          id: r.id,
          event: r.event,
          issued_at: r.issued_at.toISOString(),
          receipt: r.receipt,
        })),
        pagination: {
          limit,
          has_more: rows.length > limit,
          next_before: rows.length > limit && last ? last.issued_at.toISOString() : null,
          next_before_id: rows.length > limit && last ? last.id : null,
        },
      },
    }
  }) satisfies Handler<{ query: typeof D.ReceiptsQuery }>,

  getFullmakt: (async (ctx) => ({ data: await fullmaktState(delegationEnv(ctx), ctx.params.org) })) satisfies Handler<{
    params: typeof D.OrgOnlyParams
  }>,

  revokeFullmakt: (async (ctx) => ({
    data: await revokePrincipal(delegationEnv(ctx), ctx.body.agent_principal_id.toLowerCase(), ctx.body.reason),
  })) satisfies Handler<{ body: typeof D.FullmaktRevokeBody }>,

  getReceiptKey: ((ctx) => {
    const p = keyOf(ctx)
    const { key, key_id } = consumerReceiptKey(ctx.deps.serverKeys.receipts, p.consumerId)
    return {
      data: {
        key_id,
        key_hex: key.toString('hex'),
        signature_algorithm: 'HMAC-SHA256-v1',
        recipe_url: `${ctx.deps.config.baseUrl}/docs/receipt-signature`,
      },
    }
  }) satisfies Handler,

  /**
   * The token is minted awaiting a person's confirmation of exactly this content (its digest is
   * the action id): the answer says where the account's owner confirms it and what to ask them.
   */
  createApprovalToken: (async (ctx) => {
    const p = keyOf(ctx)
    const { org_number, action_id, action_type, period, payload } = ctx.body
    const action = { org_number, action_type, period, payload }
    checkActionInput(action, 'validate_action')
    if (actionIdOf(action) !== action_id) {
      throw validationError([
        {
          field: 'action_id',
          message:
            'is not the digest of this org_number, action_type, period and payload: send the dry run’s action exactly as it was dry-run',
        },
      ])
    }
    const now = ctx.deps.clock.now()
    const minted = await mintApprovalToken(
      ctx.deps.sql,
      { namespace: `consumer:${p.consumerId}`, org_number, action_id },
      now,
      { confirmation: 'person', action },
    )
    await appendAuditAt(ctx.deps.sql, {
      id: crypto.randomUUID(),
      occurredAt: now,
      consumerId: p.consumerId,
      actor: `key:${p.keyId}`,
      action: 'approval_token_minted',
      orgNumber: org_number,
      correlationId: ctx.state.correlationId,
      details: {
        token_id: minted.id,
        action_id,
        action_type,
        period,
        confirmation: 'awaiting',
        expires_at: minted.expires_at.toISOString(),
      },
    })
    const url = `${ctx.deps.config.baseUrl}${confirmationPath(minted.id)}`
    const until = osloTimestamp(minted.expires_at)
    return {
      data: {
        approval_token: minted.token,
        header: 'X-Approval-Token',
        org_number,
        action_id,
        expires_at: minted.expires_at.toISOString(),
        single_use: true,
        confirmation_state: 'awaiting_confirmation',
        confirmation_url: url,
        ask_the_person: {
          nb: `Åpne ${url}, logg inn på Plikt-kontoen, se gjennom innsendingen (${action_type} for ${org_number}, periode ${period}) og bekreft den hvis den er riktig. Bekreftelsen må gis før ${until}.`,
          en: `Open ${url}, sign in to the Plikt account, review the filing (${action_type} for ${org_number}, period ${period}) and confirm it if it is right. Confirm before ${until}.`,
        },
      },
      status: 201,
    }
  }) satisfies Handler<{ body: typeof D.ApprovalTokenBody }>,

  executeAction: (async (ctx) => {
    if (ctx.query.dry_run === 'true') return dryRunOf(ctx, ctx.body, 'write_body')
    checkActionInput(ctx.body, 'write_body')
    const p = keyOf(ctx)
    const idempotencyKey = ctx.headers.idempotencyKey
    if (idempotencyKey === null)
      throw new AppError('IDEMPOTENCY_KEY_REQUIRED', { extra: { action_id: actionIdOf(ctx.body) } })
    const signing = signingOf(ctx, p.consumerId)
    const now = () => ctx.deps.clock.now()
    const env = productionEnv({
      sql: ctx.deps.sql,
      reads: ctx.deps.reads,
      delegation: delegationEnv(ctx),
      gov: ctx.deps.government,
      caller: {
        consumerId: p.consumerId,
        holder: `key:${p.keyId}`,
        actor: `key:${p.keyId}`,
        correlationId: ctx.state.correlationId,
      },
      approval: ctx.approval!,
      signing,
      org: ctx.body.org_number,
      today: osloDate(now()),
      now,
    })
    const receipt = await executeLive(env, ctx.body, idempotencyKey.toLowerCase())
    return { data: { dry_run: false, action_id: actionIdOf(ctx.body), receipt, receipt_key_id: signing.key_id } }
  }) satisfies Handler<{ query: typeof D.ExecuteQuery; body: typeof D.ActionBody }>,

  validateAction: (async (ctx) => dryRunOf(ctx, ctx.body, 'validate_action')) satisfies Handler<{
    body: typeof D.ActionBody
  }>,
}

const says = (text: string) => ({ justification: () => text })

export const delegationTools: Record<string, ToolBinding> = {
  getPermissions: says(
    'What the organisation has delegated to you, with pending requests asked about at the digital agency first.',
  ),
  requestFullmakt: says(
    'A system-user request brokered at the digital agency; a person with signing authority approves at delegation_url.',
  ),
  getFullmakt: says('Your agent principals for the organisation as Plikt recorded them; not a live decision.'),
  revokeFullmakt: says(
    'The principal is revoked for good; each delegation is superseded by a revocation marker and the agency was told.',
  ),
  validateAction: says(
    'The five checks of the action against the register and your recorded delegations; nothing was submitted.',
  ),
  /**
   * Like the sandbox's tool of the same name: without an approval token it is a dry run unless
   * `dry_run: false` says otherwise, so an agent that has no person's confirmation only rehearses.
   */
  executeAction: {
    input: Type.Object(
      {
        org_number: D.ActionBody.properties.org_number,
        period: D.ActionBody.properties.period,
        payload: D.ActionBody.properties.payload,
        dry_run: Type.Optional(
          Type.Boolean({
            description:
              'true: run the five checks and submit nothing; default: true without approval_token, false with it',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    toInput: ({ org_number, period, payload, dry_run, approval_token }: Record<string, unknown>): HandlerInput => {
      const dry = typeof dry_run === 'boolean' ? dry_run : approval_token === undefined
      return {
        body: { org_number, action_type: 'mva_melding', period, payload },
        query: dry ? { dry_run: 'true' } : {},
      }
    },
    justification: (r: { dry_run: boolean }) =>
      r.dry_run
        ? 'Dry run: the five checks of a VAT return; nothing was submitted.'
        : 'Filed: the approval token was spent, the portal accepted the return, and the receipt is signed with your receipt key and with Plikt’s published Ed25519 key.',
  },
}
