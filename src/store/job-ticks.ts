/**
 * Claims of scheduled-job ticks (sql/0010_job_ticks.sql). A tick is claimed by inserting its
 * (job, tick) row: the primary key lets exactly one insert land however many instances try at
 * once — on PostgreSQL a concurrent second insert waits for the first to commit and then does
 * nothing; on the embedded database the single connection runs them one after the other.
 */
import type { Sql } from './db.ts'

/** Whether this instance won the tick: true for exactly one caller per (job, tick). `manual`: an operator's run. */
export async function claimTick(
  sql: Sql,
  job: string,
  tick: Date,
  instance: string,
  at: Date,
  manual = false,
): Promise<boolean> {
  const rows = await sql`
    insert into job_ticks (job, tick, claimed_by, claimed_at, manual) values (${job}, ${tick}, ${instance}, ${at}, ${manual})
    on conflict (job, tick) do nothing
    returning 1`
  return rows.length === 1
}

export interface TickRow {
  tick: string
  claimed_by: string
  claimed_at: string
  finished_at: string | null
  error: string | null
  manual: boolean
}

/** The job's newest ticks first (those kept: a day's worth). */
export async function lastTicks(sql: Sql, job: string, limit: number): Promise<TickRow[]> {
  const rows = await sql<
    {
      tick: Date
      claimed_by: string
      claimed_at: Date
      finished_at: Date | null
      error: string | null
      manual: boolean
    }[]
  >`
    select tick, claimed_by, claimed_at, finished_at, error, manual from job_ticks where job = ${job} order by tick desc limit ${limit}`
  return rows.map((r) => ({
    ...r,
    tick: r.tick.toISOString(),
    claimed_at: r.claimed_at.toISOString(),
    finished_at: r.finished_at?.toISOString() ?? null,
  }))
}

/** Records the end of a claimed run (`error` null when it succeeded). */
export async function finishTick(
  sql: Sql,
  job: string,
  tick: Date,
  instance: string,
  at: Date,
  error: string | null,
): Promise<void> {
  await sql`update job_ticks set finished_at = ${at}, error = ${error} where job = ${job} and tick = ${tick} and claimed_by = ${instance}`
}

/** Deletes the job's ticks before `before`, finished or not. Returns how many. */
export async function sweepTicks(sql: Sql, job: string, before: Date): Promise<number> {
  return (await sql`delete from job_ticks where job = ${job} and tick < ${before} returning 1`).length
}
