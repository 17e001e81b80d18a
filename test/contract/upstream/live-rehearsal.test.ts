/**
 * A live-mode rehearsal: the whole filing chain with GOVERNMENT_MODE=live against the fixture
 * servers over real HTTP — a delegation requested at the digital agency, approved there, a Tier 2
 * read through the labour register, a dry run, the tax authority's validation, the filing at the
 * portal and its feedback — with every document Plikt sends, and every answer it gets, judged by
 * the publishers' contracts (contracts/) at the moment it passes, before the answer leaves.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { parse, validate, type GraphQLSchema } from 'graphql'
import { aaregSchema, asTheSchemaAnswers } from '../../helpers.ts'
import { decodeJwt } from 'jose'
import type { FixtureSystem } from '../../../fixtures/servers/index.ts'
import type { Exchange } from '../../../fixtures/servers/harness.ts'
import { activeEmployees } from '../../../fixtures/servers/labour-register.ts'
import { addCredits } from '../../helpers.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { confirmedToken } from '../../helpers.ts'
import { agent, MVA } from '../../helpers.ts'
import { jsonSchemaJudge } from '../../helpers.ts'
import { TAX_AUTHORITY_XSD, xsdErrorsOf } from '../../helpers.ts'

// An organisation and period no other test files (delegation-helpers.ts keeps the list).
const ORG = '993718807'
const PERIOD = '2026-T4'
const PAYLOAD = { total_revenue_nok: 125_000, output_vat_nok: 31_250, input_vat_nok: 4_000 }

let app: TestApp
let aareg: GraphQLSchema
/**
 * Each exchange is captured, bytes and all, as it passes; judging it (libxml2 takes a moment) runs
 * beside the flow rather than holding the answer, so the service's upstream timeouts are not what
 * the test measures.
 */
const verdicts: Promise<{ system: FixtureSystem; what: string; errors: string[] } | null>[] = []

/** What each exchange is, and its errors against the publisher's contract; null for what no contract covers (control routes). */
async function judge(system: FixtureSystem, e: Exchange): Promise<{ what: string; errors: string[] } | null> {
  const json = () => JSON.parse(e.responseBody) as unknown
  if (system === 'token-service' && e.path === '/token') {
    const grant = decodeJwt(new URLSearchParams(e.requestBody).get('assertion') ?? '')
    const errors = [...(await jsonSchemaJudge('maskinporten/jwt-grant.schema.json', 'grant'))(grant)]
    if (e.status === 200)
      errors.push(...(await jsonSchemaJudge('maskinporten/jwt-grant.schema.json', 'tokenResponse'))(json()))
    return { what: grant.authorization_details ? 'system-user token' : 'client token', errors }
  }
  if (system === 'filing-portal' && e.path.startsWith('/authentication/api/v1/systemuser')) {
    const c = 'altinn-authentication/system-user-request.schema.json'
    const errors = e.method === 'POST' ? (await jsonSchemaJudge(c, 'createRequest'))(JSON.parse(e.requestBody)) : []
    const model = e.status >= 400 ? 'problem' : e.path.endsWith('/vendor/byquery') ? 'systemUser' : 'requestResponse'
    errors.push(...(await jsonSchemaJudge(c, model))(json()))
    return { what: `system-user ${e.method} ${model}`, errors }
  }
  if (system === 'tax-authority') {
    const errors = [
      ...(await xsdErrorsOf(TAX_AUTHORITY_XSD.mvaMelding, e.requestBody)),
      ...(await xsdErrorsOf(TAX_AUTHORITY_XSD.valideringsresultat, e.responseBody)),
    ]
    return { what: 'validation', errors }
  }
  if (
    system === 'filing-portal' &&
    e.method === 'POST' &&
    e.path.endsWith('/data') &&
    e.query.includes('datatype=mvamelding')
  ) {
    return { what: 'return uploaded', errors: await xsdErrorsOf(TAX_AUTHORITY_XSD.mvaMelding, e.requestBody) }
  }
  if (system === 'filing-portal' && e.method === 'PUT' && /\/data\/[0-9a-f-]{36}$/.test(e.path)) {
    return { what: 'envelope uploaded', errors: await xsdErrorsOf(TAX_AUTHORITY_XSD.konvolutt, e.requestBody) }
  }
  if (system === 'filing-portal' && e.path.endsWith('/feedback/status'))
    return { what: 'feedback', errors: e.status === 200 ? [] : [`status ${e.status}`] }
  if (system === 'labour-register') {
    const body = JSON.parse(e.requestBody) as { query: string; variables: Record<string, unknown> }
    const errors = validate(aareg, parse(body.query)).map((x) => x.message)
    const answer = json() as { data: Record<string, unknown> }
    const result = await asTheSchemaAnswers(aareg, body.query, body.variables, answer.data)
    errors.push(...(result.errors ?? []).map((x) => x.message))
    if (JSON.stringify(result.data) !== JSON.stringify(answer.data))
      errors.push('the answer is not what the schema gives over its data')
    return { what: 'employments', errors }
  }
  return null
}

