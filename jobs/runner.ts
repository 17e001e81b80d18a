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
 *
 * Daily work (the accounts diff, the anchor, the ledger check) and monthly work (the ledger close)
 * ticks hourly and keeps its own progress in the database, so the day's or month's work is done
 * once and a run that died is resumed by the next tick rather than skipped (jobs/accounts-diff.ts,
 * jobs/anchor.ts, jobs/ledger.ts).
 *
 * An operator's run (`jobControl().runNow`, POST /api/v1/admin/jobs/{name}/run) claims a tick of
 * its own at the instant it is asked for, marked manual, and answers what the run returned.
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
import { runDelegationRefresh } from './delegation-refresh.ts'
import { SWEEP_SECONDS } from '../src/domain/delegation/refresh.ts'
import { runDailyAccountsDiff } from './accounts-diff.ts'
import { runAnchorJob } from './anchor.ts'
import { runWebhookDeliveries } from './webhook-deliveries.ts'
import { runLedgerCheck, runLedgerClose } from './ledger.ts'
import { runRegisterWarmup } from './register-warmup.ts'
import { WARMUP } from '../src/domain/portfolios/warmup.ts'
import type { UnitReads } from '../src/domain/sources.ts'
import { lastTicks } from '../src/store/job-ticks.ts'
import type { JobControl, JobOutcome, JobSummary } from '../src/domain/jobs.ts'
import type { DigitalAgency } from '../src/upstream/digital-agency/port.ts'
import type { ServerKeys } from '../src/lib/server-secret.ts'
import type { BusinessRegister } from '../src/upstream/business-register/port.ts'
import type { AccountsRegister } from '../src/upstream/accounts-register/port.ts'
import type { Mailer } from '../src/upstream/mail/port.ts'
import type { WebhookTransport } from '../src/upstream/webhooks/port.ts'
import type { TargetPolicy } from '../src/domain/webhooks/target.ts'
import type { TimestampAuthority } from '../src/upstream/timestamp-authority/port.ts'
import type { WebhookAttemptOutcome } from '../src/domain/webhooks/sweep.ts'

export interface JobDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  register: BusinessRegister
  /** counts the ticks this instance ran; absent in tests */
  metrics?: { jobRan(job: string, ok: boolean, seconds: number): void; webhookAttempt(outcome: WebhookAttemptOutcome): void }
  /** the delegation refresh asks it about pending requests; absent in tests of other jobs */
  digitalAgency?: DigitalAgency
  serverKeys?: ServerKeys
  /** the accounts diff (and the feed's fast path) ask it; absent in tests of other jobs */
  accountsRegister?: AccountsRegister
  /** where webhooks go and what they may reach; absent in tests of other jobs */
  webhooks?: { transport: WebhookTransport; policy: TargetPolicy }
  /** TSA_URL's authority; null or absent: anchor roots are not timestamped */
  tsa?: TimestampAuthority | null
  /** the register reads through the cache, for the portfolio warm-up; absent in tests of other jobs */
  reads?: UnitReads
}

export interface ScheduledJob {
  /** runs at every multiple of this many minutes (UTC); divides 60 */
  everyMinutes: number
  /** what a run does, for the operator's list */
  description?: string
  /** `manual`: an operator asked for this run (a job may do more then, as the accounts diff does) */
  run(deps: JobDeps, opts?: { manual: boolean }): Promise<unknown>
}

export const JOBS: Record<string, ScheduledJob> = {
  'expiry-sweep': { everyMinutes: 1, run: runExpirySweep, description: 'deletes and refunds what has expired (holds, tokens, sessions, windows)' },
  'register-updates': {
    everyMinutes: 5,
    run: (deps) => runRegisterUpdates({ ...deps, ...(deps.accountsRegister ? { accounts: deps.accountsRegister } : {}) }),
    description: 'reads the register update feed: stale cache out, company changes into the archive, changed filings observed at once',
  },
  'accounts-diff': {
    everyMinutes: 60,
    run: (deps, opts) => runDailyAccountsDiff(deps, { manual: opts?.manual ?? false }),
    description: 'once per UTC day: every covered company’s filing status against the baseline; changes archived and webhooks queued (an operator’s run observes every company again)',
  },
  anchor: { everyMinutes: 60, run: runAnchorJob, description: 'once per UTC day: the Merkle anchor of each complete day; RFC 3161 timestamp with TSA_URL' },
  'ledger-close': {
    everyMinutes: 60,
    run: runLedgerClose,
    description: 'once per Oslo month, an hour after it ends: every consumer’s closing balance (resumed where a run died)',
  },
  'ledger-check': {
    everyMinutes: 60,
    run: (deps, opts) => runLedgerCheck(deps, { manual: opts?.manual ?? false }),
    description: 'once per UTC day: every balance against its last closing plus the rows after it, and one closed month read again (an operator’s run checks again)',
  },
}

/** What the queue jobs need besides the scheduled jobs' dependencies. */
export interface QueueJobDeps extends JobDeps {
  mailer: Mailer
}

