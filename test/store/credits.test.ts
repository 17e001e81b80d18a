import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chargeBatch, readBalance, refundDebit, refundStaleHolds, type ChargeRequest } from '../../src/store/credits.ts'
import { hit, windowHits } from '../../src/store/rate-limits.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import type { Database } from '../../src/store/db.ts'
import { scratchDatabase, startApp, type TestApp, PINNED_NOW } from '../helpers.ts'
import { addCredits, admin, createConsumer, createKey } from '../helpers.ts'

// A database of its own: the hold sweep and the hold counts below see every hold in it.
let db: Database
let app: TestApp
beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  app = await startApp({ db })
})
afterAll(async () => {
  await app.stop()
  await db.close()
})

type Plan = 'free' | 'starter' | 'enterprise'

/** A consumer with credit and a live key, made through the operator API. */
async function customer(credit: number, tier: Plan = 'enterprise') {
  const c = await createConsumer(app, tier)
  if (credit > 0) await addCredits(app, c.id, credit)
  const { id: keyId } = await createKey(app, c.id)
  return { id: c.id, keyId, tier: tier as string }
}

const START = new Date(PINNED_NOW)
const END = new Date('2026-03-14T09:31:00Z')
const freshBucket = () => `store-credits:${crypto.randomUUID()}`

/** A 50 øre call counted in one unlimited window of its own. */
const call = (
  c: { id: string; keyId: string; tier: string },
  correlationId: string,
  bucket = freshBucket(),
): ChargeRequest => ({
  consumerId: c.id,
  keyId: c.keyId,
  plan: c.tier,
  cost: 50,
  operationId: 'testMetered',
  correlationId,
  windows: [{ bucket, start: START, expires: END, max: null }],
})

const balanceOf = async (consumerId: string) => (await readBalance(db.sql, consumerId)).balance_ore
const debits = async (consumerId: string) =>
  (
    await db.sql<
      { id: string }[]
    >`select id from credit_ledger where consumer_id = ${consumerId} and kind = 'debit' order by id`
  ).map((r) => Number(r.id))
const refundsOf = async (ledgerId: number) =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from credit_ledger where refund_of = ${ledgerId}`)[0]!.n
const holdCount = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from charge_holds`)[0]!.n
const holdLedgerIds = async (holdId: number) =>
  (await db.sql<{ ledger_ids: string[] }[]>`select ledger_ids from charge_holds where id = ${holdId}`).map((r) =>
    r.ledger_ids.map(Number),
  )

describe('chargeBatch', () => {
  test('calls whose key was revoked, whose consumer is inactive or whose tier changed are neither counted nor charged, while a live call in the same batch is', async () => {
    const revoked = await customer(1000)
    expect((await app.send('DELETE', `/api/v1/admin/keys/${revoked.keyId}`, undefined, admin)).status).toBe(200)
    const inactive = await customer(1000)
    expect((await app.send('PATCH', `/api/v1/admin/consumers/${inactive.id}`, { active: false }, admin)).status).toBe(
      200,
    )
    const retiered = { ...(await customer(1000, 'starter')), tier: 'free' }
    const live = await customer(1000)
    const calls = [call(revoked, 'nl-1'), call(inactive, 'nl-2'), call(retiered, 'nl-3'), call(live, 'nl-4')]
    const out = await chargeBatch(db.sql, calls)
    expect(
      out.map((o) => ({
        keyLive: o.keyLive,
        hits: o.hits,
        charged: o.charged === null ? null : o.charged.balance_ore,
      })),
    ).toEqual([
      { keyLive: false, hits: [], charged: null },
      { keyLive: false, hits: [], charged: null },
      { keyLive: false, hits: [], charged: null },
      { keyLive: true, hits: [1], charged: 950 },
    ])
    for (const c of [revoked, inactive, retiered]) {
      expect(await debits(c.id)).toEqual([])
      expect(await balanceOf(c.id)).toBe(1000)
    }
    expect(await Promise.all(calls.map((r) => windowHits(db.sql, r.windows[0]!.bucket, START)))).toEqual([0, 0, 0, 1])
    expect(await debits(live.id)).toHaveLength(1)
    expect(await balanceOf(live.id)).toBe(950)
  })

  test('a batch that charges calls writes one hold covering every debit of the batch', async () => {
    const a = await customer(1000)
    const b = await customer(1000)
    const holdsBefore = await holdCount()
    const out = await chargeBatch(db.sql, [call(a, 'h-1'), call(b, 'h-2'), call(a, 'h-3')])
    const holdIds = new Set(out.map((o) => o.charged!.hold_id))
    expect(holdIds.size).toBe(1)
    expect(await holdCount()).toBe(holdsBefore + 1)
    const debitIds = [...(await debits(a.id)), ...(await debits(b.id))].sort((x, y) => x - y)
    expect(debitIds).toHaveLength(3)
    expect(await holdLedgerIds([...holdIds][0]!)).toEqual([debitIds])
  })

  test('a batch that charges nothing writes no hold', async () => {
    const broke = await customer(0)
    const revoked = await customer(1000)
    expect((await app.send('DELETE', `/api/v1/admin/keys/${revoked.keyId}`, undefined, admin)).status).toBe(200)
    const holdsBefore = await holdCount()
    const out = await chargeBatch(db.sql, [call(broke, 'none-1'), call(revoked, 'none-2')])
    expect(out.map((o) => o.charged)).toEqual([null, null])
    expect(await holdCount()).toBe(holdsBefore)
  })
})

