/**
 * OAuth 2.1 for MCP hosts: this service is a resource server only. It verifies access tokens an
 * external authorization server minted (ES256 or RS256 only; iss, aud, exp, nbf), against the
 * issuer's key set (cached, refreshed once on an unknown `kid`, fail closed when unreachable), and
 * maps (issuer, sub) to one dedicated API key that the account owner approved at /oauth/consent.
 * The token's scopes establish identity only; permissions are the mapped key's.
 *
 * Approval binds to the token's holder, not to whoever happens to open the consent link: a subject
 * is linked only to the account whose e-mail the token carried as verified (`email` with
 * `email_verified: true`, from the token that asked for the connection). A person who approves
 * someone else's link therefore cannot hand that someone their account.
 */
import { createRemoteJWKSet, errors as jose, jwtVerify, type JWTPayload } from 'jose'
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import * as oauth from '../../store/oauth.ts'
import { mintKeyIn } from './keys.ts'
import { normaliseEmail } from './signin.ts'
import type { Principal } from './types.ts'

/** The scopes a connection's key carries: company data and changes, nothing that writes. */
export const OAUTH_KEY_SCOPES = ['read:register', 'read:portal', 'read:directorate', 'read:centralbank', 'read:changes']
/** What the protected-resource metadata may advertise: identity scopes, never permissions. */
export const IDENTITY_SCOPES = ['openid', 'profile', 'email', 'phone', 'offline_access']

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

export function looksLikeJwt(bearer: string): boolean {
  return JWT_SHAPE.test(bearer)
}

export interface OAuthSettings {
  issuer: string
  jwksUrl: string
  audience: string
}

export type Verifier = (token: string) => Promise<JWTPayload>

/** A forced refresh of the key set for an unknown `kid` happens at most this often. */
const FORCED_RELOAD_INTERVAL_MS = 5_000

export function createVerifier(s: OAuthSettings): Verifier {
  const jwks = createRemoteJWKSet(new URL(s.jwksUrl), { timeoutDuration: 3000 })
  const options = {
    issuer: s.issuer,
    audience: s.audience,
    algorithms: ['ES256', 'RS256'],
    requiredClaims: ['sub', 'exp'],
  }
  let lastForcedReload = 0
  return async (token) => {
    try {
      try {
        return (await jwtVerify(token, jwks, options)).payload
      } catch (e) {
        // An unknown `kid` may be a key the issuer just rotated in: fetch the key set once more
        // (bounded, so random kids cannot make us hammer the issuer), then try again.
        if (!(e instanceof jose.JWKSNoMatchingKey) || Date.now() - lastForcedReload < FORCED_RELOAD_INTERVAL_MS) throw e
        lastForcedReload = Date.now()
        await jwks.reload()
        return (await jwtVerify(token, jwks, options)).payload
      }
    } catch (e) {
      throw classify(e)
    }
  }
}

/** Fetching or reading the issuer's key set failed: we cannot judge the token, so we refuse it (fail closed). */
function keySetUnavailable(e: unknown): boolean {
  if (e instanceof jose.JWKSTimeout || e instanceof jose.JWKSInvalid) return true
  if (e instanceof jose.JOSEError) return /JSON Web Key Set HTTP response/.test(e.message)
  return true // network errors from fetch
}

function classify(e: unknown): AppError {
  if (e instanceof jose.JWTExpired) return new AppError('OAUTH_TOKEN_EXPIRED', { cause: e })
  if (e instanceof jose.JWTClaimValidationFailed && e.claim === 'aud')
    return new AppError('OAUTH_AUDIENCE_MISMATCH', { cause: e })
  if (keySetUnavailable(e)) return new AppError('OAUTH_JWKS_UNAVAILABLE', { cause: e, headers: { 'retry-after': '5' } })
  return new AppError('OAUTH_TOKEN_INVALID', { cause: e })
}

/** An e-mail address is at most 254 characters; a longer claim is no usable address. */
const MAX_EMAIL = 254
const MAX_CLIENT_ID = 255

/** What a verified token says about its holder: its e-mail, whether the issuer verified it, and its client. */
export function holderOf(claims: JWTPayload): oauth.TokenHolder {
  const email =
    typeof claims.email === 'string' && claims.email.trim() && claims.email.trim().length <= MAX_EMAIL
      ? claims.email.trim()
      : null
  const client =
    typeof claims.client_id === 'string' && claims.client_id
      ? claims.client_id
      : typeof claims.azp === 'string' && claims.azp
        ? claims.azp
        : null
  return {
    email,
    emailVerified: email !== null && claims.email_verified === true,
    clientId: client === null || client.length <= MAX_CLIENT_ID ? client : `${client.slice(0, MAX_CLIENT_ID)}…`,
  }
}

/** Why a connection cannot be linked to an account; the reason names the missing proof. */
export type BindingRefusal = 'no_email' | 'email_unverified' | 'other_account'

/**
 * Whether the holder of the connection's token is the owner of the account with this e-mail: the
 * token must have carried that e-mail (compared as sign-in normalises it) and marked it verified.
 * Null when it may be linked.
 */
export function bindingRefusal(
  c: Pick<oauth.OAuthConnectionRow, 'token_email' | 'token_email_verified'>,
  accountEmail: string,
): BindingRefusal | null {
  if (!c.token_email) return 'no_email'
  if (!c.token_email_verified) return 'email_unverified'
  if (normaliseEmail(c.token_email) !== normaliseEmail(accountEmail)) return 'other_account'
  return null
}

