/**
 * The sandbox at the edge, before routing: open CORS (so a browser page can rehearse), and the
 * public mirror's protections that must answer before any work is done — load shedding and loop
 * detection, both with the spec's short body.
 *
 * - SANDBOX_TEMPORARILY_UNAVAILABLE (503): more public-mirror requests in flight in this process
 *   than PUBLIC_SANDBOX_MAX_INFLIGHT (default 64), or the operator switched the mirror off
 *   (PUBLIC_SANDBOX_DISABLED=1). `Retry-After: 5`.
 * - AGENT_LOOP_DETECTED (429): one client address sent the identical request (method, URL and
 *   body length) more than PUBLIC_SANDBOX_LOOP_LIMIT times (default 20) within 60 seconds — what
 *   an agent stuck retrying the same call looks like. `Retry-After` is the rest of the window.
 */
import { AppError } from '../errors/app-error.ts'
import { SANDBOX_PREFIX } from '../pipeline/sandbox.ts'

export const PUBLIC_BODY_LIMIT_BYTES = 32 * 1024

/** Exposed: the headers the sandbox actually sends (limits.ts names the rate-limit pair `ratelimit-policy` and `ratelimit`). */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-correlation-id, retry-after, idempotent-replayed, ratelimit-policy, ratelimit',
} as const

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, idempotency-key, x-approval-token, x-service-simulate, x-correlation-id',
  'access-control-max-age': '86400',
}

export const isSandboxPath = (path: string) => path === SANDBOX_PREFIX || path.startsWith(`${SANDBOX_PREFIX}/`)

export function preflight(): Response {
  return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS })
}

export interface PublicGuardOptions {
  maxInflight: number
  loopLimit: number
  disabled: boolean
}

/** In-process by design: shedding protects this process, and a loop is one client hammering one instance. */
export class PublicSandboxGuard {
  private inflight = 0
  private window = 0
  private readonly seen = new Map<string, number>()

  constructor(private readonly opts: PublicGuardOptions) {}

  /** Throws the short-body error, or admits the request; `release` must follow an admitted one. */
  admit(request: Request, ip: string, now: Date): void {
    if (this.opts.disabled || this.inflight >= this.opts.maxInflight) {
      throw new AppError('SANDBOX_TEMPORARILY_UNAVAILABLE', { headers: { 'retry-after': '5' } })
    }
    const minute = Math.floor(now.getTime() / 60_000)
    if (minute !== this.window) {
      this.window = minute
      this.seen.clear()
    }
    const signature = `${ip} ${request.method} ${request.url} ${request.headers.get('content-length') ?? ''}`
    const n = (this.seen.get(signature) ?? 0) + 1
    this.seen.set(signature, n)
    if (n > this.opts.loopLimit) {
      throw new AppError('AGENT_LOOP_DETECTED', {
        headers: { 'retry-after': String(60 - (Math.floor(now.getTime() / 1000) % 60)) },
      })
    }
    this.inflight += 1
  }

  release(): void {
    this.inflight -= 1
  }
}
