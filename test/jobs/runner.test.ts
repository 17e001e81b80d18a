/**
 * jobs/runner.ts: each tick of a scheduled job runs once across instances. The ticks are driven
 * directly through runTick (what croner's callback calls) on pinned clocks; no test waits for a
 * timer. Two "instances" are two runners, the second on a pool of its own on PostgreSQL
 * (test/helpers.ts secondInstanceSql). The jobs here only count their runs and have names of
 * their own per test, except the last test, which runs the real expiry sweep.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
  cronPattern,
  JOBS,
  jobRunner,
  TICK_RETENTION_MS,
  tickOf,
  type JobDeps,
  type JobRunner,
  type ScheduledJob,
} from '../../jobs/runner.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import type { Sql } from '../../src/store/db.ts'
import { claimTick } from '../../src/store/job-ticks.ts'
import type { BusinessRegister } from '../../src/upstream/business-register/port.ts'
import { PINNED_NOW, secondInstanceSql, testDatabase } from '../helpers.ts'

const NOW = new Date(PINNED_NOW) // 2026-03-14T09:30:00.000Z, on a minute
const MINUTE = 60_000
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs)
const logs: string[] = []
const logger = createLogger('debug', (line) => logs.push(line))
/** the counting jobs never read the register */
const noRegister = {} as BusinessRegister

let sql: Sql
let second: Awaited<ReturnType<typeof secondInstanceSql>>
beforeAll(async () => {
  sql = (await testDatabase()).sql
  second = await secondInstanceSql()
})
afterAll(async () => {
  await second.close()
})

/** One job under a name of its own, counting which instance ran which tick. */
function countingJob(opts: { everyMinutes?: number; fail?: boolean } = {}) {
  const name = `test-${crypto.randomUUID()}`
  const runs: { instance: string; at: string }[] = []
  const runnerOn = (db: Sql, instance: string, clock = fixedClock(PINNED_NOW)): JobRunner => {
    const job: ScheduledJob = {
      everyMinutes: opts.everyMinutes ?? 1,
      run: async (deps) => {
        runs.push({ instance, at: deps.clock.now().toISOString() })
        if (opts.fail) throw new Error('the job failed')
        return 'done'
      },
    }
    const deps: JobDeps = { sql: db, clock, logger, register: noRegister }
    return jobRunner(deps, { jobs: { [name]: job }, instance })
  }
  return { name, runs, runnerOn }
}

async function tickRows(job: string) {
  return [
    ...(await sql<
      { tick: Date; claimed_by: string; claimed_at: Date; finished_at: Date | null; error: string | null }[]
    >`
      select tick, claimed_by, claimed_at, finished_at, error from job_ticks where job = ${job} order by tick`),
  ]
}

test('two instances racing for the same tick run the job exactly once, every time', async () => {
  const job = countingJob()
  const [a, b] = [job.runnerOn(sql, 'a'), job.runnerOn(second.sql, 'b')]
  for (let i = 0; i < 50; i++) {
    const outcomes = await Promise.all([a.runTick(job.name, at(i * MINUTE)), b.runTick(job.name, at(i * MINUTE))])
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1)
  }
  expect(job.runs).toHaveLength(50)
  expect(await tickRows(job.name)).toHaveLength(50)
})

test('instances whose clocks fire a few milliseconds apart claim the same tick', async () => {
  const job = countingJob({ everyMinutes: 5 })
  const early = fixedClock(at(3).toISOString())
  const late = fixedClock(at(1_250).toISOString())
  const [a, b] = [job.runnerOn(sql, 'a', early), job.runnerOn(second.sql, 'b', late)]
  const outcomes = await Promise.all([a.runTick(job.name, early.now()), b.runTick(job.name, late.now())])
  expect(outcomes.map((o) => o.tick.toISOString())).toEqual([PINNED_NOW, PINNED_NOW])
  expect(job.runs).toHaveLength(1)
})

test('a tick is the instant truncated to the job’s period', () => {
  expect(tickOf({ everyMinutes: 1, run: async () => {} }, new Date('2026-03-14T09:31:59.999Z')).toISOString()).toBe(
    '2026-03-14T09:31:00.000Z',
  )
  expect(tickOf({ everyMinutes: 5, run: async () => {} }, new Date('2026-03-14T09:34:59.999Z')).toISOString()).toBe(
    '2026-03-14T09:30:00.000Z',
  )
  expect(tickOf({ everyMinutes: 5, run: async () => {} }, new Date('2026-03-14T09:35:00.000Z')).toISOString()).toBe(
    '2026-03-14T09:35:00.000Z',
  )
})

