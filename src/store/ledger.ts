/**
 * The credit ledger over time (sql/0032_ledger_closing.sql): marks of the id sequence, the monthly
 * close (consumers' closing balances, in batches whose progress is kept in ledger_months), the
 * nightly consistency check (balances against the last closing plus the rows after it, in
 * batches kept in ledger_checks) and the audit of a closed month's rows against its closings.
 * A month's rows are found by id range (ledger_marks) and created_at, never by scanning history.
 */
import type { Sql } from './db.ts'

/**
 * A row's checksum: the first 60 bits of the MD5 of every column, as a bigint. A month's (or a
 * consumer-month's) digest is their sum, so it is the same in any order and across batches, and
 * a changed, added or removed row changes it. Timestamps as microseconds since the epoch, so the
 * session's time zone cannot change the text.
 */
const ROW_HASH = `('x' || substr(md5(concat_ws('|', l.id, l.consumer_id, l.amount_ore, l.kind, l.reason, l.operation_id,
  l.correlation_id, l.refund_of, (extract(epoch from l.created_at) * 1000000)::bigint)), 1, 15))::bit(60)::bigint`

export interface LedgerMonth {
  month: string
  starts_at: Date
  ends_at: Date
  from_id: number
  through_id: number
  next_from_id: number
  rows: number
  sum_ore: number
  digest: string
  after_consumer: string | null
  consumers: number
  closed_at: Date | null
  audited_at: Date | null
  archived_at: Date | null
}

type MonthRow = Omit<LedgerMonth, 'month' | 'from_id' | 'through_id' | 'next_from_id' | 'rows' | 'sum_ore'> & {
  month: string
  from_id: string
  through_id: string
  next_from_id: string
  rows: string
  sum_ore: string
}

const monthCols =
  "to_char(month, 'YYYY-MM-DD') as month, starts_at, ends_at, from_id, through_id, next_from_id, rows, sum_ore, digest::text as digest, after_consumer, consumers, closed_at, audited_at, archived_at"

function month(r: MonthRow): LedgerMonth {
  return {
    ...r,
    from_id: Number(r.from_id),
    through_id: Number(r.through_id),
    next_from_id: Number(r.next_from_id),
    rows: Number(r.rows),
    sum_ore: Number(r.sum_ore),
  }
}

/** Records the id sequence's value now (the ledger-close job does, every hour). */
export async function markLedger(sql: Sql): Promise<void> {
  // The value first, the instant after, in a later transaction: a row created at or after the
  // instant took its id after the value was read.
  const value = await lastId(sql)
  await sql`insert into ledger_marks (at, last_id) values (now(), ${value}) on conflict (at) do nothing`
}

/** Drops marks older than `before`, keeping the newest one before it (the next month's lower bound). */
export async function pruneMarks(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`
    delete from ledger_marks where at < ${before}
      and at < (select max(at) from ledger_marks where at < ${before})
    returning 1`
  return rows.length
}

/**
 * The smallest id whose row was created at or after `at`, by bisecting the primary key (ids follow
 * creation to within a transaction's length); null when no row was.
 */
async function firstIdFrom(sql: Sql, at: Date): Promise<number | null> {
  const [bounds] = await sql<{ lo: string | null; hi: string | null }[]>`
    select (select id from credit_ledger order by id limit 1) as lo, (select id from credit_ledger order by id desc limit 1) as hi`
  if (bounds?.lo == null || bounds.hi == null) return null
  let lo = Number(bounds.lo)
  let hi = Number(bounds.hi) + 1
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2)
    const [row] = await sql<{ created_at: Date }[]>`
      select created_at from credit_ledger where id >= ${mid} order by id limit 1`
    if (!row || row.created_at >= at) hi = mid
    else lo = mid + 1
  }
  const [first] = await sql<{ id: string }[]>`select id from credit_ledger where id >= ${lo} order by id limit 1`
  return first ? Number(first.id) : null
}

/** No transaction that writes the ledger lasts this long: the margin of bounds found without marks. */
const MARGIN_MS = 86_400_000

/**
 * An id below every row created at or after `at`: the newest mark at or before it; without one (a
 * history older than the marks), found by bisection a day earlier. The nightly check would show
 * a row that fell outside.
 */
export async function idBefore(sql: Sql, at: Date): Promise<number> {
  const [mark] = await sql<{ last_id: string }[]>`
    select last_id from ledger_marks where at <= ${at} order by at desc limit 1`
  if (mark) return Number(mark.last_id)
  const first = await firstIdFrom(sql, new Date(at.getTime() - MARGIN_MS))
  return first === null ? await lastId(sql) : first - 1
}

