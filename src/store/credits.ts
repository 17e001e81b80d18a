/** Prepaid credits: the ledger, the balance kept with it in one statement, holds, and top-up requests. */
import type { Sql } from './db.ts'

export interface Balance {
  balance_ore: number
  updated_at: Date | null
}

export async function readBalance(sql: Sql, consumerId: string): Promise<Balance> {
  const [row] = await sql<
    { balance_ore: string; updated_at: Date }[]
  >`select balance_ore, updated_at from credit_balances where consumer_id = ${consumerId}`
  return row
    ? { balance_ore: Number(row.balance_ore), updated_at: row.updated_at }
    : { balance_ore: 0, updated_at: null }
}

/** Adds credit and its ledger row in one statement; returns the new balance. */
export async function credit(
  sql: Sql,
  consumerId: string,
  amountOre: number,
  kind: 'topup' | 'admin_credit',
  reason: string,
  correlationId: string | null,
): Promise<{ balance_ore: number; ledger_id: number }> {
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

export interface ChargeRequest {
  consumerId: string
  /**
   * the key the call came with: the charge counts only while it is live with this plan; null for a
   * call that came with no key (a calendar feed's read): then while the consumer is live with it
   */
  keyId: string | null
  plan: string
  cost: number
  operationId: string
  correlationId: string
  /** the call's rate-limit windows; `max` null = counted, never refused */
  windows: { bucket: string; start: Date; expires: Date; max: number | null }[]
}

export interface ChargeOutcome {
  /** false when the key was revoked, its consumer deactivated or its plan changed: nothing counted or charged */
  keyLive: boolean
  /** the call's count in each of its windows, after it (empty when the key was not live) */
  hits: number[]
  /** set when the call was within its limits and the balance covered it */
  charged: { balance_ore: number; ledger_id: number; hold_id: number } | null
  /** the balance the call saw (for the 402 body) */
  balance_ore: number
}

/**
 * Charges a batch of metered calls in ONE statement (an application-level group commit, one round
 * trip and one commit for the batch). For each call, in order: its key must still be live — the
 * check that makes a revocation take effect on the very next call even when the key was resolved
 * from a cache; the call is counted in its rate-limit windows (each call gets the count it would
 * have had alone); within its limits, its price is taken from the balance while the account's
 * running total fits, so the balance never goes below zero (the check constraint backs this up).
 * Every charged call gets a ledger row, and the batch one hold (sql/0008).
 * Locks are taken in one global order (window rows by bucket, balances by consumer id), so
 * concurrent batches on several instances do not deadlock each other.
 */
export async function chargeBatch(sql: Sql, reqs: ChargeRequest[]): Promise<ChargeOutcome[]> {
  const wi: number[] = []
  const wb: string[] = []
  const ws: string[] = []
  const we: string[] = []
  const wm: (number | null)[] = []
  reqs.forEach((r, i) => {
    for (const w of r.windows) {
      wi.push(i + 1)
      wb.push(w.bucket)
      ws.push(w.start.toISOString())
      we.push(w.expires.toISOString())
      wm.push(w.max)
    }
  })
  const rows = await sql<
    {
      i: string
      live: boolean
      balance_ore: string
      spent: string
      ledger_id: string | null
      hold_id: string | null
      hits: number[] | null
    }[]
  >`
    with calls as (
      select c.*, case when c.key_id is null then consumer_is_live(c.consumer_id, c.plan)
                       else key_is_live(c.key_id, c.consumer_id, c.plan) end as live
      from unnest(${reqs.map((r) => r.consumerId)}::uuid[], ${reqs.map((r) => r.keyId)}::uuid[], ${reqs.map((r) => r.plan)}::text[],
                  ${reqs.map((r) => r.cost)}::bigint[], ${reqs.map((r) => r.operationId)}::text[], ${reqs.map((r) => r.correlationId)}::text[])
        with ordinality as c(consumer_id, key_id, plan, cost, operation_id, correlation_id, i)
    ), cw as (
      select w.* from unnest(${wi}::int[], ${wb}::text[], ${ws}::timestamptz[], ${we}::timestamptz[], ${wm}::int[])
        with ordinality as w(i, bucket, window_start, expires_at, max, j)
      where w.i in (select i from calls where live)
    ), agg as (
      select bucket, window_start, max(expires_at) as expires_at, count(*)::int as n from cw group by bucket, window_start
    ), up as (
      insert into rate_limit_windows (bucket, window_start, hits, expires_at)
      select bucket, window_start, n, expires_at from agg order by bucket, window_start
      on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + excluded.hits
      returning bucket, window_start, hits
    ), counted as (
      select cw.i, cw.j, cw.max, (up.hits - agg.n + row_number() over (partition by cw.bucket, cw.window_start order by cw.i))::int as hits
      from cw join agg using (bucket, window_start) join up using (bucket, window_start)
    ), judged as (
      select c.i, c.consumer_id, c.cost, c.operation_id, c.correlation_id, c.live,
             c.live and coalesce(bool_and(k.max is null or k.hits <= k.max), true) as within,
             array_agg(k.hits order by k.j) filter (where k.j is not null) as hits
      from calls c left join counted k on k.i = c.i
      group by c.i, c.consumer_id, c.cost, c.operation_id, c.correlation_id, c.live
    ), bal as (
      select consumer_id, balance_ore from credit_balances
      where consumer_id in (select consumer_id from calls where live) order by consumer_id for update
    ), run as (
      select j.*, coalesce(b.balance_ore, 0) as balance_ore,
             sum(case when j.within then j.cost else 0 end) over (partition by j.consumer_id order by j.i) as running
      from judged j left join bal b using (consumer_id)
    ), charged as (
      -- ledger ids in call order
      select nextval('credit_ledger_id_seq') as ledger_id, r.* from (select * from run where within and running <= balance_ore order by i) r
    ), debit as (
      update credit_balances b set balance_ore = b.balance_ore - x.total, updated_at = now()
      from (select consumer_id, sum(cost) as total from charged group by consumer_id) x
      where b.consumer_id = x.consumer_id
      returning 1
    ), ledger as (
      insert into credit_ledger (id, consumer_id, amount_ore, kind, reason, operation_id, correlation_id) overriding system value
      select ledger_id, consumer_id, -cost, 'debit', 'metered call', operation_id, correlation_id from charged
      returning 1
    ), hold as (
      insert into charge_holds (ledger_ids) select array_agg(ledger_id order by ledger_id) from charged having count(*) > 0
      returning id
    )
    select r.i, r.live, r.balance_ore, r.running - case when r.within then r.cost else 0 end as spent, c.ledger_id, (select id from hold) as hold_id, r.hits
    from run r left join charged c on c.i = r.i`
  const out: ChargeOutcome[] = new Array(reqs.length)
  for (const r of rows) {
    const i = Number(r.i) - 1
    const seen = Number(r.balance_ore) - Number(r.spent)
    out[i] = {
      keyLive: r.live,
      hits: r.hits ?? [],
      charged:
        r.ledger_id === null
          ? null
          : { balance_ore: seen - reqs[i]!.cost, ledger_id: Number(r.ledger_id), hold_id: Number(r.hold_id) },
      balance_ore: seen,
    }
  }
  return out
}

/** Every call of these batches has finished: their holds go (the debits stand, refunds are already written). */
export async function releaseHolds(sql: Sql, holdIds: number[]): Promise<void> {
  await sql`delete from charge_holds where id = any(${holdIds.map(String)}::bigint[])`
}

/**
 * Returns a debit's money: the refund row and the balance in one statement. At most once per
 * debit (unique index on `refund_of`), so a retried or racing refund cannot pay twice.
 */
export async function refundDebit(sql: Sql, ledgerId: number, reason: string): Promise<boolean> {
  const rows = await sql`
    with refund as (
      insert into credit_ledger (consumer_id, amount_ore, kind, reason, operation_id, correlation_id, refund_of)
      select consumer_id, -amount_ore, 'refund', ${reason}, operation_id, correlation_id, id from credit_ledger
      where id = ${ledgerId} and kind = 'debit'
      on conflict (refund_of) where refund_of is not null do nothing
      returning consumer_id, amount_ore
    )
    update credit_balances b set balance_ore = b.balance_ore + refund.amount_ore, updated_at = now()
    from refund where b.consumer_id = refund.consumer_id
    returning 1`
  return rows.length > 0
}

/**
 * Holds older than `before` belong to batches whose process died before every call finished:
 * refund their debits (those not refunded already) and drop the holds. Returns how many debits
 * were refunded. A successful call of such a batch is refunded too: the error falls in the
 * caller's favour, never against them.
 */
export async function refundStaleHolds(sql: Sql, before: Date): Promise<number> {
  const stale = await sql<
    { id: string; ledger_ids: string[] }[]
  >`select id, ledger_ids from charge_holds where created_at < ${before} order by id limit 100`
  let n = 0
  for (const hold of stale) {
    for (const id of hold.ledger_ids)
      if (await refundDebit(sql, Number(id), 'refund of a call that did not finish')) n++
    await sql`delete from charge_holds where id = ${hold.id}`
  }
  return n
}

export async function ledgerSum(sql: Sql, consumerId: string): Promise<number> {
  const [row] = await sql<
    { s: string }[]
  >`select coalesce(sum(amount_ore), 0)::bigint as s from credit_ledger where consumer_id = ${consumerId}`
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
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from topup_requests where consumer_id = ${consumerId} and status = 'pending' and expires_at > ${now}`
  return row!.n
}

export async function oldestPendingExpiry(sql: Sql, consumerId: string, now: Date): Promise<Date | null> {
  const [row] = await sql<
    { e: Date | null }[]
  >`select min(expires_at) as e from topup_requests where consumer_id = ${consumerId} and status = 'pending' and expires_at > ${now}`
  return row?.e ?? null
}

export async function insertTopup(
  sql: Sql,
  consumerId: string,
  keyId: string | null,
  amountOre: number,
  expiresAt: Date,
): Promise<TopupRow> {
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
  return sql<
    TopupRow[]
  >`select ${sql.unsafe(topupCols)} from topup_requests where consumer_id = ${consumerId} order by created_at desc, id limit 20`
}

/** pending → approved with the credit in one transaction; null when it was not pending or has expired. */
export async function approveTopup(
  sql: Sql,
  id: string,
  now: Date,
  correlationId: string | null,
): Promise<{ topup: TopupRow; balance_ore: number } | null> {
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
  const rows =
    await sql`update topup_requests set status = 'expired', decided_at = ${now} where status = 'pending' and expires_at <= ${now} returning id`
  return rows.length
}