test('a tick already run is not run again, and the next tick runs', async () => {
  const job = countingJob()
  const runner = job.runnerOn(sql, 'a')
  expect((await runner.runTick(job.name, at(0))).ran).toBe(true)
  expect((await runner.runTick(job.name, at(30_000))).ran).toBe(false)
  expect((await runner.runTick(job.name, at(MINUTE))).ran).toBe(true)
  expect(job.runs).toHaveLength(2)
})

test('a tick claimed by an instance that died mid-run is not run again', async () => {
  const job = countingJob()
  expect(await claimTick(sql, job.name, NOW, 'dead', NOW)).toBe(true) // …and never finished
  expect((await job.runnerOn(second.sql, 'b').runTick(job.name, NOW)).ran).toBe(false)
  expect(job.runs).toEqual([])
})

test('a tick claimed by an instance that died mid-run does not block the next tick', async () => {
  const job = countingJob()
  await claimTick(sql, job.name, NOW, 'dead', NOW)
  const outcome = await job.runnerOn(second.sql, 'b').runTick(job.name, at(MINUTE))
  expect(outcome).toEqual({ tick: at(MINUTE), ran: true, result: 'done' })
  expect((await tickRows(job.name)).map((r) => [r.claimed_by, r.finished_at === null])).toEqual([
    ['dead', true],
    ['b', false],
  ])
})

test('a run records which instance ran the tick, when it claimed it and when it finished', async () => {
  const job = countingJob()
  const clock = fixedClock(at(2_000).toISOString())
  await job.runnerOn(sql, 'a', clock).runTick(job.name, clock.now())
  expect(await tickRows(job.name)).toEqual([
    { tick: NOW, claimed_by: 'a', claimed_at: at(2_000), finished_at: at(2_000), error: null },
  ])
})

test('a failed run throws, is recorded with its error, and the next tick runs', async () => {
  const job = countingJob({ fail: true })
  const runner = job.runnerOn(sql, 'a')
  await expect(runner.runTick(job.name, NOW)).rejects.toThrow('the job failed')
  const [row] = await tickRows(job.name)
  expect(row).toMatchObject({ finished_at: NOW, error: 'Error: the job failed' })
  await expect(runner.runTick(job.name, at(MINUTE))).rejects.toThrow('the job failed')
  expect(job.runs).toHaveLength(2)
})

test('a run deletes its job’s ticks older than a day and keeps the day’s', async () => {
  const job = countingJob()
  const old = at(-TICK_RETENTION_MS - MINUTE)
  const recent = at(-TICK_RETENTION_MS + MINUTE)
  await claimTick(sql, job.name, old, 'dead', old)
  await claimTick(sql, job.name, recent, 'a', recent)
  await job.runnerOn(sql, 'a').runTick(job.name, NOW)
  expect((await tickRows(job.name)).map((r) => r.tick)).toEqual([recent, NOW])
})

test('an unknown job name is refused', async () => {
  await expect(countingJob().runnerOn(sql, 'a').runTick('no-such-job', NOW)).rejects.toThrow(
    'no scheduled job named no-such-job',
  )
})

test('the expiry sweep runs every minute, the register update feed every five, the daily and monthly jobs hourly', () => {
  expect(Object.fromEntries(Object.entries(JOBS).map(([name, job]) => [name, cronPattern(job)]))).toEqual({
    'expiry-sweep': '* * * * *',
    'register-updates': '*/5 * * * *',
    'accounts-diff': '0 * * * *',
    anchor: '0 * * * *',
    'ledger-close': '0 * * * *',
    'ledger-check': '0 * * * *',
  })
})

test('a period that does not divide the hour is refused', () => {
  expect(() => cronPattern({ everyMinutes: 7, run: async () => {} })).toThrow('everyMinutes must divide 60')
})

test('the expiry-sweep tick runs the expiry sweep', async () => {
  const clock = fixedClock(PINNED_NOW)
  const outcome = await jobRunner({ sql, clock, logger, register: noRegister }).runTick('expiry-sweep', clock.now())
  expect(outcome.ran).toBe(true)
  expect(outcome.ran && outcome.result).toMatchObject({
    refunded_holds: expect.any(Number),
    expired_topups: expect.any(Number),
    rate_limit_windows: expect.any(Number),
  })
})
