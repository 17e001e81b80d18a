/**
 * Key confirmation and refusal, for every surface: where a key is found no longer live and what
 * the caller hears then (ARCHITECTURE.md, "Key confirmation").
 *
 * A key resolved from this process's cache (domain/access/key-cache.ts) is unconfirmed
 * (`confirmed: false`) until the request's first write — its rate-limit count or its charge —
 * found it live in the same statement (sql `key_is_live`). Then the request's principal is
 * replaced by the confirmed value (`confirm`); it is never changed in place.
 * - The write found it no longer live (`KeyNotLive`): `lookAgain` forgets it and asks afresh;
 *   the caller hears the fresh answer (AUTH_INVALID_KEY, AUTH_CONSUMER_INACTIVE, or the key with
 *   its new plan), audited as every refused credential is.
 * - The request failed before any write confirmed it (bad input to a metered call, an unknown
 *   tool): `settle` turns the failure into the key's refusal when the key is no longer live, so a
 *   revoked key is never told apart by a 400 or a 402. This is the one place that happens.
 */
import { AppError } from '../errors/app-error.ts'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import { keyStatusById, refusalOf } from '../domain/access/keys.ts'
import type { KeyPrincipal, Principal } from '../domain/access/types.ts'
import type { AppDeps, RequestState } from './context.ts'

/** Codes worth an audit row: a credential was presented and refused. */
export const AUDITED: readonly ErrorCode[] = [
  'AUTH_INVALID_KEY',
  'AUTH_CONSUMER_INACTIVE',
  'SCOPE_INSUFFICIENT',
  'PLAN_INSUFFICIENT',
]

/** A key principal this process resolved from its cache and no write has confirmed yet. */
export function unconfirmedKey(p: Principal): p is KeyPrincipal {
  return p.kind === 'key' && !p.confirmed
}

/** The request's first write found its key live: from now on the request's principal is confirmed. */
export function confirm(state: RequestState): void {
  const p = state.principal
  if (unconfirmedKey(p)) state.principal = { ...p, confirmed: true }
}

/**
 * A refused credential is audited — boundedly (domain/access/refusals.ts): the answer is the
 * refusal, or 429 once the address has had too many refused this minute.
 */
export async function refusal(
  deps: AppDeps,
  state: RequestState,
  operation: string | null,
  principal: Principal | null,
  e: AppError,
): Promise<AppError> {
  const over = await deps.refusals.record(
    deps.sql,
    {
      ip: state.ip,
      errorCode: e.code,
      actor: principal?.kind === 'key' ? `key:${principal.keyId}` : 'anonymous',
      operation,
      consumerId: principal && 'consumerId' in principal ? principal.consumerId : null,
      correlationId: state.correlationId,
    },
    deps.clock.now(),
  )
  return over ?? e
}

/** An AppError the audit keeps (AUDITED), audited; anything else as it is. */
export async function audited(
  e: unknown,
  state: RequestState,
  deps: AppDeps,
  principal: Principal | null = null,
): Promise<unknown> {
  return e instanceof AppError && AUDITED.includes(e.code) ? refusal(deps, state, state.operationId, principal, e) : e
}

/**
 * The request's key changed since it was resolved (a write found it not live with the plan it was
 * resolved with): forgotten here, looked up afresh. The live key becomes the request's principal
 * (confirmed, perhaps with a new plan); a key that is no longer live is refused, audited.
 */
export async function lookAgain(state: RequestState, deps: AppDeps): Promise<KeyPrincipal> {
  const p = state.principal as KeyPrincipal
  deps.keyCache.forget(p.keyId)
  const found = await keyStatusById(deps.sql, p.keyId)
  if (found.status === 'live') {
    state.principal = found.principal
    return found.principal
  }
  throw await refusal(deps, state, state.operationId, null, refusalOf(found.status))
}

/**
 * What a request that failed with `e` answers: `e`, unless its key was never confirmed and a fresh
 * lookup finds it no longer live — then that refusal (audited), as a fresh lookup at the start
 * would have answered. A lookup that fails leaves `e`.
 */
export async function settle(e: unknown, state: RequestState, deps: AppDeps): Promise<unknown> {
  const p = state.principal
  if (!unconfirmedKey(p)) return e
  let found: Awaited<ReturnType<typeof keyStatusById>>
  try {
    found = await keyStatusById(deps.sql, p.keyId)
  } catch {
    return e
  }
  if (found.status === 'live') {
    state.principal = found.principal
    return e
  }
  deps.keyCache.forget(p.keyId)
  const refused = refusalOf(found.status)
  return refusal(deps, state, state.operationId, null, refused).catch(() => refused)
}
