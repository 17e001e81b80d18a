/**
 * Test-tier keys (svc_test_…, issue 15 item 7): minted by the operator and in the dashboard; on the
 * production routes they get the sandbox's synthetic answers, marked in `_meta`, never charged and
 * never sent upstream; operations without a synthetic answer refuse them with TEST_KEY_PRODUCTION_ONLY.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, freshIp, postForm, signIn } from '../helpers.ts'
import { SANDBOX_NOTICE } from '../../src/pipeline/sandbox.ts'
import { hasValidCheckDigit } from '../../src/lib/org-number.ts'
import { Value } from '@sinclair/typebox/value'
import { allOperations, type OperationId } from '../../src/operations/index.ts'

/** Where `data` breaks the production response schema the OpenAPI document gives a client: none when it fits. */
const schemaErrors = (operationId: OperationId, data: unknown) =>
  [...Value.Errors(allOperations.find((o) => o.id === operationId)!.response!, data)].map(
    (e) => `${e.path} ${e.message}`,
  )

/** A register that refuses everything and counts what reaches it. */
let registerHits = 0
const register = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: () => {
    registerHits++
    return new Response('down', { status: 500 })
  },
})

let app: TestApp
let consumerId: string
let testKey: string
let liveKey: string
const ORG = '818000006'

async function mintTestKey(consumer: string): Promise<Response> {
  return app.send('POST', '/api/v1/admin/keys', { consumer_id: consumer, test: true }, admin)
}

beforeAll(async () => {
  app = await startApp({ env: { BUSINESS_REGISTER_URL: `http://127.0.0.1:${register.port}` } })
  consumerId = (await createConsumer(app, 'starter')).id
  await addCredits(app, consumerId, 10_000)
  testKey = (await (await mintTestKey(consumerId)).json()).data.plaintext_key
  liveKey = (await createKey(app, consumerId)).key
})
afterAll(async () => {
  await app.stop()
  register.stop(true)
})

const ledgerRows = async () =>
  (
    await app.deps.sql<{ n: number }[]>`select count(*)::int as n from credit_ledger where consumer_id = ${consumerId}`
  )[0]!.n
const balance = async () =>
  (await (await app.get('/api/v1/account/credits/balance', { headers: bearer(liveKey) })).json()).data.balance_ore

test('the operator mints a test key: svc_test_ prefix, marked test in its metadata', async () => {
  const res = await mintTestKey((await createConsumer(app)).id)
  expect(res.status).toBe(201)
  const { data } = await res.json()
  expect(data.plaintext_key).toStartWith('svc_test_')
  expect(data.key).toMatchObject({ test: true, display_prefix: expect.stringMatching(/^svc_test_/) })
})

test('a key minted without `test` is a production key', async () => {
  const { data } = await (
    await app.send('POST', '/api/v1/admin/keys', { consumer_id: (await createConsumer(app, 'starter')).id }, admin)
  ).json()
  expect(data.plaintext_key).toStartWith('svc_live_')
  expect(data.key.test).toBe(false)
})

test('the dashboard mints a test key when its box is ticked', async () => {
  const s = await signIn(app)
  const res = await postForm(
    app,
    '/dashboard/keys',
    { csrf_token: s.csrf, label: 'rehearsal', test: 'true' },
    { cookie: s.cookie },
  )
  expect(res.status).toBe(200)
  expect(await res.text()).toMatch(/svc_test_[A-Za-z0-9]+/)
})

test('the account API mints a test key for the signed-in owner', async () => {
  const s = await signIn(app)
  const res = await app.send(
    'POST',
    '/api/v1/account/keys',
    { test: true, label: 'ci' },
    { cookie: s.cookie, 'x-csrf-token': s.csrf },
  )
  expect(res.status).toBe(201)
  const { data } = await res.json()
  expect(data.plaintext_key).toStartWith('svc_test_')
  expect(data.key.test).toBe(true)
})

test('a test key on a company read gets the production shape over the sandbox’s synthetic company, marked is_test and is_sandbox', async () => {
  const res = await app.get(`/api/v1/company/${ORG}/summary`, { headers: bearer(testKey) })
  expect(res.status).toBe(200)
  const body = await res.json()
  expect(schemaErrors('getCompanySummary', body.data)).toEqual([])
  expect(body.data.org_number).toBe(ORG)
  expect(body._meta).toMatchObject({
    is_test: true,
    is_sandbox: true,
    sandbox_notice: SANDBOX_NOTICE,
    served_from: 'static',
    schema_version: '1.0.7',
  })
  expect(body._meta.response_hash).toMatch(/^sha256:/)
})

test('every company read a test key can make answers the production contract: the same schema a live key’s answer has', async () => {
  const routes = [
    ['summary', 'getCompanySummary'],
    ['context', 'getCompanyContext'],
    ['verify', 'verifyCompany'],
    ['authority', 'getCompanyAuthority'],
    ['accounts', 'getCompanyAccounts'],
    ['obligations', 'getCompanyObligations'],
    ['deadlines', 'getCompanyDeadlines'],
  ] as const
  for (const [route, id] of routes) {
    const body = await (await app.get(`/api/v1/company/${ORG}/${route}`, { headers: bearer(testKey) })).json()
    expect([route, schemaErrors(id, body.data)]).toEqual([route, []])
  }
  const context = (await (await app.get(`/api/v1/company/${ORG}/context`, { headers: bearer(testKey) })).json()).data
  expect(context.data_tier).toBe('tier_1')
  expect(context.org_form.code).toBe('AS')
})

