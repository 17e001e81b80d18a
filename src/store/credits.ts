/** Prepaid credits: the ledger, the balance kept with it in one statement, holds, and top-up requests. */
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

export interface ChargeRequest {
  consumerId: string
  cost: number
  operationId: string
  correlationId: string
  /** the call's rate-limit windows; `max` null = counted, never refused */
  windows: { bucket: string; start: Date; expires: Date; max: number | null }[]
}

export interface ChargeOutcome {
  /** the call's count in each of its windows, after it */
  hits: number[]
  /** set when the call was within its limits and the balance covered it */
  charged: { balance_ore: number; ledger_id: number } | null
  /** the balance the call saw (for the 402 body) */
  balance_ore: number
}

/**
 * Charges a batch of metered calls in ONE transaction (an application-level group commit): counts
 * every call in its rate-limit windows, then — for the calls within their limits, in order —
 * takes each price from the balance while it covers it, writing a ledger row and a hold per call.
 * Locks are taken in one global order (window rows by bucket, balances by consumer id), so
 * concurrent batches on several instances cannot deadlock.
 */
export async function chargeBatch(sql: Sql, reqs: ChargeRequest[]): Promise<ChargeOutcome[]> {
  return sql.begin(async (txn) => {
    const tx = txn as unknown as Sql
    // 1. Rate windows: aggregate the batch per window, count once per window, then give each call
    //    the count it would have had alone (final − the calls after it in this batch).
    const perWindow = new Map<string, { bucket: string; start: Date; expires: Date; n: number }>()
    for (const r of reqs) {
      for (const w of r.windows) {
        const k = `${w.bucket}\u0000${w.start.toISOString()}`
        const e = perWindow.get(k)
        if (e) e.n++
        else perWindow.set(k, { bucket: w.bucket, start: w.start, expires: w.expires, n: 1 })
      }
    }
    const ordered = [...perWindow.values()].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : a.start.getTime() - b.start.getTime()))
    const final = new Map<string, number>()
    // Independent of each other, so sent together (postgres.js pipelines them on this connection).
    const consumers = [...new Set(reqs.map((r) => r.consumerId))].sort()
    const [windowRows, balanceRows] = await Promise.all([
      ordered.length
        ? tx<{ bucket: string; window_start: Date; hits: number }[]>`
            insert into rate_limit_windows (bucket, window_start, hits, expires_at)
            select * from unnest(${ordered.map((w) => w.bucket)}::text[], ${ordered.map((w) => w.start.toISOString())}::timestamptz[],
                                 ${ordered.map((w) => w.n)}::int[], ${ordered.map((w) => w.expires.toISOString())}::timestamptz[])
            on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + excluded.hits
            returning bucket, window_start, hits`
        : Promise.resolve([]),
      // Balances locked in consumer-id order: with the windows' bucket order, one global lock order.
      tx<{ consumer_id: string; balance_ore: string }[]>`
        select consumer_id, balance_ore from credit_balances where consumer_id = any(${consumers}::uuid[]) order by consumer_id for update`,
    ])
    for (const r of windowRows) final.set(`${r.bucket}\u0000${new Date(r.window_start).toISOString()}`, r.hits)
    const seen = new Map<string, number>()
    const hits = reqs.map((r) =>
      r.windows.map((w) => {
        const k = `${w.bucket}\u0000${w.start.toISOString()}`
        const k2 = (seen.get(k) ?? 0) + 1
        seen.set(k, k2)
        return final.get(k)! - perWindow.get(k)!.n + k2
      }),
    )
    const within = reqs.map((r, i) => r.windows.every((w, j) => w.max === null || hits[i]![j]! <= w.max))

    // 2. Debits in call order while each account's balance lasts.
    const balances = new Map(balanceRows.map((b) => [b.consumer_id, Number(b.balance_ore)]))
    const left = new Map(balances)
    const charged: { i: number; consumerId: string; cost: number; after: number }[] = []
    const seenBalance: number[] = []
    reqs.forEach((r, i) => {
      const have = left.get(r.consumerId) ?? 0
      seenBalance[i] = have
      if (!within[i] || have < r.cost) return
      left.set(r.consumerId, have - r.cost)
      charged.push({ i, consumerId: r.consumerId, cost: r.cost, after: have - r.cost })
    })
    const ledgerIds = new Map<number, number>()
    if (charged.length) {
      // One statement: ledger ids drawn from the identity sequence per call (so each call knows its
      // row), the balances reduced by each account's total, the ledger rows and the holds written.
      const rows = await tx<{ id: string; ord: string }[]>`
        with c as (
          select nextval(pg_get_serial_sequence('credit_ledger', 'id')) as id, t.*
          from unnest(${charged.map((c) => c.consumerId)}::uuid[], ${charged.map((c) => c.cost)}::bigint[],
                      ${charged.map((c) => reqs[c.i]!.operationId)}::text[], ${charged.map((c) => reqs[c.i]!.correlationId)}::text[])
               with ordinality as t(consumer_id, cost, operation_id, correlation_id, ord)
        ), u as (
          update credit_balances b set balance_ore = b.balance_ore - x.total, updated_at = now()
          from (select consumer_id, sum(cost) as total from c group by consumer_id) x
          where b.consumer_id = x.consumer_id
          returning 1
        ), l as (
          insert into credit_ledger (id, consumer_id, amount_ore, kind, reason, operation_id, correlation_id) overriding system value
          select id, consumer_id, -cost, 'debit', 'metered call', operation_id, correlation_id from c
          returning 1
        ), h as (
          insert into credit_holds (ledger_id, consumer_id) select id, consumer_id from c
          returning 1
        )
        select id, ord from c`
      for (const r of rows) ledgerIds.set(charged[Number(r.ord) - 1]!.i, Number(r.id))
    }
    const after = new Map(charged.map((c) => [c.i, c.after]))
    return reqs.map((_, i) => ({
      hits: hits[i]!,
      charged: ledgerIds.has(i) ? { balance_ore: after.get(i)!, ledger_id: ledgerIds.get(i)! } : null,
      balance_ore: seenBalance[i]!,
    }))
  }) as Promise<ChargeOutcome[]>
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
