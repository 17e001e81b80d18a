/**
 * Admission, the first part of the pipeline of DESIGN §5, the same for every surface: credential →
 * scope and tier → CSRF → rate limits, decided before the input is validated. Then come
 * idempotency (idempotency.ts) and metering (metering.ts) around the handler. Each step is
 * declared by the operation's registry entry.
 */
import { AppError } from '../errors/app-error.ts'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import { safeEqual } from '../lib/hash.ts'
import { KeyNotLive } from '../domain/access/key-cache.ts'
import { cachedPrincipalForKey, principalForKey, principalForKeyId } from '../domain/access/keys.ts'
import { looksLikeJwt, principalForToken } from '../domain/access/oauth.ts'
import { enforceLimits, tierLimits, type Limit } from '../domain/access/limits.ts'
import { sessionPrincipal } from '../domain/access/signin.ts'
import { SANDBOX_BEARER_PREFIX, scopeGranted, tierAtLeast, type Principal } from '../domain/access/types.ts'
import type { Operation } from '../operations/index.ts'
import { sandboxPrincipal } from './sandbox.ts'
import type { AppDeps, RequestState } from './context.ts'
import type { Credentials } from './credentials.ts'

/** Codes worth an audit row: a credential was presented and refused. */
export const AUDITED: ErrorCode[] = ['AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE', 'SCOPE_INSUFFICIENT', 'PLAN_INSUFFICIENT']

async function authenticate(op: Operation, creds: Credentials, deps: AppDeps): Promise<Principal> {
  const now = deps.clock.now()
  switch (op.auth) {
    case 'none':
      return { kind: 'anonymous' }
    case 'admin': {
      const bearer = creds.bearer
      if (bearer === null) throw new AppError('AUTH_MISSING')
      if (!deps.config.adminToken || !safeEqual(bearer, deps.config.adminToken)) throw new AppError('AUTH_INVALID_KEY')
      return { kind: 'admin' }
    }
    case 'metrics': {
      const bearer = creds.bearer
      if (bearer === null) throw new AppError('AUTH_MISSING')
      if (!deps.config.metricsToken || !safeEqual(bearer, deps.config.metricsToken)) throw new AppError('AUTH_INVALID_KEY')
      // A scrape may read the metrics and nothing else: it is nobody.
      return { kind: 'anonymous' }
    }
    case 'key': {
      const bearer = creds.bearer
      if (bearer === null) throw new AppError('AUTH_MISSING')
      return cachedPrincipalForKey(deps.sql, deps.keyCache, bearer)
    }
    case 'sandbox':
      return sandboxPrincipal(creds.bearer, deps.sql)
    case 'session':
    case 'key_or_session': {
      const token = creds.sessionToken
      const session = token ? await sessionPrincipal(deps.sql, token, now) : null
      if (session) return session
      const bearer = creds.bearer
      const signIn = { extra: { sign_in_url: `${deps.config.baseUrl}/login` } }
      if (op.auth === 'key_or_session') {
        if (bearer !== null) return cachedPrincipalForKey(deps.sql, deps.keyCache, bearer)
        throw new AppError('AUTH_MISSING', signIn)
      }
      // Account management needs the browser session and a key is refused here (spec: Credentials),
      // so the answer names what is needed — with a key, without anything, or with an ended session.
      throw new AppError('AUTH_SESSION_REQUIRED', signIn)
    }
  }
}

export function authorise(op: Operation, p: Principal): void {
  if (p.kind !== 'key') return
  if (op.scope && !scopeGranted(p.scopes, op.scope)) throw new AppError('SCOPE_INSUFFICIENT', { context: { scope: op.scope }, extra: { required_scope: op.scope } })
  if (op.tierMinimum && !tierAtLeast(p.tier, op.tierMinimum)) throw new AppError('PLAN_INSUFFICIENT', { extra: { required_tier: op.tierMinimum, tier: p.tier } })
}

/** The browser session of a page route (its registry entry already demanded one). */
export function sessionOf(p: Principal): Extract<Principal, { kind: 'session' }> {
  if (p.kind !== 'session') throw new AppError('AUTH_SESSION_REQUIRED')
  return p
}

/** The audit actor of a browser session's change. */
export function sessionActor(s: Extract<Principal, { kind: 'session' }>, state: RequestState): { actor: string; correlationId: string } {
  return { actor: `session:${s.sessionId}`, correlationId: state.correlationId }
}

/**
 * Every write made with a browser session carries the session's CSRF token, as the form field
 * `csrf_token` or the header `X-CSRF-Token`: checked here, at admission, for every such operation
 * of the registry, so no handler can forget it. A key is no ambient credential and needs none.
 */
