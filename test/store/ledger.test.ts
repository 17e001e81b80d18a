/**
 * The close's guard (store/ledger.ts openTransactionBefore): a month is begun only once no
 * transaction that began before its end is open, since a row's created_at is its transaction's
 * start. PostgreSQL only: the embedded database has one session.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Sql } from '../../src/store/db.ts'
import { openTransactionBefore } from '../../src/store/ledger.ts'
import { onPostgres, secondInstanceSql, testDatabase } from '../helpers.ts'

describe.skipIf(!onPostgres)('a month’s close waits for older transactions', () => {
  let sql: Sql
  let other: { sql: Sql; close(): Promise<void> }
  beforeAll(async () => {
    sql = (await testDatabase()).sql
    other = await secondInstanceSql()
  })
  afterAll(() => other.close())

  test('a transaction open since before the instant is seen; once it ends, none is', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let begun!: () => void
    const started = new Promise<void>((r) => (begun = r))
    const tx = other.sql.begin(async (t) => {
      await t`select 1`
      begun()
      await held
    })
    await started
    await Bun.sleep(20)
    expect(await openTransactionBefore(sql, new Date())).toBe(true)
    release()
    await tx
    expect(await openTransactionBefore(sql, new Date())).toBe(false)
  })
})
