/** Prepaid credits: the ledger, the balance kept with it in one statement, holds, and top-up requests. */
import type postgres from 'postgres'
import type { Sql } from './db.ts'

export interface Balance {
  balance_ore: number
  updated_at: Date | null
}

export async function readBalance(sql: Sql, consumerId: string): Promise<Balance> {
  const [row] = await sql<{ balance_ore: string; updated_at: Date }[]>`select balance_ore, updated_at from credit_balances where consumer_id = ${consumerId}`
  return row ? { balance_ore: Number(row.balance_ore), updated_at: row.updated_at } : { balance_ore: 0, updated_at: null }
}

/** Adds credit and its ledger row in one statement; returns the new balance. */
export async function credit(sql: Sql, consumerId: string, amountOre: number, kind: 'topup' | 'admin_credit', reason: string, correlationId: string | null): Promise<{ balance_ore: number; ledger_id: number }> {
  const [row] = await sql<{ balance_ore: string; ledger_id: string }[]>`
    with l as (
      insert into credit_ledger (consumer_id, amount_ore, kind, reason, correlation_id)
      values (${consumerId}, ${amountOre}, ${kind}, ${reason}, ${correlationId})
      returning id
    ), b as (
      insert into credit_balances (consumer_id, balance_ore, updated_at) values (${consumerId}, ${amountOre}, now())
      on conflict (consumer_id) do update set balance_ore = credit_balances.balance_ore + excluded.balance_ore, updated_at = now()
      returning balance_ore
    )
    select (select balance_ore from b) as balance_ore, (select id from l) as ledger_id`
  return { balance_ore: Number(row!.balance_ore), ledger_id: Number(row!.ledger_id) }
}

/**
 * Takes `cost` from the balance if it covers it, writing the debit and a hold in the same statement.
 * Row locking on the balance makes concurrent debits queue; the check constraint keeps it ≥ 0.
 * Returns null when the balance is short.
 */
export async function debitWithHold(sql: Sql, consumerId: string, cost: number, operationId: string, correlationId: string): Promise<{ balance_ore: number; ledger_id: number } | null> {
  const [row] = await sql<{ balance_ore: string | null; ledger_id: string | null }[]>`
    with b as (
      update credit_balances set balance_ore = balance_ore - ${cost}, updated_at = now()
      where consumer_id = ${consumerId} and balance_ore >= ${cost}
      returning balance_ore
    ), l as (
      insert into credit_ledger (consumer_id, amount_ore, kind, reason, operation_id, correlation_id)
      select ${consumerId}, ${-cost}, 'debit', 'metered call', ${operationId}, ${correlationId} from b
      returning id
    ), h as (
      insert into credit_holds (ledger_id, consumer_id) select id, ${consumerId} from l
      returning ledger_id
    )
    select (select balance_ore from b) as balance_ore, (select ledger_id from h) as ledger_id`
  if (!row || row.ledger_id === null) return null
  return { balance_ore: Number(row.balance_ore), ledger_id: Number(row.ledger_id) }
}

/**
 * For a metered call, in one statement (one commit): count the call in its rate-limit windows and,
 * only if every window is within its ceiling, take the price from the balance with a hold.
 * `max` of an unlimited window is null.
 */
export async function countAndDebit(
  sql: Sql,
  windows: { bucket: string; start: Date; expires: Date; max: number | null }[],
  consumerId: string,
  cost: number,
  operationId: string,
  correlationId: string,
): Promise<{ hits: number[]; charged: { balance_ore: number; ledger_id: number } | null }> {
  const rows = windows.map((w) => ({ bucket: w.bucket, window_start: w.start, hits: 1, expires_at: w.expires }))
  // postgres.js's multi-row insert helper; our `Sql` alias narrows its parameter types too far for it.
  const values = (sql as unknown as postgres.Sql)(rows, 'bucket', 'window_start', 'hits', 'expires_at') as never
  const limited = windows.filter((w) => w.max !== null)
  const [row] = await sql<{ hits: number[]; buckets: string[]; balance_ore: string | null; ledger_id: string | null }[]>`
    with w as (
      insert into rate_limit_windows ${values}
      on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
      returning bucket, hits
    ), b as (
      update credit_balances set balance_ore = balance_ore - ${cost}, updated_at = now()
      where consumer_id = ${consumerId} and balance_ore >= ${cost}
        and not exists (
          select 1 from w join unnest(${limited.map((x) => x.bucket)}::text[], ${limited.map((x) => x.max!)}::int[]) as c(bucket, max) using (bucket)
          where w.hits > c.max)
      returning balance_ore
    ), l as (
      insert into credit_ledger (consumer_id, amount_ore, kind, reason, operation_id, correlation_id)
      select ${consumerId}, ${-cost}, 'debit', 'metered call', ${operationId}, ${correlationId} from b
      returning id
    ), h as (
      insert into credit_holds (ledger_id, consumer_id) select id, ${consumerId} from l
      returning ledger_id
    )
    select array(select hits from w order by bucket) as hits, array(select bucket from w order by bucket) as buckets,
           (select balance_ore from b) as balance_ore, (select ledger_id from h) as ledger_id`
  const byBucket = new Map(row!.buckets.map((b, i) => [b, row!.hits[i]!]))
  return {
    hits: windows.map((w) => byBucket.get(w.bucket) ?? 0),
    charged: row!.ledger_id === null ? null : { balance_ore: Number(row!.balance_ore), ledger_id: Number(row!.ledger_id) },
  }
}

