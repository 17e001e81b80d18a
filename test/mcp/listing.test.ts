/**
 * How tools/list describes a tool (MCP 2025-06-18): a title, the schema of what a call answers
 * (`outputSchema`) and the behaviour hints hosts use to decide when to ask a person first, all
 * derived from the registry. The SDK client checks every call's `structuredContent` against the
 * listed `outputSchema` itself; the tests check it explicitly as well.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { connectMcp } from '../helpers.ts'
import { byScenario } from '../../fixtures/data/companies.ts'
import { allOperations, type Operation } from '../../src/operations/index.ts'
import { toolAnnotations } from '../../src/mcp/listing.ts'
import { TOOLS } from '../../src/mcp/tools.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 100_000)
  key = (await createKey(app, c.id)).key
  // the portfolio tools answer about a portfolio of the key's own account
  const res = await app.post('/api/v1/portfolios', { name: 'Listing' }, { headers: bearer(key) })
  const portfolio_id = ((await res.json()) as { data: { portfolio_id: string } }).data.portfolio_id
  ARGS.list_portfolios = {}
  ARGS.set_portfolio_companies = { portfolio_id, org_numbers: [POSTEN] }
  ARGS.get_portfolio_deadlines = { portfolio_id, horizon_months: 6 }
}, 30_000)
afterAll(() => app.stop())

const POSTEN = '984661185'
const PRINCIPAL = crypto.randomUUID()

/** Arguments that make each tool answer (redeem_issuance_token's made-up token answers its failure). */
const ARGS: Record<string, Record<string, unknown>> = {
  explain_compliance_error: { error_code: 'COMPANY_NOT_FOUND', context_org_number: POSTEN },
  get_public_deadlines: { year: 2026 },
  get_public_obligations: { entity_type: 'AS' },
  redeem_issuance_token: { token: 'not-a-real-token' },
  get_credit_balance: {},
  get_pricing: {},
  search_companies: { name: 'posten' },
  get_company_context: { org_number: POSTEN },
  get_company_verification: { org_number: POSTEN },
  get_company_accounts: { org_number: POSTEN },
  get_company_authority: { org_number: POSTEN },
  get_company_summary: { org_number: POSTEN },
  get_company_obligations: { org_number: POSTEN },
  get_company_deadlines: { org_number: POSTEN, horizon_months: 6 },
  get_company_filing_history: { org_number: byScenario('ans'), limit: 5 },
  get_company_profile: { org_number: POSTEN },
  get_exchange_rate: { base: 'NOK', quote: 'EUR' },
  // a fødselsnummer built for the birth date of Posten's general manager in the fixtures
  list_acting_capacity: { fnr: '12046823441', org_number: POSTEN },
  check_authorization: { org_number: POSTEN },
  check_fullmakt: { org_number: POSTEN },
  // requested first, then revoked: the same principal
  request_fullmakt: { agent_principal_id: PRINCIPAL, org_number: POSTEN, scopes: ['skatteetaten:mva-melding'] },
  revoke_fullmakt: { agent_principal_id: PRINCIPAL, reason: 'listing test' },
  validate_action: {
    org_number: POSTEN,
    action_type: 'mva_melding',
    period: '2026-T4',
    payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
  },
  // without an approval token: a dry run
  submit_vat_return: {
    org_number: POSTEN,
    period: '2026-T4',
    payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
  },
}

const entry = (id: string): Operation => allOperations.find((o) => o.id === id)!
const validator = new AjvJsonSchemaValidator()

async function listed(client: Client) {
  return new Map((await client.listTools()).tools.map((t) => [t.name, t]))
}

/** Calls a tool and checks its structuredContent against the outputSchema listed for it. */
async function callAndCheck(
  client: Client,
  tools: Awaited<ReturnType<typeof listed>>,
  name: string,
  args: Record<string, unknown>,
) {
  const schema = tools.get(name)?.outputSchema
  expect([name, schema?.type]).toEqual([name, 'object'])
  // The SDK client refuses (rejects) a structuredContent that does not match the listed schema.
  const res = await client.callTool({ name, arguments: args })
  const check = validator.getValidator(schema!)(res.structuredContent)
  expect([name, check.errorMessage]).toEqual([name, undefined])
  return res
}

