import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runExpirySweep } from '../../jobs/expiry-sweep.ts'
import {
  ChargeBatcher,
  countAndCharge,
  HOLD_TIMEOUT_MS,
  HoldSettler,
  type Charge,
} from '../../src/domain/billing/metering.ts'
import { AppError } from '../../src/errors/app-error.ts'
import { chargeBatch, ledgerSum, readBalance, releaseHolds, type ChargeRequest } from '../../src/store/credits.ts'
import { createLogger } from '../../src/lib/log.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { scratchDatabase, startApp, type TestApp, PINNED_NOW } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'
import { closeGate, gate, METERED_PATH, testExtension } from '../helpers.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp({ extension: testExtension })
})
afterAll(() => app.stop())

async function customer(credit: number, tier: 'free' | 'enterprise' = 'enterprise') {
  const c = await createConsumer(app, tier)
  if (credit > 0) await addCredits(app, c.id, credit)
  const { key, id: keyId } = await createKey(app, c.id)
  return { ...c, key, keyId, tier }
}

/** A charge request for a customer's key, as the pipeline builds it. */
const call = (
  c: { id: string; keyId: string; tier: string },
  correlationId: string,
  windows: ChargeRequest['windows'] = [],
): ChargeRequest => ({
  consumerId: c.id,
  keyId: c.keyId,
  plan: c.tier,
  cost: 50,
  operationId: 'testMetered',
  correlationId,
  windows,
})

const holdsOf = async (ledgerIds: number[]) =>
  (
    await app.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from charge_holds where ledger_ids && ${ledgerIds.map(String)}::bigint[]`
  )[0]!.n
const debitIds = async (consumerId: string) =>
  (
    await app.deps.sql<
      { id: string }[]
    >`select id from credit_ledger where consumer_id = ${consumerId} and kind = 'debit'`
  ).map((r) => Number(r.id))

const balanceOf = async (id: string) => (await readBalance(app.deps.sql, id)).balance_ore
const ledger = (id: string) =>
  app.deps.sql<
    { kind: string; amount_ore: string }[]
  >`select kind, amount_ore from credit_ledger where consumer_id = ${id} order by id`

describe('metered calls', () => {
  test('a successful call costs its price once and reports the balance left', async () => {
    const c = await customer(1000)
    const res = await app.get(METERED_PATH, { headers: bearer(c.key) })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-credits-balance-ore')).toBe('950')
    expect(await balanceOf(c.id)).toBe(950)
    expect((await ledger(c.id)).map((r) => `${r.kind} ${r.amount_ore}`)).toEqual(['admin_credit 1000', 'debit -50'])
    // The batch's hold is released once its calls have finished.
    await app.deps.settler.flush()
    expect(await holdsOf(await debitIds(c.id))).toBe(0)
  })

  test('with too little credit: 402 INSUFFICIENT_CREDITS with the recovery contract, and nothing charged', async () => {
    const c = await customer(40)
    const res = await app.get(METERED_PATH, { headers: bearer(c.key) })
    expect(res.status).toBe(402)
    const body = await res.json()
    expect(body).toMatchObject({ error_code: 'INSUFFICIENT_CREDITS', retryable: false, balance_ore: 40, cost_ore: 50 })
    expect(body.top_up_url).toBe(`${app.config.baseUrl}/dashboard#credits`)
    expect(body.fix_hint).toBeString()
    expect(body.docs_url).toContain('#INSUFFICIENT_CREDITS')
    expect(await balanceOf(c.id)).toBe(40)
    expect((await ledger(c.id)).map((r) => r.kind)).toEqual(['admin_credit'])
  })

  test('a never-topped-up account gets 402 with balance 0', async () => {
    const c = await customer(0)
    const body = await (await app.get(METERED_PATH, { headers: bearer(c.key) })).json()
    expect(body).toMatchObject({ error_code: 'INSUFFICIENT_CREDITS', balance_ore: 0, cost_ore: 50 })
  })

  test('a call that fails upstream is refunded in the ledger', async () => {
    const c = await customer(1000)
    const res = await app.get(`${METERED_PATH}?outcome=fail`, { headers: bearer(c.key) })
    expect(res.status).toBe(503)
    expect(await balanceOf(c.id)).toBe(1000)
    expect((await ledger(c.id)).map((r) => `${r.kind} ${r.amount_ore}`)).toEqual([
      'admin_credit 1000',
      'debit -50',
      'refund 50',
    ])
    expect(await ledgerSum(app.deps.sql, c.id)).toBe(1000)
  })

  test('a call that crashes is refunded too', async () => {
    const c = await customer(1000)
    expect((await app.get(`${METERED_PATH}?outcome=crash`, { headers: bearer(c.key) })).status).toBe(500)
    expect(await balanceOf(c.id)).toBe(1000)
  })

  test('invalid input is refused before anything is charged', async () => {
    const c = await customer(1000)
    expect((await app.get(`${METERED_PATH}?outcome=banana`, { headers: bearer(c.key) })).status).toBe(400)
    expect((await ledger(c.id)).map((r) => r.kind)).toEqual(['admin_credit'])
  })

  test('a balance left under NOK 10 is flagged on the response', async () => {
    const c = await customer(1000)
    const res = await app.get(METERED_PATH, { headers: bearer(c.key) })
    expect(res.headers.get('x-credits-low')).toBe('true')
  })

  test('50 concurrent calls with credit for 10: exactly 10 succeed, the balance ends at 0 and the ledger agrees', async () => {
    const c = await customer(500)
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.get(METERED_PATH, { headers: bearer(c.key) }).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 402)).toHaveLength(40)
    expect(await balanceOf(c.id)).toBe(0)
    expect(await ledgerSum(app.deps.sql, c.id)).toBe(0)
    expect((await ledger(c.id)).filter((r) => r.kind === 'debit')).toHaveLength(10)
  })

  test('a call in flight holds its charge until it finishes', async () => {
    const c = await customer(1000)
    closeGate()
    const pending = app.get(`${METERED_PATH}?outcome=slow`, { headers: bearer(c.key) })
    // Wait until the debit and its hold are written.
    for (let i = 0; i < 100 && (await balanceOf(c.id)) === 1000; i++) await Bun.sleep(10)
    expect(await holdsOf(await debitIds(c.id))).toBe(1)
    gate.release()
    expect((await pending).status).toBe(200)
    await app.deps.settler.flush()
    expect(await holdsOf(await debitIds(c.id))).toBe(0)
    expect(await balanceOf(c.id)).toBe(950)
  })
})