/**
 * An id at or above every row created before `at`, for a month closed long after it ended (a
 * first close over old history): the oldest mark a day or more after it (a transaction begun
 * before `at` had taken its ids by then), or by bisection; never above the sequence's value now.
 */
async function idThrough(sql: Sql, at: Date): Promise<number> {
  const now = await lastId(sql)
  const after = new Date(at.getTime() + MARGIN_MS)
  const [mark] = await sql<{ last_id: string }[]>`
    select last_id from ledger_marks where at >= ${after} order by at limit 1`
  if (mark) return Math.min(now, Number(mark.last_id))
  const first = await firstIdFrom(sql, after)
  return first === null ? now : Math.min(now, first - 1)
}

/** The sequence's value now: every row that exists, committed or not, has an id at most this. */
async function lastId(sql: Sql): Promise<number> {
  const [row] = await sql<
    { v: string }[]
  >`select case when is_called then last_value else 0 end as v from credit_ledger_id_seq`
  return Number(row!.v)
}

/**
 * Whether a transaction of this database that began before `at` is still open (other than this
 * one). A row's created_at is its transaction's start, so until none is, a row of the month could
 * still be committed. PostgreSQL shows other roles' transactions without their start: the
 * service's own role is the one that writes the ledger.
 */
export async function openTransactionBefore(sql: Sql, at: Date): Promise<boolean> {
  const [row] = await sql<{ open: boolean }[]>`
    select exists (
      select 1 from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
        and xact_start < ${at}
    ) as open`
  return row!.open
}

/** The month's totals from its rows, read by id range. */
async function monthTotals(
  sql: Sql,
  m: { starts_at: Date; ends_at: Date; from_id: number; through_id: number },
): Promise<{ rows: number; sum_ore: number; digest: string }> {
  const [row] = await sql<{ rows: string; sum_ore: string; digest: string }[]>`
    select count(*) as rows, coalesce(sum(l.amount_ore), 0) as sum_ore, coalesce(sum(${sql.unsafe(ROW_HASH)}), 0)::text as digest
    from credit_ledger l
    where l.id > ${m.from_id} and l.id <= ${m.through_id} and l.created_at >= ${m.starts_at} and l.created_at < ${m.ends_at}`
  return { rows: Number(row!.rows), sum_ore: Number(row!.sum_ore), digest: row!.digest }
}

export async function findMonth(sql: Sql, monthStart: string): Promise<LedgerMonth | null> {
  const [row] = await sql<MonthRow[]>`select ${sql.unsafe(monthCols)} from ledger_months where month = ${monthStart}`
  return row ? month(row) : null
}

/** The newest closed month, or null before the first close. */
export async function lastClosedMonth(sql: Sql): Promise<LedgerMonth | null> {
  const [row] = await sql<MonthRow[]>`
    select ${sql.unsafe(monthCols)} from ledger_months where closed_at is not null order by month desc limit 1`
  return row ? month(row) : null
}

/** The newest month begun (closed or not). */
export async function lastBegunMonth(sql: Sql): Promise<LedgerMonth | null> {
  const [row] = await sql<MonthRow[]>`select ${sql.unsafe(monthCols)} from ledger_months order by month desc limit 1`
  return row ? month(row) : null
}

/** When the ledger's first row was written (its first thousand rows by id, against jitter), or null. */
export async function firstLedgerInstant(sql: Sql): Promise<Date | null> {
  const [row] = await sql<{ at: Date | null }[]>`
    select min(created_at) as at from (select created_at from credit_ledger order by id limit 1000) f`
  return row?.at ?? null
}

/**
 * Begins closing a month: bounds its rows by id and records its totals. Answers the month's row,
 * or null while a transaction older than the month's end is still open. Two closers at once
 * record it once (the month is the key) and both go on from the recorded row.
 */
export async function beginMonth(
  sql: Sql,
  m: { month: string; starts_at: Date; ends_at: Date },
): Promise<LedgerMonth | null> {
  const existing = await findMonth(sql, m.month)
  if (existing) return existing
  if (await openTransactionBefore(sql, m.ends_at)) return null
  // every row created before the month's end is committed now (no older transaction is open)
  const through_id = await idThrough(sql, m.ends_at)
  const from_id = await idBefore(sql, m.starts_at)
  const next_from_id = Math.min(await idBefore(sql, m.ends_at), through_id)
  const totals = await monthTotals(sql, { ...m, from_id, through_id })
  await sql`
    insert into ledger_months (month, starts_at, ends_at, from_id, through_id, next_from_id, rows, sum_ore, digest)
    values (${m.month}, ${m.starts_at}, ${m.ends_at}, ${from_id}, ${through_id}, ${next_from_id}, ${totals.rows}, ${totals.sum_ore}, ${totals.digest})
    on conflict (month) do nothing`
  return findMonth(sql, m.month)
}