describe('tools/list', () => {
  test('every tool carries a title, an object outputSchema and the four behaviour hints', async () => {
    // The synthetic bearer is shown every tool name once: for submit_vat_return, the sandbox's own.
    const client = await connectMcp(app, { authorization: 'Bearer svc_sandbox_test_listing' })
    const { tools } = await client.listTools()
    await client.close()
    expect(tools.map((t) => t.name).sort()).toEqual([...new Set(TOOLS.map((t) => t.name))].sort())
    for (const t of tools) {
      expect([t.name, typeof t.title, (t.title ?? '').length > 0]).toEqual([t.name, 'string', true])
      expect([t.name, t.outputSchema?.type]).toEqual([t.name, 'object'])
      const hints = t.annotations ?? {}
      expect([
        t.name,
        typeof hints.readOnlyHint,
        typeof hints.destructiveHint,
        typeof hints.idempotentHint,
        typeof hints.openWorldHint,
      ]).toEqual([t.name, 'boolean', 'boolean', 'boolean', 'boolean'])
    }
  })

  test('the hints listed are the ones the registry entry implies', async () => {
    const client = await connectMcp(app, bearer(key))
    const { tools } = await client.listTools()
    await client.close()
    for (const t of tools)
      expect([t.name, t.annotations]).toEqual([
        t.name,
        toolAnnotations(TOOLS.find((x) => x.name === t.name)!.operation),
      ])
  })
})

describe('behaviour hints, from the registry entry', () => {
  test('a read is read-only, idempotent and not destructive', () => {
    expect(toolAnnotations(entry('getPublicObligations'))).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    })
  })

  test('a POST that only reads (its input is a body) is read-only', () => {
    expect(toolAnnotations(entry('explainError')).readOnlyHint).toBe(true)
    expect(toolAnnotations(entry('getCompanyProfile')).readOnlyHint).toBe(true)
  })

  test('a write that only adds is neither read-only nor destructive, and not idempotent', () => {
    expect(toolAnnotations(entry('redeemIssuanceToken'))).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    })
  })

  test('a revoke is destructive, and idempotent', () => {
    expect(toolAnnotations(entry('revokeAccountKey'))).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
  })

  test('revoking a principal by POST is destructive: an MCP host asks a person before it (declared on the operation)', () => {
    expect(toolAnnotations(entry('revokeFullmakt'))).toMatchObject({ readOnlyHint: false, destructiveHint: true })
  })

  test('a filing (it needs an approval token) is destructive, and idempotent under its required key', () => {
    expect(toolAnnotations(entry('executeSandboxAction'))).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
  })

  test('a read of an outside system is open-world; a read of our own rulebook is not', () => {
    expect(toolAnnotations(entry('getCompanySummary')).openWorldHint).toBe(true)
    expect(toolAnnotations(entry('getExchangeRate')).openWorldHint).toBe(true)
    expect(toolAnnotations(entry('getPublicObligations')).openWorldHint).toBe(false)
    expect(toolAnnotations(entry('getPricing')).openWorldHint).toBe(false)
  })
})

describe('structuredContent matches the outputSchema listed', () => {
  test('for a real call of every tool', async () => {
    const client = await connectMcp(app, bearer(key))
    const tools = await listed(client)
    expect([...tools.keys()].sort()).toEqual(Object.keys(ARGS).sort())
    for (const [name, args] of Object.entries(ARGS)) {
      const res = await callAndCheck(client, tools, name, args)
      if (name !== 'redeem_issuance_token') expect([name, res.isError ?? false]).toEqual([name, false])
    }
    await client.close()
  })

  test('for a failed call: result null, with the error in metadata', async () => {
    const client = await connectMcp(app, bearer(key))
    const res = await callAndCheck(client, await listed(client), 'get_company_summary', {
      org_number: byScenario('unknown'),
    })
    expect(res.isError).toBe(true)
    expect((res.structuredContent as { metadata: { error_code: string } }).metadata.error_code).toBe(
      'COMPANY_NOT_FOUND',
    )
    await client.close()
  })

  test('under the sandbox bearer: mirrored tools answer the sandbox shape, others their refusal, keyless tools as without a key', async () => {
    const client = await connectMcp(app, { authorization: 'Bearer svc_sandbox_test_listing' })
    const tools = await listed(client)
    for (const [name, args] of Object.entries(ARGS)) {
      const sandboxArgs = 'org_number' in args ? { org_number: '818000006' } : args
      await callAndCheck(client, tools, name, sandboxArgs)
    }
    const vat = { org_number: '818000006', period: '2026-T1', payload: { total_revenue_nok: 125_000 } }
    // A dry run, and a failed live call (no token) with the write-side members.
    await callAndCheck(client, tools, 'submit_vat_return', vat)
    await callAndCheck(client, tools, 'submit_vat_return', {
      ...vat,
      dry_run: false,
      idempotency_key: crypto.randomUUID(),
    })
    await client.close()
  })
})