export interface QueueJob {
  /** runs at every multiple of this many seconds; divides 60 */
  everySeconds: number
  description?: string
  run(deps: QueueJobDeps): Promise<unknown>
}

export const QUEUE_JOBS: Record<string, QueueJob> = {
  'mail-queue': { everySeconds: 5, run: runMailQueue, description: 'sends queued mail' },
  'webhook-deliveries': { everySeconds: 1, run: runWebhookDeliveries, description: 'sends due webhook attempts, each claimed on its own' },
  'delegation-refresh': {
    everySeconds: SWEEP_SECONDS,
    run: runDelegationRefresh,
    description: 'asks the digital agency about pending delegations: young ones every 5 s, older every minute, round-robin over accounts, each claimed on its own',
  },
  'register-warmup': {
    everySeconds: WARMUP.everySeconds,
    run: runRegisterWarmup,
    description: `reads portfolio companies' register data through the cache in the background, at most ${WARMUP.perRun} organisations a run, each claimed on its own`,
  },
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
  const field = n === 1 ? '*' : n === 60 ? '0' : `*/${n}`
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
  /**
   * Claims the tick `at` falls in and, if this instance won it, runs the job. A failed run throws.
   * `manual`: an operator's run, whose tick is `at` itself.
   */
  runTick(name: string, at: Date, opts?: { manual: boolean }): Promise<TickOutcome>
}

export function jobRunner(deps: JobDeps, opts: { jobs?: Record<string, ScheduledJob>; instance?: string } = {}): JobRunner {
  const jobs = opts.jobs ?? JOBS
  const instance = opts.instance ?? `${hostname()}/${process.pid}/${crypto.randomUUID().slice(0, 8)}`
  return {
    instance,
    async runTick(name, at, opts = { manual: false }) {
      const job = Object.hasOwn(jobs, name) ? jobs[name] : undefined
      if (!job) throw new Error(`no scheduled job named ${name}`)
      const tick = opts.manual ? at : tickOf(job, at)
      if (!(await claimTick(deps.sql, name, tick, instance, deps.clock.now(), opts.manual))) return { tick, ran: false }
      const finish = async (error: string | null) => {
        await finishTick(deps.sql, name, tick, instance, deps.clock.now(), error)
        await sweepTicks(deps.sql, name, new Date(tick.getTime() - TICK_RETENTION_MS))
      }
      let result: unknown
      const t0 = performance.now()
      try {
        result = await job.run(deps, opts)
      } catch (e) {
        deps.metrics?.jobRan(name, false, (performance.now() - t0) / 1000)
        await finish(String(e)).catch((f: unknown) => deps.logger.error('job tick not recorded', { job: name, error: String(f) }))
        throw e
      }
      deps.metrics?.jobRan(name, true, (performance.now() - t0) / 1000)
      await finish(null)
      return { tick, ran: true, result }
    },
  }
}

/** How many of a job's last ticks the operator's list shows. */
const LAST_RUNS = 5

/**
 * The jobs as the operator routes see them: every job with its schedule and last ticks, and a run
 * now — one tick of a scheduled job, claimed like any other (by a runner of its own), or one pass
 * of a queue job.
 */
export function jobControl(deps: QueueJobDeps, opts: { jobs?: Record<string, ScheduledJob>; queueJobs?: Record<string, QueueJob> } = {}): JobControl {
  const jobs = opts.jobs ?? JOBS
  const queueJobs = opts.queueJobs ?? QUEUE_JOBS
  const runner = jobRunner(deps, { jobs, instance: `${hostname()}/${process.pid}/operator` })
  return {
    async list(): Promise<JobSummary[]> {
      const scheduled = await Promise.all(
        Object.entries(jobs).map(async ([name, job]) => ({
          name,
          kind: 'scheduled' as const,
          schedule: cronPattern(job),
          every: `${job.everyMinutes} min`,
          description: job.description ?? null,
          last_runs: await lastTicks(deps.sql, name, LAST_RUNS),
        })),
      )
      const queued = Object.entries(queueJobs).map(([name, job]) => ({
        name,
        kind: 'queue' as const,
        schedule: queueCronPattern(job),
        every: `${job.everySeconds} s`,
        description: job.description ?? null,
        last_runs: [],
      }))
      return [...scheduled, ...queued]
    },
    async runNow(name: string): Promise<JobOutcome | null> {
      const at = deps.clock.now()
      // Own names only: an inherited one (`constructor`, `__proto__`, `toString`) is no job, and 404s.
      const queue = Object.hasOwn(queueJobs, name) ? queueJobs[name] : undefined
      if (!queue && !Object.hasOwn(jobs, name)) return null
      try {
        if (queue) return { job: name, kind: 'queue', tick: null, ran: true, ok: true, result: await queue.run(deps), error: null }
        const out = await runner.runTick(name, at, { manual: true })
        return { job: name, kind: 'scheduled', tick: out.tick.toISOString(), ran: out.ran, ok: true, result: out.ran ? out.result : null, error: null }
      } catch (e) {
        return { job: name, kind: queue ? 'queue' : 'scheduled', tick: queue ? null : at.toISOString(), ran: true, ok: false, result: null, error: String(e) }
      }
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
