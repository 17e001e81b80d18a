import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Database, openEmbedded } from '../../src/store/db.ts'
import { tableSum } from '../../src/store/transfer.ts'

let db: Database
beforeAll(async () => {
  db = await openEmbedded(null)
})
afterAll(() => db.close())

async function table(name: string, rows: [number, string, string][]) {
  await db.sql`create table ${db.sql(name)} (id int, label text, at timestamptz)`
  for (const [id, label, at] of rows) await db.sql`insert into ${db.sql(name)} values (${id}, ${label}, ${at})`
  return tableSum(db.sql, name)
}

const ROWS: [number, string, string][] = [
  [1, 'første', '2026-03-14T09:30:00Z'],
  [2, 'second, with a comma', '2026-03-14T10:30:00+02:00'],
  [3, 'third', '2026-12-31T23:59:59Z'],
]

test('the same rows in any order sum alike, and the count is the rows', async () => {
  const a = await table('sum_a', ROWS)
  const b = await table('sum_b', [...ROWS].reverse())
  expect(a).toEqual(b)
  expect(a.rows).toBe(3)
  expect(a.checksum).toMatch(/^[0-9a-f]{32}$/)
})

test('one changed value, a missing row or a row twice changes the sum', async () => {
  const base = await table('sum_c', ROWS)
  const changed = await table('sum_d', [ROWS[0]!, [2, 'second, with a comma!', ROWS[1]![2]], ROWS[2]!])
  const twice = await table('sum_e', [ROWS[0]!, ROWS[0]!, ROWS[2]!])
  const instant = await table('sum_f', [ROWS[0]!, ROWS[1]!, [3, 'third', '2026-12-31T23:59:58Z']])
  for (const other of [changed, twice, instant]) expect(other.checksum).not.toBe(base.checksum)
})

test('an empty table has a sum too', async () => {
  expect(await table('sum_g', [])).toEqual({ rows: 0, checksum: expect.stringMatching(/^[0-9a-f]{32}$/) })
})
