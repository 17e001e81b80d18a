/**
 * The background warm-up of portfolio companies' register data (issue 30, Scale). A portfolio's
 * merged deadlines read the register cache alone (domain/sources.ts `cachedOnly`), so adding 1 000
 * clients never becomes a burst of 1 000 upstream calls in one request; instead each number a
 * portfolio holds is queued (store/register-warmups.ts) and this sweep reads a few at a time
 * through the cache, as any company read would: at most `WARMUP.perRun` organisations a run, two at
 * a time, every `WARMUP.everySeconds` seconds on each instance (so at most 5 organisations a second
 * an instance, each one to three register calls: the unit, and a sub-unit's parent). A company
 * read is fetched again before its cached answer stops being fresh, so a portfolio read keeps
 * being answered from fresh data; a failure is retried later, sooner at first.
 */
import { AppError } from '../../errors/app-error.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import type { Sql } from '../../store/db.ts'
import { claimDueWarmups, forgetUnheldWarmups, warmupDone, warmupFailed } from '../../store/register-warmups.ts'
import { resolveOrg } from '../company/register.ts'
import { FRESHNESS, type UnitReads } from '../sources.ts'

export const WARMUP = {
  everySeconds: 2,
  perRun: 10,
  concurrency: 2,
  /** how long a claimed number is someone's before another instance may claim it again */
  leaseMs: 60_000,
  /** how long before its cached answer stops being fresh a warmed number is read again */
  refreshAheadMs: 10 * 60_000,
  /** the longest wait after a failure */
  maxBackoffMs: 30 * 60_000,
} as const

export interface WarmupDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  reads: UnitReads
}

export interface WarmupOutcome {
  claimed: number
  warmed: number
  failed: number
  forgotten: number
}

/** One run: the due numbers read through the cache, each outcome recorded for the next run and for portfolio reads. */
export async function warmRegister(d: WarmupDeps): Promise<WarmupOutcome> {
  const now = d.clock.now()
  const forgotten = await forgetUnheldWarmups(d.sql, 100)
  const due = await claimDueWarmups(d.sql, now, WARMUP.perRun, WARMUP.leaseMs)
  let warmed = 0
  let failed = 0
  let next = 0
  const worker = async () => {
    for (let i = next++; i < due.length; i = next++) {
      const row = due[i]!
      const at = d.clock.now()
      const backoff = new Date(
        at.getTime() + Math.min(60_000 * 2 ** Math.max(0, row.attempts - 1), WARMUP.maxBackoffMs),
      )
      try {
        const r = await resolveOrg(d.reads, row.org_number)
        const sources = r.kind === 'entity' ? r.entity.sources : r.sources
        if (sources.some((s) => s.stale)) {
          // the register failed and an older answer was served: ask again soon
          failed++
          await warmupFailed(d.sql, row.org_number, 'REGISTER_DOWN', backoff)
        } else {
          warmed++
          await warmupDone(
            d.sql,
            row.org_number,
            at,
            new Date(at.getTime() + FRESHNESS.unit.fresh - WARMUP.refreshAheadMs),
          )
        }
      } catch (e) {
        failed++
        const code = e instanceof AppError ? e.code : 'INTERNAL_ERROR'
        if (!(e instanceof AppError))
          d.logger.error('register warm-up failed', { org_number: row.org_number, error: String(e) })
        await warmupFailed(d.sql, row.org_number, code, backoff)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(WARMUP.concurrency, due.length) }, worker))
  return { claimed: due.length, warmed, failed, forgotten }
}
