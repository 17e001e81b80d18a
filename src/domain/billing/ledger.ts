/**
 * The credit ledger over time (ARCHITECTURE.md "The credit ledger over time"). Each Oslo calendar
 * month is closed once it is over: every consumer's closing balance is the previous closing plus
 * the month's rows, written in batches whose progress is kept in the database, so a close that
 * died is resumed and a second close changes nothing. The nightly consistency check compares each
 * balance with its last closing plus the rows after it — never the whole history — and reads one
 * closed month's rows again per night against their closings and checksums.
 */
import { addMonths } from '../../lib/local-date.ts'
import { osloDate, osloOffset } from '../../lib/oslo-time.ts'
import type { Sql } from '../../store/db.ts'
import * as ledger from '../../store/ledger.ts'

/** A month is closed this long after it ended: time for the holds of its last calls to settle. */
export const CLOSE_GRACE_MS = 3600_000
/** Consumers per transaction in a close, and per statement in the check. */
export const BATCH = 500
/** How long marks of the id sequence are kept (one before each month's start is all a close needs). */
const MARK_RETENTION_MS = 62 * 86_400_000

/** The instant an Oslo calendar month (`YYYY-MM-01`) begins. */
export function monthStart(month: string): Date {
  // Summer time changes at 01:00 UTC on a Sunday late in the month, never on the 1st: the offset
  // at noon on the 1st is the offset at its midnight.
  return new Date(`${month}T00:00:00${osloOffset(new Date(`${month}T12:00:00Z`))}`)
}

/** The Oslo calendar month an instant falls in, as its first day. */
export function monthOf(instant: Date): string {
  return `${osloDate(instant).slice(0, 7)}-01`
}

export function nextMonth(month: string): string {
  return addMonths(month, 1)
}

function bounds(month: string): { month: string; starts_at: Date; ends_at: Date } {
  return { month, starts_at: monthStart(month), ends_at: monthStart(nextMonth(month)) }
}

export interface CloseOutcome {
  /** months whose close ended in this run */
  closed: string[]
  /** a month that is due but could not begin: a transaction older than its end is still open */
  waiting: string | null
  /** consumers closed in this run */
  consumers: number
}

export interface CloseOptions {
  batch?: number
  /** called after each batch is committed (tests stop a close here, as a process that dies would) */
  afterBatch?: (month: string) => void | Promise<void>
}

/** Closes one month: begins it (or goes on from its progress) and closes its consumers in batches. */
export async function closeMonth(
  sql: Sql,
  month: string,
  opts: CloseOptions = {},
): Promise<{ closed: boolean; consumers: number } | null> {
  const begun = await ledger.beginMonth(sql, bounds(month))
  if (!begun) return null
  if (begun.closed_at) return { closed: false, consumers: 0 }
  const previous = await ledger.findMonth(sql, addMonths(month, -1))
  if (previous && !previous.closed_at) throw new Error(`${previous.month} must be closed before ${month}`)
  let consumers = 0
  for (;;) {
    const n = await ledger.closeBatch(sql, begun, previous?.month ?? null, opts.batch ?? BATCH)
    if (n === 0) break
    consumers += n
    await opts.afterBatch?.(month)
  }
  await ledger.finishMonth(sql, begun)
  return { closed: true, consumers }
}

/**
 * One tick of the monthly close: marks the id sequence, then closes every month that is over
 * (by `now` and the grace), in order from the first not closed — the month of the ledger's first
 * row on a first run.
 */
