/**
 * Admission, the pipeline's first step (pipeline/run.ts runs it for every call on every surface):
 * credential → scope and plan → CSRF → rate limits, decided before the input is validated. Each
 * step is declared by the operation's registry entry. How a key from the cache is confirmed, and
 * refused when it is no longer live, is pipeline/key-confirmation.ts.
 */
import { AppError } from '../errors/app-error.ts'
import { safeEqual } from '../lib/hash.ts'
import { KeyNotLive } from '../domain/access/key-cache.ts'
import { cachedPrincipalForKey, principalForKey } from '../domain/access/keys.ts'
import { looksLikeJwt, principalForToken } from '../domain/access/oauth.ts'
import { enforceLimits, planLimits, type Limit } from '../domain/access/limits.ts'
import { sessionPrincipal } from '../domain/access/signin.ts'
import { feedOfToken } from '../domain/portfolios/feeds.ts'
import { feedById } from '../store/portfolio-feeds.ts'
import { SANDBOX_BEARER_PREFIX, scopeGranted, planAtLeast, type Principal } from '../domain/access/types.ts'
import type { Operation } from '../operations/index.ts'
import { sandboxPrincipal } from './sandbox.ts'
import type { AppDeps, RequestState } from './context.ts'
import type { Credentials } from './credentials.ts'
import { audited, confirm, lookAgain, unconfirmedKey } from './key-confirmation.ts'

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
      if (!deps.config.metricsToken || !safeEqual(bearer, deps.config.metricsToken))
        throw new AppError('AUTH_INVALID_KEY')
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
    case 'feed':
      return feedPrincipal(deps, creds.feedToken ?? null)
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

/**
 * The owner a calendar feed's token stands for (domain/portfolios/feeds.ts): a token that opens no
 * feed — made up, or revoked — is 404 NOT_FOUND, the same answer either way.
 */
async function feedPrincipal(deps: AppDeps, token: string | null): Promise<Principal> {
  const feed = token ? await feedOfToken(deps.sql, token) : null
  if (!feed) throw new AppError('NOT_FOUND')
  return {
    kind: 'feed',
    feedId: feed.feed_id,
    portfolioId: feed.portfolio_id,
    consumerId: feed.consumer_id,
    plan: feed.tier,
  }
}

/** The feed's principal looked up again by its id (its owner's plan changed since it was resolved). */
export async function feedAgain(state: RequestState, deps: AppDeps): Promise<Extract<Principal, { kind: 'feed' }>> {
  const p = state.principal as Extract<Principal, { kind: 'feed' }>
  const feed = await feedById(deps.sql, p.feedId)
  if (!feed) throw new AppError('NOT_FOUND')
  const fresh = { ...p, consumerId: feed.consumer_id, plan: feed.tier }
  state.principal = fresh
  return fresh
}

export function authorise(op: Operation, p: Principal): void {
  // A feed's owner needs the plan its portfolio needs (a downgraded owner's calendar stops).
  if (p.kind === 'feed' && op.planMinimum && !planAtLeast(p.plan, op.planMinimum))
    throw new AppError('PLAN_INSUFFICIENT', { extra: { required_tier: op.planMinimum, tier: p.plan } })
  if (p.kind !== 'key') return
  if (op.scope && !scopeGranted(p.scopes, op.scope))
    throw new AppError('SCOPE_INSUFFICIENT', { context: { scope: op.scope }, extra: { required_scope: op.scope } })
  if (op.planMinimum && !planAtLeast(p.plan, op.planMinimum))
    throw new AppError('PLAN_INSUFFICIENT', { extra: { required_tier: op.planMinimum, tier: p.plan } })
}

/** The browser session of a page route (its registry entry already demanded one). */
export function sessionOf(p: Principal): Extract<Principal, { kind: 'session' }> {
  if (p.kind !== 'session') throw new AppError('AUTH_SESSION_REQUIRED')
  return p
}

/** The audit actor of a browser session's change. */
export function sessionActor(
  s: Extract<Principal, { kind: 'session' }>,
  state: RequestState,
): { actor: string; correlationId: string } {
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
    throw new AppError('VALIDATION_FAILED', {
      details: [{ field: 'csrf_token', message: 'is missing or does not belong to this session' }],
    })
  }
}

