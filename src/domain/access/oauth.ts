/**
 * OAuth 2.1 for MCP hosts: this service is a resource server only. It verifies access tokens an
 * external authorization server minted (ES256 or RS256 only; iss, aud, exp, nbf), against the
 * issuer's key set (cached, refreshed once on an unknown `kid`, fail closed when unreachable), and
 * maps (issuer, sub) to one dedicated API key that the account owner approved at /oauth/consent.
 * The token's scopes establish identity only; permissions are the mapped key's.
 */
import { createRemoteJWKSet, errors as jose, jwtVerify, type JWTPayload } from 'jose'
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import * as oauth from '../../store/oauth.ts'
import { mintKeyIn } from './keys.ts'
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
  const options = { issuer: s.issuer, audience: s.audience, algorithms: ['ES256', 'RS256'], requiredClaims: ['sub', 'exp'] }
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
  if (e instanceof jose.JWTClaimValidationFailed && e.claim === 'aud') return new AppError('OAUTH_AUDIENCE_MISMATCH', { cause: e })
  if (keySetUnavailable(e)) return new AppError('OAUTH_JWKS_UNAVAILABLE', { cause: e, headers: { 'retry-after': '5' } })
  return new AppError('OAUTH_TOKEN_INVALID', { cause: e })
}

/** The principal of a verified token: its connection's key, or OAUTH_SUBJECT_UNMAPPED with where to connect. */
export async function principalForToken(sql: Sql, verify: Verifier, token: string, baseUrl: string): Promise<Extract<Principal, { kind: 'key' }>> {
  const claims = await verify(token)
  const issuer = claims.iss!
  const subject = claims.sub!
  const live = await oauth.liveConnection(sql, issuer, subject)
  if (live?.status === 'active') {
    const key = await accounts.findKey(sql, live.key_id!)
    const consumer = await accounts.findConsumer(sql, live.consumer_id!)
    if (key && !key.revoked_at && consumer) {
      if (!consumer.active) throw new AppError('AUTH_CONSUMER_INACTIVE')
      return { kind: 'key', keyId: key.id, consumerId: consumer.id, scopes: key.scopes, tier: consumer.tier }
    }
  }
  const pending = live?.status === 'pending' ? live : await oauth.ensurePending(sql, issuer, subject)
  throw new AppError('OAUTH_SUBJECT_UNMAPPED', { extra: { consent_url: `${baseUrl}/oauth/consent?connection=${pending.id}` } })
}

/**
 * The owner approves a pending connection: one dedicated key with exactly the OAuth scopes, under
 * the three-key cap (nothing is approved at three keys). Approving an active connection again
 * reuses it.
 */
export async function approveConnection(sql: Sql, connectionId: string, consumerId: string, by: { actor: string; correlationId: string }): Promise<{ connection: oauth.OAuthConnectionRow; reused: boolean }> {
  return sql.begin(async (txn) => {
    const tx = txn as unknown as Sql
    const c = await oauth.lockConnection(tx, connectionId)
    if (!c || c.status === 'revoked') throw new AppError('NOT_FOUND')
    if (c.status === 'active') {
      if (c.consumer_id !== consumerId) throw new AppError('NOT_FOUND')
      return { connection: c, reused: true }
    }
    const minted = await mintKeyIn(tx, consumerId, { scopes: OAUTH_KEY_SCOPES, label: `OAuth connection: ${c.issuer}`, source: 'oauth' }, by)
    await oauth.activate(tx, c.id, consumerId, minted.key.id)
    await appendAudit(tx, { consumerId, actor: by.actor, action: 'oauth_connection_approved', correlationId: by.correlationId, details: { connection_id: c.id, issuer: c.issuer, key_id: minted.key.id } })
    return { connection: (await oauth.findConnection(tx, c.id))!, reused: false }
  }) as Promise<{ connection: oauth.OAuthConnectionRow; reused: boolean }>
}

/** Disconnect: the mapping and its key are revoked together. */
export async function disconnect(sql: Sql, connectionId: string, consumerId: string, by: { actor: string; correlationId: string }): Promise<void> {
  await sql.begin(async (txn) => {
    const tx = txn as unknown as Sql
    const c = await oauth.lockConnection(tx, connectionId)
    if (!c || c.status !== 'active' || c.consumer_id !== consumerId) throw new AppError('NOT_FOUND')
    await oauth.revokeConnection(tx, c.id)
    await accounts.revokeKey(tx, c.key_id!, consumerId)
    await appendAudit(tx, { consumerId, actor: by.actor, action: 'oauth_connection_revoked', correlationId: by.correlationId, details: { connection_id: c.id, key_id: c.key_id } })
  })
}

