/**
 * How every upstream call is made (ARCHITECTURE.md, `upstream/`): a timeout per attempt, at most three attempts with
 * jittered exponential backoff inside an overall budget, `Retry-After` honoured when it fits the
 * budget, and a circuit breaker per upstream system that fails fast for ~30 s after repeated
 * failures. Only transient outcomes are retried: network errors, timeouts, 408, 429 and 5xx.
 */
import { AppError } from '../errors/app-error.ts'
import type { Clock } from '../lib/clock.ts'

export interface UpstreamPolicy {
  /** per attempt */
  timeoutMs: number
  /** total attempts, 1–3 */
  attempts: number
  /** first backoff; doubled per retry, ±20 % jitter */
  backoffMs: number
  /** everything, waits included; 8 s on execution paths */
  budgetMs: number
  /** consecutive failed calls that open the breaker */
  breakerThreshold: number
  breakerOpenMs: number
}

export const READ_POLICY: UpstreamPolicy = {
  timeoutMs: 3000,
  attempts: 3,
  backoffMs: 200,
  budgetMs: 8000,
  breakerThreshold: 5,
  breakerOpenMs: 30_000,
}

export interface UpstreamResponse {
  status: number
  headers: Headers
  text: string
  /** attempts made, for logs and tests */
  attempts: number
}

/** After the open period calls go through again; the first failure then re-opens at once. */
type Breaker = { failures: number; openUntil: number }

/** `half_open`: the open period is over, and the next call is the probe that closes or re-opens it. */
export type BreakerState = 'closed' | 'open' | 'half_open'

/** Why a call gave up: the breaker was open, every attempt failed, or the time budget ran out. */
export type GaveUpReason = 'circuit' | 'attempts' | 'budget'

/**
 * The error a call that gave up throws: the usual catalogued code (UPSTREAM_UNAVAILABLE,
 * UPSTREAM_TIMEOUT, GOVERNMENT_RATE_LIMITED), plus why it stopped, for callers that must answer
 * differently when their own budget ran out than when the upstream kept failing (the execute path).
 */
export class UpstreamGaveUp extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    options: ConstructorParameters<typeof AppError>[1],
    readonly reason: GaveUpReason,
    readonly attempts: number,
  ) {
    super(code, options)
  }
}

/** A call's own limits, tighter than the client's policy: what is left of a caller's budget, or one attempt for a write that must not be repeated blindly. */
export interface CallLimits {
  budgetMs?: number
  attempts?: number
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504])

export class UpstreamClient {
  private breaker: Breaker = { failures: 0, openUntil: 0 }

  constructor(
    /** the system's name in errors and logs, e.g. "Enhetsregisteret" */
    readonly system: string,
    private readonly policy: UpstreamPolicy,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => Bun.sleep(ms),
  ) {}

  /** Whether calls are currently refused without trying (open, and not yet time for a probe). */
  get open(): boolean {
    return this.clock.now().getTime() < this.breaker.openUntil
  }

  get state(): BreakerState {
    if (this.breaker.openUntil === 0) return 'closed'
    return this.open ? 'open' : 'half_open'
  }

  /**
   * Any HTTP status the upstream answers is returned (callers decide what a 404 or 410 means);
   * transient failures are retried, and when they persist the call fails with
   * UPSTREAM_TIMEOUT or UPSTREAM_UNAVAILABLE (an UpstreamGaveUp saying why it stopped).
   */
  async request(url: string, init: RequestInit = {}, limits: CallLimits = {}): Promise<UpstreamResponse> {
    if (!this.observer) return this.send(url, init, limits)
    const t0 = performance.now()
    const seconds = () => (performance.now() - t0) / 1000
    try {
      const res = await this.send(url, init, limits)
      this.observer(res.status < 400 ? 'ok' : `http_${Math.floor(res.status / 100)}xx`, seconds())
      return res
    } catch (e) {
      this.observer(e instanceof UpstreamGaveUp ? e.reason : 'error', seconds())
      throw e
    }
  }

  /** Told of every call's outcome (ok, http_4xx, http_5xx, or why it gave up) and duration: the metrics (pipeline/metrics.ts). */
  observer: ((outcome: string, seconds: number) => void) | null = null

  private async send(url: string, init: RequestInit, limits: CallLimits): Promise<UpstreamResponse> {
    const started = this.clock.now().getTime()
    const context = { upstream_system: this.system }
    if (this.open) {
      const wait = Math.ceil((this.breaker.openUntil - started) / 1000)
      throw new UpstreamGaveUp(
        'UPSTREAM_UNAVAILABLE',
        {
          context,
          headers: { 'retry-after': String(Math.max(1, wait)) },
          extra: { upstream_system: this.system, circuit: 'open' },
        },
        'circuit',
        0,
      )
    }
    const budgetMs = Math.min(this.policy.budgetMs, limits.budgetMs ?? Infinity)
    const attempts = Math.min(this.policy.attempts, limits.attempts ?? Infinity)
    let lastError: AppError | null = null
    let made = 0
    let outOfTime = false
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const elapsed = this.clock.now().getTime() - started
      const timeout = Math.min(this.policy.timeoutMs, budgetMs - elapsed)
      if (timeout <= 0) {
        outOfTime = true
        break
      }
      made = attempt
      let retryAfterMs: number | null = null
      try {
        const res = await this.fetchImpl(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeout) })
        const text = await res.text()
        if (!RETRYABLE_STATUS.has(res.status)) {
          this.succeeded()
          return { status: res.status, headers: res.headers, text, attempts: attempt }
        }
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.clock.now())
        lastError = new AppError(res.status === 429 ? 'GOVERNMENT_RATE_LIMITED' : 'UPSTREAM_UNAVAILABLE', {
          context,
          extra: { upstream_system: this.system, upstream_status: res.status },
        })
      } catch (e) {
        const timedOut = e instanceof DOMException && (e.name === 'TimeoutError' || e.name === 'AbortError')
        // Timed out on the budget's remainder rather than on the upstream's own timeout.
        if (timedOut && timeout < this.policy.timeoutMs) outOfTime = true
        lastError = new AppError(timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE', {
          context,
          cause: e,
          extra: { upstream_system: this.system },
        })
      }
      if (attempt === attempts) break
      const backoff = this.policy.backoffMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4)
      const wait = Math.max(backoff, retryAfterMs ?? 0)
      // A wait that would leave no time for another attempt is not worth making.
      if (this.clock.now().getTime() - started + wait >= budgetMs) {
        outOfTime = true
        break
      }
      await this.sleep(wait)
    }
    // A call whose budget was spent before it could try at all says nothing about the upstream.
    if (made > 0) this.failed()
    if (this.clock.now().getTime() - started >= budgetMs) outOfTime = true
    const code = lastError?.code ?? 'UPSTREAM_TIMEOUT'
    const options = lastError?.options ?? { context, extra: { upstream_system: this.system } }
    throw new UpstreamGaveUp(code, options, outOfTime ? 'budget' : 'attempts', made)
  }

  private succeeded(): void {
    this.breaker = { failures: 0, openUntil: 0 }
  }

  private failed(): void {
    const failures = this.breaker.failures + 1
    // A failed probe after an open period re-opens at once; otherwise after the threshold.
    const open = failures >= this.policy.breakerThreshold || this.breaker.openUntil > 0
    this.breaker = { failures, openUntil: open ? this.clock.now().getTime() + this.policy.breakerOpenMs : 0 }
  }
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}