function checkCsrf(op: Operation, p: Principal, creds: Credentials, body: unknown): void {
  if (p.kind !== 'session' || op.method === 'GET') return
  const field = body !== null && typeof body === 'object' ? (body as { csrf_token?: unknown }).csrf_token : undefined
  const sent = creds.csrfHeader ?? (typeof field === 'string' ? field : null)
  if (!sent || !safeEqual(sent, p.csrfToken)) {
    throw new AppError('VALIDATION_FAILED', { details: [{ field: 'csrf_token', message: 'is missing or does not belong to this session' }] })
  }
}

export function limitsFor(op: Operation, p: Principal, ip: string): Limit[] {
  const out: Limit[] = p.kind === 'key' ? tierLimits(`key:${p.keyId}`, p.tier) : []
  for (const l of op.limits) {
    const who = l.per === 'ip' ? `ip:${ip}` : l.per === 'key' && p.kind === 'key' ? `key:${p.keyId}` : 'consumerId' in p ? `consumer:${p.consumerId}` : `ip:${ip}`
    out.push({ bucket: `${who}:${l.group ?? op.id}`, max: l.max, window: l.window, code: l.code })
  }
  return out
}

/** Keyless, with no limits of its own: only the soft per-IP limit applies, decided synchronously. */
export function isPublic(op: Operation): boolean {
  return op.auth === 'none' && op.limits.length === 0
}

/**
 * Under the soft per-IP limit: every route a caller may use without a key — Category A and
 * discovery, with or without limits of their own, and the sandbox (a key there is optional and
 * changes nothing but the namespace) — unless it limits itself (MCP counts each keyless message).
 */
export function softLimited(op: Operation): boolean {
  return !op.selfLimited && (op.auth === 'none' || op.auth === 'sandbox')
}

/**
 * A refused credential is audited — boundedly (domain/access/refusals.ts): the answer is the
 * refusal, or 429 once the address has had too many refused this minute.
 */