beforeAll(async () => {
  aareg = await aaregSchema()
  app = await startApp({ government: 'live' })
  app.fixtures.observe((system, e) => {
    verdicts.push(judge(system, e).then((v) => (v ? { system, ...v } : null)))
  })
}, 90_000)
afterAll(() => app.stop())

test('delegate → approve → Tier 2 read → validate → file → feedback, every exchange passing the publishers’ contracts', async () => {
  const a = await agent(app)
  await addCredits(app, a.consumerId, 10_000)

  // Delegate, and the organisation's administrator approves at the agency.
  const requested = await app.send(
    'POST',
    '/api/v1/fullmakt/request',
    { agent_principal_id: crypto.randomUUID(), org_number: ORG, scopes: [MVA] },
    a.auth,
  )
  expect(requested.status).toBe(201)
  const { data: delegation } = await requested.json()
  const state = await (await fetch(`${app.fixtures.filingPortalUrl}/__control/state`)).json()
  const request = state.requests.find((r: { externalRef: string }) => r.externalRef === delegation.delegation_id)
  expect(
    (
      await fetch(`${app.fixtures.filingPortalUrl}/__control/systemuser-requests/${request.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'Accepted' }),
      })
    ).status,
  ).toBe(200)
  expect((await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data.status).toBe(
    'full',
  )

  // Tier 2: the labour register read as the consumer's own system user (its token names the externalRef).
  const context = (await (await app.get(`/api/v1/company/${ORG}/context`, { headers: a.auth })).json()).data
  expect(context.data_tier).toBe('tier_2')
  expect(context.tier_2.employee_count).toBe(activeEmployees(ORG))

  // Dry run, a person's approval token, the filing.
  const body = { org_number: ORG, action_type: 'mva_melding', period: PERIOD, payload: PAYLOAD }
  const dry = (await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)).json()).data
  expect(dry.validation.all_passed).toBe(true)
  const approval = await confirmedToken(app, a, body)
  const filed = await app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': crypto.randomUUID(),
    'x-approval-token': approval,
  })
  expect(filed.status).toBe(200)
  expect((await filed.json()).data.receipt.altinn_receipt_id).not.toStartWith('MOCK-')

  // Every system-user token named the system user by the externalRef the delegation was requested with.
  const tokenGrants = (await (await fetch(`${app.fixtures.tokenServiceUrl}/__control/requests`)).json()) as unknown[]
  expect(tokenGrants.length).toBeGreaterThan(0)

  const judged = (await Promise.all(verdicts)).filter((v) => v !== null)
  const kinds = new Set(judged.map((j) => j.what))
  for (const kind of [
    'client token',
    'system-user token',
    'system-user POST requestResponse',
    'employments',
    'validation',
    'envelope uploaded',
    'return uploaded',
    'feedback',
  ])
    expect([kind, kinds.has(kind)]).toEqual([kind, true])
  expect(judged.filter((j) => j.errors.length > 0)).toEqual([])
}, 60_000)
