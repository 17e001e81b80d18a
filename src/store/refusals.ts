/**
 * Refused credentials, counted (sql/0013): one statement counts a refusal against its address's
 * budget and in its kind's tally, and appends the audit row the first refusal of a kind gets;
 * the sweep turns each finished tally into one audit row with its count.
 */
import type { Sql } from './db.ts'

export interface Refusal {
  ip: string
  errorCode: string
  /** `key:<id>` or `anonymous` */
  actor: string
  operation: string | null
  consumerId: string | null
  correlationId: string | null
  at: Date
}

export interface RefusalWindows {
  /** the tally's window (the hour the refusal falls in) */
  tallyStart: Date
  /** the address's budget: a rate-limit window and its ceiling */
  budget: { bucket: string; start: Date; expires: Date; max: number }
}

/**
 * Counts the refusal and, when it is the first of its kind in the window and the address is within
 * its budget, appends its audit row — all in one statement. Returns the address's refusals in the
 * budget window, this one included.
 */
export async function tallyRefusal(sql: Sql, r: Refusal, w: RefusalWindows): Promise<number> {
  const details = { error_code: r.errorCode, operation: r.operation, ip: r.ip, count: 1 }
  const [row] = await sql<{ hits: number }[]>`
    with w as (
      insert into rate_limit_windows (bucket, window_start, hits, expires_at)
      values (${w.budget.bucket}, ${w.budget.start}, 1, ${w.budget.expires})
      on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
      returning hits
    ), t as (
      insert into refusal_tallies (window_start, ip, error_code, actor, operation, consumer_id, refusals, first_audited, first_at, last_at)
      select ${w.tallyStart}, ${r.ip}, ${r.errorCode}, ${r.actor}, ${r.operation ?? ''}, ${r.consumerId}, 1, w.hits <= ${w.budget.max}, ${r.at}, ${r.at} from w
      on conflict (window_start, ip, error_code, actor, operation) do update
        set refusals = refusal_tallies.refusals + 1, last_at = greatest(refusal_tallies.last_at, excluded.last_at)
      returning refusals, first_audited
    ), a as (
      insert into audit_log (consumer_id, actor, action, correlation_id, details)
      select ${r.consumerId}, ${r.actor}, 'authorization_failed', ${r.correlationId}, ${sql.json(details)}
      from t where t.refusals = 1 and t.first_audited
    )
    select hits from w`
  return row!.hits
}

/**
 * Every tally whose window started before `before` becomes one audit row carrying the count of its
 * refusals that have no row of their own (none when there are none), and is deleted — in one
 * statement, so two sweeps running at once never write a count twice. Returns the tallies flushed.
 */
export async function flushRefusalTallies(sql: Sql, before: Date, windowSeconds: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    with done as (
      delete from refusal_tallies where window_start < ${before} returning *
    ), written as (
      insert into audit_log (occurred_at, consumer_id, actor, action, correlation_id, details)
      select last_at, consumer_id, actor, 'authorization_failed', null, jsonb_build_object(
        'error_code', error_code, 'operation', nullif(operation, ''), 'ip', ip,
        'count', refusals - first_audited::int, 'repeated', true,
        'window_start', window_start, 'window_end', window_start + make_interval(secs => ${windowSeconds}),
        'first_at', first_at, 'last_at', last_at)
      from done where refusals - first_audited::int > 0
    )
    select count(*)::int as n from done`
  return row!.n
}