export function limitsFor(op: Operation, p: Principal, ip: string): Limit[] {
  const out: Limit[] = p.kind === 'key' ? planLimits(`key:${p.keyId}`, p.plan) : []
  for (const l of op.limits) {
    const who =
      l.per === 'ip'
        ? `ip:${ip}`
        : l.per === 'key' && p.kind === 'key'
          ? `key:${p.keyId}`
          : l.per === 'feed' && p.kind === 'feed'
            ? `feed:${p.feedId}`
            : 'consumerId' in p
              ? `consumer:${p.consumerId}`
              : `ip:${ip}`
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
 * discovery, with or without limits of their own, the sandbox (a key there is optional and
 * changes nothing but the namespace) and a calendar feed (its token is looked up per request) —
 * unless it limits itself (MCP counts each keyless message) or is a health probe.
 */
export function softLimited(op: Operation): boolean {
  return !op.selfLimited && !op.probe && (op.auth === 'none' || op.auth === 'sandbox' || op.auth === 'feed')
}

/** A request that may lead to a credential lookup: a route that reads one, and one presented. */
function presentsCredential(op: Operation, creds: Credentials): boolean {
  return op.auth !== 'none' && (creds.bearer !== null || creds.sessionToken !== null)
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
    if (deps.oauthVerifier && looksLikeJwt(bearer))
      await principalForToken(deps.sql, deps.oauthVerifier, bearer, deps.config.baseUrl)
    else await principalForKey(deps.sql, bearer)
  } catch (e) {
    throw await audited(e, state, deps)
  }
}

/**
 * Who is calling, as the surface knows it: REST reads the credentials of each request; MCP
 * resolved the credential of its HTTP request once (one request may carry several calls).
 */
export type Caller = { credentials: Credentials; body: unknown } | { principal: Principal }

/**
 * Admission of one call, whatever the surface: the credential (a presented one checked even where
 * none is needed), scope and plan (`authorise`; a cached key refused there is asked about afresh
 * first), CSRF for a session's writes, then every limit the operation declares with the key's plan
 * limits (`limitsFor`) and the surface's own budgets (MCP's keyless and sandbox calls an hour) —
 * counted now, unless the call is metered: its charge counts them in the same statement
 * (pipeline/metering.ts). Refused credentials are audited.
 */
export async function admitCall(
  op: Operation,
  caller: Caller,
  state: RequestState,
  deps: AppDeps,
  budgets: readonly Limit[] = [],
): Promise<void> {
  if ('credentials' in caller) {
    const creds = caller.credentials
    if (op.auth === 'none' && creds.bearer !== null) await checkPresentedCredential(creds.bearer, state, deps)
    // An address with too many refused credentials this minute is refused before any lookup.
    if (presentsCredential(op, creds)) deps.refusals.refuseOverBudget(state.ip, deps.clock.now())
    try {
      state.principal = await authenticate(op, creds, deps)
    } catch (e) {
      throw await audited(e, state, deps)
    }
  } else {
    state.principal = caller.principal
  }
  if ('consumerId' in state.principal) state.consumerId = state.principal.consumerId
  await authorised(op, state, deps)
  if ('credentials' in caller) checkCsrf(op, state.principal, caller.credentials, caller.body)
  await count(op, state, deps, budgets)
}

/** Scope and plan; a key from the cache is refused only after a fresh lookup, so a revoked key hears AUTH_INVALID_KEY. */
async function authorised(op: Operation, state: RequestState, deps: AppDeps): Promise<void> {
  try {
    authorise(op, state.principal)
  } catch (e) {
    if (!unconfirmedKey(state.principal)) throw await audited(e, state, deps, state.principal)
    await lookAgain(state, deps)
    return authorised(op, state, deps)
  }
}

/**
 * Every message of a keyed MCP request that is not a `tools/call` (`initialize`, `ping`,
 * `tools/list` …) counts once against the key's plan limits, as a REST request does: the work of
 * answering it is ours whatever it is. (Each `tools/call` is counted by its own `admitCall`.)
 */
export async function admitMessages(
  count: number,
  principal: Principal,
  state: RequestState,
  deps: AppDeps,
): Promise<void> {
  if (principal.kind !== 'key' || count === 0) return
  const limits = planLimits(`key:${principal.keyId}`, principal.plan)
  const now = deps.clock.now()
  let headers: Record<string, string> = {}
  for (let i = 0; i < count; i++) headers = await enforceLimits(deps.sql, limits, now)
  if (Object.keys(headers).length) state.extraHeaders = { ...state.extraHeaders, ...headers }
}

/**
 * The call's limits, counted in one statement that also confirms a key from the cache (the count
 * happens only while it is live with its plan). A metered call's are counted with its charge, in
 * one statement (pipeline/metering.ts): the metered path's one write. A test key is never charged,
 * so its calls are counted here like free ones.
 */
async function count(op: Operation, state: RequestState, deps: AppDeps, budgets: readonly Limit[]): Promise<void> {
  const p = state.principal
  const charged = op.costOre > 0 && ((p.kind === 'key' && !p.test) || p.kind === 'feed')
  const limits = charged ? [...budgets] : [...budgets, ...limitsFor(op, p, state.ip)]
  const key = !charged && unconfirmedKey(p) ? p : null
  let headers: Record<string, string>
  try {
    headers = await enforceLimits(deps.sql, limits, deps.clock.now(), key)
  } catch (e) {
    if (key && e instanceof KeyNotLive) {
      // The cached key changed (revoked, deactivated, re-planned): hear what it is now, nothing counted.
      await lookAgain(state, deps)
      await authorised(op, state, deps)
      return count(op, state, deps, budgets)
    }
    // A 429 comes after the count, so after the key was confirmed.
    if (key && e instanceof AppError) confirm(state)
    throw e
  }
  if (key) confirm(state)
  if (Object.keys(headers).length) state.extraHeaders = { ...state.extraHeaders, ...headers }
}
