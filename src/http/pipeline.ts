/**
 * The request pipeline of DESIGN §5, in order. `admit` runs before Elysia validates the input:
 * credential → scope and tier → rate limits. `execute` runs after validation: idempotency →
 * metering → handler → settle or refund. Each step is declared by the operation's registry entry.
 */
import { AppError } from '../errors/app-error.ts'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import { canonicalJson } from '../lib/canonical-json.ts'
import { safeEqual, sha256Hex } from '../lib/hash.ts'
import { KeyNotLive } from '../domain/access/key-cache.ts'
import { cachedPrincipalForKey, principalForKeyId } from '../domain/access/keys.ts'
import { enforceLimits, judgeLimits, tierLimits, windowsFor, type Limit } from '../domain/access/limits.ts'
import { sessionPrincipal } from '../domain/access/signin.ts'
import { scopeGranted, tierAtLeast, type KeyPrincipal, type Principal } from '../domain/access/types.ts'
import { countAndCharge, LOW_BALANCE_ORE, refund, type Charge } from '../domain/billing/metering.ts'
import { appendAudit } from '../store/audit.ts'
import * as idem from '../store/idempotency.ts'
import type { Operation } from '../operations.ts'
import { sandboxPrincipal } from '../pipeline/sandbox.ts'
import { renderError } from './errors.ts'
import type { AppDeps, RequestState } from '../pipeline/context.ts'

export const SESSION_COOKIE = 'plikt_session'

export function bearerOf(request: Request): string | null {
  const h = request.headers.get('authorization')
  if (h === null) return null
  const m = /^Bearer[ ]+(.+)$/i.exec(h.trim())
  // A header that is present but not a bearer is a bad credential, never "no credential".
  return m ? m[1]!.trim() : ''
}

export function cookieOf(request: Request, name: string): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) {
      // A value that is not valid percent-encoding is no credential of ours: as if it were absent.
      try {
        return decodeURIComponent(part.slice(i + 1).trim())
      } catch {
        return null
      }
    }
  }
  return null
}

/** Codes worth an audit row: a credential was presented and refused. */
const AUDITED: ErrorCode[] = ['AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE', 'SCOPE_INSUFFICIENT', 'PLAN_INSUFFICIENT']