test('a test key reads its own account: the balance (with what it means for a test key), the usage, a top-up request', async () => {
  const b = await app.get('/api/v1/account/credits/balance', { headers: { ...bearer(testKey), ...freshIp() } })
  expect(b.status).toBe(200)
  const balanceBody = await b.json()
  expect(balanceBody.data.balance_ore).toBe(await balance())
  expect(balanceBody.data.test_key_note_en).toContain('never draw credits')
  expect(balanceBody._meta.is_test).toBe(true)
  expect((await app.get('/api/v1/account/usage', { headers: { ...bearer(testKey), ...freshIp() } })).status).toBe(200)
  expect(
    (
      await app.send(
        'POST',
        '/api/v1/billing/topup-requests',
        { amount_ore: 5000 },
        { ...bearer(testKey), ...freshIp() },
      )
    ).status,
  ).toBe(201)
  const tool = await mcpCall(testKey, 'get_credit_balance', {})
  expect(tool.isError).toBeUndefined()
  expect(tool.structuredContent.result.balance_ore).toBe(await balance())
})

test('a test key never reaches the register and moves no credits', async () => {
  const hits = registerHits
  const rows = await ledgerRows()
  const before = await balance()
  for (const route of ['summary', 'context', 'verify', 'authority', 'accounts', 'obligations', 'deadlines']) {
    expect({
      route,
      status: (await app.get(`/api/v1/company/${ORG}/${route}`, { headers: bearer(testKey) })).status,
    }).toEqual({ route, status: 200 })
  }
  expect(registerHits).toBe(hits)
  expect(await ledgerRows()).toBe(rows)
  expect(await balance()).toBe(before)
})

/** A valid organisation number no other test has read, so no cached answer stands in for the register. */
function uncachedOrg(): string {
  for (;;) {
    const org = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
    if (hasValidCheckDigit(org) && !org.startsWith('99966') && !org.startsWith('99977')) return org
  }
}

test('the same read with a production key does reach the register (the counter sees it)', async () => {
  const hits = registerHits
  await app.get(`/api/v1/company/${uncachedOrg()}/context`, { headers: bearer(liveKey) })
  expect(registerHits).toBeGreaterThan(hits)
})

test('a test key on an operation the sandbox cannot answer is refused 403 TEST_KEY_PRODUCTION_ONLY, changing nothing', async () => {
  const hits = registerHits
  for (const [method, path, body] of [
    ['GET', '/api/v1/company/search?name=posten', undefined],
    ['GET', `/api/v1/company/${ORG}/snapshot`, undefined],
    ['POST', '/api/v1/profiles', { name: 'x', config: {} }],
  ] as const) {
    const res = await app.send(method, path, body, { ...bearer(testKey), ...freshIp() })
    const b = await res.json()
    expect({ path, status: res.status, code: b.error_code }).toEqual({
      path,
      status: 403,
      code: 'TEST_KEY_PRODUCTION_ONLY',
    })
  }
  expect(registerHits).toBe(hits)
  expect(
    (
      await app.deps.sql<
        { n: number }[]
      >`select count(*)::int as n from saved_profiles where consumer_id = ${consumerId}`
    )[0]!.n,
  ).toBe(0)
})

test('a test key still answers to its scopes and its tier like any key', async () => {
  const narrow = (
    await (
      await app.send(
        'POST',
        '/api/v1/admin/keys',
        { consumer_id: consumerId, test: true, scopes: ['read:changes'] },
        admin,
      )
    ).json()
  ).data.plaintext_key
  const res = await app.get(`/api/v1/company/${ORG}/summary`, { headers: bearer(narrow) })
  expect(res.status).toBe(403)
  expect((await res.json()).error_code).toBe('SCOPE_INSUFFICIENT')
})

async function mcpCall(key: string, name: string, args: Record<string, unknown>) {
  const res = await app.send(
    'POST',
    '/api/mcp',
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    { ...bearer(key), accept: 'application/json, text/event-stream' },
  )
  return (await res.json()).result
}

test('over MCP a test key gets the production shape of a company tool, as REST gives it, marked, uncharged, with no upstream read', async () => {
  const hits = registerHits
  const rows = await ledgerRows()
  const result = await mcpCall(testKey, 'get_company_context', { org_number: ORG })
  expect(result.isError).toBeUndefined()
  const rest = await (await app.get(`/api/v1/company/${ORG}/context`, { headers: bearer(testKey) })).json()
  expect(result.structuredContent.result).toEqual(rest.data)
  expect(schemaErrors('getCompanyContext', result.structuredContent.result)).toEqual([])
  expect(result.structuredContent._meta).toMatchObject({ is_test: true, is_sandbox: true })
  expect(registerHits).toBe(hits)
  expect(await ledgerRows()).toBe(rows)
})

test('over MCP a test key calling a tool without a synthetic answer gets TEST_KEY_PRODUCTION_ONLY', async () => {
  const result = await mcpCall(testKey, 'search_companies', { name: 'posten' })
  expect(result.isError).toBe(true)
  expect(result.structuredContent.metadata.error_code).toBe('TEST_KEY_PRODUCTION_ONLY')
})
