/** API keys: minting under the three-key cap, revocation, and resolving a bearer to a principal. */
import { AppError } from '../../errors/app-error.ts'
import { displayPrefix, hashSecret, newSecret } from '../../lib/tokens.ts'
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import * as oauth from '../../store/oauth.ts'
import {
  AVAILABLE_SCOPES,
  DEFAULT_SCOPES,
  KEY_PREFIX,
  MAX_ACTIVE_KEYS,
  RESERVED_SCOPE_PREFIXES,
  type KeyPrincipal,
  type Plan,
} from './types.ts'
import type { KeyCache } from './key-cache.ts'

export interface Actor {
  /** audit actor, e.g. `session:<id>`, `admin` */
  actor: string
  correlationId: string | null
}

/** Reserved prefixes are refused with SCOPE_RESERVED; anything else unknown is a validation error. */
export function checkScopes(scopes: string[]): string[] {
  const out = [...new Set(scopes)]
  for (const [i, s] of out.entries()) {
    if (RESERVED_SCOPE_PREFIXES.some((p) => s.startsWith(p)))
      throw new AppError('SCOPE_RESERVED', { context: { scope: s }, extra: { scope: s } })
    if (s !== 'read:*' && !(AVAILABLE_SCOPES as readonly string[]).includes(s)) {
      throw new AppError('VALIDATION_FAILED', {
        details: [
          { field: `scopes.${i}`, message: `is not a scope; use read:* or one of ${AVAILABLE_SCOPES.join(', ')}` },
        ],
      })
    }
  }
  if (out.length === 0)
    throw new AppError('VALIDATION_FAILED', { details: [{ field: 'scopes', message: 'must name at least one scope' }] })
  return out
}

export function keyPrefixFor(plan: Plan, test = false): string {
  if (test) return KEY_PREFIX.test
  return plan === 'free' ? KEY_PREFIX.free : KEY_PREFIX.live
}

export interface MintedKey {
  plaintext_key: string
  key: accounts.KeyRow
}

/**
 * Mints a key for a consumer inside `tx` (the caller's transaction), holding the consumer row lock
 * so two concurrent mints cannot both pass the three-key check.
 */
export async function mintKeyIn(
  tx: Sql,
  consumerId: string,
  opts: {
    scopes?: string[]
    label?: string
    source: 'signup' | 'dashboard' | 'admin' | 'issuance' | 'oauth'
    test?: boolean
  },
  by: Actor,
): Promise<MintedKey> {
  const scopes = checkScopes(opts.scopes ?? DEFAULT_SCOPES)
  const consumer = await accounts.lockConsumer(tx, consumerId)
  if (!consumer) throw new AppError('NOT_FOUND')
  if (!consumer.active) throw new AppError('AUTH_CONSUMER_INACTIVE')
  if ((await accounts.countActiveKeys(tx, consumerId)) >= MAX_ACTIVE_KEYS) {
    throw new AppError('MAX_KEYS_REACHED', { extra: { max_active_keys: MAX_ACTIVE_KEYS } })
  }
  const test = opts.test === true
  const prefix = keyPrefixFor(consumer.tier, test)
  const plaintext = newSecret(prefix)
  const key = await accounts.insertKey(tx, {
    consumerId,
    keyHash: hashSecret(plaintext),
    displayPrefix: displayPrefix(plaintext, prefix),
    label: opts.label ?? `${opts.source} key`,
    scopes,
    source: opts.source,
    test,
  })
  await appendAudit(tx, {
    consumerId,
    actor: by.actor,
    action: 'key_minted',
    correlationId: by.correlationId,
    details: {
      key_id: key.id,
      display_prefix: key.display_prefix,
      source: opts.source,
      scopes: scopes.join(' '),
      test,
    },
  })
  return { plaintext_key: plaintext, key }
}

export function mintKey(
  sql: Sql,
  consumerId: string,
  opts: Parameters<typeof mintKeyIn>[2],
  by: Actor,
): Promise<MintedKey> {
  return sql.begin((tx) => mintKeyIn(tx as unknown as Sql, consumerId, opts, by)) as Promise<MintedKey>
}

