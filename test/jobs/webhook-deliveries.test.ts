/**
 * The delivery sweep (jobs/webhook-deliveries.ts → domain/webhooks/sweep.ts) against a real local
 * receiver that checks signatures independently, on a clock the tests move: the schedule to the
 * seventh attempt, the 4xx streak that deactivates, cancellation, a lease that runs out, two
 * instances sweeping one queue at once, and a slow receiver that delays only itself. Subscriptions are made through the API; changes are
 * appended as the diff appends them (store/changes.ts), which queues their deliveries.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { runWebhookDeliveries } from '../../jobs/webhook-deliveries.ts'
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/domain/webhooks/schedule.ts'
import { CONCURRENCY, LEASE_MS, PER_TARGET, sweepDeliveries, type SweepDeps } from '../../src/domain/webhooks/sweep.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { appendChanges } from '../../src/store/changes.ts'
import type { Sql } from '../../src/store/db.ts'
import { claimDueDeliveries } from '../../src/store/webhooks.ts'
import { liveWebhookTransport } from '../../src/upstream/webhooks/live.ts'
import { PINNED_NOW, secondInstanceSql, type TestApp } from '../helpers.ts'
import { startReceiver, type Receiver } from '../helpers.ts'
import { retireSubscribers, subscribe, subscriber, webhookApp } from '../helpers.ts'

let app: TestApp
let receiver: Receiver
let clock: ReturnType<typeof fixedClock>
const logs: string[] = []

beforeAll(async () => {
  app = await webhookApp()
  receiver = await startReceiver({ now: () => Math.floor(clock.now().getTime() / 1000) })
})
afterAll(async () => {
  await retireSubscribers(app)
  await receiver.stop()
  await app.stop()
})
beforeEach(() => {
  clock = fixedClock(PINNED_NOW)
  receiver.arrivals.length = 0
  receiver.answer = () => ({ status: 200 })
})

/** The sweep as the job runs it, on the test's clock; names other than loopback do not resolve (an earlier file's receivers are gone). */
function sweepDeps(sql: Sql = app.deps.sql): SweepDeps {
  return {
    sql,
    clock,
    logger: createLogger('debug', (l) => logs.push(l)),
    transport: liveWebhookTransport({ resolve: async (h) => Promise.reject(new Error(`no such host ${h}`)) }),
    policy: { allowLoopback: true },
    secretKey: app.deps.serverKeys.webhookSecrets,
    random: () => 0.5,
  }
}

async function newSubscription() {
  const s = await subscriber(app)
  const sub = await subscribe(s, `${receiver.url}/hook`)
  receiver.secrets.set(sub.id, sub.secret)
  return { ...sub, s }
}

let orgCounter = 0
/** Appends `n` accounts.updated changes (as the diff does), which queues a delivery per matching subscription. */
async function queueChanges(n = 1): Promise<string[]> {
  const changes = Array.from({ length: n }, () => {
    const org = String(810_000_000 + (++orgCounter % 1_000_000) + Math.floor(Math.random() * 100_000) * 1000).slice(
      0,
      9,
    )
    return {
      source: 'register',
      entity_type: 'annual_accounts',
      entity_id: org,
      change_type: 'updated',
      field_path: '/last_accounts_year',
      before_value: 2024,
      after_value: 2025,
      diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
      detected_at: clock.now(),
      source_snapshot_id: null,
      event_type: 'accounts.updated',
    }
  })
  const out = await app.deps.sql.begin((tx) => appendChanges(tx as unknown as Sql, changes, clock.now()))
  return out.appended.map((c) => c.id)
}