describe('a process killed mid-call', () => {
  test('leaves a hold that the expiry sweep refunds, exactly once', async () => {
    const c = await customer(1000)
    // What a process that died after the debit leaves behind: a debit and its hold, never settled.
    const [charged] = await chargeBatch(app.deps.sql, [call(c, 'killed-call-1')])
    expect(charged!.charged!.balance_ore).toBe(950)
    const clock = fixedClock(new Date(Date.now() + HOLD_TIMEOUT_MS + 60_000).toISOString())
    const deps = { sql: app.deps.sql, clock, logger: createLogger('error') }
    const first = await runExpirySweep(deps)
    expect(first.refunded_holds).toBeGreaterThanOrEqual(1)
    expect(await balanceOf(c.id)).toBe(1000)
    await runExpirySweep(deps)
    expect(await balanceOf(c.id)).toBe(1000)
    expect((await ledger(c.id)).map((r) => `${r.kind} ${r.amount_ore}`)).toEqual([
      'admin_credit 1000',
      'debit -50',
      'refund 50',
    ])
  })

  test('a hold younger than the timeout is left alone', async () => {
    const c = await customer(1000)
    await chargeBatch(app.deps.sql, [call(c, 'in-flight-1')])
    await runExpirySweep({
      sql: app.deps.sql,
      clock: fixedClock(new Date().toISOString()),
      logger: createLogger('error'),
    })
    expect(await balanceOf(c.id)).toBe(950)
  })
})

describe('group commit', () => {
  test('one batch charges several accounts and several calls of one account in order, never below zero', async () => {
    const a = await customer(120)
    const b = await customer(1000)
    const w = (bucket: string) => [
      { bucket, start: new Date(PINNED_NOW), expires: new Date('2026-03-14T09:31:00Z'), max: 2 },
    ]
    const bucket = `unit-batch:${crypto.randomUUID()}`
    const out = await chargeBatch(app.deps.sql, [
      call(a, 'c1'),
      call(b, 'c2', w(bucket)),
      call(a, 'c3'),
      call(a, 'c4'),
      call(b, 'c5', w(bucket)),
      call(b, 'c6', w(bucket)),
    ])
    expect(out.map((o) => (o.charged ? o.charged.balance_ore : null))).toEqual([70, 950, 20, null, 900, null])
    // The third call of b is its third in the window of two: counted, refused, not charged.
    expect(out.map((o) => o.hits)).toEqual([[], [1], [], [], [2], [3]])
    expect(out[3]!.balance_ore).toBe(20)
    expect(await balanceOf(a.id)).toBe(20)
    expect(await balanceOf(b.id)).toBe(900)
    expect(await ledgerSum(app.deps.sql, a.id)).toBe(20)
    const ids = out.filter((o) => o.charged).map((o) => o.charged!.ledger_id)
    const rows = await app.deps
      .sql`select id, correlation_id from credit_ledger where id = any(${ids.map(String)}::bigint[]) order by id`
    expect(rows.map((r) => r.correlation_id)).toEqual(['c1', 'c2', 'c3', 'c5'])
  })
})