/**
 * Revokes a key (irreversible). `consumerId` restricts it to the owner's keys; null is the
 * operator. Another owner's or an unknown id is NOT_FOUND; an already revoked key is reported as such.
 *
 * The key behind an OAuth connection takes its connection with it, in the same transaction: a
 * connection left active on a dead key would answer its host OAUTH_SUBJECT_UNMAPPED with a consent
 * link to that same connection, which can never be approved again. Ended, the host's next token
 * opens a new pending connection, and approving it mints a fresh key (domain/access/oauth.ts).
 */
export async function revokeKey(
  sql: Sql,
  keyId: string,
  consumerId: string | null,
  by: Actor,
): Promise<{ key: accounts.KeyRow; already_revoked: boolean }> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const connection = await oauth.lockActiveConnectionOfKey(t, keyId)
    const revoked = await accounts.revokeKey(t, keyId, consumerId)
    let outcome: { key: accounts.KeyRow; already_revoked: boolean }
    if (revoked) {
      await appendAudit(t, {
        consumerId: revoked.consumer_id,
        actor: by.actor,
        action: 'key_revoked',
        correlationId: by.correlationId,
        details: { key_id: revoked.id, display_prefix: revoked.display_prefix },
      })
      outcome = { key: revoked, already_revoked: false }
    } else {
      const existing = await accounts.findKey(t, keyId)
      if (!existing || (consumerId !== null && existing.consumer_id !== consumerId)) throw new AppError('NOT_FOUND')
      outcome = { key: existing, already_revoked: true }
    }
    if (connection) {
      await oauth.revokeConnection(t, connection.id)
      await appendAudit(t, {
        consumerId: outcome.key.consumer_id,
        actor: by.actor,
        action: 'oauth_connection_revoked',
        correlationId: by.correlationId,
        details: { connection_id: connection.id, key_id: keyId, reason: 'key_revoked' },
      })
    }
    return outcome
  }) as Promise<{ key: accounts.KeyRow; already_revoked: boolean }>
}

/**
 * What a key lookup found (sql/0025_key_status.sql decides it): the principal of a live key, or why
 * there is none. `refusalOf` is the one place a status becomes an answer.
 */
export type KeyStatus =
  | { status: 'live'; principal: KeyPrincipal }
  | { status: 'revoked' | 'consumer_inactive' | 'unknown' }

function statusOf(row: accounts.KeyPrincipalRow | null): KeyStatus {
  if (!row) return { status: 'unknown' }
  if (row.status !== 'live') return { status: row.status }
  return {
    status: 'live',
    principal: {
      kind: 'key',
      keyId: row.key_id,
      consumerId: row.consumer_id,
      scopes: row.scopes,
      plan: row.tier,
      test: row.test,
      confirmed: true,
    },
  }
}

/** The answer to a key that is not live: an unknown or revoked key is told apart from nothing (spec: API key states). */
export function refusalOf(status: Exclude<KeyStatus['status'], 'live'>): AppError {
  return new AppError(status === 'consumer_inactive' ? 'AUTH_CONSUMER_INACTIVE' : 'AUTH_INVALID_KEY')
}

function principalOf(found: KeyStatus): KeyPrincipal {
  if (found.status !== 'live') throw refusalOf(found.status)
  return found.principal
}

/** A key's status, looked up afresh by its id (a cached principal's confirmation after a refusal). */
export async function keyStatusById(sql: Sql, keyId: string): Promise<KeyStatus> {
  return statusOf(await accounts.keyPrincipalById(sql, keyId))
}

/**
 * Resolves `Authorization: Bearer <key>` afresh (confirmed). Every bearer is hashed and looked up —
 * well-formed or not, ours or the sandbox's — so unknown, malformed and revoked keys take the same
 * path and give the same AUTH_INVALID_KEY.
 */
export async function principalForKey(sql: Sql, bearer: string): Promise<KeyPrincipal> {
  return principalOf(statusOf(await accounts.keyPrincipal(sql, hashSecret(bearer))))
}

/**
 * A bearer's principal from this process's cache when it has it (unconfirmed: the request's first
 * write confirms it, see pipeline/key-confirmation.ts), otherwise looked up and cached.
 */
export async function cachedPrincipalForKey(sql: Sql, cache: KeyCache, bearer: string): Promise<KeyPrincipal> {
  const hash = hashSecret(bearer)
  const hit = cache.get(hash)
  if (hit) return hit
  const principal = principalOf(statusOf(await accounts.keyPrincipal(sql, hash)))
  cache.set(hash, principal)
  return principal
}
