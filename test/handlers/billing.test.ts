/**
 * Prepaid credits: the balance, top-up requests and their approval, idempotency on money-moving
 * routes, and the price list (spec: Credit balance, Top-up request, Price list, Limits).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { allOperations } from '../../src/operations/index.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, postForm, signIn, type Session } from '../helpers.ts'

let app: TestApp
// The first file of a run starts the embedded database: allow more than the 5 s hook default on a busy machine.
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const HOUR = 3_600_000
const TOPUP = '/api/v1/billing/topup-requests'

/** A fresh free account with one key. */
async function account(): Promise<{ id: string; key: string }> {
  const c = await createConsumer(app)
  return { id: c.id, key: (await createKey(app, c.id)).key }
}

function topup(key: string, amountOre: number, headers: Record<string, string> = {}): Promise<Response> {
  return app.send('POST', TOPUP, { amount_ore: amountOre }, { ...bearer(key), ...headers })
}

async function pendingTopup(key: string, amountOre: number): Promise<{ id: string; approval_url: string }> {
  const res = await topup(key, amountOre)
  if (res.status !== 201) throw new Error(`topup: ${res.status} ${await res.text()}`)
  return (await res.json()).data
}

async function balanceOf(key: string): Promise<{ balance_ore: number; updated_at: string | null }> {
  const res = await app.send('GET', '/api/v1/account/credits/balance', undefined, bearer(key))
  if (res.status !== 200) throw new Error(`balance: ${res.status} ${await res.text()}`)
  return (await res.json()).data
}

function operatorApprove(id: string): Promise<Response> {
  return app.send('POST', `/api/v1/admin/topup-requests/${id}/approve`, undefined, admin)
}

async function count(query: Promise<{ n: number }[]>): Promise<number> {
  return (await query)[0]!.n
}

const topupRows = (consumerId: string) =>
  count(app.deps.sql<{ n: number }[]>`select count(*)::int as n from topup_requests where consumer_id = ${consumerId}`)
