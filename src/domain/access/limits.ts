/**
 * Rate limits as fixed windows counted in PostgreSQL (one upsert per request), so they hold across
 * instances. Category B keys get their plan's per-minute and per-day ceilings; operations declare
 * further limits (per IP, per key, per consumer).
 */
import { AppError } from '../../errors/app-error.ts'
import type { ErrorCode } from '../../errors/catalogue/index.ts'
import type { Sql } from '../../store/db.ts'
import { hit, type LiveKey } from '../../store/rate-limits.ts'
import { KeyNotLive } from './key-cache.ts'
import type { Plan } from './types.ts'

/** Per-day ceilings are our choice (the spec leaves them open); they reset at 00:00 UTC. */
export const PLAN_LIMITS: Record<Plan, { per_minute: number | null; per_day: number | null }> = {
  free: { per_minute: 30, per_day: 1_000 },
  starter: { per_minute: 150, per_day: 20_000 },
  professional: { per_minute: 300, per_day: 100_000 },
  enterprise: { per_minute: null, per_day: null },
}

export type WindowName = 'minute' | 'hour' | 'day'
const WINDOW_MS: Record<WindowName, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }

export interface Limit {
  /** a stable name for the thing counted, e.g. `key:<id>` or `ip:<addr>:signup` */
  bucket: string
  max: number
  window: WindowName
  code: Extract<ErrorCode, 'RATE_LIMIT_EXCEEDED' | 'RATE_LIMITED' | 'FEED_RATE_LIMITED'>
}

export function windowStart(now: Date, window: WindowName): Date {
  const ms = WINDOW_MS[window]
  return new Date(Math.floor(now.getTime() / ms) * ms)
}

/** An unlimited plan is still counted (usage shows it), never refused. */
export function planLimits(bucket: string, plan: Plan): Limit[] {
  const t = PLAN_LIMITS[plan]
  return [
    { bucket, max: t.per_minute ?? Number.POSITIVE_INFINITY, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' },
    { bucket, max: t.per_day ?? Number.POSITIVE_INFINITY, window: 'day', code: 'RATE_LIMIT_EXCEEDED' },
  ]
}

export interface CountedWindow {
  bucket: string
  start: Date
  expires: Date
  max: number | null
}

export function windowsFor(limits: Limit[], now: Date): CountedWindow[] {
  return limits.map((l) => {
    const start = windowStart(now, l.window)
    return {
      bucket: `${l.bucket}:${l.window}`,
      start,
      expires: new Date(start.getTime() + WINDOW_MS[l.window]),
      max: Number.isFinite(l.max) ? l.max : null,
    }
  })
}

/**
 * Judges the counts after this request: the IETF `RateLimit`/`RateLimit-Policy` headers, or a 429
 * (with Retry-After: the longest wait) when any window is over its ceiling.
 */
export function judgeLimits(
  limits: Limit[],
  windows: CountedWindow[],
  counts: number[],
  now: Date,
): Record<string, string> {
  const policy: string[] = []
  const state: string[] = []
  let refused: { limit: Limit; resetS: number } | null = null
  limits.forEach((l, i) => {
    if (!Number.isFinite(l.max)) return
    const resetS = Math.max(1, Math.ceil((windows[i]!.expires.getTime() - now.getTime()) / 1000))
    policy.push(`"${l.window}";q=${l.max};w=${WINDOW_MS[l.window] / 1000}`)
    state.push(`"${l.window}";r=${Math.max(0, l.max - counts[i]!)};t=${resetS}`)
    if (counts[i]! > l.max && (!refused || resetS > refused.resetS)) refused = { limit: l, resetS }
  })
  const headers: Record<string, string> = policy.length
    ? { 'ratelimit-policy': policy.join(', '), ratelimit: state.join(', ') }
    : {}
  if (refused) {
    const r = refused as { limit: Limit; resetS: number }
    throw new AppError(r.limit.code, {
      headers: { ...headers, 'retry-after': String(r.resetS) },
      extra: { limit: r.limit.max, window: r.limit.window, retry_after_seconds: r.resetS },
    })
  }
  return headers
}

/** Counts this request in every window (one upsert) and judges it. */
export async function enforceLimits(
  sql: Sql,
  limits: Limit[],
  now: Date,
  key: LiveKey | null = null,
): Promise<Record<string, string>> {
  if (limits.length === 0 && key === null) return {}
  const windows = windowsFor(limits, now)
  // Rows in bucket order: the same lock order as metered batches (store/credits.ts), so no deadlock.
  const order = windows.map((w, i) => i).sort((a, b) => (windows[a]!.bucket < windows[b]!.bucket ? -1 : 1))
  const counts = await hit(
    sql,
    order.map((i) => windows[i]!),
    key,
  )
  if (counts === null) throw new KeyNotLive()
  const byIndex: number[] = []
  order.forEach((i, k) => (byIndex[i] = counts[k]!))
  return judgeLimits(limits, windows, byIndex, now)
}
