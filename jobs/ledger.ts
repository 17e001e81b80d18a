/**
 * The credit ledger over time (domain/billing/ledger.ts), two hourly jobs whose progress is kept
 * in the database. `ledger-close` marks the id sequence and closes every Oslo month that ended
 * more than an hour ago: its first tick after the grace does the month, later ticks find it
 * closed, and a tick that died is resumed from its last batch by the next. `ledger-check` runs the
 * consistency check once per UTC day (the first tick of the day; an operator's run starts the
 * day's check over) and logs every difference it finds as an error.
 */
import { checkLedger, closeDueMonths, type CheckOutcome, type CloseOutcome } from '../src/domain/billing/ledger.ts'
import type { JobDeps } from './runner.ts'

export async function runLedgerClose(deps: JobDeps): Promise<CloseOutcome> {
  const out = await closeDueMonths(deps.sql, deps.clock.now())
  if (out.closed.length) deps.logger.info('ledger months closed', { ...out })
  if (out.waiting) deps.logger.warn('ledger month close waits for a transaction older than its end', { month: out.waiting })
  return out
}

export async function runLedgerCheck(deps: JobDeps, opts: { manual?: boolean } = {}): Promise<CheckOutcome> {
  const out = await checkLedger(deps.sql, deps.clock.now(), { force: opts.manual ?? false })
  if (out.ran && (out.mismatches.length || out.audit_mismatches.length))
    deps.logger.error('credit ledger check found differences', {
      balances: out.mismatches.length,
      closed_month: out.audited_month,
      closed_month_consumers: out.audit_mismatches.length,
    })
  return out
}
