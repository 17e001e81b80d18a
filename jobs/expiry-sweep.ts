/**
 * Every minute: refund credit holds left by calls that never finished (a process killed
 * mid-call), expire top-up requests older than 24 hours, turn the refused-credential tallies of
 * finished hours into audit rows, and delete expired rate-limit windows, idempotency records,
 * links, sessions and outbox mail. Each statement is idempotent, so several instances may run it
 * at once.
 */
import { HOLD_TIMEOUT_MS } from '../src/domain/billing/metering.ts'
import { flushRefusals } from '../src/domain/access/refusals.ts'
import type { Clock } from '../src/lib/clock.ts'
import type { Logger } from '../src/lib/log.ts'
import { expireTopups, refundStaleHolds } from '../src/store/credits.ts'
import type { Sql } from '../src/store/db.ts'
import { sweepExpired } from '../src/store/sweeps.ts'

export async function runExpirySweep(deps: { sql: Sql; clock: Clock; logger: Logger }): Promise<Record<string, number>> {
  const now = deps.clock.now()
  const result = {
    refunded_holds: await refundStaleHolds(deps.sql, new Date(now.getTime() - HOLD_TIMEOUT_MS)),
    expired_topups: await expireTopups(deps.sql, now),
    refusal_tallies: await flushRefusals(deps.sql, now),
    ...(await sweepExpired(deps.sql, now)),
  }
  if (Object.values(result).some((n) => n > 0)) deps.logger.info('expiry sweep', result)
  return result
}