export const BINDING_REFUSAL_TEXT: Record<BindingRefusal, { nb: string; en: string }> = {
  no_email: {
    nb: 'tilgangstokenet har ingen e-postadresse («email»)',
    en: 'the access token carries no e-mail address ("email")',
  },
  email_unverified: {
    nb: 'autorisasjonsserveren har ikke bekreftet e-postadressen i tilgangstokenet («email_verified» er ikke true)',
    en: 'the authorization server has not verified the e-mail address in the access token ("email_verified" is not true)',
  },
  other_account: {
    nb: 'e-postadressen i tilgangstokenet er ikke e-postadressen til denne kontoen',
    en: 'the e-mail address in the access token is not this account’s e-mail address',
  },
}

/** The principal of a verified token: its connection's key, or OAUTH_SUBJECT_UNMAPPED with where to connect. */
export async function principalForToken(
  sql: Sql,
  verify: Verifier,
  token: string,
  baseUrl: string,
): Promise<Extract<Principal, { kind: 'key' }>> {
  const claims = await verify(token)
  const issuer = claims.iss!
  const subject = claims.sub!
  const live = await oauth.liveConnection(sql, issuer, subject)
  if (live?.status === 'active') {
    const key = await accounts.findKey(sql, live.key_id!)
    const consumer = await accounts.findConsumer(sql, live.consumer_id!)
    if (key && !key.revoked_at && consumer) {
      if (!consumer.active) throw new AppError('AUTH_CONSUMER_INACTIVE')
      return {
        kind: 'key',
        keyId: key.id,
        consumerId: consumer.id,
        scopes: key.scopes,
        plan: consumer.tier,
        test: key.test,
        confirmed: true,
      }
    }
  }
  // A pending connection takes what the newest token says about its holder, so a host that
  // signs in again with the `email` scope makes the same consent link approvable.
  const pending = await oauth.ensurePending(sql, issuer, subject, holderOf(claims))
  throw new AppError('OAUTH_SUBJECT_UNMAPPED', {
    extra: { consent_url: `${baseUrl}/oauth/consent?connection=${pending.id}` },
  })
}

/**
 * The owner approves a pending connection: one dedicated key with exactly the OAuth scopes, under
 * the three-key cap (nothing is approved at three keys). Approving an active connection again
 * reuses it. A pending connection is linked only when its token's verified e-mail is the
 * approving account's (see bindingRefusal); otherwise nothing is linked, the refusal is audited
 * on the approving account and OAUTH_IDENTITY_MISMATCH is thrown.
 */
export async function approveConnection(
  sql: Sql,
  connectionId: string,
  consumerId: string,
  by: { actor: string; correlationId: string },
): Promise<{ connection: oauth.OAuthConnectionRow; reused: boolean }> {
  const outcome = (await sql.begin(async (txn) => {
    const tx = txn as unknown as Sql
    const c = await oauth.lockConnection(tx, connectionId)
    if (!c || c.status === 'revoked') throw new AppError('NOT_FOUND')
    if (c.status === 'active') {
      if (c.consumer_id !== consumerId) throw new AppError('NOT_FOUND')
      return { connection: c, reused: true }
    }
    const account = await accounts.findConsumer(tx, consumerId)
    if (!account) throw new AppError('NOT_FOUND')
    // Checked under the row lock: a newer token cannot change the claims between check and link.
    const refusal = bindingRefusal(c, account.email)
    if (refusal) return { refused: refusal, connection: c }
    const minted = await mintKeyIn(
      tx,
      consumerId,
      { scopes: OAUTH_KEY_SCOPES, label: `OAuth connection: ${c.issuer}`, source: 'oauth' },
      by,
    )
    await oauth.activate(tx, c.id, consumerId, minted.key.id)
    await appendAudit(tx, {
      consumerId,
      actor: by.actor,
      action: 'oauth_connection_approved',
      correlationId: by.correlationId,
      details: { connection_id: c.id, issuer: c.issuer, key_id: minted.key.id },
    })
    return { connection: (await oauth.findConnection(tx, c.id))!, reused: false }
  })) as
    | { connection: oauth.OAuthConnectionRow; reused: boolean }
    | { refused: BindingRefusal; connection: oauth.OAuthConnectionRow }
  if ('refused' in outcome) {
    const c = outcome.connection
    await appendAudit(sql, {
      consumerId,
      actor: by.actor,
      action: 'oauth_connection_refused',
      correlationId: by.correlationId,
      details: {
        connection_id: c.id,
        issuer: c.issuer,
        subject: c.subject,
        client_id: c.token_client_id,
        reason: outcome.refused,
      },
    })
    throw new AppError('OAUTH_IDENTITY_MISMATCH', {
      details: [{ field: 'connection', message: BINDING_REFUSAL_TEXT[outcome.refused].en }],
    })
  }
  return outcome
}

/** Disconnect: the mapping and its key are revoked together. */
export async function disconnect(
  sql: Sql,
  connectionId: string,
  consumerId: string,
  by: { actor: string; correlationId: string },
): Promise<void> {
  await sql.begin(async (txn) => {
    const tx = txn as unknown as Sql
    const c = await oauth.lockConnection(tx, connectionId)
    if (!c || c.status !== 'active' || c.consumer_id !== consumerId) throw new AppError('NOT_FOUND')
    await oauth.revokeConnection(tx, c.id)
    await accounts.revokeKey(tx, c.key_id!, consumerId)
    await appendAudit(tx, {
      consumerId,
      actor: by.actor,
      action: 'oauth_connection_revoked',
      correlationId: by.correlationId,
      details: { connection_id: c.id, key_id: c.key_id, reason: 'disconnected' },
    })
  })
}