/**
 * Closes the next `limit` consumers of a begun month (in id order after its progress) in one
 * transaction: each consumer's closing row (the previous month's closing plus this month's rows
 * of theirs, read by the consumer's index within the month's id range) and the progress. Answers
 * how many consumers it took; 0 when none is left. A batch written by another closer meanwhile
 * is not written twice (the progress is compared and set in the same transaction).
 */
export async function closeBatch(sql: Sql, m: LedgerMonth, previous: string | null, limit: number): Promise<number> {
  return (await sql.begin(async (tx) => {
    const [progress] = await tx<{ after_consumer: string | null; closed_at: Date | null }[]>`
      select after_consumer, closed_at from ledger_months where month = ${m.month} for update`
    if (!progress || progress.closed_at) return 0
    const after = progress.after_consumer ?? '00000000-0000-0000-0000-000000000000'
    const batch = await tx<{ consumer_id: string }[]>`
      with next as (
        select consumer_id from credit_balances where consumer_id > ${after}::uuid order by consumer_id limit ${limit}
      ), closing as (
        select n.consumer_id, coalesce(p.closing_ore, 0) as opening_ore, r.delta_ore, r.rows, r.digest
        from next n
        left join credit_closings p on p.month = ${previous}::date and p.consumer_id = n.consumer_id
        cross join lateral (
          select coalesce(sum(l.amount_ore), 0) as delta_ore, count(*) as rows, coalesce(sum(${tx.unsafe(ROW_HASH)}), 0) as digest
          from credit_ledger l
          where l.consumer_id = n.consumer_id and l.id > ${m.from_id} and l.id <= ${m.through_id}
            and l.created_at >= ${m.starts_at} and l.created_at < ${m.ends_at}
        ) r
      ), written as (
        insert into credit_closings (month, consumer_id, opening_ore, delta_ore, closing_ore, rows, digest)
        select ${m.month}::date, consumer_id, opening_ore, delta_ore, opening_ore + delta_ore, rows, digest
        from closing where opening_ore <> 0 or rows > 0
        on conflict (month, consumer_id) do nothing
      )
      select consumer_id from next order by consumer_id`
    if (batch.length === 0) return 0
    await tx`
      update ledger_months set after_consumer = ${batch.at(-1)!.consumer_id}, consumers = consumers + ${batch.length}
      where month = ${m.month}`
    return batch.length
  })) as number
}

/**
 * Ends a month's close once every consumer is closed: the closings' rows, sums and checksums must
 * add up to the month's totals (a row of the month that belongs to no consumer with a balance, or
 * a row that changed during the close, stops it with an error, and the month stays open).
 */
export async function finishMonth(sql: Sql, m: LedgerMonth): Promise<void> {
  const [sums] = await sql<{ rows: string; delta: string; digest: string }[]>`
    select coalesce(sum(rows), 0) as rows, coalesce(sum(delta_ore), 0) as delta, coalesce(sum(digest), 0)::text as digest
    from credit_closings where month = ${m.month}`
  if (Number(sums!.rows) !== m.rows || Number(sums!.delta) !== m.sum_ore || sums!.digest !== m.digest)
    throw new Error(
      `the closings of ${m.month} do not add up to its rows: ${sums!.rows} rows, ${sums!.delta} øre against ${m.rows} rows, ${m.sum_ore} øre (or their checksums differ)`,
    )
  await sql`update ledger_months set closed_at = now() where month = ${m.month} and closed_at is null`
}

export interface BalanceMismatch {
  consumer_id: string
  balance_ore: number
  ledger_ore: number
}

/**
 * The consistency check of the next `limit` consumers after `after`: each balance against its
 * last closing plus the rows after the closed month (by the consumer's index, from the month's
 * next_from_id). One statement, so one snapshot: every ledger write changes the balance in the
 * same transaction, and charges racing the check cannot make it see a difference that is not
 * there. Answers the consumers read and those whose balance differs.
 */
