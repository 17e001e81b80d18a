/**
 * Every error answer is the one the OpenAPI document gives for its operation and status (issue 27
 * item 13): a fuzz-style walk over production and sandbox routes — no key, a bad key, a key without
 * the scope, bad input, a failed checksum, a missing Idempotency-Key, every sandbox knob that
 * injects a failure, the reserved error orgs, the public mirror's refusals — each answer validated
 * by Ajv (JSON Schema 2020-12, as OpenAPI 3.1 is) against
 * `paths[path][method].responses[status].content['application/json'].schema`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

type Json = Record<string, any>

let app: TestApp
let doc: Json
let key = ''
let keyWithoutScope = ''

beforeAll(async () => {
  app = await startApp()
  doc = await (await app.get('/openapi.json')).json()
  const consumer = await createConsumer(app, 'professional')
  key = (await createKey(app, consumer.id)).key
  keyWithoutScope = (await createKey(app, consumer.id, ['read:changes'])).key
}, 30_000)
afterAll(() => app.stop())

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true })
addFormats(ajv)

/** The documented operation at a concrete path, as a client would find it. */
function operationAt(method: string, path: string): { template: string; op: Json } | null {
  for (const [template, ops] of Object.entries<Json>(doc.paths)) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`)
    const op = ops[method.toLowerCase()]
    if (op && re.test(path)) return { template, op }
  }
  return null
}

const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
/** Ajv's complaints about `body` as the answer `status` of `method path`, or why there is no schema to ask. */
function complaints(method: string, path: string, status: number, body: unknown): string[] {
  const found = operationAt(method, path)
  if (!found) return [`no documented operation for ${method} ${path}`]
  const schema = found.op.responses?.[String(status)]?.content?.['application/json']?.schema
  if (!schema) return [`${found.op.operationId}: status ${status} is not documented`]
  const id = `${found.op.operationId} ${status}`
  let validate = compiled.get(id)
  if (!validate) {
    // components.schemas as $defs, so the response schema's refs resolve within one schema
    const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'))
    const root = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'))
    validate = ajv.compile({ ...root, $defs: defs })
    compiled.set(id, validate)
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map((e) => `${found.op.operationId} ${status}: ${e.instancePath || '/'} ${e.message}`)
}

interface Probe {
  name: string
  method: string
  path: string
  headers?: () => Record<string, string>
  body?: unknown
}

const VAT = {
  org_number: '818000006',
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
}
const synthetic = () => ({ authorization: `Bearer svc_sandbox_test_fuzz${crypto.randomUUID().slice(0, 8)}` })
const withKey = () => bearer(key)

const PRODUCTION: Probe[] = [
  { name: 'a keyed read with no key', method: 'GET', path: '/api/v1/company/818000006/summary' },
  {
    name: 'a keyed read with an unknown key',
    method: 'GET',
    path: '/api/v1/company/818000006/summary',
    headers: () => bearer('svc_live_not_a_key_at_all'),
  },
  {
    name: 'a keyed read with the sandbox bearer',
    method: 'GET',
    path: '/api/v1/company/818000006/context',
    headers: synthetic,
  },
  {
    name: 'a keyed read with a key lacking its scope',
    method: 'GET',
    path: '/api/v1/company/818000006/summary',
    headers: () => bearer(keyWithoutScope),
  },
  { name: 'an org number failing MOD-11', method: 'GET', path: '/api/v1/company/123456789/summary', headers: withKey },
  {
    name: 'an org number that is not nine digits',
    method: 'GET',
    path: '/api/v1/company/abc/context',
    headers: withKey,
  },
  { name: 'a read with no credits', method: 'GET', path: '/api/v1/company/818000006/summary', headers: withKey },
  { name: 'a search name too short', method: 'GET', path: '/api/v1/company/search?name=x', headers: withKey },
  {
    name: 'a horizon out of range',
    method: 'GET',
    path: '/api/v1/company/818000006/deadlines?horizon_months=99',
    headers: withKey,
  },
  { name: 'a public calendar year out of range', method: 'GET', path: '/api/v1/public/deadlines?year=1900' },
  {
    name: 'public obligations for an unknown entity type',
    method: 'GET',
    path: '/api/v1/public/obligations?entity_type=XYZ',
  },
  {
    name: 'bulk status with a malformed list',
    method: 'GET',
    path: '/api/v1/public/company-status?org_numbers=12,abc',
  },
  { name: 'an exchange rate for no currency', method: 'GET', path: '/api/v1/tools/exchange-rate?currency=1' },
  { name: 'the explainer without an error code', method: 'POST', path: '/api/v1/explain', body: { context: {} } },
  {
    name: 'a live execute without Idempotency-Key',
    method: 'POST',
    path: '/api/v1/actions/execute',
    headers: withKey,
    body: VAT,
  },
  {
    name: 'a fullmakt request with a malformed body',
    method: 'POST',
    path: '/api/v1/fullmakt/request',
    headers: withKey,
    body: { agent_principal_id: 'x' },
  },
  {
    name: 'a top-up under the minimum',
    method: 'POST',
    path: '/api/v1/billing/topup-requests',
    headers: withKey,
    body: { amount_ore: 1 },
  },
  {
    name: 'an admin route with a wrong token',
    method: 'GET',
    path: '/api/v1/admin/jobs',
    headers: () => bearer('not-the-admin-token'),
  },
  { name: 'a session route with a key', method: 'GET', path: '/api/v1/account/me', headers: withKey },
  {
    name: 'a saved profile that does not exist',
    method: 'GET',
    path: '/api/v1/profiles/00000000-0000-4000-8000-000000000000',
    headers: withKey,
  },
]

const SANDBOX: Probe[] = [
  { name: 'an org outside the sandbox series', method: 'GET', path: '/api/v1/sandbox/company/123456789/context' },
  { name: 'an org number that is not nine digits', method: 'GET', path: '/api/v1/sandbox/company/12/summary' },
  {
    name: 'the public mirror asked for another org',
    method: 'GET',
    path: '/api/v1/sandbox/public/company/818000006/context',
  },
  ...[
    'missing_delegation',
    'invalid_token',
    'validation_error',
    'scope_missing',
    'portal_timeout',
    'invalid_certificate',
    'malformed_payload',
    'upstream_5xx',
  ].flatMap((knob): Probe[] => [
    {
      name: `simulate_error=${knob} on a read`,
      method: 'GET',
      path: `/api/v1/sandbox/company/818000006/context?simulate_error=${knob}`,
    },
    {
      name: `simulate_error=${knob} on the public mirror`,
      method: 'GET',
      path: `/api/v1/sandbox/public/company/999999999/obligations?simulate_error=${knob}`,
    },
    {
      name: `simulate_error=${knob} on a dry run`,
      method: 'POST',
      path: `/api/v1/sandbox/actions/execute?dry_run=true&simulate_error=${knob}`,
      body: VAT,
    },
  ]),
  {
    name: 'an unknown simulate_error',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/context?simulate_error=nope',
  },
  {
    name: 'simulate_latency out of range',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/context?simulate_latency=99999',
  },
  {
    name: 'a malformed mock_date',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/deadlines?mock_date=2026-13-01',
  },
  {
    name: 'as_of without the synthetic bearer',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/deadlines?as_of=2026-06-01',
  },
  ...['999000901', '999000902', '999000903', '999000904'].map(
    (org): Probe => ({
      name: `reserved error org ${org}`,
      method: 'GET',
      path: `/api/v1/sandbox/company/${org}/verify`,
    }),
  ),
  ...['error_500', 'timeout', 'rate_limit'].map(
    (v): Probe => ({
      name: `X-Service-Simulate: ${v}`,
      method: 'GET',
      path: '/api/v1/sandbox/company/818000006/summary',
      headers: () => ({ ...synthetic(), 'x-service-simulate': v }),
    }),
  ),
  {
    name: 'X-Service-Simulate with a real key',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/summary',
    headers: () => ({ ...withKey(), 'x-service-simulate': 'error_500' }),
  },
  {
    name: 'an unknown X-Service-Simulate value',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/summary',
    headers: () => ({ ...synthetic(), 'x-service-simulate': 'nope' }),
  },
  {
    name: 'a synthetic bearer with a bad suffix',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/context',
    headers: () => ({ authorization: 'Bearer svc_sandbox_test_bad suffix!' }),
  },
  {
    name: 'an unknown real key',
    method: 'GET',
    path: '/api/v1/sandbox/company/818000006/context',
    headers: () => bearer('svc_live_not_a_key_at_all'),
  },
  {
    name: 'a live execute without Idempotency-Key',
    method: 'POST',
    path: '/api/v1/sandbox/actions/execute',
    headers: synthetic,
    body: VAT,
  },
  {
    name: 'a live execute without an approval token',
    method: 'POST',
    path: '/api/v1/sandbox/actions/execute',
    headers: () => ({ ...synthetic(), 'idempotency-key': crypto.randomUUID() }),
    body: VAT,
  },
  {
    name: 'a dry run with the magic zero revenue',
    method: 'POST',
    path: '/api/v1/sandbox/actions/execute?dry_run=true',
    body: { ...VAT, payload: { total_revenue_nok: 0 } },
  },
  {
    name: 'a plan for an org outside the sandbox',
    method: 'POST',
    path: '/api/v1/sandbox/actions/plan',
    body: { ...VAT, org_number: '123456789' },
  },
  {
    name: 'a plan with a malformed body',
    method: 'POST',
    path: '/api/v1/sandbox/actions/plan',
    body: { org_number: 'x' },
  },
  {
    name: 'an approval token with a malformed body',
    method: 'POST',
    path: '/api/v1/sandbox/auth/approval-token',
    body: {},
  },
  {
    name: 'a public-mirror plan over 32 KiB',
    method: 'POST',
    path: '/api/v1/sandbox/public/actions/plan',
    body: { ...VAT, org_number: '999999999', payload: { note: 'x'.repeat(40_000) } },
  },
  {
    name: 'a public-mirror plan for another org',
    method: 'POST',
    path: '/api/v1/sandbox/public/actions/plan',
    body: VAT,
  },
  {
    name: 'a subscription test without Idempotency-Key',
    method: 'POST',
    path: '/api/v1/sandbox/subscriptions/test',
    headers: synthetic,
    body: { event_type: 'accounts_filed' },
  },
]

async function send(p: Probe): Promise<{ status: number; body: unknown }> {
  const res = await app.send(p.method, p.path, p.body, { ...freshIp(), ...(p.headers?.() ?? {}) })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text) }
}

describe('error answers match the OpenAPI document', () => {
  test.each(PRODUCTION.map((p) => [p.name, p] as const))('production: %s', async (_, p) => {
    const { status, body } = await send(p)
    expect(status).toBeGreaterThanOrEqual(400)
    expect(complaints(p.method, p.path.split('?')[0]!, status, body)).toEqual([])
  })

  test.each(SANDBOX.map((p) => [p.name, p] as const))('sandbox: %s', async (_, p) => {
    const { status, body } = await send(p)
    expect(status).toBeGreaterThanOrEqual(400)
    expect(complaints(p.method, p.path.split('?')[0]!, status, body)).toEqual([])
  })

  test('the walk can fail: a sandbox error (Oslo-time _meta) is refused by the production error envelope', async () => {
    const { status, body } = await send(SANDBOX[0]!)
    expect(status).toBe(404)
    const production = ajv.compile({
      $ref: '#/$defs/ErrorEnvelope',
      $defs: JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')),
    })
    expect(production(body)).toBe(false)
  })
})
