/**
 * src/store/job-ticks.ts on the run's database; a second instance claims through a pool of its
 * own on PostgreSQL (test/helpers.ts secondInstanceSql). Each test uses job names of its own.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Sql } from '../../src/store/db.ts'
import { claimTick, finishTick, sweepTicks } from '../../src/store/job-ticks.ts'
import { PINNED_NOW, secondInstanceSql, testDatabase } from '../helpers.ts'

const NOW = new Date(PINNED_NOW)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const jobName = () => `test-${crypto.randomUUID()}`
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs)

let sql: Sql
let second: Awaited<ReturnType<typeof secondInstanceSql>>
beforeAll(async () => {
  sql = (await testDatabase()).sql
  second = await secondInstanceSql()
})
afterAll(async () => {
  await second.close()
})

async function ticksOf(job: string): Promise<string[]> {
  const rows = await sql<{ tick: Date }[]>`select tick from job_ticks where job = ${job} order by tick`
  return rows.map((r) => r.tick.toISOString())
}

test('two instances claiming the same job and tick at once: exactly one wins, every time', async () => {
  const job = jobName()
  for (let i = 0; i < 50; i++) {
    const tick = at(i * MINUTE)
    const won = await Promise.all([claimTick(sql, job, tick, 'a', NOW), claimTick(second.sql, job, tick, 'b', NOW)])
    expect(won.filter(Boolean)).toHaveLength(1)
  }
  expect(await ticksOf(job)).toHaveLength(50)
})

test('finishing a tick records the finish only on the claimant’s row', async () => {
  const job = jobName()
  expect(await claimTick(sql, job, NOW, 'a', NOW)).toBe(true)
  await finishTick(sql, job, NOW, 'b', at(1000), null)
  expect((await sql`select finished_at from job_ticks where job = ${job}`)[0]!.finished_at).toBeNull()
  await finishTick(sql, job, NOW, 'a', at(2000), 'Error: boom')
  const [row] = await sql<
    { finished_at: Date; error: string }[]
  >`select finished_at, error from job_ticks where job = ${job}`
  expect(row).toEqual({ finished_at: at(2000), error: 'Error: boom' })
})

test('sweeping deletes the job’s ticks before the cutoff, finished or not, and no other job’s', async () => {
  const [job, other] = [jobName(), jobName()]
  for (const tick of [at(-26 * HOUR), at(-25 * HOUR), at(-23 * HOUR)]) await claimTick(sql, job, tick, 'a', tick)
  await finishTick(sql, job, at(-26 * HOUR), 'a', at(-26 * HOUR), null)
  await claimTick(sql, other, at(-26 * HOUR), 'a', at(-26 * HOUR))
  expect(await sweepTicks(sql, job, at(-24 * HOUR))).toBe(2)
  expect(await ticksOf(job)).toEqual([at(-23 * HOUR).toISOString()])
  expect(await ticksOf(other)).toEqual([at(-26 * HOUR).toISOString()])
})
