/**
 * POST /api/v1/sandbox/subscriptions/test: one signed mock event to the caller's newest active
 * subscription through the real SSRF pipeline, 200 whatever the receiver said, 404 without one.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import type { TestApp } from '../helpers.ts'
import { admin, bearer, freshIp } from '../helpers.ts'
import { startReceiver, type Receiver } from '../helpers.ts'
import { retireSubscribers, subscribe, subscriber, webhookApp, type Subscriber } from '../helpers.ts'

let app: TestApp
let receiver: Receiver
let sub: Subscriber

beforeAll(async () => {
  app = await webhookApp()
  receiver = await startReceiver({ now: () => Math.floor(app.clock.now().getTime() / 1000) })
  sub = await subscriber(app)
})
afterAll(async () => {
  await retireSubscribers(app)
  await receiver.stop()
  await app.stop()
})
beforeEach(() => {
  receiver.arrivals.length = 0
  receiver.answer = () => ({ status: 200 })
})

const fire = (
  s: Subscriber,
  event_type: string,
  headers: Record<string, string> = { 'idempotency-key': crypto.randomUUID() },
) => s.send('POST', '/api/v1/sandbox/subscriptions/test', { event_type }, headers)

test('sends one signed accounts_filed event to the newest active subscription and reports it', async () => {
  const older = await subscribe(sub, `${receiver.url}/older`)
  const newest = await subscribe(sub, `${receiver.url}/newest`)
  receiver.secrets.set(older.id, older.secret).set(newest.id, newest.secret)
  const r = await fire(sub, 'accounts_filed')
  expect(r.status).toBe(200)
  expect(r.body.data).toMatchObject({
    event_type: 'accounts_filed',
    subscription_id: newest.id,
    delivered: true,
    http_status: 200,
    error_class: null,
  })
  expect(r.body._meta.is_sandbox).toBe(true)
  expect(receiver.arrivals).toHaveLength(1)
  const got = receiver.arrivals[0]!
  expect(got.path).toBe('/newest')
  expect(got.verified).toBe(true)
  expect(got.headers['x-service-signature']).toBe(r.body.data.signature_header)
  expect(got.json.change).toMatchObject({
    source: 'register',
    entity_type: 'annual_accounts',
    entity_id: '999000002',
    change_type: 'updated',
    field_path: '/last_accounts_year',
  })
  const [row] = await app.deps.sql<
    { status: string; event_type: string }[]
  >`select status, event_type from webhook_deliveries where id = ${r.body.data.webhook_delivery_id}`
  expect(row).toEqual({ status: 'delivered', event_type: 'sandbox.accounts_filed' })
})

test('each call sends: the Idempotency-Key is never deduplicated', async () => {
  const s = await subscriber(app)
  const x = await subscribe(s, `${receiver.url}/again`)
  receiver.secrets.set(x.id, x.secret)
  const key = crypto.randomUUID()
  await fire(s, 'capability_changed', { 'idempotency-key': key })
  await fire(s, 'capability_changed', { 'idempotency-key': key })
  expect(receiver.arrivals.map((a) => a.json.change.entity_type)).toEqual(['capability', 'capability'])
})

test('answers 200 when the receiver refuses, with its status, and never counts toward the 4xx streak', async () => {
  const s = await subscriber(app)
  const x = await subscribe(s, `${receiver.url}/refuses`)
  receiver.answer = () => ({ status: 401 })
  for (let i = 0; i < 7; i++) {
    const r = await fire(s, 'deadline_elapsed')
    expect([r.status, r.body.data.delivered, r.body.data.http_status]).toEqual([200, false, 401])
  }
  const [row] = await app.deps.sql<
    { active: boolean; consecutive_4xx: number }[]
  >`select active, consecutive_4xx from webhook_subscriptions where id = ${x.id}`
  expect(row).toEqual({ active: true, consecutive_4xx: 0 })
})

test('a target the SSRF rules refuse at send time is reported as ssrf_blocked, and nothing is sent', async () => {
  const s = await subscriber(app)
  const x = await subscribe(s, `${receiver.url}/fine-at-creation`)
  // the URL was fine at creation; the rules are checked again before the attempt, here without the loopback allowance
  const strict = { ...app.deps, webhooks: { ...app.deps.webhooks, policy: { allowLoopback: false } } }
  const { fireSandboxEvent } = await import('../../src/domain/webhooks/sandbox-event.ts')
  const out = await fireSandboxEvent(
    { sql: strict.sql, ...strict.webhooks, secretKey: strict.serverKeys.webhookSecrets },
    s.consumerId,
    'accounts_filed',
    app.clock.now(),
  )
  expect(out).toMatchObject({ subscription_id: x.id, delivered: false, http_status: null, error_class: 'ssrf_blocked' })
  expect(receiver.arrivals).toHaveLength(0)
})

test('without an active subscription: 404 pointing at POST /api/v1/subscriptions', async () => {
  const s = await subscriber(app)
  const r = await fire(s, 'accounts_filed')
  expect([r.status, r.body.error_code, r.body.create_with]).toEqual([404, 'NOT_FOUND', 'POST /api/v1/subscriptions'])
})

test('a synthetic sandbox bearer has no subscriptions: 404 the same way', async () => {
  const res = await app.send(
    'POST',
    '/api/v1/sandbox/subscriptions/test',
    { event_type: 'accounts_filed' },
    { authorization: 'Bearer svc_sandbox_test_h4', 'idempotency-key': crypto.randomUUID() },
  )
  const body = (await res.json()) as any
  expect([res.status, body.error_code, body.create_with]).toEqual([404, 'NOT_FOUND', 'POST /api/v1/subscriptions'])
})

test('the Idempotency-Key is required, as a UUID; the event type must be one of the three', async () => {
  expect((await fire(sub, 'accounts_filed', {})).body.error_code).toBe('IDEMPOTENCY_KEY_REQUIRED')
  expect((await fire(sub, 'accounts_filed', { 'idempotency-key': 'nope' })).body.error_code).toBe(
    'IDEMPOTENCY_KEY_INVALID_FORMAT',
  )
  const bad = await fire(sub, 'accounts.updated')
  expect([bad.status, bad.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
  expect(receiver.arrivals).toHaveLength(0)
})

/** Another key of the subscriber's account, with these scopes or as a test key. */
async function otherKey(s: Subscriber, body: Record<string, unknown>): Promise<string> {
  const res = await app.send('POST', '/api/v1/admin/keys', { consumer_id: s.consumerId, ...body }, admin)
  expect(res.status).toBe(201)
  return (await res.json()).data.plaintext_key
}

