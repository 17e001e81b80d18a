/**
 * The daily accounts diff (domain/changes/accounts-diff.ts). It ticks every hour and each tick
 * observes the covered companies not yet observed today (UTC): the first tick of a day does the
 * day's work, later ticks find nothing left — or resume a run that died, from where its last
 * committed batch left off. An operator's run (POST /api/v1/admin/jobs/accounts-diff/run) observes
 * every company again, whenever it was observed.
 */
import { runAccountsDiff, type DiffResult } from '../src/domain/changes/accounts-diff.ts'
import type { JobDeps } from './runner.ts'

const DAY_MS = 86_400_000

function startOfUtcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS)
}

export async function runDailyAccountsDiff(deps: JobDeps, opts: { manual?: boolean } = {}): Promise<DiffResult> {
  if (!deps.accountsRegister) throw new Error('the accounts diff needs the accounts register')
  const now = deps.clock.now()
  const result = await runAccountsDiff({ ...deps, accounts: deps.accountsRegister }, opts.manual ? now : startOfUtcDay(now))
  if (result.observed + result.failed > 0) deps.logger.info('accounts diff', { ...result })
  return result
}
