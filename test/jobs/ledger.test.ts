/**
 * The ledger jobs through the runner (jobs/ledger.ts): a month's close runs once across instances
 * and is not done again by later ticks; the consistency check runs once per UTC day, an operator's
 * run checks again, and a difference is logged as an error.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { jobRunner, type JobDeps } from '../../jobs/runner.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import type { BusinessRegister } from '../../src/upstream/business-register/port.ts'
import { scratchDatabase } from '../helpers.ts'

let db: Database
const logs: string[] = []
const logger = createLogger('debug', (line) => logs.push(line))
let consumer: string

beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  const [c] = await db.sql<
    { id: string }[]
  >`insert into consumers (email) values ('ledger-job@example.no') returning id`
  consumer = c!.id
  await db.sql`insert into credit_balances (consumer_id, balance_ore) values (${consumer}, 950)`
  await db.sql`
    insert into credit_ledger (consumer_id, amount_ore, kind, reason, created_at)
    values (${consumer}, 1000, 'topup', 'history', '2026-02-02T08:00:00Z'), (${consumer}, -50, 'debit', 'history', '2026-02-03T08:00:00Z')`
}, 60_000)
afterAll(() => db.close())

const deps = (at: string): JobDeps => ({ sql: db.sql, clock: fixedClock(at), logger, register: {} as BusinessRegister })

test('two instances ticking at once close the month once; the next hour’s tick finds it closed', async () => {
  const at = '2026-03-01T02:00:00Z'
  const [a, b] = await Promise.all([
    jobRunner(deps(at), { instance: 'a' }).runTick('ledger-close', new Date(at)),
    jobRunner(deps(at), { instance: 'b' }).runTick('ledger-close', new Date(at)),
  ])
  expect([a.ran, b.ran].filter(Boolean)).toHaveLength(1)
  const ran = a.ran ? a : b
  expect(ran.ran && ran.result).toEqual({ closed: ['2026-02-01'], waiting: null, consumers: 1 })
  const later = await jobRunner(deps('2026-03-01T03:00:00Z')).runTick('ledger-close', new Date('2026-03-01T03:00:00Z'))
  expect(later.ran && later.result).toEqual({ closed: [], waiting: null, consumers: 0 })
  const [closing] = await db.sql<
    { closing_ore: string }[]
  >`select closing_ore from credit_closings where consumer_id = ${consumer}`
  expect(closing!.closing_ore).toBe('950')
})

test('the check runs once per UTC day; an operator’s run checks again and logs a difference as an error', async () => {
  const at = '2026-03-02T01:00:00Z'
  const first = await jobRunner(deps(at)).runTick('ledger-check', new Date(at))
  expect(first.ran && first.result).toMatchObject({
    ran: true,
    consumers: 1,
    mismatches: [],
    audited_month: '2026-02-01',
    audit_mismatches: [],
  })
  const second = await jobRunner(deps('2026-03-02T02:00:00Z')).runTick('ledger-check', new Date('2026-03-02T02:00:00Z'))
  expect(second.ran && second.result).toMatchObject({ ran: false })

  await db.sql`update credit_balances set balance_ore = 10950 where consumer_id = ${consumer}`
  logs.length = 0
  const manual = await jobRunner(deps('2026-03-02T02:30:00Z')).runTick(
    'ledger-check',
    new Date('2026-03-02T02:30:00Z'),
    { manual: true },
  )
  expect(manual.ran && manual.result).toMatchObject({
    ran: true,
    mismatches: [{ consumer_id: consumer, balance_ore: 10950, ledger_ore: 950 }],
  })
  expect(logs.some((l) => l.includes('credit ledger check found differences'))).toBe(true)
})
