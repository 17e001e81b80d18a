/**
 * In-process scheduled jobs (croner). `protect` skips a tick while the previous run is still going;
 * errors are logged, never thrown into the scheduler. `stop()` waits for runs in flight.
 */
import { Cron } from 'croner'
import type { Clock } from '../src/lib/clock.ts'
import type { Logger } from '../src/lib/log.ts'
import type { Sql } from '../src/store/db.ts'
import { runExpirySweep } from './expiry-sweep.ts'
import { runRegisterUpdates } from './register-updates.ts'
import type { BusinessRegister } from '../src/upstream/business-register/port.ts'

export interface JobDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  register: BusinessRegister
}

export function startJobs(deps: JobDeps): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>()
  const job = (name: string, pattern: string, run: () => Promise<unknown>) =>
    new Cron(pattern, { protect: true, name, catch: (e) => deps.logger.error('job failed', { job: name, error: String(e) }) }, async () => {
      const p = run()
      running.add(p)
      try {
        await p
      } finally {
        running.delete(p)
      }
    })
  const jobs = [job('expiry-sweep', '* * * * *', () => runExpirySweep(deps)), job('register-updates', '*/5 * * * *', () => runRegisterUpdates(deps))]
  return {
    async stop() {
      for (const j of jobs) j.stop()
      await Promise.allSettled([...running])
    },
  }
}
