import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApp, type TestApp, PINNED_NOW } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { METERED_PATH, PROFESSIONAL_PATH, testExtension } from '../helpers.ts'
import { PLAN_LIMITS } from '../../src/domain/access/limits.ts'

// Two instances on one database: what one does, the other must see on the very next request.
let a: TestApp
let b: TestApp
beforeAll(async () => {
  a = await startApp({ extension: testExtension })
  b = await startApp({ extension: testExtension })
})
afterAll(async () => {
  await a.stop()
  await b.stop()
})

const BALANCE = '/api/v1/account/credits/balance'

async function errorOf(res: Response) {
  const body = await res.json()
  return { status: res.status, code: body.error_code as string, body }
}

/** The body without what differs per response, to compare two failures. */
function comparable(body: { _meta: unknown; explanation: unknown }) {
  const { _meta, ...rest } = body
  return rest
}

describe('credentials', () => {
  test('no Authorization header on a keyed route gives 401 AUTH_MISSING', async () => {
    expect(await errorOf(await a.get(BALANCE))).toMatchObject({ status: 401, code: 'AUTH_MISSING' })
  })

  test('unknown, malformed, revoked and the sandbox bearer all give the same 401 AUTH_INVALID_KEY', async () => {
    const c = await createConsumer(a)
    const revoked = await createKey(a, c.id)
    await a.send('DELETE', `/api/v1/admin/keys/${revoked.id}`, undefined, admin)
    const headers = [
      bearer('svc_free_unknownunknownunknownunknown00'),
      bearer('not-a-key'),
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      bearer(revoked.key),
      bearer('svc_sandbox_test_agent-session-1'),
    ]
    const bodies = []
    for (const h of headers) {
      const e = await errorOf(await a.get(BALANCE, { headers: h }))
      expect(e).toMatchObject({ status: 401, code: 'AUTH_INVALID_KEY' })
      bodies.push(comparable(e.body))
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]!)
  })

  test('a valid key reaches the handler', async () => {
    const c = await createConsumer(a)
    const { key } = await createKey(a, c.id)
    expect((await a.get(BALANCE, { headers: bearer(key) })).status).toBe(200)
  })

  test('revocation on one instance is refused on the next request on the other', async () => {
    const c = await createConsumer(a)
    const { key, id } = await createKey(a, c.id)
    expect((await b.get(BALANCE, { headers: bearer(key) })).status).toBe(200)
    expect((await a.send('DELETE', `/api/v1/admin/keys/${id}`, undefined, admin)).status).toBe(200)
    expect(await errorOf(await b.get(BALANCE, { headers: bearer(key) }))).toMatchObject({
      status: 401,
      code: 'AUTH_INVALID_KEY',
    })
    expect(await errorOf(await a.get(BALANCE, { headers: bearer(key) }))).toMatchObject({
      status: 401,
      code: 'AUTH_INVALID_KEY',
    })
  })

  test('a deactivated consumer’s key gives 403 AUTH_CONSUMER_INACTIVE at once, and works again when reactivated', async () => {
    const c = await createConsumer(a)
    const { key } = await createKey(a, c.id)
    await a.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: false }, admin)
    expect(await errorOf(await b.get(BALANCE, { headers: bearer(key) }))).toMatchObject({
      status: 403,
      code: 'AUTH_CONSUMER_INACTIVE',
    })
    await a.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: true }, admin)
    expect((await b.get(BALANCE, { headers: bearer(key) })).status).toBe(200)
  })

  test('a bad header is never treated as no header, even on a keyless route: 401 AUTH_INVALID_KEY (spec Credentials)', async () => {
    expect(
      await errorOf(await a.get('/api/v1/public/obligations?entity_type=AS', { headers: bearer('garbage') })),
    ).toMatchObject({ status: 401, code: 'AUTH_INVALID_KEY' })
    expect((await a.get('/api/v1/public/obligations?entity_type=AS')).status).toBe(200)
  })
})