const deliveriesOf = async (subscriptionId: string) => [
  ...(await app.deps.sql<{ change_id: string; status: string; attempts: number; next_attempt_at: Date | null }[]>`
    select change_id, status, attempts, next_attempt_at from webhook_deliveries where subscription_id = ${subscriptionId} order by created_at, id`),
]
const attemptsOf = async (subscriptionId: string) => [
  ...(await app.deps.sql<{ attempt_number: number; http_status: number | null; error_class: string | null }[]>`
    select a.attempt_number, a.http_status, a.error_class from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
    where d.subscription_id = ${subscriptionId} order by a.id`),
]
const subscriptionRow = async (id: string) =>
  (
    await app.deps.sql<{ active: boolean; deactivation_reason: string | null; consecutive_4xx: number }[]>`
    select active, deactivation_reason, consecutive_4xx from webhook_subscriptions where id = ${id}`
  )[0]!
const mine = (id: string) => receiver.arrivals.filter((a) => a.json?.subscription_id === id)

describe('a delivery', () => {
  test('is one signed POST of {subscription_id, delivered_at, attempt_number, correlation_id, change}, recorded as delivered', async () => {
    const sub = await newSubscription()
    const [changeId] = await queueChanges()
    await sweepDeliveries(sweepDeps())
    const got = mine(sub.id)
    expect(got).toHaveLength(1)
    expect(got[0]!.verified).toBe(true)
    expect(Object.keys(got[0]!.json)).toEqual([
      'subscription_id',
      'delivered_at',
      'attempt_number',
      'correlation_id',
      'change',
    ])
    expect(got[0]!.json).toMatchObject({
      subscription_id: sub.id,
      delivered_at: PINNED_NOW,
      attempt_number: 1,
      change: {
        id: changeId,
        source: 'register',
        entity_type: 'annual_accounts',
        change_type: 'updated',
        field_path: '/last_accounts_year',
        before_value: 2024,
        after_value: 2025,
      },
    })
    expect(got[0]!.json.correlation_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(got[0]!.headers['x-service-event']).toBe('accounts.updated')
    expect(await deliveriesOf(sub.id)).toEqual([
      { change_id: changeId!, status: 'delivered', attempts: 1, next_attempt_at: null },
    ])
    expect(await attemptsOf(sub.id)).toEqual([{ attempt_number: 1, http_status: 200, error_class: null }])
  })

  test('the job runs the sweep with the app’s transport and secret key', async () => {
    const sub = await newSubscription()
    await queueChanges()
    const r = await runWebhookDeliveries({ ...app.deps, clock })
    expect(r.delivered).toBeGreaterThanOrEqual(1)
    expect(mine(sub.id).map((a) => a.verified)).toEqual([true])
  })

  test('goes only to active subscriptions whose filter matches: a company change is archived, not delivered', async () => {
    const sub = await newSubscription()
    await app.deps.sql.begin((tx) =>
      appendChanges(
        tx as unknown as Sql,
        [
          {
            source: 'register',
            entity_type: 'company',
            entity_id: '984661185',
            change_type: 'updated',
            field_path: null,
            before_value: null,
            after_value: null,
            diff: [],
            detected_at: clock.now(),
            source_snapshot_id: null,
            event_type: null,
          },
        ],
        clock.now(),
      ),
    )
    await sweepDeliveries(sweepDeps())
    expect(mine(sub.id)).toHaveLength(0)
    expect(await deliveriesOf(sub.id)).toEqual([])
  })
})

describe('the retry schedule', () => {
  test('a receiver that keeps failing gets 7 attempts, each due on the schedule and not before, then the delivery is abandoned', async () => {
    const sub = await newSubscription()
    receiver.answer = () => ({ status: 503 })
    await queueChanges()
    await sweepDeliveries(sweepDeps())
    for (let n = 1; n < MAX_ATTEMPTS; n++) {
      expect(mine(sub.id)).toHaveLength(n)
      const delay = RETRY_DELAYS_MS[n - 1]!
      clock.advance(delay - 1000)
      await sweepDeliveries(sweepDeps())
      expect(mine(sub.id)).toHaveLength(n) // not yet due
      clock.advance(1000)
      await sweepDeliveries(sweepDeps())
    }
    expect(mine(sub.id).map((a) => a.json.attempt_number)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(mine(sub.id).every((a) => a.verified)).toBe(true)
    expect(new Set(mine(sub.id).map((a) => a.json.change.id)).size).toBe(1)
    const [d] = await deliveriesOf(sub.id)
    expect(d).toMatchObject({ status: 'abandoned', attempts: 7, next_attempt_at: null })
    clock.advance(48 * 3600_000)
    await sweepDeliveries(sweepDeps())
    expect(mine(sub.id)).toHaveLength(7)
    expect((await subscriptionRow(sub.id)).active).toBe(true) // 5xx never deactivates
  })

  test('a failed attempt that later succeeds is delivered with its attempt number', async () => {
    const sub = await newSubscription()
    receiver.answer = () => ({ status: 500 })
    await queueChanges()
    await sweepDeliveries(sweepDeps())
    receiver.answer = () => ({ status: 204 })
    clock.advance(RETRY_DELAYS_MS[0])
    await sweepDeliveries(sweepDeps())
    expect(await attemptsOf(sub.id)).toEqual([
      { attempt_number: 1, http_status: 500, error_class: null },
      { attempt_number: 2, http_status: 204, error_class: null },
    ])
    expect((await deliveriesOf(sub.id))[0]!.status).toBe('delivered')
  })

  test('a redirect is recorded as redirect_blocked and retried on the schedule', async () => {
    const sub = await newSubscription()
    receiver.answer = () => ({ status: 307, headers: { location: 'http://127.0.0.1:1/elsewhere' } })
    await queueChanges()
    await sweepDeliveries(sweepDeps())
    expect(await attemptsOf(sub.id)).toEqual([{ attempt_number: 1, http_status: 307, error_class: 'redirect_blocked' }])
    expect((await deliveriesOf(sub.id))[0]!.next_attempt_at!.getTime()).toBe(clock.now().getTime() + RETRY_DELAYS_MS[0])
  })
})

describe('the 4xx streak', () => {
  test('six 4xx answers in a row deactivate the subscription (consecutive_4xx) and cancel what is still pending', async () => {
    const sub = await newSubscription()
    receiver.answer = () => ({ status: 400 })
    await queueChanges(5)
    await sweepDeliveries(sweepDeps())
    expect(await subscriptionRow(sub.id)).toMatchObject({ active: true, consecutive_4xx: 5 })
    await queueChanges(1)
    await sweepDeliveries(sweepDeps())
    expect(await subscriptionRow(sub.id)).toMatchObject({ active: false, deactivation_reason: 'consecutive_4xx' })
    const states = (await deliveriesOf(sub.id)).map((d) => d.status)
    expect(states).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled'])
    const listed = await sub.s.send('GET', '/api/v1/subscriptions')
    expect(listed.body.data.subscriptions).toEqual([])
    // a deactivated subscription gets nothing new
    receiver.arrivals.length = 0
    await queueChanges(1)
    clock.advance(3600_000)
    await sweepDeliveries(sweepDeps())
    expect(mine(sub.id)).toHaveLength(0)
  })

  test('408 and 429 do not count toward it', async () => {
    const sub = await newSubscription()
    let n = 0
    receiver.answer = () => ({ status: [400, 408, 429, 400, 408, 429, 400, 400][n++ % 8]! })
    for (let i = 0; i < 8; i++) {
      await queueChanges(1)
      await sweepDeliveries(sweepDeps())
    }
    expect(await subscriptionRow(sub.id)).toMatchObject({ active: true, consecutive_4xx: 4 })
  })

  test('a 2xx resets it', async () => {
    const sub = await newSubscription()
    receiver.answer = () => ({ status: 404 })
    await queueChanges(5)
    await sweepDeliveries(sweepDeps())
    receiver.answer = () => ({ status: 200 })
    await queueChanges(1)
    await sweepDeliveries(sweepDeps())
    receiver.answer = () => ({ status: 404 })
    await queueChanges(1)
    await sweepDeliveries(sweepDeps())
    expect(await subscriptionRow(sub.id)).toMatchObject({ active: true, consecutive_4xx: 1 })
  })
})

describe('at least once, across sweepers', () => {
  test('a deleted subscription’s pending deliveries are cancelled and never sent', async () => {
    const sub = await newSubscription()
    await queueChanges(3)
    await sub.s.send('DELETE', `/api/v1/subscriptions/${sub.id}`)
    await sweepDeliveries(sweepDeps())
    expect(mine(sub.id)).toHaveLength(0)
    expect((await deliveriesOf(sub.id)).map((d) => d.status)).toEqual(['cancelled', 'cancelled', 'cancelled'])
  })

  test('a delivery claimed by a sweeper that never reported back is claimed again when its lease ends, with a higher attempt_number', async () => {
    const sub = await newSubscription()
    const [changeId] = await queueChanges()
    // a sweeper claims it and dies before sending
    const claimed = await claimDueDeliveries(
      app.deps.sql,
      clock.now(),
      new Date(clock.now().getTime() + LEASE_MS),
      1000,
      PER_TARGET,
    )
    expect(claimed.map((c) => c.change?.id)).toContain(changeId)
    await sweepDeliveries(sweepDeps())
    expect(mine(sub.id)).toHaveLength(0) // leased
    clock.advance(LEASE_MS)
    await sweepDeliveries(sweepDeps())
    expect(mine(sub.id).map((a) => [a.json.change.id, a.json.attempt_number])).toEqual([[changeId, 2]])
  })

  test('two instances sweeping one queue at once deliver each attempt exactly once', async () => {
    const sub = await newSubscription()
    const ids = await queueChanges(120)
    receiver.answer = () => ({ status: 200, delayMs: 2 })
    const second = await secondInstanceSql()
    try {
      const [a, b] = await Promise.all([sweepDeliveries(sweepDeps()), sweepDeliveries(sweepDeps(second.sql))])
      const got = mine(sub.id).map((x) => x.json.change.id)
      expect(got.length).toBe(120)
      expect(new Set(got)).toEqual(new Set(ids))
      expect(mine(sub.id).every((x) => x.verified && x.json.attempt_number === 1)).toBe(true)
      expect(a.delivered + b.delivered).toBeGreaterThanOrEqual(120)
      expect((await deliveriesOf(sub.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true)
    } finally {
      await second.close()
    }
  })
})

/** Polls until `ready()` holds (the sweep runs on its own meanwhile); no assertion on how long it took. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await ready()) return
    await Bun.sleep(50)
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('concurrency', () => {
  test('a receiver that holds its answers delays only its own deliveries: the other subscription’s all arrive meanwhile, and it never has more than PER_TARGET in flight', async () => {
    await retireSubscribers(app)
    const slow = await subscriber(app)
    const slowSub = await subscribe(slow, `${receiver.url}/slow`)
    receiver.secrets.set(slowSub.id, slowSub.secret)
    const fast = await newSubscription()
    // The slow receiver answers nothing until the test lets it (it stands for one taking its full 10 s).
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let inFlight = 0
    let most = 0
    receiver.answer = (a) => {
      if (a.path !== '/slow') return { status: 200 }
      most = Math.max(most, ++inFlight)
      return { status: 200, hold: held.then(() => void inFlight--) }
    }
    // more than a batch of the old sweep (50), which waited for its whole batch before the next
    const n = 30
    await queueChanges(n)
    const sweep = sweepDeliveries(sweepDeps())
    await until(
      async () =>
        mine(slowSub.id).length >= PER_TARGET &&
        (await deliveriesOf(fast.id)).filter((d) => d.status === 'delivered').length === n,
      'the fast subscription’s deliveries',
    )
    // every fast one delivered while the slow receiver still holds its first answers
    expect(mine(slowSub.id)).toHaveLength(PER_TARGET)
    expect((await deliveriesOf(slowSub.id)).filter((d) => d.status === 'delivered')).toHaveLength(0)
    release()
    const result = await sweep
    expect(result.delivered).toBe(2 * n)
    expect(most).toBe(PER_TARGET)
    for (const id of [fast.id, slowSub.id]) {
      expect(new Set(mine(id).map((a) => a.json.change.id)).size).toBe(n)
      expect(mine(id).every((a) => a.verified && a.json.attempt_number === 1)).toBe(true)
      expect((await deliveriesOf(id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true)
    }
  }, 60_000)

  test('two instances sweeping at once keep one subscription to PER_TARGET in flight between them, and deliver each once', async () => {
    await retireSubscribers(app)
    const sub = await newSubscription()
    let inFlight = 0
    let most = 0
    receiver.answer = () => {
      most = Math.max(most, ++inFlight)
      return { status: 200, hold: Bun.sleep(5).then(() => void inFlight--) }
    }
    const ids = await queueChanges(40)
    const second = await secondInstanceSql()
    try {
      const [a, b] = await Promise.all([sweepDeliveries(sweepDeps()), sweepDeliveries(sweepDeps(second.sql))])
      expect(a.delivered + b.delivered).toBe(ids.length)
      expect(most).toBeLessThanOrEqual(PER_TARGET)
      expect(
        mine(sub.id)
          .map((x) => x.json.change.id)
          .sort(),
      ).toEqual([...ids].sort())
      expect((await deliveriesOf(sub.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true)
    } finally {
      await second.close()
    }
  }, 60_000)

  test('claims racing on two instances’ connections take PER_TARGET of one subscription’s due deliveries in all, and the next after one settles', async () => {
    await retireSubscribers(app)
    const sub = await newSubscription()
    await queueChanges(12)
    const second = await secondInstanceSql()
    try {
      const lease = new Date(clock.now().getTime() + LEASE_MS)
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          claimDueDeliveries(i % 2 ? second.sql : app.deps.sql, clock.now(), lease, CONCURRENCY, PER_TARGET),
        ),
      )
      const claimed = claims.flat().filter((c) => c.subscription_id === sub.id)
      expect(claimed).toHaveLength(PER_TARGET)
      expect(new Set(claimed.map((c) => c.delivery_id)).size).toBe(PER_TARGET)
      // none more while they are in flight
      expect(
        (await claimDueDeliveries(app.deps.sql, clock.now(), lease, CONCURRENCY, PER_TARGET)).filter(
          (c) => c.subscription_id === sub.id,
        ),
      ).toHaveLength(0)
      // one settles: one more may go
      await app.deps
        .sql`update webhook_deliveries set status = 'delivered', next_attempt_at = null, finished_at = ${clock.now()}, lease_until = null where id = ${claimed[0]!.delivery_id}`
      expect(
        (await claimDueDeliveries(second.sql, clock.now(), lease, CONCURRENCY, PER_TARGET)).filter(
          (c) => c.subscription_id === sub.id,
        ),
      ).toHaveLength(1)
      // a lease that ran out frees its slot: the deliveries are due again and claimable
      clock.advance(LEASE_MS)
      const again = (
        await claimDueDeliveries(
          app.deps.sql,
          clock.now(),
          new Date(clock.now().getTime() + LEASE_MS),
          CONCURRENCY,
          PER_TARGET,
        )
      ).filter((c) => c.subscription_id === sub.id)
      expect(again).toHaveLength(PER_TARGET)
    } finally {
      await second.close()
      await app.deps
        .sql`update webhook_deliveries set status = 'cancelled', next_attempt_at = null, lease_until = null where subscription_id = ${sub.id} and status = 'pending'`
    }
  })
})
