import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hashSecret } from '../../src/lib/tokens.ts'
import { allOperations } from '../../src/operations/index.ts'
import { readBalance } from '../../src/store/credits.ts'
import { windowHits } from '../../src/store/rate-limits.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { METERED_PATH, testExtension } from '../helpers.ts'

// Two instances on one database: b resolves and caches a key, a changes it, and b must act on the
// change on its very next request with that key.
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

/** Refused credentials count against a budget per address (20 a minute): each refusal here comes from an address of its own. */
const fresh = (headers: Record<string, string>) => ({ ...headers, ...freshIp() })
const STARTER_MINUTE = '"minute";q=150;w=60'

async function errorOf(res: Response) {
  const body = await res.json()
  return { status: res.status, code: body.error_code as string }
}

const revokeOnA = async (keyId: string) =>
  expect((await a.send('DELETE', `/api/v1/admin/keys/${keyId}`, undefined, admin)).status).toBe(200)
const updateOnA = async (consumerId: string, patch: { active?: boolean; tier?: string }) =>
  expect((await a.send('PATCH', `/api/v1/admin/consumers/${consumerId}`, patch, admin)).status).toBe(200)

/** A consumer and a key that instance b has used once (a call to a route needing no scope), so b has it cached. */
async function keyCachedOnB(opts: { tier?: 'free' | 'starter'; credit?: number; scopes?: string[] } = {}) {
  const c = await createConsumer(a, opts.tier ?? 'free')
  if (opts.credit) await addCredits(a, c.id, opts.credit)
  const k = await createKey(a, c.id, opts.scopes)
  const res = await b.get(BALANCE, { headers: bearer(k.key) })
  expect(res.status).toBe(200)
  await res.arrayBuffer()
  expect(b.deps.keyCache.get(hashSecret(k.key))).toMatchObject({ keyId: k.id, confirmed: false })
  return { consumerId: c.id, key: k.key, keyId: k.id }
}

const ledgerRows = async (consumerId: string) =>
  (
    await a.deps.sql<{ n: number }[]>`select count(*)::int as n from credit_ledger where consumer_id = ${consumerId}`
  )[0]!.n
const minuteHits = (keyId: string) => windowHits(a.deps.sql, `key:${keyId}:minute`, new Date(PINNED_NOW))
const refusalsAudited = (correlationId: string) =>
  a.deps.sql<
    { details: { error_code: string } }[]
  >`select details from audit_log where correlation_id = ${correlationId} and action = 'authorization_failed'`

describe('a key revoked after another instance cached it', () => {
  test('is refused with 401 AUTH_INVALID_KEY on that instance’s next metered call', async () => {
    const k = await keyCachedOnB({ credit: 1000 })
    await revokeOnA(k.keyId)
    expect(await errorOf(await b.get(METERED_PATH, { headers: fresh(bearer(k.key)) }))).toEqual({
      status: 401,
      code: 'AUTH_INVALID_KEY',
    })
  })

  test('is neither charged nor counted against its rate limits on that metered call', async () => {
    const k = await keyCachedOnB({ credit: 1000 })
    await revokeOnA(k.keyId)
    const rowsBefore = await ledgerRows(k.consumerId)
    const hitsBefore = await minuteHits(k.keyId)
    expect(hitsBefore).toBe(1)
    expect((await b.get(METERED_PATH, { headers: fresh(bearer(k.key)) })).status).toBe(401)
    expect((await readBalance(a.deps.sql, k.consumerId)).balance_ore).toBe(1000)
    expect(await ledgerRows(k.consumerId)).toBe(rowsBefore)
    expect(await minuteHits(k.keyId)).toBe(hitsBefore)
  })

  test('gets 401 AUTH_INVALID_KEY, not the 400 its invalid input would get, on a metered route', async () => {
    const k = await keyCachedOnB({ credit: 1000 })
    await revokeOnA(k.keyId)
    expect(await errorOf(await b.get(`${METERED_PATH}?outcome=banana`, { headers: fresh(bearer(k.key)) }))).toEqual({
      status: 401,
      code: 'AUTH_INVALID_KEY',
    })
  })

  test('refused on invalid input, is audited once as a refused credential of that operation', async () => {
    const k = await keyCachedOnB({ credit: 1000 })
    await revokeOnA(k.keyId)
    const correlationId = `cached-revoked-invalid-${crypto.randomUUID()}`
    await b.get(`${METERED_PATH}?outcome=banana`, {
      headers: fresh({ ...bearer(k.key), 'x-correlation-id': correlationId }),
    })
    const rows = await a.deps
      .sql`select actor, details from audit_log where correlation_id = ${correlationId} and action = 'authorization_failed'`
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      actor: 'anonymous',
      details: { error_code: 'AUTH_INVALID_KEY', operation: 'testMetered' },
    })
  })

  test('gets 401 AUTH_INVALID_KEY, not 403 SCOPE_INSUFFICIENT, on a route whose scope it lacks', async () => {
    const k = await keyCachedOnB({ credit: 1000, scopes: ['read:changes'] })
    await revokeOnA(k.keyId)
    expect(await errorOf(await b.get(METERED_PATH, { headers: fresh(bearer(k.key)) }))).toEqual({
      status: 401,
      code: 'AUTH_INVALID_KEY',
    })
  })

  test('is refused on every later request, not only the first', async () => {
    const k = await keyCachedOnB({ credit: 1000 })
    await revokeOnA(k.keyId)
    const refusals = []
    for (const path of [BALANCE, METERED_PATH, BALANCE])
      refusals.push(await errorOf(await b.get(path, { headers: fresh(bearer(k.key)) })))
    expect(refusals).toEqual(Array(3).fill({ status: 401, code: 'AUTH_INVALID_KEY' }))
  })

  test('is dropped from the instance’s cache once refused', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    expect((await b.get(BALANCE, { headers: fresh(bearer(k.key)) })).status).toBe(401)
    expect(b.deps.keyCache.get(hashSecret(k.key))).toBeUndefined()
  })

  test('is refused with 401 AUTH_INVALID_KEY by every keyed operation in the registry', async () => {
    const keyed = [...allOperations, ...testExtension.operations].filter(
      (op) => op.auth === 'key' || op.auth === 'key_or_session',
    )
    const c = await createConsumer(a, 'free')
    await addCredits(a, c.id, 10_000)
    const outcomes: Record<string, string> = {}
    for (const op of keyed) {
      // A fresh key per operation: the first refusal drops a key from the cache, so each operation
      // must meet a key that is still cached when it arrives.
      const k = await createKey(a, c.id)
      const cached = await b.get(BALANCE, { headers: bearer(k.key) })
      expect(cached.status).toBe(200)
      await cached.arrayBuffer()
      await revokeOnA(k.id)
      const path = op.path.replace(/:org\b/g, '923609016').replace(/:[a-z_]+/gi, () => crypto.randomUUID())
      const hasBody = op.method === 'POST' || op.method === 'PATCH' || op.method === 'PUT'
      const res = await b.send(
        op.method,
        path,
        hasBody ? {} : undefined,
        fresh({ ...bearer(k.key), ...(hasBody ? { 'idempotency-key': crypto.randomUUID() } : {}) }),
      )
      const e = await errorOf(res)
      outcomes[`${op.method} ${op.path}`] = `${e.status} ${e.code}`
    }
    expect(Object.keys(outcomes).length).toBeGreaterThan(10)
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((k) => [k, '401 AUTH_INVALID_KEY'])))
  })
})