export async function closeDueMonths(sql: Sql, now: Date, opts: CloseOptions = {}): Promise<CloseOutcome> {
  await ledger.markLedger(sql)
  await ledger.pruneMarks(sql, new Date(now.getTime() - MARK_RETENTION_MS))
  const out: CloseOutcome = { closed: [], waiting: null, consumers: 0 }
  const begun = await ledger.lastBegunMonth(sql)
  let month: string
  if (begun) month = begun.closed_at ? nextMonth(begun.month) : begun.month
  else {
    const first = await ledger.firstLedgerInstant(sql)
    if (!first) return out
    month = monthOf(first)
  }
  while (monthStart(nextMonth(month)).getTime() + CLOSE_GRACE_MS <= now.getTime()) {
    const done = await closeMonth(sql, month, opts)
    if (!done) {
      out.waiting = month
      break
    }
    if (done.closed) out.closed.push(month)
    out.consumers += done.consumers
    month = nextMonth(month)
  }
  return out
}

export interface CheckOutcome {
  day: string
  /** false when the day's check had already finished */
  ran: boolean
  consumers: number
  mismatches: ledger.BalanceMismatch[]
  audited_month: string | null
  audit_mismatches: ledger.AuditMismatch[]
}

/**
 * The day's consistency check (UTC day of `now`): every balance against its last closing plus
 * the rows after it, a batch of consumers per statement with the progress kept, then one closed
 * month's rows read again against its closings (the one read the longest ago). A day's check that
 * finished is not run again that day; one that died goes on from its last batch.
 */
export async function checkLedger(
  sql: Sql,
  now: Date,
  opts: { batch?: number; force?: boolean } = {},
): Promise<CheckOutcome> {
  const day = now.toISOString().slice(0, 10)
  if (opts.force) await ledger.restartCheckDay(sql, day)
  const state = await ledger.checkDay(sql, day)
  if (state.finished_at)
    return {
      day,
      ran: false,
      consumers: state.consumers,
      mismatches: state.mismatches,
      audited_month: state.audited_month,
      audit_mismatches: state.audit_mismatches ?? [],
    }
  const closed = await ledger.lastClosedMonth(sql)
  let after = state.after_consumer
  let found = state.mismatches
  let consumers = state.consumers
  for (;;) {
    const batch = await ledger.checkBalances(sql, closed, after, opts.batch ?? BATCH)
    if (batch.consumers.length === 0) break
    after = batch.consumers.at(-1)!
    consumers += batch.consumers.length
    found = [...found, ...batch.mismatches]
    await ledger.recordCheckBatch(sql, day, after, batch.consumers.length, batch.mismatches)
  }
  let audit: ledger.AuditMismatch[] = []
  const toAudit = await ledger.monthToAudit(sql)
  if (toAudit) {
    audit = await ledger.auditMonth(sql, toAudit)
    await ledger.recordAudit(sql, day, toAudit.month, audit)
  }
  await ledger.finishCheckDay(sql, day)
  return {
    day,
    ran: true,
    consumers,
    mismatches: found,
    audited_month: toAudit?.month ?? null,
    audit_mismatches: audit,
  }
}

// -- archiving a closed month -------------------------------------------------------------------------

/** The first line of a month's archive names it and the totals its rows must add up to. */
export interface ArchiveHeader {
  format: 'plikt-ledger-month'
  version: 1
  month: string
  starts_at: string
  ends_at: string
  rows: number
  sum_ore: number
  digest: string
}

export class LedgerArchiveRefused extends Error {
  override name = 'LedgerArchiveRefused'
}

/** A row's checksum, as store/ledger.ts's ROW_HASH computes it in SQL (concat_ws leaves NULLs out). */
export function rowHash(r: ledger.ArchivedRow): bigint {
  const text = [
    r.id,
    r.consumer_id,
    r.amount_ore,
    r.kind,
    r.reason,
    r.operation_id,
    r.correlation_id,
    r.refund_of,
    r.created_us,
  ]
    .filter((x) => x !== null)
    .join('|')
  return BigInt(`0x${new Bun.CryptoHasher('md5').update(text).digest('hex').slice(0, 15)}`)
}