async function authenticate(op: Operation, request: Request, deps: AppDeps): Promise<Principal> {
  const now = deps.clock.now()
  switch (op.auth) {
    case 'none':
      return { kind: 'anonymous' }
    case 'admin': {
      const bearer = bearerOf(request)
      if (bearer === null) throw new AppError('AUTH_MISSING')
      if (!deps.config.adminToken || !safeEqual(bearer, deps.config.adminToken)) throw new AppError('AUTH_INVALID_KEY')
      return { kind: 'admin' }
    }
    case 'key': {
      const bearer = bearerOf(request)
      if (bearer === null) throw new AppError('AUTH_MISSING')
      return cachedPrincipalForKey(deps.sql, deps.keyCache, bearer)
    }
    case 'sandbox':
      return sandboxPrincipal(bearerOf(request), deps.sql)
    case 'session':
    case 'key_or_session': {
      const token = cookieOf(request, SESSION_COOKIE)
      const session = token ? await sessionPrincipal(deps.sql, token, now) : null
      if (session) return session
      const bearer = bearerOf(request)
      if (op.auth === 'key_or_session' && bearer !== null) return cachedPrincipalForKey(deps.sql, deps.keyCache, bearer)
      // Account management needs the browser session; a key is refused here (spec: Credentials).
      throw new AppError('AUTH_MISSING', { extra: { sign_in_url: `${deps.config.baseUrl}/login` } })
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
  if (p.kind !== 'session') throw new AppError('AUTH_MISSING')
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
function checkCsrf(op: Operation, p: Principal, request: Request, body: unknown): void {
  if (p.kind !== 'session' || op.method === 'GET') return
  const field = body !== null && typeof body === 'object' ? (body as { csrf_token?: unknown }).csrf_token : undefined
  const sent = request.headers.get('x-csrf-token') ?? (typeof field === 'string' ? field : null)
  if (!sent || !safeEqual(sent, p.csrfToken)) {
    throw new AppError('VALIDATION_FAILED', { details: [{ field: 'csrf_token', message: 'is missing or does not belong to this session' }] })
  }
}

/**
 * A form post must come from one of our own pages. The CSRF token guards session writes; this
 * also guards the forms that come before a session exists (sign-in, the magic link), where a
 * cross-site form could sign a victim into the attacker's account. Browsers send `Sec-Fetch-Site`
 * or `Origin` with every form post and a page cannot forge either; a client that sends neither is
 * no browser, and so no one's confused deputy.
 */
export function checkSameSite(request: Request, baseUrl: string): void {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) {
    if (site === 'same-origin' || site === 'none') return
  } else {
    const origin = request.headers.get('origin')
    if (origin === null) return
    const host = request.headers.get('host')
    if (origin === new URL(baseUrl).origin || (host !== null && origin !== 'null' && URL.canParse(origin) && new URL(origin).host === host)) return
  }
  throw new AppError('VALIDATION_FAILED', { details: [{ field: 'origin', message: 'is another site: this form is accepted only from our own pages' }], context: { field: 'origin' } })
}

function limitsFor(op: Operation, p: Principal, ip: string): Limit[] {
  const out: Limit[] = p.kind === 'key' ? tierLimits(`key:${p.keyId}`, p.tier) : []
  for (const l of op.limits) {
    const who = l.per === 'ip' ? `ip:${ip}` : l.per === 'key' && p.kind === 'key' ? `key:${p.keyId}` : 'consumerId' in p ? `consumer:${p.consumerId}` : `ip:${ip}`
    out.push({ bucket: `${who}:${l.group ?? op.id}`, max: l.max, window: l.window, code: l.code })
  }
  return out
}

/**
 * Category A and discovery: 1000 requests a minute per IP, counted in this process only — a soft
 * limit by design (spec: Limits), so the public calendar costs no database write per request.
 * Counted in a count-min sketch (two rows of 2^16 counters, two independent string hashes): a
 * Map keyed by tens of thousands of fresh address strings cost ~1.3 µs a request (bench/RESULTS.md);
 * this costs two short hashes. A count is never under the truth, and exceeds it only when an
 * address collides with a busier one in both rows.
 */
const SOFT_LIMIT_PER_MINUTE = 1000
const SKETCH_BITS = 16
const SKETCH_MASK = (1 << SKETCH_BITS) - 1
const sketch = [new Uint32Array(1 << SKETCH_BITS), new Uint32Array(1 << SKETCH_BITS)] as const
let softWindow = 0

/** FNV-1a over UTF-16 code units with two different offset bases: cheap and independent enough here. */
function hash(s: string, basis: number): number {
  let h = basis
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return (h ^ (h >>> SKETCH_BITS)) & SKETCH_MASK
}

export function softLimit(ip: string, now: Date): void {
  const minute = Math.floor(now.getTime() / 60_000)
  if (minute !== softWindow) {
    softWindow = minute
    sketch[0].fill(0)
    sketch[1].fill(0)
  }
  const a = hash(ip, 0x811c9dc5)
  const b = hash(ip, 0x01000193)
  const n = Math.min(++sketch[0][a]!, ++sketch[1][b]!)
  if (n > SOFT_LIMIT_PER_MINUTE) {
    throw new AppError('RATE_LIMIT_EXCEEDED', { headers: { 'retry-after': String(60 - (Math.floor(now.getTime() / 1000) % 60)) } })
  }
}

/** Keyless, with no limits of its own: only the soft per-IP limit applies, decided synchronously. */
export function isPublic(op: Operation): boolean {
  return op.auth === 'none' && op.limits.length === 0
}

function auditRefusal(deps: AppDeps, state: RequestState, operation: string | null, principal: Principal | null, e: AppError): Promise<void> {
  return appendAudit(deps.sql, {
    consumerId: principal && 'consumerId' in principal ? principal.consumerId : null,
    actor: principal?.kind === 'key' ? `key:${principal.keyId}` : 'anonymous',
    action: 'authorization_failed',
    correlationId: state.correlationId,
    details: { error_code: e.code, operation, ip: state.ip },
  })
}

/**
 * Credential and scope/tier, with refusals audited. A key from the cache is refused only after a
 * fresh lookup, so a revoked key hears AUTH_INVALID_KEY — never a refusal that tells it apart.
 */
async function identify(op: Operation, request: Request, state: RequestState, deps: AppDeps): Promise<Principal> {
  let principal: Principal | null = null
  try {
    principal = await authenticate(op, request, deps)
    authorise(op, principal)
    return principal
  } catch (e) {
    if (principal?.kind === 'key' && principal.cached) {
      deps.keyCache.forget(principal.keyId)
      return identify(op, request, state, deps)
    }
    if (e instanceof AppError && AUDITED.includes(e.code)) await auditRefusal(deps, state, op.id, principal, e)
    throw e
  }
}

/** Credential, scope/tier, CSRF and rate limits: everything decided before the input is validated. */
export async function admit(op: Operation, request: Request, body: unknown, state: RequestState, deps: AppDeps): Promise<void> {
  const principal = await identify(op, request, state, deps)
  checkCsrf(op, principal, request, body)
  try {
    await countRequest(op, principal, state, deps)
  } catch (e) {
    if (!(e instanceof KeyNotLive) || principal.kind !== 'key') throw e
    // The cached key changed (revoked, deactivated, re-tiered): hear what it is now. The fresh
    // lookup answers (and audits) any refusal, so this principal is settled.
    principal.cached = false
    deps.keyCache.forget(principal.keyId)
    await countRequest(op, await identify(op, request, state, deps), state, deps)
  }
}

async function countRequest(op: Operation, principal: Principal, state: RequestState, deps: AppDeps): Promise<void> {
  state.principal = principal
  if ('consumerId' in principal) state.consumerId = principal.consumerId
  // A metered call is counted with its charge, in one statement (execute): the metered path's one write.
  if (op.costOre > 0 && principal.kind === 'key') return
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
    await auditRefusal(deps, state, state.operationId, null, e).catch(() => {})
    return e
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const IDEMPOTENCY_TTL_MS = 24 * 3600_000
/** An in-progress claim older than this belongs to a request whose process died. */
const IDEMPOTENCY_STALE_MS = 60_000

function idempotencyScope(p: Principal): string {
  switch (p.kind) {
    case 'key':
      return `key:${p.keyId}`
    case 'session':
      return `consumer:${p.consumerId}`
    case 'admin':
      return 'admin'
    case 'anonymous':
      return 'anonymous'
    case 'sandbox':
      // Never the same string as a production scope (`consumer:…`, `anonymous`).
      return `sandbox:${p.namespace}`
  }
}

function isDryRun(request: Request): boolean {
  return request.url.includes('dry_run=') && new URL(request.url).searchParams.get('dry_run') === 'true'
}

/**
 * Runs the handler behind idempotency and metering. Nothing is charged for a call that fails, and
 * a replayed Idempotency-Key returns the stored answer without running anything again.
 */
export async function execute(
  op: Operation,
  ctx: { request: Request; body: unknown; state: RequestState },
  deps: AppDeps,
  run: () => Promise<Response>,
): Promise<Response> {
  const { request, state } = ctx
  const principal = state.principal
  let claimed: { scope: string; key: string } | null = null
  // A dry run changes nothing, so it never claims the key: "check, then file with the same key" works.
  if (op.idempotency && !isDryRun(request)) {
    const key = request.headers.get('idempotency-key')
    if (key === null) {
      if (op.idempotency === 'required') throw new AppError('IDEMPOTENCY_KEY_REQUIRED')
    } else {
      if (!UUID.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID_FORMAT', { context: { field: 'Idempotency-Key' } })
      const now = deps.clock.now()
      const scope = idempotencyScope(principal)
      // The query is part of the request: `?dry_run=true` and a live call with one key are different requests.
      const url = new URL(request.url)
      url.searchParams.sort()
      const fingerprint = sha256Hex(`${op.id}\n${url.pathname}\n${url.searchParams.toString()}\n${canonicalJson(ctx.body ?? null)}`)
      const existing = await idem.claim(deps.sql, scope, key.toLowerCase(), op.id, fingerprint, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS), new Date(now.getTime() - IDEMPOTENCY_STALE_MS))
      if (existing) {
        if (existing.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_MISMATCH')
        if (existing.state === 'in_progress') throw new AppError('IDEMPOTENCY_IN_PROGRESS', { headers: { 'retry-after': '1' } })
        state.correlationStamped = true
        return new Response(existing.response_body, {
          status: existing.response_status ?? 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true', 'x-correlation-id': state.correlationId },
        })
      }
      claimed = { scope, key: key.toLowerCase() }
    }
  }
  try {
    const response = await metered(op, state, deps, (p) => limitsFor(op, p, state.ip), run, (r) => r.status >= 400)
    if (response.status >= 400) {
      if (claimed) await idem.release(deps.sql, claimed.scope, claimed.key).catch(() => {})
      return response
    }
    if (claimed) await idem.complete(deps.sql, claimed.scope, claimed.key, response.status, await response.clone().text())
    return response
  } catch (e) {
    if (claimed && e instanceof AppError && state.failureIsFinal) {
      // Something irreversible happened (an approval token was spent): a retry with the key hears
      // this answer again instead of a confusing APPROVAL_TOKEN_USED.
      const response = renderError('APP', e, request, deps)
      await idem.complete(deps.sql, claimed.scope, claimed.key, response.status, await response.clone().text())
      return response
    }
    if (claimed) await idem.release(deps.sql, claimed.scope, claimed.key).catch(() => {})
    throw e
  }
}

/**
 * The metering step, the same on every surface (REST and MCP): a keyed call of a priced operation
 * is charged together with confirming its key and counting its limits (one statement), then
 * settled when `run` succeeds, or refunded when it throws or its outcome `failed`. Nothing is
 * charged for a failure.
 */
export async function metered<T>(
  op: Operation,
  state: RequestState,
  deps: AppDeps,
  limitsOf: (p: KeyPrincipal) => Limit[],
  run: () => Promise<T>,
  failed: (out: T) => boolean,
): Promise<T> {
  let principal = state.principal
  if (op.costOre === 0 || principal.kind !== 'key') return run()
  let counted: { charge: Charge; headers: Record<string, string> } | null = null
  for (let attempt = 0; counted === null; attempt++) {
    const limits = limitsOf(principal)
    const now = deps.clock.now()
    const windows = windowsFor(limits, now)
    try {
      counted = await countAndCharge(deps.charger, windows, (counts) => judgeLimits(limits, windows, counts, now), {
        consumerId: principal.consumerId,
        keyId: principal.keyId,
        tier: principal.tier,
        costOre: op.costOre,
        operationId: op.id,
        correlationId: state.correlationId,
        baseUrl: deps.config.baseUrl,
      })
    } catch (e) {
      if (!(e instanceof KeyNotLive)) {
        // 402 and 429 come after the key was confirmed.
        if (e instanceof AppError && e.code !== 'CREDIT_CHECK_UNAVAILABLE') principal.cached = false
        throw e
      }
      if (attempt === 2) throw new AppError('CREDIT_CHECK_UNAVAILABLE', { headers: { 'retry-after': '1' } })
      // The key changed since it was resolved: hear what it is now (a refusal, audited as any
      // refused credential is), or charge with its new tier.
      principal.cached = false
      deps.keyCache.forget(principal.keyId)
      let fresh: KeyPrincipal | null = null
      try {
        fresh = await principalForKeyId(deps.sql, principal.keyId)
        authorise(op, fresh)
      } catch (refusal) {
        if (refusal instanceof AppError && AUDITED.includes(refusal.code)) await auditRefusal(deps, state, op.id, fresh, refusal)
        throw refusal
      }
      principal = fresh
      state.principal = principal
    }
  }
  principal.cached = false
  const { charge, headers } = counted
  state.extraHeaders = { ...state.extraHeaders, ...headers, 'x-credits-balance-ore': String(charge.balanceAfter) }
  if (charge.balanceAfter < LOW_BALANCE_ORE) state.extraHeaders['x-credits-low'] = 'true'
  // The batch's hold is released only once this call's refund is written; a refund that fails
  // leaves the hold, and the sweep refunds the batch.
  const giveBack = (reason: string) =>
    refund(deps.sql, charge, `refund: ${reason}`).then(
      () => deps.settler.finish(charge),
      (err) => deps.logger.error('refund failed; the sweep will refund the batch', { correlation_id: state.correlationId, error: String(err) }),
    )
  let out: T
  try {
    out = await run()
  } catch (e) {
    await giveBack(e instanceof AppError ? e.code : 'failed call')
    throw e
  }
  if (failed(out)) await giveBack('failed call')
  else deps.settler.finish(charge)
  return out
}