export async function checkBalances(
  sql: Sql,
  closed: LedgerMonth | null,
  after: string | null,
  limit: number,
): Promise<{ consumers: string[]; mismatches: BalanceMismatch[] }> {
  const from = closed?.next_from_id ?? 0
  const since = closed?.ends_at ?? new Date(0)
  const rows = await sql<{ consumer_id: string; balance_ore: string; ledger_ore: string }[]>`
    select b.consumer_id, b.balance_ore, coalesce(c.closing_ore, 0) + s.sum_ore as ledger_ore
    from (
      select consumer_id, balance_ore from credit_balances
      where consumer_id > ${after ?? '00000000-0000-0000-0000-000000000000'}::uuid order by consumer_id limit ${limit}
    ) b
    left join credit_closings c on c.month = ${closed?.month ?? null}::date and c.consumer_id = b.consumer_id
    cross join lateral (
      select coalesce(sum(l.amount_ore), 0) as sum_ore from credit_ledger l
      where l.consumer_id = b.consumer_id and l.id > ${from} and l.created_at >= ${since}
    ) s
    order by b.consumer_id`
  return {
    consumers: rows.map((r) => r.consumer_id),
    mismatches: rows
      .filter((r) => r.balance_ore !== r.ledger_ore)
      .map((r) => ({
        consumer_id: r.consumer_id,
        balance_ore: Number(r.balance_ore),
        ledger_ore: Number(r.ledger_ore),
      })),
  }
}

/** A consumer's balance as the ledger has it: the last closing plus the rows after it (what the check compares). */
export async function ledgerBalance(sql: Sql, consumerId: string): Promise<number> {
  const closed = await lastClosedMonth(sql)
  const [row] = await sql<{ s: string }[]>`
    select coalesce((select closing_ore from credit_closings where month = ${closed?.month ?? null}::date and consumer_id = ${consumerId}), 0)
         + coalesce((select sum(amount_ore) from credit_ledger
                     where consumer_id = ${consumerId} and id > ${closed?.next_from_id ?? 0} and created_at >= ${closed?.ends_at ?? new Date(0)}), 0) as s`
  return Number(row!.s)
}

export interface AuditMismatch {
  consumer_id: string
  closed: { delta_ore: number; rows: number; digest: string } | null
  now: { delta_ore: number; rows: number; digest: string } | null
}

/**
 * Reads a closed month's rows again (one pass over its id range) and compares each consumer's
 * sum, count and checksum with the closing: a row changed, added or removed since the close shows.
 */
export async function auditMonth(sql: Sql, m: LedgerMonth): Promise<AuditMismatch[]> {
  const rows = await sql<
    {
      consumer_id: string
      c_delta: string | null
      c_rows: string | null
      c_digest: string | null
      n_delta: string | null
      n_rows: string | null
      n_digest: string | null
    }[]
  >`
    with now as (
      select l.consumer_id, sum(l.amount_ore) as delta_ore, count(*) as rows, sum(${sql.unsafe(ROW_HASH)}) as digest
      from credit_ledger l
      where l.id > ${m.from_id} and l.id <= ${m.through_id} and l.created_at >= ${m.starts_at} and l.created_at < ${m.ends_at}
      group by l.consumer_id
    ), closed as (
      select consumer_id, delta_ore, rows, digest from credit_closings where month = ${m.month} and rows > 0
    )
    select coalesce(c.consumer_id, n.consumer_id) as consumer_id,
           c.delta_ore as c_delta, c.rows as c_rows, c.digest::text as c_digest,
           n.delta_ore as n_delta, n.rows as n_rows, n.digest::text as n_digest
    from closed c full join now n on n.consumer_id = c.consumer_id
    where c.consumer_id is null or n.consumer_id is null
       or c.delta_ore <> n.delta_ore or c.rows <> n.rows or c.digest <> n.digest
    order by 1`
  await sql`update ledger_months set audited_at = now() where month = ${m.month}`
  const side = (delta: string | null, n: string | null, digest: string | null) =>
    n === null ? null : { delta_ore: Number(delta), rows: Number(n), digest: digest! }
  return rows.map((r) => ({
    consumer_id: r.consumer_id,
    closed: side(r.c_delta, r.c_rows, r.c_digest),
    now: side(r.n_delta, r.n_rows, r.n_digest),
  }))
}

/** The closed month still in the database read again the longest ago (never read again first), or null. */
export async function monthToAudit(sql: Sql): Promise<LedgerMonth | null> {
  const [row] = await sql<MonthRow[]>`
    select ${sql.unsafe(monthCols)} from ledger_months where closed_at is not null and archived_at is null
    order by audited_at nulls first, month limit 1`
  return row ? month(row) : null
}

// -- archiving a closed month ----------------------------------------------------------------------