describe('refundDebit', () => {
  test('ten concurrent refunds of one debit pay it back exactly once', async () => {
    const c = await customer(1000)
    const [charged] = await chargeBatch(db.sql, [call(c, 'refund-race')])
    const ledgerId = charged!.charged!.ledger_id
    const results = await Promise.all(Array.from({ length: 10 }, () => refundDebit(db.sql, ledgerId, 'race')))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await refundsOf(ledgerId)).toBe(1)
    expect(await balanceOf(c.id)).toBe(1000)
  })
})

describe('refundStaleHolds', () => {
  test('refunds the debits of a stale hold not refunded already, drops the hold and returns how many it refunded', async () => {
    await db.sql`delete from charge_holds`
    const c = await customer(1000)
    const out = await chargeBatch(db.sql, [call(c, 'stale-1'), call(c, 'stale-2')])
    const [first, second] = out.map((o) => o.charged!.ledger_id)
    expect(await refundDebit(db.sql, first!, 'call failed')).toBe(true)
    expect(await balanceOf(c.id)).toBe(950)
    expect(await refundStaleHolds(db.sql, new Date(Date.now() + 3600_000))).toBe(1)
    expect(await refundsOf(first!)).toBe(1)
    expect(await refundsOf(second!)).toBe(1)
    expect(await balanceOf(c.id)).toBe(1000)
    expect(await holdCount()).toBe(0)
  })

  test('a second sweep refunds nothing and changes nothing', async () => {
    await db.sql`delete from charge_holds`
    const c = await customer(1000)
    const out = await chargeBatch(db.sql, [call(c, 'twice-1'), call(c, 'twice-2')])
    const later = new Date(Date.now() + 3600_000)
    expect(await refundStaleHolds(db.sql, later)).toBe(2)
    const ledgerBefore = await db.sql`select id from credit_ledger where consumer_id = ${c.id} order by id`
    expect(await refundStaleHolds(db.sql, later)).toBe(0)
    expect(await db.sql`select id from credit_ledger where consumer_id = ${c.id} order by id`).toEqual(ledgerBefore)
    expect(await balanceOf(c.id)).toBe(1000)
    for (const o of out) expect(await refundsOf(o.charged!.ledger_id)).toBe(1)
  })

  test('a hold younger than the cut-off is left alone', async () => {
    await db.sql`delete from charge_holds`
    const c = await customer(1000)
    const [charged] = await chargeBatch(db.sql, [call(c, 'young-1')])
    const holdId = charged!.charged!.hold_id
    const [hold] = await db.sql<{ created_at: Date }[]>`select created_at from charge_holds where id = ${holdId}`
    expect(await refundStaleHolds(db.sql, new Date(hold!.created_at.getTime() - 1000))).toBe(0)
    expect(await holdLedgerIds(holdId)).toEqual([[charged!.charged!.ledger_id]])
    expect(await balanceOf(c.id)).toBe(950)
  })
})

describe('hit', () => {
  const windows = (bucket: string) => [
    { bucket: `${bucket}:minute`, start: START, expires: END },
    { bucket: `${bucket}:day`, start: new Date('2026-03-14T00:00:00Z'), expires: new Date('2026-03-15T00:00:00Z') },
  ]

  test('with a key that is no longer live counts nothing and returns null', async () => {
    const c = await customer(0, 'free')
    expect((await app.send('DELETE', `/api/v1/admin/keys/${c.keyId}`, undefined, admin)).status).toBe(200)
    const bucket = freshBucket()
    expect(await hit(db.sql, windows(bucket), { keyId: c.keyId, consumerId: c.id, plan: 'free' })).toBeNull()
    expect(await db.sql`select bucket from rate_limit_windows where bucket like ${bucket + '%'}`).toHaveLength(0)
  })

  test('with a key whose tier changed counts nothing and returns null', async () => {
    const c = await customer(0, 'starter')
    const bucket = freshBucket()
    expect(await hit(db.sql, windows(bucket), { keyId: c.keyId, consumerId: c.id, plan: 'free' })).toBeNull()
    expect(await db.sql`select bucket from rate_limit_windows where bucket like ${bucket + '%'}`).toHaveLength(0)
  })

  test('with a live key counts the hit in every window and returns the counts', async () => {
    const c = await customer(0, 'free')
    const bucket = freshBucket()
    expect(await hit(db.sql, windows(bucket), { keyId: c.keyId, consumerId: c.id, plan: 'free' })).toEqual([1, 1])
    expect(await hit(db.sql, windows(bucket), { keyId: c.keyId, consumerId: c.id, plan: 'free' })).toEqual([2, 2])
    expect(await windowHits(db.sql, `${bucket}:minute`, START)).toBe(2)
  })
})