describe('scope and tier', () => {
  test('a key without the route’s scope gives 403 SCOPE_INSUFFICIENT naming the scope', async () => {
    const c = await createConsumer(a)
    const { key } = await createKey(a, c.id, ['read:changes'])
    const e = await errorOf(await a.get(METERED_PATH, { headers: bearer(key) }))
    expect(e).toMatchObject({ status: 403, code: 'SCOPE_INSUFFICIENT' })
    expect(e.body.required_scope).toBe('read:register')
    expect(e.body.explanation.summary).toContain('read:register')
  })

  test('read:* covers every read scope', async () => {
    const c = await createConsumer(a)
    await addCredits(a, c.id, 1000)
    const { key } = await createKey(a, c.id)
    expect((await a.get(METERED_PATH, { headers: bearer(key) })).status).toBe(200)
  })

  test('a tier below the route’s minimum gives 403 PLAN_INSUFFICIENT', async () => {
    const free = await createConsumer(a, 'free')
    const { key } = await createKey(a, free.id)
    expect(await errorOf(await a.get(PROFESSIONAL_PATH, { headers: bearer(key) }))).toMatchObject({
      status: 403,
      code: 'PLAN_INSUFFICIENT',
    })
    const pro = await createConsumer(a, 'professional')
    const proKey = await createKey(a, pro.id)
    expect((await a.get(PROFESSIONAL_PATH, { headers: bearer(proKey.key) })).status).toBe(200)
  })

  test('refused credentials and scopes are written to the audit log', async () => {
    const c = await createConsumer(a)
    const { key } = await createKey(a, c.id, ['read:changes'])
    await a.get(METERED_PATH, { headers: { ...bearer(key), 'x-correlation-id': 'audit-scope-fail-1' } })
    const rows = await a.deps
      .sql`select action, details from audit_log where consumer_id = ${c.id} and action = 'authorization_failed'`
    expect(rows).toHaveLength(1)
    expect(rows[0]!.details).toMatchObject({ error_code: 'SCOPE_INSUFFICIENT', operation: 'testMetered' })
    // the first refusal of its kind from an address gets a row of its own (repeats are counted: refusals.test.ts)
    await a.get(BALANCE, {
      headers: { ...bearer('svc_free_nope'), ...freshIp(), 'x-correlation-id': 'audit-invalid-key-1' },
    })
    const anon = await a.deps.sql`select actor, details from audit_log where correlation_id = 'audit-invalid-key-1'`
    expect(anon[0]).toMatchObject({ actor: 'anonymous', details: { error_code: 'AUTH_INVALID_KEY' } })
  })
})

describe('rate limits', () => {
  test('a free key gets 30 calls a minute across both instances, then 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const c = await createConsumer(a, 'free')
    const { key } = await createKey(a, c.id)
    for (let i = 0; i < 30; i++) {
      const res = await (i % 2 ? a : b).get(BALANCE, { headers: bearer(key) })
      expect(res.status).toBe(200)
    }
    const res = await a.get(BALANCE, { headers: bearer(key) })
    const e = await errorOf(res)
    expect(e).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' })
    expect(e.body.retryable).toBe(true)
    // The pinned clock stands at 09:30:00.000, so the minute window resets in 60 s.
    expect(res.headers.get('retry-after')).toBe('60')
    expect(res.headers.get('ratelimit-policy')).toContain('"minute";q=30;w=60')
  })

  test('successful responses carry the RateLimit headers', async () => {
    const c = await createConsumer(a, 'starter')
    const { key } = await createKey(a, c.id)
    const res = await a.get(BALANCE, { headers: bearer(key) })
    expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=150;w=60, "day";q=20000;w=86400')
    expect(res.headers.get('ratelimit')).toMatch(/^"minute";r=149;t=\d+, "day";r=19999;t=\d+$/)
  })

  test('the window resets when the minute turns', async () => {
    const clock = a.clock
    const c = await createConsumer(a, 'free')
    const { key } = await createKey(a, c.id)
    clock.set('2026-03-14T10:00:30.000Z')
    try {
      for (let i = 0; i < 30; i++) await (await a.get(BALANCE, { headers: bearer(key) })).arrayBuffer()
      expect((await a.get(BALANCE, { headers: bearer(key) })).status).toBe(429)
      clock.set('2026-03-14T10:01:00.000Z')
      expect((await a.get(BALANCE, { headers: bearer(key) })).status).toBe(200)
    } finally {
      clock.set(PINNED_NOW)
    }
  })

  test('enterprise keys are not limited per minute: more calls than the highest other tier’s ceiling all pass', async () => {
    const c = await createConsumer(a, 'enterprise')
    const { key } = await createKey(a, c.id)
    const ceilings = Object.entries(PLAN_LIMITS)
      .filter(([tier]) => tier !== 'enterprise')
      .map(([, l]) => l.per_minute!)
    const calls = Math.max(...ceilings) + 1
    expect(calls).toBe(PLAN_LIMITS.professional.per_minute! + 1)
    const statuses: number[] = []
    // In batches across both instances: enough at once to be quick, few enough not to queue on the pool.
    for (let sent = 0; sent < calls; sent += 50) {
      const batch = Array.from({ length: Math.min(50, calls - sent) }, (_, i) =>
        ((sent + i) % 2 ? a : b).get(BALANCE, { headers: bearer(key) }).then((r) => r.status),
      )
      statuses.push(...(await Promise.all(batch)))
    }
    expect(statuses.length).toBe(calls)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
  })

  test('GET /api/v1/account/usage reports the ceilings and what the key has used', async () => {
    const c = await createConsumer(a, 'professional')
    const { key, id } = await createKey(a, c.id)
    await a.get(BALANCE, { headers: bearer(key) })
    const { data } = await (await a.get('/api/v1/account/usage', { headers: bearer(key) })).json()
    expect(data.tier).toBe('professional')
    expect(data.ceilings).toEqual({ per_minute: 300, per_day: 100_000 })
    expect(data.keys).toHaveLength(1)
    expect(data.keys[0]).toMatchObject({ key_id: id, minute: { used: 2 }, day: { used: 2 } })
  })
})