test('a key of the account without subscribe:webhooks is 403 SCOPE_INSUFFICIENT, and nothing is sent', async () => {
  const s = await subscriber(app)
  const x = await subscribe(s, `${receiver.url}/scoped`)
  receiver.secrets.set(x.id, x.secret)
  const key = await otherKey(s, { scopes: ['read:*'] })
  const res = await app.send(
    'POST',
    '/api/v1/sandbox/subscriptions/test',
    { event_type: 'accounts_filed' },
    { ...bearer(key), ...freshIp(), 'idempotency-key': crypto.randomUUID() },
  )
  expect(res.status).toBe(403)
  expect((await res.json()).error_code).toBe('SCOPE_INSUFFICIENT')
  expect(receiver.arrivals).toHaveLength(0)
})

test('a test key of the account is 403 TEST_KEY_PRODUCTION_ONLY, and nothing is sent', async () => {
  const s = await subscriber(app)
  const x = await subscribe(s, `${receiver.url}/test-key`)
  receiver.secrets.set(x.id, x.secret)
  const key = await otherKey(s, { test: true })
  const res = await app.send(
    'POST',
    '/api/v1/sandbox/subscriptions/test',
    { event_type: 'accounts_filed' },
    { ...bearer(key), ...freshIp(), 'idempotency-key': crypto.randomUUID() },
  )
  expect(res.status).toBe(403)
  expect((await res.json()).error_code).toBe('TEST_KEY_PRODUCTION_ONLY')
  expect(receiver.arrivals).toHaveLength(0)
})