/** The app's database, refusing its first `n` statements as a database that is down does. */
function downForFirst(n: number): typeof app.deps.sql {
  let refusals = n
  return ((...args: unknown[]) => {
    if (refusals-- > 0)
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
    return (app.deps.sql as unknown as (...a: unknown[]) => unknown)(...args)
  }) as unknown as typeof app.deps.sql
}

describe('batch holds', () => {
  test('a batch’s hold is released only once every call charged in it has finished', async () => {
    const c = await customer(1000)
    // One batch in flight: the second and third calls wait and are charged together, in one batch.
    const charger = new ChargeBatcher(app.deps.sql, 1)
    const [first, second, third] = await Promise.all([
      charger.charge(call(c, 'bh-1')),
      charger.charge(call(c, 'bh-2')),
      charger.charge(call(c, 'bh-3')),
    ])
    expect(second!.hold).toBe(third!.hold)
    expect(second!.hold!.open).toBe(2)
    const charges: Charge[] = [second!, third!].map((x) => ({
      ledgerId: x.outcome.charged!.ledger_id,
      balanceAfter: x.outcome.charged!.balance_ore,
      hold: x.hold!,
    }))
    const ids = charges.map((x) => x.ledgerId)
    const errors: unknown[] = []
    const settler = new HoldSettler(app.deps.sql, (e) => errors.push(e), 60_000)
    settler.finish(charges[0]!)
    await settler.flush()
    expect(await holdsOf(ids)).toBe(1)
    settler.finish(charges[1]!)
    await settler.flush()
    expect(await holdsOf(ids)).toBe(0)
    expect(errors).toEqual([])
    await releaseHolds(app.deps.sql, [first!.hold!.id])
  })

  test('a release the database refused is tried again, so the sweep never refunds a call that succeeded', async () => {
    const c = await customer(1000)
    const charged = await new ChargeBatcher(app.deps.sql).charge(call(c, 'retry-1'))
    const charge: Charge = {
      ledgerId: charged.outcome.charged!.ledger_id,
      balanceAfter: charged.outcome.charged!.balance_ore,
      hold: charged.hold!,
    }
    // The first release reaches a database that is down; the next one a database that is back.
    const flaky = downForFirst(1)
    const errors: unknown[] = []
    const settler = new HoldSettler(flaky, (e) => errors.push(e), 60_000, 256, 10)
    settler.finish(charge)
    await settler.flush()
    expect(errors).toHaveLength(1)
    expect(await holdsOf([charge.ledgerId])).toBe(1)
    // kept for the next try (its timer, or this flush)
    await settler.flush()
    expect(await holdsOf([charge.ledgerId])).toBe(0)
  })
})

describe('refunds the database refused', () => {
  test('are tried again, so a batch that mixed a success and a failed call is charged for the success only', async () => {
    const c = await customer(1000)
    const charger = new ChargeBatcher(app.deps.sql, 1)
    // (the first call takes the batch in flight; the next two are charged together, in one batch)
    const [first, ok, failed] = await Promise.all([
      charger.charge(call(c, 'mix-0')),
      charger.charge(call(c, 'mix-ok')),
      charger.charge(call(c, 'mix-failed')),
    ])
    expect(ok!.hold).toBe(failed!.hold)
    const [okCharge, failedCharge] = [ok!, failed!].map(
      (x): Charge => ({
        ledgerId: x.outcome.charged!.ledger_id,
        balanceAfter: x.outcome.charged!.balance_ore,
        hold: x.hold!,
      }),
    )
    const flaky = downForFirst(1)
    const errors: unknown[] = []
    // Retries only when the test flushes: a 10 ms retry timer raced the assertions below on a loaded machine.
    const settler = new HoldSettler(flaky, (e) => errors.push(e), 60_000, 256, 60_000)
    settler.finish(okCharge!)
    let refunded = 0
    await settler.giveBack(failedCharge!, 'refund: failed call', () => refunded++)
    expect([errors.length, refunded, await balanceOf(c.id)]).toEqual([1, 0, 850])
    // the hold stays while the refund waits: the batch is not released under it
    await settler.flush()
    // the refund is in, then the batch's hold is gone: no sweep will refund the success with it
    expect([refunded, await balanceOf(c.id), await holdsOf([okCharge!.ledgerId, failedCharge!.ledgerId])]).toEqual([
      1, 900, 0,
    ])
    expect(await ledgerSum(app.deps.sql, c.id)).toBe(900)
    await releaseHolds(app.deps.sql, [first!.hold!.id])
  })
})

