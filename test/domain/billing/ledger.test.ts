/**
 * The credit ledger over time (domain/billing/ledger.ts): monthly closing balances per consumer,
 * the close resumed after it died and idempotent, charges racing a close, a refund of a charge
 * from a closed month, and the nightly consistency check finding a tampered row — in the open
 * period and in a closed month — and a closed month archived, read back and deleted. Each test has a database of its own (a close covers every consumer
 * in it); history is written as rows with the instants they would have had, balance kept with them.
 */
import { afterEach, expect, setDefaultTimeout, test } from 'bun:test'
import {
  checkLedger,
  closeDueMonths,
  deleteArchivedMonth,
  monthOf,
  monthStart,
  nextMonth,
  verifyMonthArchive,
  writeMonthArchive,
} from '../../../src/domain/billing/ledger.ts'
import { chargeBatch, readBalance, refundDebit, type ChargeRequest } from '../../../src/store/credits.ts'
import type { Database, Sql } from '../../../src/store/db.ts'
import { ledgerBalance } from '../../../src/store/ledger.ts'
import { loadMigrations, migrate } from '../../../src/store/migrate.ts'
import { scratchDatabase } from '../../helpers.ts'

// each test makes and migrates a database of its own
setDefaultTimeout(60_000)

const opened: Database[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close()
})

async function fresh(): Promise<Sql> {
  const db = await scratchDatabase()
  opened.push(db)
  await migrate(db.sql, await loadMigrations())
  return db.sql
}

/** A consumer with a live enterprise key (rows written as the operator routes would). */
async function consumer(sql: Sql): Promise<{ id: string; keyId: string }> {
  const [c] = await sql<{ id: string }[]>`
    insert into consumers (email, tier) values (${`${crypto.randomUUID()}@example.no`}, 'enterprise') returning id`
  const [k] = await sql<{ id: string }[]>`
    insert into api_keys (consumer_id, key_hash, display_prefix, label, scopes, source)
    values (${c!.id}, ${crypto.randomUUID()}, 'svc_live_x', 'test', ${['read:register']}, 'admin') returning id`
  return { id: c!.id, keyId: k!.id }
}

/** A ledger row at an instant of the past, with its balance, as the service writes both. */
async function row(
  sql: Sql,
  consumerId: string,
  at: string,
  amount: number,
  kind: 'topup' | 'debit' | 'refund' = amount > 0 ? 'topup' : 'debit',
  refundOf: number | null = null,
): Promise<number> {
  await sql`insert into credit_balances (consumer_id, balance_ore) values (${consumerId}, 0) on conflict do nothing`
  const [r] = await sql<{ id: string }[]>`
    with l as (
      insert into credit_ledger (consumer_id, amount_ore, kind, reason, refund_of, created_at)
      values (${consumerId}, ${amount}, ${kind}, 'history', ${refundOf}, ${at}) returning id
    ), b as (
      update credit_balances set balance_ore = balance_ore + ${amount} where consumer_id = ${consumerId}
    )
    select id from l`
  return Number(r!.id)
}

const call = (c: { id: string; keyId: string }, n: number): ChargeRequest => ({
  consumerId: c.id,
  keyId: c.keyId,
  plan: 'enterprise',
  cost: 50,
  operationId: 'testMetered',
  correlationId: `race-${n}`,
  windows: [],
})

const closings = async (sql: Sql, month: string) => [
  ...(await sql<{ consumer_id: string; opening_ore: string; delta_ore: string; closing_ore: string; rows: string }[]>`
    select consumer_id, opening_ore, delta_ore, closing_ore, rows from credit_closings where month = ${month} order by consumer_id`),
]

/** What a closing must be, summed straight from the rows (the whole history up to the month's end). */
async function expectedClosing(sql: Sql, consumerId: string, month: string): Promise<number> {
  const [r] = await sql<{ s: string }[]>`
    select coalesce(sum(amount_ore), 0) as s from credit_ledger
    where consumer_id = ${consumerId} and created_at < ${monthStart(nextMonth(month))}`
  return Number(r!.s)
}

/** The pinned clock's world: January and February 2026 are over (and their grace), March is open. */
const MARCH = new Date('2026-03-14T09:30:00Z')

