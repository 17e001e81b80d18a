/**
 * Claims of scheduled-job ticks (sql/0010_job_ticks.sql). A tick is claimed by inserting its
 * (job, tick) row: the primary key lets exactly one insert land however many instances try at
 * once — on PostgreSQL a concurrent second insert waits for the first to commit and then does
 * nothing; on the embedded database the single connection runs them one after the other.
 */
import type { Sql } from './db.ts'

/** Whether this instance won the tick: true for exactly one caller per (job, tick). */
export async function claimTick(sql: Sql, job: string, tick: Date, instance: string, at: Date): Promise<boolean> {
  const rows = await sql`
    insert into job_ticks (job, tick, claimed_by, claimed_at) values (${job}, ${tick}, ${instance}, ${at})
    on conflict (job, tick) do nothing
    returning 1`
  return rows.length === 1
}

/** Records the end of a claimed run (`error` null when it succeeded). */
export async function finishTick(sql: Sql, job: string, tick: Date, instance: string, at: Date, error: string | null): Promise<void> {
  await sql`update job_ticks set finished_at = ${at}, error = ${error} where job = ${job} and tick = ${tick} and claimed_by = ${instance}`
}

/** Deletes the job's ticks before `before`, finished or not. Returns how many. */
export async function sweepTicks(sql: Sql, job: string, before: Date): Promise<number> {
  return (await sql`delete from job_ticks where job = ${job} and tick < ${before} returning 1`).length
}
