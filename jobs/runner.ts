/**
 * In-process scheduled jobs (croner), each tick run once across every instance sharing the
 * database. `protect` skips a tick while this instance's previous run is still going; errors are
 * logged, never thrown into the scheduler. `stop()` waits for runs in flight.
 *
 * Once per tick: before running, an instance claims the tick by inserting (job, tick) into
 * job_ticks (src/store/job-ticks.ts); the instance whose insert lands runs the job, the others
 * skip it. The tick is the instant the run was due, truncated to the job's period, so instances
 * whose timers fire a few milliseconds (or seconds) apart name the same tick. croner runs on UTC
 * so that its every-N-minutes instants are the instants the truncation gives.
 *
 * Why a row and not an advisory lock: a transaction-scoped lock only excludes runs that overlap —
 * an instance whose timer fires after another has already finished the tick would take the free
 * lock and run the tick again — and it needs a transaction held open for the whole run, which on
 * the embedded database (one connection) would stall the job's own queries behind it. The row is
 * one autocommitted insert, atomic on PostgreSQL and PGlite alike, and holds nothing during the run.
 *
 * An instance that dies mid-run leaves its row without finished_at: that tick is not run again
 * (at most once per tick), and the next tick is a new row, claimed as usual. Nothing is lost by
 * this: both jobs catch up — the expiry sweep deletes and refunds everything that has expired by
 * its run, the register feed is read on from the cursor the last finished page stored. A failed
 * run is recorded with its error and is not retried until the next tick, for the same reason.
 * Each run deletes its job's rows older than a day (TICK_RETENTION_MS).
 *
 * Queue jobs (QUEUE_JOBS) are the exception: they work through a queue whose items are each
 * claimed on their own (FOR UPDATE SKIP LOCKED), so every instance may run them at the same time
 * and they need no tick. They run every few seconds: a sign-in link waits in the mail queue for
 * about five seconds, not a minute.
 */
import { hostname } from 'node:os'
import { Cron } from 'croner'
import type { Clock } from '../src/lib/clock.ts'
import type { Logger } from '../src/lib/log.ts'
import type { Sql } from '../src/store/db.ts'
import { claimTick, finishTick, sweepTicks } from '../src/store/job-ticks.ts'
import { runExpirySweep } from './expiry-sweep.ts'
import { runMailQueue } from './mail-queue.ts'
import { runRegisterUpdates } from './register-updates.ts'
import type { BusinessRegister } from '../src/upstream/business-register/port.ts'
import type { Mailer } from '../src/upstream/mail/port.ts'

export interface JobDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  register: BusinessRegister
}

export interface ScheduledJob {
  /** runs at every multiple of this many minutes (UTC); divides 60 */
  everyMinutes: number
  run(deps: JobDeps): Promise<unknown>
}

export const JOBS: Record<string, ScheduledJob> = {
  'expiry-sweep': { everyMinutes: 1, run: runExpirySweep },
  'register-updates': { everyMinutes: 5, run: runRegisterUpdates },
}

/** What the queue jobs need besides the scheduled jobs' dependencies. */
export interface QueueJobDeps extends JobDeps {
  mailer: Mailer
}

export interface QueueJob {
  /** runs at every multiple of this many seconds; divides 60 */
  everySeconds: number
  run(deps: QueueJobDeps): Promise<unknown>
}

export const QUEUE_JOBS: Record<string, QueueJob> = {
  'mail-queue': { everySeconds: 5, run: runMailQueue },
}

/** How long a tick's row is kept after its tick (for an operator asking what ran when). */
export const TICK_RETENTION_MS = 24 * 3600_000

/** The tick an instant belongs to: the instant truncated to the job's period. */
export function tickOf(job: ScheduledJob, at: Date): Date {
  const period = job.everyMinutes * 60_000
  return new Date(Math.floor(at.getTime() / period) * period)
}

/** croner's pattern for "every `n` units", where `n` must divide 60. */
function every(n: number, unit: 'minutes' | 'seconds', what: string): string {
  if (!Number.isInteger(n) || n < 1 || 60 % n !== 0) throw new Error(`${what} must divide 60, not ${n}`)
  const field = n === 1 ? '*' : `*/${n}`
  return unit === 'minutes' ? `${field} * * * *` : `${field} * * * * *`
}

export function cronPattern(job: ScheduledJob): string {
  return every(job.everyMinutes, 'minutes', 'everyMinutes')
}

/** croner's six-field pattern, seconds first. */
export function queueCronPattern(job: QueueJob): string {
  return every(job.everySeconds, 'seconds', 'everySeconds')
}

export type TickOutcome = { tick: Date } & ({ ran: false } | { ran: true; result: unknown })

export interface JobRunner {
  /** names this instance in job_ticks.claimed_by */
  instance: string
  /** Claims the tick `at` falls in and, if this instance won it, runs the job. A failed run throws. */
  runTick(name: string, at: Date): Promise<TickOutcome>
}

export function jobRunner(deps: JobDeps, opts: { jobs?: Record<string, ScheduledJob>; instance?: string } = {}): JobRunner {
  const jobs = opts.jobs ?? JOBS
  const instance = opts.instance ?? `${hostname()}/${process.pid}/${crypto.randomUUID().slice(0, 8)}`
  return {
    instance,
    async runTick(name, at) {
      const job = jobs[name]
      if (!job) throw new Error(`no scheduled job named ${name}`)
      const tick = tickOf(job, at)
      if (!(await claimTick(deps.sql, name, tick, instance, deps.clock.now()))) return { tick, ran: false }
      const finish = async (error: string | null) => {
        await finishTick(deps.sql, name, tick, instance, deps.clock.now(), error)
        await sweepTicks(deps.sql, name, new Date(tick.getTime() - TICK_RETENTION_MS))
      }
      let result: unknown
      try {
        result = await job.run(deps)
      } catch (e) {
        await finish(String(e)).catch((f: unknown) => deps.logger.error('job tick not recorded', { job: name, error: String(f) }))
        throw e
      }
      await finish(null)
      return { tick, ran: true, result }
    },
  }
}

export function startJobs(
  deps: QueueJobDeps,
  opts: { jobs?: Record<string, ScheduledJob>; queueJobs?: Record<string, QueueJob> } = {},
): { runner: JobRunner; stop(): Promise<void> } {
  const runner = jobRunner(deps, opts)
  const running = new Set<Promise<unknown>>()
  const cron = (name: string, pattern: string, run: () => Promise<unknown>) =>
    new Cron(pattern, { protect: true, timezone: 'UTC', catch: (e) => deps.logger.error('job failed', { job: name, error: String(e) }) }, async () => {
      const p = run()
      running.add(p)
      try {
        await p
      } finally {
        running.delete(p)
      }
    })
  const crons = [
    ...Object.entries(opts.jobs ?? JOBS).map(([name, job]) => cron(name, cronPattern(job), () => runner.runTick(name, deps.clock.now()))),
    ...Object.entries(opts.queueJobs ?? QUEUE_JOBS).map(([name, job]) => cron(name, queueCronPattern(job), () => job.run(deps))),
  ]
  return {
    runner,
    async stop() {
      for (const c of crons) c.stop()
      await Promise.allSettled([...running])
    },
  }
}
