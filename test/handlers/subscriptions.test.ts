/**
 * /api/v1/subscriptions over real HTTP: the secret shown once and kept encrypted, never listed or
 * logged; tier and scope; every URL rule refused with 400 naming webhook_url and nothing stored;
 * at most 10 active; soft, idempotent delete; another account's id is 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decryptSecret } from '../../src/domain/webhooks/secrets.ts'
import type { TestApp } from '../helpers.ts'
import { retireSubscribers, subscribe, subscriber, webhookApp, type Subscriber } from '../helpers.ts'

let app: TestApp
let sub: Subscriber

beforeAll(async () => {
  app = await webhookApp()
  sub = await subscriber(app)
})
afterAll(async () => {
  await retireSubscribers(app)
  await app.stop()
})

const HOOK = 'https://hooks.plikt-test.no/plikt'
const fields = (r: { body: any }) => (r.body.explanation?.details ?? []).map((d: { field: string }) => d.field)
const stored = async (consumerId: string) =>
  (
    await app.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from webhook_subscriptions where consumer_id = ${consumerId}`
  )[0]!.n

describe('POST /api/v1/subscriptions', () => {
  test('answers 201 with the subscription and its whsec_ secret, once', async () => {
    const s = await subscriber(app)
    const r = await s.send('POST', '/api/v1/subscriptions', {
      webhook_url: HOOK,
      filter: { source: 'register', entity_type: 'annual_accounts' },
    })
    expect(r.status).toBe(201)
    expect(r.body.data).toMatchObject({
      webhook_url: HOOK,
      filter: { source: 'register', change_type: 'updated', entity_type: 'annual_accounts' },
      active: true,
      deactivation_reason: null,
    })
    expect(r.body.data.secret).toMatch(/^whsec_[0-9a-f]{64}$/)
    const list = await s.send('GET', '/api/v1/subscriptions')
    expect(list.text).not.toContain(r.body.data.secret)
    expect(list.text).not.toContain('secret')
    expect(list.body.data.subscriptions.map((x: { id: string }) => x.id)).toEqual([r.body.data.id])
  })

  test('a filter left out selects accounts.updated', async () => {
    const s = await subscriber(app)
    const r = await s.send('POST', '/api/v1/subscriptions', { webhook_url: HOOK })
    expect(r.body.data.filter).toEqual({ source: 'register', change_type: 'updated', entity_type: 'annual_accounts' })
  })

  test('the secret is stored only encrypted under the server secret, and never logged', async () => {
    const s = await subscriber(app)
    const { id, secret } = await subscribe(s, HOOK)
    const [row] = await app.deps.sql<
      { secret_ciphertext: string }[]
    >`select secret_ciphertext from webhook_subscriptions where id = ${id}`
    expect(row!.secret_ciphertext).not.toContain(secret.slice('whsec_'.length, 30))
    expect(decryptSecret(app.deps.serverKeys.webhookSecrets, id, row!.secret_ciphertext)).toBe(secret)
    expect(app.logs.join('\n')).not.toContain(secret.slice('whsec_'.length))
  })

  test('a free account is refused with PLAN_INSUFFICIENT', async () => {
    const s = await subscriber(app, 'free')
    const r = await s.send('POST', '/api/v1/subscriptions', { webhook_url: HOOK })
    expect([r.status, r.body.error_code]).toEqual([403, 'PLAN_INSUFFICIENT'])
  })

  test('a key without subscribe:webhooks is refused with SCOPE_INSUFFICIENT', async () => {
    const s = await subscriber(app, 'professional', ['read:*'])
    const r = await s.send('POST', '/api/v1/subscriptions', { webhook_url: HOOK })
    expect([r.status, r.body.error_code]).toEqual([403, 'SCOPE_INSUFFICIENT'])
  })

  test.each([
    ['http://hooks.plikt-test.no/x', 'https'],
    ['https://user:pw@hooks.plikt-test.no/x', 'userinfo'],
    ['https://hooks.plikt-test.no/x#frag', 'fragment'],
    ['https://receiver.local/x', '.local'],
    ['https://svc.internal/x', '.internal'],
    ['https://a.localhost/x', '.localhost'],
    ['https://hooks.test/x', '.test'],
    ['https://hooks.example/x', '.example'],
    ['https://hooks.invalid/x', '.invalid'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://10.1.2.3/x', 'private'],
    ['https://172.20.0.1/x', 'private'],
    ['https://192.168.0.10/x', 'private'],
    ['https://[::ffff:10.0.0.1]/x', 'IPv4-mapped'],
    ['https://[fd00::1]/x', 'unique local'],
    ['https://inside.plikt-test.no/x', '10.0.0.5'],
    ['https://mapped.plikt-test.no/x', 'IPv4-mapped'],
    ['https://unknown.plikt-test.no/x', 'does not resolve'],
    ['http://127.0.0.2:9000/x', 'https'],
    ['not a url', 'absolute URL'],
  ])('%s is refused with 400 naming webhook_url, and nothing is stored', async (url, why) => {
    const s = await subscriber(app)
    const r = await s.send('POST', '/api/v1/subscriptions', { webhook_url: url })
    expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
    expect(fields(r)).toEqual(['webhook_url'])
    expect(r.body.explanation.details[0].message).toContain(why)
    expect(await stored(s.consumerId)).toBe(0)
  })

  test('a filter for anything but accounts.updated is refused naming the filter member', async () => {
    const s = await subscriber(app)
    const r = await s.send('POST', '/api/v1/subscriptions', { webhook_url: HOOK, filter: { entity_type: 'company' } })
    expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
    expect(fields(r)[0]).toContain('filter')
    expect(await stored(s.consumerId)).toBe(0)
  })

  test('a filter naming another source of the change archive is refused: those rows are read from /changes, never delivered', async () => {
    const s = await subscriber(app)
    for (const filter of [
      { source: 'centralbank' },
      { source: 'tax_authority', entity_type: 'vat_registration' },
      { source: 'directorate', entity_type: 'delegation', change_type: 'updated' },
    ]) {
      const r = await s.send('POST', '/api/v1/subscriptions', { webhook_url: HOOK, filter })
      expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
      expect(fields(r)[0]).toContain('filter')
    }
    expect(await stored(s.consumerId)).toBe(0)
  })

  test('at most 10 are active: the 11th is 400 naming subscriptions; after a delete there is room again', async () => {
    const s = await subscriber(app)
    const ids: string[] = []
    for (let i = 0; i < 10; i++) ids.push((await subscribe(s, `${HOOK}/${i}`)).id)
    const eleventh = await s.send('POST', '/api/v1/subscriptions', { webhook_url: `${HOOK}/10` })
    expect([eleventh.status, fields(eleventh)]).toEqual([400, ['subscriptions']])
    expect(await stored(s.consumerId)).toBe(10)
    await s.send('DELETE', `/api/v1/subscriptions/${ids[0]}`)
    expect((await s.send('POST', '/api/v1/subscriptions', { webhook_url: `${HOOK}/10` })).status).toBe(201)
  })

  test('concurrent creations cannot pass the cap together', async () => {
    const s = await subscriber(app)
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => s.send('POST', '/api/v1/subscriptions', { webhook_url: `${HOOK}/c${i}` })),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(10)
    expect((await s.send('GET', '/api/v1/subscriptions')).body.data.count).toBe(10)
  })
})

describe('DELETE /api/v1/subscriptions/{id}', () => {
  test('deactivates it (reason deleted), and it leaves the list', async () => {
    const { id } = await subscribe(sub, HOOK)
    const r = await sub.send('DELETE', `/api/v1/subscriptions/${id}`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ id, active: false, deactivation_reason: 'deleted' })
    expect(
      (await sub.send('GET', '/api/v1/subscriptions')).body.data.subscriptions.map((x: { id: string }) => x.id),
    ).not.toContain(id)
  })

  test('is idempotent: deleting again answers the same', async () => {
    const { id } = await subscribe(sub, HOOK)
    const first = await sub.send('DELETE', `/api/v1/subscriptions/${id}`)
    const again = await sub.send('DELETE', `/api/v1/subscriptions/${id}`)
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual(first.body.data)
  })

  test('another account’s subscription is 404 and stays active', async () => {
    const other = await subscriber(app)
    const { id } = await subscribe(other, HOOK)
    const r = await sub.send('DELETE', `/api/v1/subscriptions/${id}`)
    expect([r.status, r.body.error_code]).toEqual([404, 'NOT_FOUND'])
    expect(
      (await other.send('GET', '/api/v1/subscriptions')).body.data.subscriptions.map((x: { id: string }) => x.id),
    ).toEqual([id])
  })

  test('an id that does not exist is 404', async () => {
    const r = await sub.send('DELETE', `/api/v1/subscriptions/${crypto.randomUUID()}`)
    expect([r.status, r.body.error_code]).toEqual([404, 'NOT_FOUND'])
  })

  test('GET lists only the caller’s active subscriptions', async () => {
    const a = await subscriber(app)
    const b = await subscriber(app)
    const keep = await subscribe(a, `${HOOK}/keep`)
    const gone = await subscribe(a, `${HOOK}/gone`)
    await subscribe(b, `${HOOK}/b`)
    await a.send('DELETE', `/api/v1/subscriptions/${gone.id}`)
    const list = await a.send('GET', '/api/v1/subscriptions')
    expect(list.body.data).toMatchObject({ count: 1, max_active: 10 })
    expect(list.body.data.subscriptions.map((x: { id: string }) => x.id)).toEqual([keep.id])
  })
})