describe('a key whose consumer was deactivated after another instance cached it', () => {
  test('gets 403 AUTH_CONSUMER_INACTIVE on a non-metered route, audited as authorization_failed', async () => {
    const k = await keyCachedOnB()
    await updateOnA(k.consumerId, { active: false })
    const correlationId = `cached-inactive-plain-${crypto.randomUUID()}`
    expect(
      await errorOf(await b.get(BALANCE, { headers: fresh({ ...bearer(k.key), 'x-correlation-id': correlationId }) })),
    ).toEqual({ status: 403, code: 'AUTH_CONSUMER_INACTIVE' })
    expect((await refusalsAudited(correlationId)).map((r) => r.details.error_code)).toEqual(['AUTH_CONSUMER_INACTIVE'])
  })

  test('gets 403 AUTH_CONSUMER_INACTIVE on a metered route, audited as authorization_failed', async () => {
    const k = await keyCachedOnB({ credit: 1000 })
    await updateOnA(k.consumerId, { active: false })
    const correlationId = `cached-inactive-metered-${crypto.randomUUID()}`
    expect(
      await errorOf(
        await b.get(METERED_PATH, { headers: fresh({ ...bearer(k.key), 'x-correlation-id': correlationId }) }),
      ),
    ).toEqual({ status: 403, code: 'AUTH_CONSUMER_INACTIVE' })
    expect((await refusalsAudited(correlationId)).map((r) => r.details.error_code)).toEqual(['AUTH_CONSUMER_INACTIVE'])
  })
})

describe('a tier change after another instance cached the key', () => {
  test('applies the new tier’s ceilings on that instance’s next non-metered request', async () => {
    const k = await keyCachedOnB({ tier: 'free' })
    await updateOnA(k.consumerId, { tier: 'starter' })
    const res = await b.get(BALANCE, { headers: bearer(k.key) })
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-policy')).toContain(STARTER_MINUTE)
  })

  test('applies the new tier’s ceilings on that instance’s next metered request', async () => {
    const k = await keyCachedOnB({ tier: 'free', credit: 1000 })
    await updateOnA(k.consumerId, { tier: 'starter' })
    const res = await b.get(METERED_PATH, { headers: bearer(k.key) })
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-policy')).toContain(STARTER_MINUTE)
  })
})

describe('an unknown key', () => {
  test('is never cached', async () => {
    const before = b.deps.keyCache.size
    for (const path of [BALANCE, METERED_PATH, BALANCE]) {
      const res = await b.get(path, {
        headers: fresh(bearer(`svc_free_unknown${crypto.randomUUID().replaceAll('-', '')}`)),
      })
      expect(res.status).toBe(401)
      await res.arrayBuffer()
    }
    expect(b.deps.keyCache.size).toBe(before)
  })
})
