/**
 * When a failed delivery is tried again (spec: Events): attempt 1 at once, then about 1 min, 5 min,
 * 15 min, 1 h, 6 h and 24 h after the previous attempt, each delay jittered ±10 %, 7 attempts in all;
 * after the seventh the delivery is abandoned.
 */
export const MAX_ATTEMPTS = 7
/** the delay after attempt n is RETRY_DELAYS_MS[n - 1] */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 3_600_000, 6 * 3_600_000, 24 * 3_600_000] as const
export const JITTER = 0.1

/** When attempt `attempt + 1` is due after attempt `attempt` failed at `at`; null: abandon. `random` in [0, 1). */
export function nextAttemptAt(attempt: number, at: Date, random: () => number = Math.random): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null
  const delay = RETRY_DELAYS_MS[attempt - 1]!
  const jittered = delay * (1 - JITTER + 2 * JITTER * random())
  return new Date(at.getTime() + Math.round(jittered))
}