/** Adds rows to running totals; `equal` compares them with a header's. */
export class ArchiveTotals {
  rows = 0
  sum = 0n
  digest = 0n
  add(r: ledger.ArchivedRow): void {
    this.rows++
    this.sum += BigInt(r.amount_ore)
    this.digest += rowHash(r)
  }
  equal(h: { rows: number; sum_ore: number; digest: string }): boolean {
    return this.rows === h.rows && this.sum === BigInt(h.sum_ore) && this.digest === BigInt(h.digest)
  }
}

const PAGE = 10_000

/**
 * Writes a closed month as lines — its header, then every row of the month in id order, each a
 * JSON object — through `write`, a page at a time; the rows must add up to the month's totals
 * recorded when it closed (the count, the sum and the checksum), or it throws and nothing is
 * deleted. Refuses a month not closed or already archived.
 */
export async function writeMonthArchive(
  sql: Sql,
  month: string,
  write: (lines: string) => void,
): Promise<{ header: ArchiveHeader }> {
  const m = await ledger.findMonth(sql, month)
  if (!m?.closed_at)
    throw new LedgerArchiveRefused(`${month.slice(0, 7)} is not closed: only a closed month is archived`)
  if (m.archived_at)
    throw new LedgerArchiveRefused(
      `${month.slice(0, 7)} was archived on ${m.archived_at.toISOString()}: its rows have left the database`,
    )
  const header: ArchiveHeader = {
    format: 'plikt-ledger-month',
    version: 1,
    month: m.month,
    starts_at: m.starts_at.toISOString(),
    ends_at: m.ends_at.toISOString(),
    rows: m.rows,
    sum_ore: m.sum_ore,
    digest: m.digest,
  }
  write(`${JSON.stringify(header)}\n`)
  const totals = new ArchiveTotals()
  for (let after = 0; ; ) {
    const page = await ledger.monthRows(sql, m, after, PAGE)
    if (page.length === 0) break
    for (const r of page) totals.add(r)
    write(`${page.map((r) => JSON.stringify(r)).join('\n')}\n`)
    after = Number(page.at(-1)!.id)
  }
  if (!totals.equal(header))
    throw new LedgerArchiveRefused(
      `the rows of ${month.slice(0, 7)} no longer add up to its closing (${totals.rows} rows, ${totals.sum} øre against ${header.rows} rows, ${header.sum_ore} øre, or their checksums differ): run the ledger check and find what changed before archiving`,
    )
  return { header }
}

/** Reads an archive's lines back: its header, and whether its rows add up to it. */
export async function verifyMonthArchive(
  lines: AsyncIterable<string>,
): Promise<{ header: ArchiveHeader; whole: boolean; rows: number }> {
  let header: ArchiveHeader | null = null
  const totals = new ArchiveTotals()
  for await (const line of lines) {
    if (!line) continue
    if (!header) {
      header = JSON.parse(line) as ArchiveHeader
      if (header.format !== 'plikt-ledger-month' || header.version !== 1)
        throw new LedgerArchiveRefused('not a Plikt ledger month archive')
      continue
    }
    totals.add(JSON.parse(line) as ledger.ArchivedRow)
  }
  if (!header) throw new LedgerArchiveRefused('the archive is empty')
  return { header, whole: totals.equal(header), rows: totals.rows }
}

/**
 * Deletes an archived month's rows from the database (those nothing refers to), a page per
 * statement, and records the archive. Answers how many rows went.
 */
export async function deleteArchivedMonth(sql: Sql, month: string, sha256: string): Promise<number> {
  const m = await ledger.findMonth(sql, month)
  if (!m?.closed_at || m.archived_at)
    throw new LedgerArchiveRefused(`${month.slice(0, 7)} cannot be deleted: not closed, or archived already`)
  let deleted = 0
  for (let after = 0; ; ) {
    const page = await ledger.deleteMonthRows(sql, m, after, PAGE)
    if (page.last === null) break
    deleted += page.deleted
    after = page.last
  }
  await ledger.markArchived(sql, month, sha256, deleted)
  return deleted
}