test('a month ends at Oslo midnight on the 1st, winter and summer', () => {
  expect(monthStart('2026-01-01').toISOString()).toBe('2025-12-31T23:00:00.000Z')
  expect(monthStart('2026-07-01').toISOString()).toBe('2026-06-30T22:00:00.000Z')
  expect(monthOf(new Date('2026-01-31T23:30:00Z'))).toBe('2026-02-01')
  expect(monthOf(new Date('2026-01-31T22:59:59Z'))).toBe('2026-01-01')
})

test('each consumer’s closing balance is the previous closing plus the month’s rows, and nothing is written for a consumer with nothing to carry', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  const b = await consumer(sql)
  await row(sql, a.id, '2026-01-05T10:00:00Z', 10_000)
  await row(sql, a.id, '2026-01-31T22:59:59.999Z', -50) // the last instant of January in Oslo
  await row(sql, a.id, '2026-01-31T23:00:00Z', -50) // the first of February
  await row(sql, b.id, '2026-02-10T10:00:00Z', 700)
  await row(sql, a.id, '2026-03-02T10:00:00Z', -50)

  const out = await closeDueMonths(sql, MARCH)
  expect(out.closed).toEqual(['2026-01-01', '2026-02-01'])

  expect(await closings(sql, '2026-01-01')).toEqual([
    { consumer_id: a.id, opening_ore: '0', delta_ore: '9950', closing_ore: '9950', rows: '2' },
  ])
  const feb = Object.fromEntries((await closings(sql, '2026-02-01')).map((r) => [r.consumer_id, r]))
  expect(feb[a.id]).toEqual({
    consumer_id: a.id,
    opening_ore: '9950',
    delta_ore: '-50',
    closing_ore: '9900',
    rows: '1',
  })
  expect(feb[b.id]).toEqual({ consumer_id: b.id, opening_ore: '0', delta_ore: '700', closing_ore: '700', rows: '1' })
  for (const c of [a, b]) {
    expect(await ledgerBalance(sql, c.id)).toBe((await readBalance(sql, c.id)).balance_ore)
  }
  expect((await checkLedger(sql, MARCH)).mismatches).toEqual([])
})

test('a month is not closed before an hour after it ended (Oslo time)', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  await row(sql, a.id, '2026-02-10T10:00:00Z', 700)
  expect((await closeDueMonths(sql, new Date('2026-02-28T23:59:59Z'))).closed).toEqual([])
  expect((await closeDueMonths(sql, new Date('2026-03-01T00:00:00Z'))).closed).toEqual(['2026-02-01'])
})

test('closing a month while charges race: every closing is exact to the øre, and every balance equals its ledger', async () => {
  const sql = await fresh()
  const people = await Promise.all(Array.from({ length: 6 }, () => consumer(sql)))
  // In the order they happened, as the ledger's ids follow time (a row's id is taken as it is written).
  for (const c of people) await row(sql, c.id, '2026-01-03T08:00:00Z', 1_000_000)
  for (let d = 0; d < 20; d++)
    for (const [i, c] of people.entries())
      await row(sql, c.id, `2026-02-${String(d + 1).padStart(2, '0')}T12:00:00Z`, -50 * (i + 1))
  let racing = true
  let n = 0
  const charges = (async () => {
    while (racing)
      await chargeBatch(
        sql,
        people.map((c) => call(c, n++)),
      )
  })()
  // small batches, so charges land between the close's transactions
  const out = await closeDueMonths(sql, MARCH, { batch: 2, afterBatch: () => Bun.sleep(5) })
  racing = false
  await charges
  expect(out.closed).toEqual(['2026-01-01', '2026-02-01'])
  expect(n).toBeGreaterThan(0)
  for (const c of people) {
    const [feb] = (await closings(sql, '2026-02-01')).filter((r) => r.consumer_id === c.id)
    expect(Number(feb!.closing_ore)).toBe(await expectedClosing(sql, c.id, '2026-02-01'))
    expect(await ledgerBalance(sql, c.id)).toBe((await readBalance(sql, c.id)).balance_ore)
  }
  const check = await checkLedger(sql, MARCH)
  expect(check.consumers).toBe(people.length)
  expect(check.mismatches).toEqual([])
})

