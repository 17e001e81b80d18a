/**
 * Refused credentials (a bad, unknown or revoked key; an inactive account; a missing scope or
 * plan) are audited — boundedly, so a flood of bogus bearers can neither write an unbounded
 * number of append-only audit rows nor make the service look up keys without end:
 *
 * - Budget: REFUSALS_PER_MINUTE refusals a minute per client address, counted in the database
 *   (across instances). An address that has spent it hears 429 RATE_LIMIT_EXCEEDED with
 *   Retry-After on any request presenting a credential until the minute ends — decided in the
 *   instance, before any lookup. A refusal that arrives over budget anyway (requests already in
 *   flight, or counted by another instance) is answered the same 429, and still counted.
 * - Aggregation: the first refusal of a kind (address, error code, actor, operation) in an hour
 *   gets its audit row at once (`details.count` 1); the rest of that hour's are counted in
 *   refusal_tallies and the expiry sweep appends one row with their count (`details.count` n,
 *   `repeated: true`) when the hour is over. Summing `details.count` gives every refusal.
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import { flushRefusalTallies, tallyRefusal, type Refusal } from '../../store/refusals.ts'
import { windowStart } from './limits.ts'

/** Refused credentials a minute per client address before the address is refused outright. */
export const REFUSALS_PER_MINUTE = 20
/** How long repeats of one refusal are counted into one audit row. */
const TALLY_MS = 3_600_000
const MINUTE_MS = 60_000

function overBudget(now: Date): AppError {
  const resetS = Math.max(1, Math.ceil((windowStart(now, 'minute').getTime() + MINUTE_MS - now.getTime()) / 1000))
  return new AppError('RATE_LIMIT_EXCEEDED', {
    headers: { 'retry-after': String(resetS) },
    extra: {
      limit: REFUSALS_PER_MINUTE,
      window: 'minute',
      retry_after_seconds: resetS,
      reason: 'too many refused credentials from this address',
    },
  })
}

/**
 * One per app instance (composeDeps): the addresses this instance knows to be over their budget in
 * the current minute. The count itself is in the database; an instance learns an address is over
 * from the first refusal it records past the budget.
 */
export class RefusalBudget {
  private readonly blocked = new Set<string>()
  private minute = 0

  private current(now: Date): void {
    const minute = Math.floor(now.getTime() / MINUTE_MS)
    if (minute !== this.minute) {
      this.minute = minute
      this.blocked.clear()
    }
  }

  /** Throws 429 when the address already spent this minute's refusal budget: no lookup, no database. */
  refuseOverBudget(ip: string, now: Date): void {
    if (this.blocked.size === 0) return
    this.current(now)
    if (this.blocked.has(ip)) throw overBudget(now)
  }

  /**
   * Records a refusal (see above). Returns the error to answer with instead of the refusal — 429
   * when the address is over its budget — or null.
   */
  async record(sql: Sql, r: Omit<Refusal, 'at'>, now: Date): Promise<AppError | null> {
    // An address is a short string; a longer one is cut, never a failed insert.
    const ip = r.ip.slice(0, 64)
    const start = windowStart(now, 'minute')
    const hits = await tallyRefusal(
      sql,
      { ...r, ip, at: now },
      {
        tallyStart: new Date(Math.floor(now.getTime() / TALLY_MS) * TALLY_MS),
        budget: {
          bucket: `ip:${ip}:refusals:minute`,
          start,
          expires: new Date(start.getTime() + MINUTE_MS),
          max: REFUSALS_PER_MINUTE,
        },
      },
    )
    if (hits < REFUSALS_PER_MINUTE) return null
    this.current(now)
    this.blocked.add(r.ip)
    return hits > REFUSALS_PER_MINUTE ? overBudget(now) : null
  }
}

/** The sweep: tallies of hours that are over become audit rows. */
export function flushRefusals(sql: Sql, now: Date): Promise<number> {
  return flushRefusalTallies(sql, new Date(Math.floor(now.getTime() / TALLY_MS) * TALLY_MS), TALLY_MS / 1000)
}