const ledgerRows = (consumerId: string, kind: string) =>
  count(
    app.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from credit_ledger where consumer_id = ${consumerId} and kind = ${kind}`,
  )

async function withClockAdvanced<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  app.clock.advance(ms)
  try {
    return await fn()
  } finally {
    app.clock.set(PINNED_NOW)
  }
}

function approvalPage(s: Session | null, id: string): Promise<Response> {
  return app.get(`/billing/topup/${id}`, { headers: s ? { cookie: s.cookie } : {}, redirect: 'manual' })
}

function approveForm(s: Session | null, id: string): Promise<Response> {
  return postForm(app, `/billing/topup/${id}/approve`, { csrf_token: s?.csrf ?? 'none' }, s ? { cookie: s.cookie } : {})
}

describe('GET /api/v1/account/credits/balance', () => {
  test('a new account has balance 0 in NOK, updated_at null and a top_up_url', async () => {
    const { key } = await account()
    const res = await app.send('GET', '/api/v1/account/credits/balance', undefined, bearer(key))
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(Object.keys(data).sort()).toEqual(['balance_ore', 'currency', 'top_up_url', 'updated_at'])
    expect(data).toMatchObject({ balance_ore: 0, currency: 'NOK', updated_at: null })
    expect(data.top_up_url).toStartWith(app.url)
  })

  test('after an operator credit updated_at is set and the balance shows it', async () => {
    const { id, key } = await account()
    expect(await addCredits(app, id, 2500)).toBe(2500)
    const data = await balanceOf(key)
    expect(data.balance_ore).toBe(2500)
    expect(data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  })

  test('needs a key', async () => {
    const res = await app.send('GET', '/api/v1/account/credits/balance')
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_MISSING')
  })
})

describe('POST /api/v1/billing/topup-requests', () => {
  test('999 øre answers 400 TOPUP_BELOW_MINIMUM with requested_ore', async () => {
    const { key } = await account()
    const res = await topup(key, 999)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error_code).toBe('TOPUP_BELOW_MINIMUM')
    expect(body.requested_ore).toBe(999)
  })

  test('100001 øre answers 400 TOPUP_CEILING_EXCEEDED naming requested_ore and ceiling_ore', async () => {
    const { key } = await account()
    const res = await topup(key, 100_001)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ error_code: 'TOPUP_CEILING_EXCEEDED', requested_ore: 100_001, ceiling_ore: 100_000 })
  })

  test.each([1000, 100_000])(
    '%p øre answers 201 pending with an approval_url to /billing/topup/<id>',
    async (amount) => {
      const { key } = await account()
      const res = await topup(key, amount)
      expect(res.status).toBe(201)
      const { data } = await res.json()
      expect(data).toMatchObject({ amount_ore: amount, status: 'pending' })
      expect(data.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(data.approval_url).toBe(`${app.url}/billing/topup/${data.id}`)
      expect(Date.parse(data.expires_at) - Date.parse(PINNED_NOW)).toBe(24 * HOUR)
    },
  )

  test('a request charges nothing: balance and ledger are unchanged', async () => {
    const { id, key } = await account()
    await addCredits(app, id, 5000)
    const before = await balanceOf(key)
    await pendingTopup(key, 20_000)
    expect(await balanceOf(key)).toEqual(before)
    expect(await ledgerRows(id, 'topup')).toBe(0)
  })

  test('a non-integer amount is a validation error', async () => {
    const { key } = await account()
    const res = await app.send('POST', TOPUP, { amount_ore: 1500.5 }, bearer(key))
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
  })

  test('at most 3 pending per account: the 4th answers 429 RATE_LIMITED', async () => {
    const { id, key } = await account()
    for (let i = 0; i < 3; i++) await pendingTopup(key, 1000)
    const res = await topup(key, 1000)
    expect(res.status).toBe(429)
    expect((await res.json()).error_code).toBe('RATE_LIMITED')
    expect(await topupRows(id)).toBe(3)
  })

  test('the pending-cap 429 says how long to wait (Retry-After), as RATE_LIMITED’s fix hint promises', async () => {
    const { key } = await account()
    for (let i = 0; i < 3; i++) await pendingTopup(key, 1000)
    const res = await topup(key, 1000)
    expect(res.status).toBe(429)
    expect((await res.json()).fix_hint).toContain('Retry-After')
    const wait = Number(res.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(24 * 3600)
  })

  test('concurrent requests from two keys never leave more than 3 pending', async () => {
    const { id, key } = await account()
    const other = (await createKey(app, id)).key
    const responses = await Promise.all([key, other, key, other, key, other].map((k) => topup(k, 1000)))
    const statuses = responses.map((r) => r.status).sort()
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429])
    expect(await topupRows(id)).toBe(3)
  })

  test('5 requests an hour per key: the 6th answers 429 RATE_LIMITED even when some were refused; another key of the account still asks', async () => {
    const { id, key } = await account()
    expect((await topup(key, 999)).status).toBe(400)
    expect((await topup(key, 100_001)).status).toBe(400)
    const a = await pendingTopup(key, 1000)
    await pendingTopup(key, 1000)
    await pendingTopup(key, 1000)
    // Under the pending cap again, so only the per-key limit can refuse the next one.
    expect((await operatorApprove(a.id)).status).toBe(200)
    const sixth = await topup(key, 1000)
    expect(sixth.status).toBe(429)
    const body = await sixth.json()
    expect(body.error_code).toBe('RATE_LIMITED')
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await topupRows(id)).toBe(3)

    const other = await createKey(app, id)
    expect((await topup(other.key, 1000)).status).toBe(201)
  })

  test('after 24 hours a request no longer counts as pending', async () => {
    const { key } = await account()
    for (let i = 0; i < 3; i++) await pendingTopup(key, 1000)
    const res = await withClockAdvanced(24 * HOUR + 1000, () => topup(key, 1000))
    expect(res.status).toBe(201)
  })

  test('a request is still pending just before 24 hours', async () => {
    const { key } = await account()
    for (let i = 0; i < 3; i++) await pendingTopup(key, 1000)
    const res = await withClockAdvanced(24 * HOUR - 1000, () => topup(key, 1000))
    expect(res.status).toBe(429)
  })

  test('needs a key; a revoked key answers 401 AUTH_INVALID_KEY', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    expect((await app.send('POST', TOPUP, { amount_ore: 1000 })).status).toBe(401)
    expect((await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)).status).toBe(200)
    const res = await topup(k.key, 1000)
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
  })
})

describe('approval page /billing/topup/:id', () => {
  test('the signed-in owner sees the amount and an approve form', async () => {
    const s = await signIn(app)
    const t = await pendingTopup(s.firstKey!, 4321)
    const res = await approvalPage(s, t.id)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('43,21 kr')
    expect(html).toContain('<strong>pending</strong>')
    expect(html).toContain(`action="/billing/topup/${t.id}/approve"`)
  })

  test('approving answers a 503 page with BILLING_NOT_CONFIGURED and credits nothing', async () => {
    const s = await signIn(app)
    const t = await pendingTopup(s.firstKey!, 5000)
    const res = await approveForm(s, t.id)
    expect(res.status).toBe(503)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(await res.text()).toContain('BILLING_NOT_CONFIGURED')
    expect((await balanceOf(s.firstKey!)).balance_ore).toBe(0)
    const [row] = await app.deps.sql<{ status: string }[]>`select status from topup_requests where id = ${t.id}`
    expect(row!.status).toBe('pending')
  })

  test('approving without the session’s CSRF token is refused (400) and changes nothing', async () => {
    const s = await signIn(app)
    const t = await pendingTopup(s.firstKey!, 5000)
    const res = await postForm(app, `/billing/topup/${t.id}/approve`, { csrf_token: 'forged' }, { cookie: s.cookie })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('VALIDATION_FAILED')
    const [row] = await app.deps.sql<{ status: string }[]>`select status from topup_requests where id = ${t.id}`
    expect(row!.status).toBe('pending')
  })

  test('another account’s session gets 404', async () => {
    const owner = await signIn(app)
    const other = await signIn(app)
    const t = await pendingTopup(owner.firstKey!, 5000)
    const page = await approvalPage(other, t.id)
    expect(page.status).toBe(404)
    expect(await page.text()).not.toContain('50,00 kr')
    expect((await approveForm(other, t.id)).status).toBe(404)
  })

  test('a signed-out visitor is redirected (303) to /login', async () => {
    const owner = await signIn(app)
    const t = await pendingTopup(owner.firstKey!, 5000)
    const page = await approvalPage(null, t.id)
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/login')
    const post = await approveForm(null, t.id)
    expect(post.status).toBe(303)
    expect(post.headers.get('location')).toBe('/login')
  })

  test('an expired request’s page shows expired and offers no approval', async () => {
    const s = await signIn(app)
    const t = await pendingTopup(s.firstKey!, 5000)
    const res = await withClockAdvanced(24 * HOUR + 1000, () => approvalPage(s, t.id))
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<strong>expired</strong>')
    expect(html).not.toContain('/approve"')
  })
})

describe('POST /api/v1/admin/topup-requests/:id/approve (operator)', () => {
  test('credits the amount exactly once and marks the request approved', async () => {
    const { id, key } = await account()
    await addCredits(app, id, 700)
    const t = await pendingTopup(key, 2500)
    const res = await operatorApprove(t.id)
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.balance_ore).toBe(3200)
    expect(data.topup).toMatchObject({ id: t.id, status: 'approved', amount_ore: 2500 })
    expect((await balanceOf(key)).balance_ore).toBe(3200)
    expect(await ledgerRows(id, 'topup')).toBe(1)
  })

  test('a second approval answers 400 VALIDATION_FAILED and credits nothing more', async () => {
    const { id, key } = await account()
    const t = await pendingTopup(key, 2500)
    expect((await operatorApprove(t.id)).status).toBe(200)
    const again = await operatorApprove(t.id)
    expect(again.status).toBe(400)
    expect((await again.json()).error_code).toBe('VALIDATION_FAILED')
    expect((await balanceOf(key)).balance_ore).toBe(2500)
    expect(await ledgerRows(id, 'topup')).toBe(1)
  })

  test('two concurrent approvals credit once', async () => {
    const { id, key } = await account()
    const t = await pendingTopup(key, 3000)
    const responses = await Promise.all([operatorApprove(t.id), operatorApprove(t.id)])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400])
    expect((await balanceOf(key)).balance_ore).toBe(3000)
    expect(await ledgerRows(id, 'topup')).toBe(1)
  })

  test('an expired request cannot be approved (400)', async () => {
    const { id, key } = await account()
    const t = await pendingTopup(key, 2500)
    const res = await withClockAdvanced(24 * HOUR + 1000, () => operatorApprove(t.id))
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
    expect((await balanceOf(key)).balance_ore).toBe(0)
    expect(await ledgerRows(id, 'topup')).toBe(0)
  })

  test('an unknown request answers 404 NOT_FOUND', async () => {
    const res = await operatorApprove(crypto.randomUUID())
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })
})

describe('Idempotency-Key on money-moving routes', () => {
  test('the same key and body twice: the second answer is the stored first one, and one request exists', async () => {
    const { id, key } = await account()
    const idem = { 'idempotency-key': crypto.randomUUID() }
    const first = await topup(key, 1500, idem)
    expect(first.status).toBe(201)
    const a = await first.json()
    const second = await topup(key, 1500, idem)
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    const b = await second.json()
    expect(b.data.id).toBe(a.data.id)
    expect(b).toEqual(a)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(await topupRows(id)).toBe(1)
  })

  test('two concurrent requests with the same key create one request', async () => {
    const { id, key } = await account()
    const idem = { 'idempotency-key': crypto.randomUUID() }
    const responses = await Promise.all([topup(key, 1500, idem), topup(key, 1500, idem)])
    const bodies = await Promise.all(responses.map((r) => r.json()))
    const fresh = responses.findIndex((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)
    expect(fresh).toBeGreaterThanOrEqual(0)
    const other = 1 - fresh
    if (responses[other]!.status === 201) {
      expect(responses[other]!.headers.get('idempotent-replayed')).toBe('true')
      expect(bodies[other].data.id).toBe(bodies[fresh].data.id)
    } else {
      expect(responses[other]!.status).toBe(409)
      expect(bodies[other].error_code).toBe('IDEMPOTENCY_IN_PROGRESS')
    }
    expect(await topupRows(id)).toBe(1)
  })

  test('the same key with a different body answers 422 IDEMPOTENCY_KEY_MISMATCH', async () => {
    const { id, key } = await account()
    const idem = { 'idempotency-key': crypto.randomUUID() }
    expect((await topup(key, 1500, idem)).status).toBe(201)
    const res = await topup(key, 2500, idem)
    expect(res.status).toBe(422)
    expect((await res.json()).error_code).toBe('IDEMPOTENCY_KEY_MISMATCH')
    expect(await topupRows(id)).toBe(1)
  })

  test.each(['not-a-uuid', '12345', 'f47ac10b58cc4372a5670e02b2c3d479'])(
    'a key that is not an RFC 4122 UUID (%p) answers 400 IDEMPOTENCY_KEY_INVALID_FORMAT',
    async (bad) => {
      const { id, key } = await account()
      const res = await topup(key, 1500, { 'idempotency-key': bad })
      expect(res.status).toBe(400)
      expect((await res.json()).error_code).toBe('IDEMPOTENCY_KEY_INVALID_FORMAT')
      expect(await topupRows(id)).toBe(0)
    },
  )

  test('the header is optional', async () => {
    const { id, key } = await account()
    expect((await topup(key, 1500)).status).toBe(201)
    expect((await topup(key, 1500)).status).toBe(201)
    expect(await topupRows(id)).toBe(2)
  })

  test('an operator credit retried with the same key and body credits once', async () => {
    const c = await createConsumer(app)
    const idem = { ...admin, 'idempotency-key': crypto.randomUUID() }
    const body = { consumer_id: c.id, amount_ore: 4000, reason: 'goodwill' }
    const first = await app.send('POST', '/api/v1/admin/credits', body, idem)
    expect(first.status).toBe(200)
    const second = await app.send('POST', '/api/v1/admin/credits', body, idem)
    expect(second.status).toBe(200)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect((await second.json()).data.balance_ore).toBe(4000)
    expect((await first.json()).data.balance_ore).toBe(4000)
    expect(await ledgerRows(c.id, 'admin_credit')).toBe(1)
    const [b] = await app.deps.sql<
      { balance_ore: string }[]
    >`select balance_ore from credit_balances where consumer_id = ${c.id}`
    expect(Number(b!.balance_ore)).toBe(4000)
  })
})

describe('GET /api/v1/pricing', () => {
  test('needs no key and lists NOK prices in øre for exactly the registry’s metered operations', async () => {
    const res = await app.get('/api/v1/pricing')
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.currency).toBe('NOK')
    expect(data.unit).toBe('øre')
    expect(Array.isArray(data.operations)).toBe(true)
    const metered = allOperations.filter((o) => o.costOre > 0)
    expect(data.operations.map((o: { operation_id: string }) => o.operation_id)).toEqual(metered.map((o) => o.id))
    for (const [i, o] of metered.entries())
      expect(data.operations[i]).toMatchObject({ cost_ore: o.costOre, mcp_tool: o.mcpTool, method: o.method })
  })

  test('states the top-up bounds', async () => {
    const { data } = await (await app.get('/api/v1/pricing')).json()
    expect(data.top_up).toMatchObject({
      min_ore: 1000,
      ceiling_ore: 100_000,
      max_pending_requests: 3,
      request_expires_hours: 24,
    })
    expect(data.top_up.top_up_url).toStartWith(app.url)
  })

  test('names the recovery fields of a 402 INSUFFICIENT_CREDITS', async () => {
    const { data } = await (await app.get('/api/v1/pricing')).json()
    expect(data.insufficient_credits).toMatchObject({
      status: 402,
      error_code: 'INSUFFICIENT_CREDITS',
      retryable: false,
      charged: false,
    })
    expect([...data.insufficient_credits.body_fields].sort()).toEqual([
      'balance_ore',
      'cost_ore',
      'docs_url',
      'fix_hint',
      'retryable',
      'top_up_url',
    ])
  })
})