describe('refunds waiting for the database', () => {
  test('a flush stops at the first that is refused again and tries the rest on a later flush', async () => {
    const c = await customer(1000)
    const charger = new ChargeBatcher(app.deps.sql, 1)
    const calls = await Promise.all(['w-0', 'w-1', 'w-2'].map((id) => charger.charge(call(c, id))))
    const [a, b] = calls.slice(1).map(
      (x): Charge => ({
        ledgerId: x.outcome.charged!.ledger_id,
        balanceAfter: x.outcome.charged!.balance_ore,
        hold: x.hold!,
      }),
    )
    let statements = 0
    const down = downForFirst(3)
    const counting = ((...args: unknown[]) => {
      statements++
      return (down as unknown as (...a: unknown[]) => unknown)(...args)
    }) as unknown as typeof app.deps.sql
    const errors: unknown[] = []
    const settler = new HoldSettler(counting, (e) => errors.push(e), 60_000, 256, 60_000)
    await settler.giveBack(a!, 'refund: failed call', () => {})
    await settler.giveBack(b!, 'refund: failed call', () => {})
    expect([errors.length, statements]).toEqual([2, 2])
    // the third refusal: the first waiting refund is tried and refused, the second not tried at all
    await settler.flush()
    expect([errors.length, statements, await balanceOf(c.id)]).toEqual([3, 3, 850])
    await settler.flush()
    expect([errors.length, await balanceOf(c.id), await holdsOf([a!.ledgerId, b!.ledgerId])]).toEqual([3, 950, 0])
    await releaseHolds(app.deps.sql, [calls[0]!.hold!.id])
  })
})

describe('settling at shutdown', () => {
  test('releases and refunds the database refuses are tried again until they are written, so the sweep refunds no success', async () => {
    const c = await customer(1000)
    const charger = new ChargeBatcher(app.deps.sql, 1)
    const calls = await Promise.all(['s-0', 's-ok', 's-failed'].map((id) => charger.charge(call(c, id))))
    const [ok, failed] = calls.slice(1).map(
      (x): Charge => ({
        ledgerId: x.outcome.charged!.ledger_id,
        balanceAfter: x.outcome.charged!.balance_ore,
        hold: x.hold!,
      }),
    )
    // refused five times: the refund on the request path, then the first tries of settling
    const errors: unknown[] = []
    const settler = new HoldSettler(downForFirst(5), (e) => errors.push(e), 60_000, 256, 5)
    await settler.giveBack(failed!, 'refund: failed call', () => {})
    settler.finish(ok!)
    expect(await settler.settle(10_000)).toBe(0)
    expect(errors).toHaveLength(5)
    expect([await balanceOf(c.id), await holdsOf([ok!.ledgerId, failed!.ledgerId])]).toEqual([900, 0])
    await releaseHolds(app.deps.sql, [calls[0]!.hold!.id])
  })

  test('gives up when its time is out and says how much is left for the sweep', async () => {
    const c = await customer(1000)
    const charged = await new ChargeBatcher(app.deps.sql).charge(call(c, 's-down'))
    const charge: Charge = {
      ledgerId: charged.outcome.charged!.ledger_id,
      balanceAfter: charged.outcome.charged!.balance_ore,
      hold: charged.hold!,
    }
    const settler = new HoldSettler(downForFirst(1_000_000), () => {}, 60_000, 256, 5)
    settler.finish(charge)
    expect(await settler.settle(50)).toBe(1)
    expect(await holdsOf([charge.ledgerId])).toBe(1)
    await releaseHolds(app.deps.sql, [charge.hold.id])
  })
})

describe('metered calls and rate limits', () => {
  test('a call over the rate limit is refused with 429 and not charged', async () => {
    const c = await createConsumer(app, 'free')
    await addCredits(app, c.id, 100_000)
    const { key } = await createKey(app, c.id)
    for (let i = 0; i < 30; i++) expect((await app.get(METERED_PATH, { headers: bearer(key) })).status).toBe(200)
    const res = await app.get(METERED_PATH, { headers: bearer(key) })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBeString()
    expect(await balanceOf(c.id)).toBe(100_000 - 30 * 50)
  })
})

describe('fail closed', () => {
  test('when the balance cannot be read the call is refused with 503 CREDIT_CHECK_UNAVAILABLE', async () => {
    const db = await scratchDatabase()
    await migrate(db.sql, await loadMigrations())
    await db.close()
    const err = await countAndCharge(new ChargeBatcher(db.sql), [], () => ({}), {
      consumerId: crypto.randomUUID(),
      keyId: crypto.randomUUID(),
      plan: 'enterprise',
      costOre: 50,
      operationId: 'testMetered',
      correlationId: 'closed-db',
      baseUrl: 'http://x',
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).code).toBe('CREDIT_CHECK_UNAVAILABLE')
    expect((err as AppError).status).toBe(503)
  })
})