/** A ledger row as an archive keeps it: every column, the instant to the microsecond. */
export interface ArchivedRow {
  id: string
  consumer_id: string
  amount_ore: string
  kind: string
  reason: string
  operation_id: string | null
  correlation_id: string | null
  refund_of: string | null
  created_us: string
}

/** The month's rows after id `after`, `limit` at a time, in id order. */
export async function monthRows(sql: Sql, m: LedgerMonth, after: number, limit: number): Promise<ArchivedRow[]> {
  return sql<ArchivedRow[]>`
    select id::text, consumer_id::text, amount_ore::text, kind, reason, operation_id, correlation_id, refund_of::text,
           ((extract(epoch from created_at) * 1000000)::bigint)::text as created_us
    from credit_ledger
    where id > ${Math.max(after, m.from_id)} and id <= ${m.through_id} and created_at >= ${m.starts_at} and created_at < ${m.ends_at}
    order by id limit ${limit}`
}

/**
 * Deletes the month's rows after id `after` (up to `limit` of them, in id order) that nothing
 * refers to — a refund's `refund_of`, an approved top-up's `ledger_id` keep theirs. Answers the
 * last id looked at (null when the month had none left) and how many went.
 */
export async function deleteMonthRows(
  sql: Sql,
  m: LedgerMonth,
  after: number,
  limit: number,
): Promise<{ last: number | null; deleted: number }> {
  const [row] = await sql<{ last: string | null; deleted: string }[]>`
    with page as (
      select id from credit_ledger
      where id > ${Math.max(after, m.from_id)} and id <= ${m.through_id} and created_at >= ${m.starts_at} and created_at < ${m.ends_at}
      order by id limit ${limit}
    ), gone as (
      delete from credit_ledger l using page p
      where l.id = p.id
        and not exists (select 1 from credit_ledger r where r.refund_of = l.id)
        and not exists (select 1 from topup_requests t where t.ledger_id = l.id)
      returning 1
    )
    select (select max(id) from page)::text as last, (select count(*) from gone)::text as deleted`
  return { last: row!.last === null ? null : Number(row!.last), deleted: Number(row!.deleted) }
}

export async function markArchived(sql: Sql, monthStart: string, sha256: string, deleted: number): Promise<void> {
  await sql`
    update ledger_months set archived_at = now(), archive_sha256 = ${sha256}, archived_rows = ${deleted}
    where month = ${monthStart}`
}

// -- the nightly check's progress ----------------------------------------------------------------

export interface CheckDay {
  day: string
  after_consumer: string | null
  consumers: number
  mismatches: BalanceMismatch[]
  audited_month: string | null
  audit_mismatches: AuditMismatch[] | null
  finished_at: Date | null
}

const checkCols =
  "to_char(day, 'YYYY-MM-DD') as day, after_consumer, consumers, mismatches, to_char(audited_month, 'YYYY-MM-DD') as audited_month, audit_mismatches, finished_at"

/** The day's check, begun if it was not. */
export async function checkDay(sql: Sql, day: string): Promise<CheckDay> {
  await sql`insert into ledger_checks (day) values (${day}) on conflict (day) do nothing`
  const [row] = await sql<CheckDay[]>`select ${sql.unsafe(checkCols)} from ledger_checks where day = ${day}`
  return row!
}

/** Starts the day's check over (an operator asked for a run now). */
export async function restartCheckDay(sql: Sql, day: string): Promise<void> {
  await sql`
    update ledger_checks set after_consumer = null, consumers = 0, mismatches = '[]'::jsonb, audited_month = null,
      audit_mismatches = null, started_at = now(), finished_at = null
    where day = ${day}`
}

/** One batch's progress and findings, kept with the day's check. */
export async function recordCheckBatch(
  sql: Sql,
  day: string,
  lastConsumer: string,
  n: number,
  mismatches: BalanceMismatch[],
): Promise<void> {
  await sql`
    update ledger_checks set after_consumer = ${lastConsumer}, consumers = consumers + ${n},
      mismatches = mismatches || ${sql.json(mismatches as never)}::jsonb
    where day = ${day}`
}

export async function recordAudit(sql: Sql, day: string, monthStart: string, found: AuditMismatch[]): Promise<void> {
  await sql`update ledger_checks set audited_month = ${monthStart}, audit_mismatches = ${sql.json(found as never)}::jsonb where day = ${day}`
}

export async function finishCheckDay(sql: Sql, day: string): Promise<void> {
  await sql`update ledger_checks set finished_at = now() where day = ${day} and finished_at is null`
}