test('a refund of a charge from a closed month leaves the closing as it was and is counted after it', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  await row(sql, a.id, '2026-02-01T08:00:00Z', 1_000)
  const debit = await row(sql, a.id, '2026-02-28T22:59:59Z', -50)
  await closeDueMonths(sql, MARCH)
  const before = await closings(sql, '2026-02-01')

  expect(await refundDebit(sql, debit, 'refund: a call of February that failed')).toBe(true)

  expect(await closings(sql, '2026-02-01')).toEqual(before)
  expect(Number(before[0]!.closing_ore)).toBe(950)
  expect((await readBalance(sql, a.id)).balance_ore).toBe(1_000)
  expect(await ledgerBalance(sql, a.id)).toBe(1_000)
  const check = await checkLedger(sql, MARCH)
  expect(check.mismatches).toEqual([])
  expect(check.audit_mismatches).toEqual([])
})

test('the check finds a tampered row after the last closed month: that consumer’s balance no longer equals its ledger', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  const b = await consumer(sql)
  await row(sql, a.id, '2026-01-03T08:00:00Z', 1_000)
  await row(sql, b.id, '2026-01-03T08:00:00Z', 1_000)
  const later = await row(sql, a.id, '2026-03-02T08:00:00Z', -50)
  await closeDueMonths(sql, MARCH)
  expect((await checkLedger(sql, MARCH)).mismatches).toEqual([])

  await sql`update credit_ledger set amount_ore = -5 where id = ${later}`

  const check = await checkLedger(sql, new Date('2026-03-15T09:30:00Z'))
  expect(check.mismatches).toEqual([{ consumer_id: a.id, balance_ore: 950, ledger_ore: 995 }])
})

test('the check finds a tampered row in a closed month: reading the month again, the consumer’s sum and checksum differ from its closing', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  const b = await consumer(sql)
  await row(sql, a.id, '2026-01-03T08:00:00Z', 1_000)
  const jan = await row(sql, b.id, '2026-01-03T08:00:00Z', 1_000)
  await closeDueMonths(sql, new Date('2026-02-14T00:00:00Z'))

  // same amount, another reason: only the checksum can tell
  await sql`update credit_ledger set reason = 'not what was written' where id = ${jan}`

  const check = await checkLedger(sql, new Date('2026-02-14T00:00:00Z'))
  expect(check.audited_month).toBe('2026-01-01')
  expect(check.audit_mismatches).toHaveLength(1)
  expect(check.audit_mismatches[0]).toMatchObject({
    consumer_id: b.id,
    closed: { delta_ore: 1_000, rows: 1 },
    now: { delta_ore: 1_000, rows: 1 },
  })
  expect(check.audit_mismatches[0]!.closed!.digest).not.toBe(check.audit_mismatches[0]!.now!.digest)
})

test('a close that died mid-month is resumed from its last batch by the next run, and ends as a close that never died', async () => {
  const sql = await fresh()
  const people = await Promise.all(Array.from({ length: 5 }, () => consumer(sql)))
  for (const [i, c] of people.entries()) {
    await row(sql, c.id, '2026-01-03T08:00:00Z', 1_000 + i)
    await row(sql, c.id, '2026-01-04T08:00:00Z', -50)
  }
  let batches = 0
  await expect(
    closeDueMonths(sql, new Date('2026-02-14T00:00:00Z'), {
      batch: 2,
      afterBatch: () => {
        if (++batches === 1) throw new Error('killed')
      },
    }),
  ).rejects.toThrow('killed')
  const [progress] = await sql<{ consumers: number; closed_at: Date | null }[]>`
    select consumers, closed_at from ledger_months where month = '2026-01-01'`
  expect(progress).toEqual({ consumers: 2, closed_at: null })
  expect(await closings(sql, '2026-01-01')).toHaveLength(2)

  const out = await closeDueMonths(sql, new Date('2026-02-14T00:00:00Z'), { batch: 2 })
  expect(out).toMatchObject({ closed: ['2026-01-01'], consumers: 3 })
  const rows = await closings(sql, '2026-01-01')
  expect(rows).toHaveLength(5)
  for (const r of rows) expect(Number(r.closing_ore)).toBe(await expectedClosing(sql, r.consumer_id, '2026-01-01'))
})

test('closing twice changes nothing', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  await row(sql, a.id, '2026-01-03T08:00:00Z', 1_000)
  await row(sql, a.id, '2026-02-03T08:00:00Z', -50)
  await closeDueMonths(sql, MARCH)
  const snapshot = async () => ({
    months:
      await sql`select month, from_id, through_id, next_from_id, rows, sum_ore, digest, consumers, closed_at from ledger_months order by month`,
    closings: await sql`select * from credit_closings order by month, consumer_id`,
  })
  const first = await snapshot()

  const again = await closeDueMonths(sql, MARCH)

  expect(again).toEqual({ closed: [], waiting: null, consumers: 0 })
  expect(await snapshot()).toEqual(first)
})

