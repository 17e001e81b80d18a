/** The warm-up queue of portfolio companies' register data (sql/0030_register_warmups.sql). */
import type { Sql } from './db.ts'

export interface WarmupRow {
  org_number: string
  attempts: number
  last_error_code: string | null
  warmed_at: Date | null
}

/** Queues the numbers not queued yet, due at once. */
export async function queueWarmups(sql: Sql, orgNumbers: string[], now: Date): Promise<void> {
  if (orgNumbers.length === 0) return
  await sql`
    insert into register_warmups (org_number, next_at)
    select o, ${now} from unnest(${orgNumbers}::text[]) as o
    on conflict (org_number) do nothing`
}

/**
 * Makes these numbers due now (queued if they were not), unless their last attempt failed: a number
 * whose cached answer went away early (purged by the register's update feed, or a 410) is not left
 * waiting for its next planned refresh.
 */
export async function hurryWarmups(sql: Sql, orgNumbers: string[], now: Date): Promise<void> {
  if (orgNumbers.length === 0) return
  await sql`
    insert into register_warmups (org_number, next_at)
    select o, ${now} from unnest(${orgNumbers}::text[]) as o
    on conflict (org_number) do update set next_at = least(register_warmups.next_at, excluded.next_at)
    where register_warmups.last_error_code is null`
}

/**
 * Claims up to `limit` due numbers that some portfolio still holds, moving each one's `next_at` a
 * lease ahead so no other instance claims it meanwhile.
 */
export async function claimDueWarmups(sql: Sql, now: Date, limit: number, leaseMs: number): Promise<WarmupRow[]> {
  return sql<WarmupRow[]>`
    with due as (
      select w.org_number from register_warmups w
      where w.next_at <= ${now}
        and exists (select 1 from portfolio_companies c where c.org_number = w.org_number)
      order by w.next_at, w.org_number
      limit ${limit}
      for update of w skip locked)
    update register_warmups w
    set next_at = ${new Date(now.getTime() + leaseMs)}, attempts = w.attempts + 1, last_attempt_at = ${now}
    from due where w.org_number = due.org_number
    returning w.org_number, w.attempts, w.last_error_code, w.warmed_at`
}

export async function warmupDone(sql: Sql, org: string, now: Date, nextAt: Date): Promise<void> {
  await sql`
    update register_warmups set attempts = 0, last_error_code = null, warmed_at = ${now}, next_at = ${nextAt}
    where org_number = ${org}`
}

export async function warmupFailed(sql: Sql, org: string, code: string, nextAt: Date): Promise<void> {
  await sql`update register_warmups set last_error_code = ${code}, next_at = ${nextAt} where org_number = ${org}`
}

/** Forgets numbers no portfolio holds any more (at most `limit` a call). */
export async function forgetUnheldWarmups(sql: Sql, limit: number): Promise<number> {
  const rows = await sql`
    delete from register_warmups where org_number in (
      select w.org_number from register_warmups w
      where not exists (select 1 from portfolio_companies c where c.org_number = w.org_number)
      limit ${limit})
    returning org_number`
  return rows.length
}

/** The last failure of each of these numbers' warm-ups, where the last attempt failed. */
export async function warmupFailures(sql: Sql, orgNumbers: string[]): Promise<Map<string, string>> {
  if (orgNumbers.length === 0) return new Map()
  const rows = await sql<{ org_number: string; last_error_code: string }[]>`
    select org_number, last_error_code from register_warmups
    where org_number = any(${orgNumbers}::text[]) and last_error_code is not null`
  return new Map(rows.map((r) => [r.org_number, r.last_error_code]))
}