export async function refusal(deps: AppDeps, state: RequestState, operation: string | null, principal: Principal | null, e: AppError): Promise<AppError> {
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

/** A request that may lead to a credential lookup: a route that reads one, and one presented. */
function presentsCredential(op: Operation, creds: Credentials): boolean {
  return op.auth !== 'none' && (creds.bearer !== null || creds.sessionToken !== null)
}

/**
 * Credential and scope/tier, with refusals audited. A key from the cache is refused only after a
 * fresh lookup, so a revoked key hears AUTH_INVALID_KEY — never a refusal that tells it apart.
 */
async function identify(op: Operation, creds: Credentials, state: RequestState, deps: AppDeps): Promise<Principal> {
  let principal: Principal | null = null
  try {
    principal = await authenticate(op, creds, deps)
    authorise(op, principal)
    return principal
  } catch (e) {
    if (principal?.kind === 'key' && principal.cached) {
      deps.keyCache.forget(principal.keyId)
      return identify(op, creds, state, deps)
    }
    if (e instanceof AppError && AUDITED.includes(e.code)) throw await refusal(deps, state, op.id, principal, e)
    throw e
  }
}

/**
 * A credential presented where none is needed is checked all the same (spec Credentials: "A bad
 * header is never downgraded to keyless"; API key states: a revoked key is "rejected at once on
 * every surface"), as MCP does for its keyless tools: a live key (looked up afresh, never from the
 * cache), a valid OAuth token, the sandbox bearer or the operator's own tokens are served as
 * keyless; anything else is refused — and audited — exactly as on a keyed route.
 */
export async function checkPresentedCredential(bearer: string, state: RequestState, deps: AppDeps): Promise<void> {
  if (bearer.startsWith(SANDBOX_BEARER_PREFIX)) return
  const { adminToken, metricsToken } = deps.config
  if ((adminToken && safeEqual(bearer, adminToken)) || (metricsToken && safeEqual(bearer, metricsToken))) return
  deps.refusals.refuseOverBudget(state.ip, deps.clock.now())
  try {
    if (bearer === '') throw new AppError('AUTH_INVALID_KEY')
    if (deps.oauthVerifier && looksLikeJwt(bearer)) await principalForToken(deps.sql, deps.oauthVerifier, bearer, deps.config.baseUrl)
    else await principalForKey(deps.sql, bearer)
  } catch (e) {
    if (e instanceof AppError && AUDITED.includes(e.code)) throw await refusal(deps, state, state.operationId, null, e)
    throw e
  }
}

/** Credential, scope/tier, CSRF and rate limits: everything decided before the input is validated. */
export async function admit(op: Operation, creds: Credentials, body: unknown, state: RequestState, deps: AppDeps): Promise<void> {
  if (op.auth === 'none' && creds.bearer !== null) await checkPresentedCredential(creds.bearer, state, deps)
  // An address with too many refused credentials this minute is refused before any lookup.
  if (presentsCredential(op, creds)) deps.refusals.refuseOverBudget(state.ip, deps.clock.now())
  const principal = await identify(op, creds, state, deps)
  checkCsrf(op, principal, creds, body)
  try {
    await countRequest(op, principal, state, deps)
  } catch (e) {
    if (!(e instanceof KeyNotLive) || principal.kind !== 'key') throw e
    // The cached key changed (revoked, deactivated, re-tiered): hear what it is now. The fresh
    // lookup answers (and audits) any refusal, so this principal is settled.
    principal.cached = false
    deps.keyCache.forget(principal.keyId)
    await countRequest(op, await identify(op, creds, state, deps), state, deps)
  }
}

/**
 * Admission of one call of an operation once its principal is known, whatever the surface: scope
 * and plan (`authorise`), then every limit the operation declares with the key's plan limits
 * (`limitsFor`), counted now unless the call is metered (its charge counts them in the same
 * statement: pipeline/metering.ts, given `limitsFor` too). REST runs it for each request (with the
 * cached-key handling of `admit`), MCP for each `tools/call`: one rule for both.
 */
export async function admitCall(op: Operation, principal: Principal, state: RequestState, deps: AppDeps): Promise<void> {
  authorise(op, principal)
  if (op.costOre > 0 && principal.kind === 'key' && !principal.test) return
  const headers = await enforceLimits(deps.sql, limitsFor(op, principal, state.ip), deps.clock.now())
  if (Object.keys(headers).length) state.extraHeaders = { ...state.extraHeaders, ...headers }
}

/**
 * Every message of a keyed MCP request that is not a `tools/call` (`initialize`, `ping`,
 * `tools/list` …) counts once against the key's plan limits, as a REST request does: the work of
 * answering it is ours whatever it is. (Each `tools/call` is counted by its own `admitCall`.)
 */
export async function admitMessages(count: number, principal: Principal, state: RequestState, deps: AppDeps): Promise<void> {
  if (principal.kind !== 'key' || count === 0) return
  const limits = tierLimits(`key:${principal.keyId}`, principal.tier)
  const now = deps.clock.now()
  let headers: Record<string, string> = {}
  for (let i = 0; i < count; i++) headers = await enforceLimits(deps.sql, limits, now)
  if (Object.keys(headers).length) state.extraHeaders = { ...state.extraHeaders, ...headers }
}

async function countRequest(op: Operation, principal: Principal, state: RequestState, deps: AppDeps): Promise<void> {
  state.principal = principal
  if ('consumerId' in principal) state.consumerId = principal.consumerId
  // A metered call is counted with its charge, in one statement (execute): the metered path's one write.
  // A test key is never charged, so its calls are counted here like free ones.
  if (op.costOre > 0 && principal.kind === 'key' && !principal.test) return
  const limits = limitsFor(op, principal, state.ip)
  const cached = principal.kind === 'key' && principal.cached ? principal : null
  let headers: Record<string, string>
  try {
    headers = await enforceLimits(deps.sql, limits, deps.clock.now(), cached)
  } catch (e) {
    // A 429 comes after the count, so after the key was confirmed.
    if (cached && e instanceof AppError) cached.cached = false
    throw e
  }
  if (cached) cached.cached = false
  if (Object.keys(headers).length) state.extraHeaders = { ...state.extraHeaders, ...headers }
}

/**
 * The refusal a request gets when it fails before its key was confirmed (a metered call refused
 * on its input, say): a key that is no longer live hears AUTH_INVALID_KEY or
 * AUTH_CONSUMER_INACTIVE instead, exactly as it would have from a fresh lookup.
 */
export async function keyRefusal(state: RequestState, deps: AppDeps): Promise<AppError | null> {
  const p = state.principal
  if (p.kind !== 'key' || !p.cached) return null
  try {
    await principalForKeyId(deps.sql, p.keyId)
    p.cached = false
    return null
  } catch (e) {
    if (!(e instanceof AppError)) return null
    deps.keyCache.forget(p.keyId)
    return AUDITED.includes(e.code) ? await refusal(deps, state, state.operationId, null, e).catch(() => e) : e
  }
}