test('a month whose rows do not add up to its closings stays open, with an error that says so', async () => {
  const sql = await fresh()
  const [a, b] = [await consumer(sql), await consumer(sql)].sort((x, y) => (x.id < y.id ? -1 : 1))
  await row(sql, a!.id, '2026-01-03T08:00:00Z', 1_000)
  await row(sql, b!.id, '2026-01-03T08:00:00Z', 1_000)
  let batches = 0
  await expect(
    closeDueMonths(sql, new Date('2026-02-14T00:00:00Z'), {
      batch: 1,
      afterBatch: async () => {
        // a row changed after the month's totals were taken, before its consumer was closed
        if (++batches === 1) await sql`update credit_ledger set amount_ore = 999 where consumer_id = ${b!.id}`
      },
    }),
  ).rejects.toThrow('the closings of 2026-01-01 do not add up to its rows')
  const [m] = await sql<{ closed_at: Date | null }[]>`select closed_at from ledger_months where month = '2026-01-01'`
  expect(m!.closed_at).toBeNull()
})

/** The lines an archive is written as, collected (the command gzips them into its file). */
async function archiveLines(sql: Sql, month: string): Promise<string[]> {
  const lines: string[] = []
  await writeMonthArchive(sql, month, (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)))
  return lines
}

async function* each(lines: string[]): AsyncIterable<string> {
  yield* lines
}

test('an archived month reads back whole; deleting it keeps the rows a later refund refers to, and balances and the check need none of it', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  await row(sql, a.id, '2026-01-03T08:00:00Z', 1_000)
  const refunded = await row(sql, a.id, '2026-01-31T22:59:00Z', -50)
  for (let i = 0; i < 5; i++) await row(sql, a.id, `2026-01-1${i}T08:00:00Z`, -50)
  await row(sql, a.id, '2026-02-01T00:30:00Z', 50, 'refund', refunded) // a February refund of a January debit
  await closeDueMonths(sql, MARCH)

  const lines = await archiveLines(sql, '2026-01-01')
  const back = await verifyMonthArchive(each(lines))
  expect(back).toMatchObject({ whole: true, rows: 7, header: { month: '2026-01-01', rows: 7, sum_ore: 700 } })

  expect(await deleteArchivedMonth(sql, '2026-01-01', 'f'.repeat(64))).toBe(6)
  const [left] = await sql<{ id: string }[]>`select id from credit_ledger where created_at < '2026-02-01'`
  expect(Number(left!.id)).toBe(refunded)
  expect(await ledgerBalance(sql, a.id)).toBe((await readBalance(sql, a.id)).balance_ore)
  const check = await checkLedger(sql, MARCH)
  expect(check.mismatches).toEqual([])
  expect(check.audited_month).toBe('2026-02-01') // the archived month is not read again
  expect(check.audit_mismatches).toEqual([])
  await expect(writeMonthArchive(sql, '2026-01-01', () => {})).rejects.toThrow('was archived on')
})

test('an archive whose row was changed does not read back whole; a month not closed is not archived', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  await row(sql, a.id, '2026-01-03T08:00:00Z', 1_000)
  await row(sql, a.id, '2026-02-03T08:00:00Z', -50)
  await closeDueMonths(sql, new Date('2026-02-14T00:00:00Z'))
  const lines = await archiveLines(sql, '2026-01-01')
  const changed = [lines[0]!, lines[1]!.replace('"1000"', '"100"')]
  expect((await verifyMonthArchive(each(changed))).whole).toBe(false)
  await expect(writeMonthArchive(sql, '2026-02-01', () => {})).rejects.toThrow('2026-02 is not closed')
})

test('a month whose rows changed since it closed is not archived', async () => {
  const sql = await fresh()
  const a = await consumer(sql)
  const id = await row(sql, a.id, '2026-01-03T08:00:00Z', 1_000)
  await closeDueMonths(sql, new Date('2026-02-14T00:00:00Z'))
  await sql`update credit_ledger set reason = 'changed' where id = ${id}`
  await expect(writeMonthArchive(sql, '2026-01-01', () => {})).rejects.toThrow('no longer add up to its closing')
})