/** The calls succeeded: their debits stand. */
export async function settleHolds(sql: Sql, ledgerIds: number[]): Promise<void> {
  await sql`delete from credit_holds where ledger_id = any(${ledgerIds.map(String)}::bigint[])`
}

/**
 * The call failed (or never finished): return the money. Refunds at most once per debit (unique
 * index on `refund_of`), so a retried or racing refund cannot pay twice.
 */
export async function refundHold(sql: Sql, ledgerId: number, reason: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const [held] = await tx<{ consumer_id: string }[]>`delete from credit_holds where ledger_id = ${ledgerId} returning consumer_id`
    if (!held) return false
    const [refund] = await tx<{ amount_ore: string }[]>`
      insert into credit_ledger (consumer_id, amount_ore, kind, reason, operation_id, correlation_id, refund_of)
      select consumer_id, -amount_ore, 'refund', ${reason}, operation_id, correlation_id, id from credit_ledger
      where id = ${ledgerId} and kind = 'debit'
      on conflict (refund_of) where refund_of is not null do nothing
      returning amount_ore`
    if (!refund) return false
    await tx`update credit_balances set balance_ore = balance_ore + ${Number(refund.amount_ore)}, updated_at = now() where consumer_id = ${held.consumer_id}`
    return true
  }) as Promise<boolean>
}

/** Holds older than `before` belong to calls that died: refund them all. Returns how many. */
export async function refundStaleHolds(sql: Sql, before: Date): Promise<number> {
  const stale = await sql<{ ledger_id: string }[]>`select ledger_id from credit_holds where created_at < ${before} order by ledger_id limit 500`
  let n = 0
  for (const { ledger_id } of stale) if (await refundHold(sql, Number(ledger_id), 'refund of a call that did not finish')) n++
  return n
}

export async function ledgerSum(sql: Sql, consumerId: string): Promise<number> {
  const [row] = await sql<{ s: string }[]>`select coalesce(sum(amount_ore), 0)::bigint as s from credit_ledger where consumer_id = ${consumerId}`
  return Number(row!.s)
}

// -- top-up requests ---------------------------------------------------------------------------

export interface TopupRow {
  id: string
  consumer_id: string
  amount_ore: number
  status: 'pending' | 'approved' | 'expired' | 'checkout_started'
  created_at: Date
  expires_at: Date
  decided_at: Date | null
}

const topupCols = 'id, consumer_id, amount_ore::int as amount_ore, status, created_at, expires_at, decided_at'

export async function countPendingTopups(sql: Sql, consumerId: string, now: Date): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from topup_requests where consumer_id = ${consumerId} and status = 'pending' and expires_at > ${now}`
  return row!.n
}

export async function oldestPendingExpiry(sql: Sql, consumerId: string, now: Date): Promise<Date | null> {
  const [row] = await sql<{ e: Date | null }[]>`select min(expires_at) as e from topup_requests where consumer_id = ${consumerId} and status = 'pending' and expires_at > ${now}`
  return row?.e ?? null
}

export async function insertTopup(sql: Sql, consumerId: string, keyId: string | null, amountOre: number, expiresAt: Date): Promise<TopupRow> {
  const [row] = await sql<TopupRow[]>`
    insert into topup_requests (consumer_id, key_id, amount_ore, expires_at) values (${consumerId}, ${keyId}, ${amountOre}, ${expiresAt})
    returning ${sql.unsafe(topupCols)}`
  return row!
}

export async function findTopup(sql: Sql, id: string): Promise<TopupRow | null> {
  const [row] = await sql<TopupRow[]>`select ${sql.unsafe(topupCols)} from topup_requests where id = ${id}`
  return row ?? null
}

export async function listTopups(sql: Sql, consumerId: string): Promise<TopupRow[]> {
  return sql<TopupRow[]>`select ${sql.unsafe(topupCols)} from topup_requests where consumer_id = ${consumerId} order by created_at desc, id limit 20`
}

/** pending → approved with the credit in one transaction; null when it was not pending or has expired. */
export async function approveTopup(sql: Sql, id: string, now: Date, correlationId: string | null): Promise<{ topup: TopupRow; balance_ore: number } | null> {
  return sql.begin(async (tx) => {
    const [t] = await tx<TopupRow[]>`
      update topup_requests set status = 'approved', decided_at = ${now}
      where id = ${id} and status = 'pending' and expires_at > ${now}
      returning ${tx.unsafe(topupCols)}`
    if (!t) return null
    const c = await credit(tx as unknown as Sql, t.consumer_id, t.amount_ore, 'topup', `top-up ${t.id}`, correlationId)
    await tx`update topup_requests set ledger_id = ${c.ledger_id} where id = ${id}`
    return { topup: t, balance_ore: c.balance_ore }
  }) as Promise<{ topup: TopupRow; balance_ore: number } | null>
}

export async function expireTopups(sql: Sql, now: Date): Promise<number> {
  const rows = await sql`update topup_requests set status = 'expired', decided_at = ${now} where status = 'pending' and expires_at <= ${now} returning id`
  return rows.length
}
