/**
 * The company-data tools and get_exchange_rate over MCP (`/api/mcp`), with the real SDK client
 * against the real app and its fixture servers: which tools a key sees, the tool envelope, the
 * equality with the REST twin, metering (50 øre per successful call, nothing on failure) and the
 * currency-pair rules of get_exchange_rate.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { byScenario } from '../../fixtures/data/companies.ts'
import { readBalance } from '../../src/store/credits.ts'
import { canonicalJson } from '../../src/lib/canonical-json.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const POSTEN = '984661185'
const UNKNOWN = byScenario('unknown')

const COMPANY_TOOLS = [
  'get_company_summary',
  'get_company_context',
  'get_company_profile',
  'get_company_obligations',
  'get_company_deadlines',
  'get_company_verification',
  'get_company_authority',
  'get_company_accounts',
  'get_company_filing_history',
  'search_companies',
]

/** Arguments that make each company tool succeed for Posten Norge AS. */
const GOOD_ARGS: Record<string, Record<string, unknown>> = {
  get_company_summary: { org_number: POSTEN },
  get_company_context: { org_number: POSTEN },
  get_company_profile: { org_number: POSTEN },
  get_company_obligations: { org_number: POSTEN },
  get_company_deadlines: { org_number: POSTEN, horizon_months: 6 },
  get_company_verification: { org_number: POSTEN },
  get_company_authority: { org_number: POSTEN },
  get_company_accounts: { org_number: POSTEN },
  get_company_filing_history: { org_number: byScenario('ans'), limit: 5 },
  search_companies: { name: 'posten' },
}

const connect = (headers: Record<string, string> = {}): Promise<Client> => connectMcp(app, headers)
const body = toolBody

async function customer(opts: { credits?: number; scopes?: string[] } = {}) {
  const c = await createConsumer(app, 'enterprise')
  if (opts.credits) await addCredits(app, c.id, opts.credits)
  return { id: c.id, key: (await createKey(app, c.id, opts.scopes)).key }
}

const balance = async (consumerId: string) => (await readBalance(app.deps.sql, consumerId)).balance_ore

describe('which tools a key sees', () => {
  test('tools/list for a read:* key includes every company tool and get_exchange_rate', async () => {
    const k = await customer()
    const client = await connect(bearer(k.key))
    const names = (await client.listTools()).tools.map((t) => t.name)
    for (const name of [...COMPANY_TOOLS, 'get_exchange_rate']) expect(names).toContain(name)
    await client.close()
  })

  test('a key with only read:rulebook does not see the company tools, and calling one is JSON-RPC error -32602', async () => {
    const k = await customer({ credits: 10_000, scopes: ['read:rulebook'] })
    const client = await connect(bearer(k.key))
    const names = (await client.listTools()).tools.map((t) => t.name)
    for (const name of COMPANY_TOOLS) expect(names).not.toContain(name)
    expect(names).toContain('get_public_obligations')
    await expect(
      client.callTool({ name: 'get_company_summary', arguments: { org_number: POSTEN } }),
    ).rejects.toMatchObject({ code: -32602 })
    expect(await balance(k.id)).toBe(10_000)
    await client.close()
  })

  test('a key with read:register but not read:portal does not see get_company_filing_history', async () => {
    const k = await customer({ scopes: ['read:register'] })
    const client = await connect(bearer(k.key))
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('get_company_summary')
    expect(names).not.toContain('get_company_filing_history')
    await client.close()
  })
})

describe('search_companies is priced as a company-data read', () => {
  test('its tools/list description says it is charged 50 øre, and that zero hits are not', async () => {
    const k = await customer()
    const client = await connect(bearer(k.key))
    const search = (await client.listTools()).tools.find((t) => t.name === 'search_companies')!
    await client.close()
    expect(search.description).toContain('50 øre per call on company data tools')
    expect(search.description).toContain('zero hits is a failure and is not charged')
  })

  test('a search charges 50 øre, and one with zero hits nothing', async () => {
    const k = await customer({ credits: 1_000 })
    const client = await connect(bearer(k.key))
    expect((await client.callTool({ name: 'search_companies', arguments: { name: 'posten' } })).isError).toBeFalsy()
    expect(await balance(k.id)).toBe(950)
    expect((await client.callTool({ name: 'search_companies', arguments: { name: 'zzzqqqxxx' } })).isError).toBe(true)
    expect(await balance(k.id)).toBe(950)
    await client.close()
  })
})

describe('company tools', () => {
  test('get_company_summary returns {result, justification, metadata, _meta}, result equal to the REST data of /summary', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    const res = await client.callTool({ name: 'get_company_summary', arguments: { org_number: POSTEN } })
    expect(res.isError).toBeFalsy()
    const r = body(res)
    expect(Object.keys(r).sort()).toEqual(['_meta', 'justification', 'metadata', 'result'])
    expect(typeof r.justification).toBe('string')
    expect(r.metadata).toMatchObject({ tool: 'get_company_summary', operation_id: 'getCompanySummary' })
    expect(r._meta.source_snapshot_id).toBeTruthy()
    expect(r._meta.data_source).toContain('Brønnøysundregistrene')
    const rest = await app.get(`/api/v1/company/${POSTEN}/summary`, { headers: { ...bearer(k.key), ...freshIp() } })
    expect(rest.status).toBe(200)
    expect(r.result).toEqual((await rest.json()).data)
    await client.close()
  })

  test('_meta.response_hash is the sha256 of the canonical result, and equals the REST twin’s', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    for (const name of ['get_company_summary', 'get_company_obligations', 'get_company_verification']) {
      const r = body(await client.callTool({ name, arguments: { org_number: POSTEN } }))
      expect([name, r._meta.response_hash]).toEqual([name, `sha256:${sha256Hex(canonicalJson(r.result))}`])
    }
    const mcpSummary = body(await client.callTool({ name: 'get_company_summary', arguments: { org_number: POSTEN } }))
    const rest = (await (
      await app.get(`/api/v1/company/${POSTEN}/summary`, { headers: { ...bearer(k.key), ...freshIp() } })
    ).json()) as { _meta: { response_hash: string } }
    expect(mcpSummary._meta.response_hash).toBe(rest._meta.response_hash)
    await client.close()
  })

  test('the text content is the structured content as JSON, for a fresh answer and a memoised one alike', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    for (const name of [...COMPANY_TOOLS, ...COMPANY_TOOLS]) {
      const res = (await client.callTool({ name, arguments: GOOD_ARGS[name]! })) as {
        structuredContent: unknown
        content: { type: string; text: string }[]
      }
      expect(res.content).toHaveLength(1)
      expect([name, res.content[0]!.type]).toEqual([name, 'text'])
      expect([name, JSON.parse(res.content[0]!.text)]).toEqual([name, res.structuredContent])
    }
    await client.close()
  })

  test('a batch of memoised answers: each call gets its own text and result, and nothing of the placeholders they travel as is left', async () => {
    const k = await customer({ credits: 10_000 })
    const names = ['get_company_summary', 'get_company_obligations', 'get_company_deadlines']
    const call = (id: number, name: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: GOOD_ARGS[name]! },
    })
    const post = async () => {
      const res = await fetch(`${app.url}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...bearer(k.key),
          ...freshIp(),
        },
        body: JSON.stringify(names.map((n, i) => call(i + 1, n))),
      })
      expect(res.status).toBe(200)
      return res.text()
    }
    await post() // the answers are memoised from here on
    const text = await post()
    expect(text).not.toContain('plikt-text-')
    const answers = (
      JSON.parse(text) as {
        id: number
        result: { structuredContent: { result: unknown; metadata: { tool: string } }; content: { text: string }[] }
      }[]
    ).sort((a, b) => a.id - b.id)
    expect(answers.map((a) => a.result.structuredContent.metadata.tool)).toEqual(names)
    for (const a of answers) {
      expect(JSON.parse(a.result.content[0]!.text)).toEqual(a.result.structuredContent)
      expect(a.result.structuredContent.result).not.toBeNull()
    }
    expect(answers[0]!.result.structuredContent.result).not.toEqual(answers[1]!.result.structuredContent.result)
  })

  test('each successful company tool call costs 50 øre', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    for (const name of COMPANY_TOOLS) {
      const before = await balance(k.id)
      const res = await client.callTool({ name, arguments: GOOD_ARGS[name]! })
      expect({ name, isError: res.isError ?? false, error: body(res).metadata.error_code ?? null }).toEqual({
        name,
        isError: false,
        error: null,
      })
      expect(body(res).result).not.toBeNull()
      expect({ name, charged: before - (await balance(k.id)) }).toEqual({ name, charged: 50 })
    }
    await client.close()
  })

  test('an unknown organisation gives result null with metadata.error_code COMPANY_NOT_FOUND, and costs nothing', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    const res = await client.callTool({ name: 'get_company_summary', arguments: { org_number: UNKNOWN } })
    expect(res.isError).toBe(true)
    const r = body(res)
    expect(r.result).toBeNull()
    expect(r.metadata.error_code).toBe('COMPANY_NOT_FOUND')
    expect(r.metadata.remediation).toBeDefined()
    expect(typeof r.metadata.retryable).toBe('boolean')
    expect(await balance(k.id)).toBe(10_000)
    await client.close()
  })

  test('org_number 984661186 (MOD-11 failure) gives metadata.error_code ORG_NUMBER_INVALID_CHECKSUM, and costs nothing', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    const res = await client.callTool({ name: 'get_company_summary', arguments: { org_number: '984661186' } })
    expect(res.isError).toBe(true)
    expect(body(res).result).toBeNull()
    expect(body(res).metadata.error_code).toBe('ORG_NUMBER_INVALID_CHECKSUM')
    expect(await balance(k.id)).toBe(10_000)
    await client.close()
  })

  test('org_number sent as a nine-digit JSON integer (as the MCP Inspector CLI sends it) answers as the string does', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    const asNumber = await client.callTool({ name: 'get_company_summary', arguments: { org_number: Number(POSTEN) } })
    expect(asNumber.isError).toBeFalsy()
    const asString = body(await client.callTool({ name: 'get_company_summary', arguments: { org_number: POSTEN } }))
    expect(body(asNumber).result).toEqual(asString.result)
    expect(await balance(k.id)).toBe(10_000 - 2 * 50)
    await client.close()
  })

  for (const bad of [984661185.5, -98466118, -984661185, 98466118, 9846611850, true]) {
    test(`org_number ${bad} gives metadata.error_code VALIDATION_FAILED, and costs nothing`, async () => {
      const k = await customer({ credits: 10_000 })
      const client = await connect(bearer(k.key))
      const res = await client.callTool({ name: 'get_company_summary', arguments: { org_number: bad } })
      expect(res.isError).toBe(true)
      expect(body(res).metadata.error_code).toBe('VALIDATION_FAILED')
      expect(body(res).metadata.remediation.explanation.details.map((d: { field: string }) => d.field)).toEqual([
        'org_number',
      ])
      expect(await balance(k.id)).toBe(10_000)
      await client.close()
    })
  }

  test('a key without credits gets INSUFFICIENT_CREDITS', async () => {
    const k = await customer()
    const client = await connect(bearer(k.key))
    const res = await client.callTool({ name: 'get_company_context', arguments: { org_number: POSTEN } })
    expect(res.isError).toBe(true)
    expect(body(res).result).toBeNull()
    expect(body(res).metadata).toMatchObject({ error_code: 'INSUFFICIENT_CREDITS', balance_ore: 0, cost_ore: 50 })
    expect(body(res).metadata.top_up_url).toMatch(/^http/)
    expect(await balance(k.id)).toBe(0)
    await client.close()
  })
})

describe('get_company_authority', () => {
  test('kombinasjon_available is true when the signature lookup answered with no rule (929770404), as on REST', async () => {
    const k = await customer({ credits: 1_000 })
    const client = await connect(bearer(k.key))
    const res = await client.callTool({ name: 'get_company_authority', arguments: { org_number: '929770404' } })
    expect(res.isError).toBeFalsy()
    expect(body(res).result).toMatchObject({
      classification: 'no_authority',
      degraded: null,
      kombinasjon_available: true,
    })
    await client.close()
  })
})

describe('get_company_authority during a register outage', () => {
  test('answers UPSTREAM_UNAVAILABLE, as the REST route does, and costs nothing', async () => {
    const k = await customer({ credits: 1_000 })
    const client = await connect(bearer(k.key))
    const res = await client.callTool({
      name: 'get_company_authority',
      arguments: { org_number: byScenario('register-5xx') },
    })
    expect(res.isError).toBe(true)
    expect(body(res).result).toBeNull()
    expect(body(res).metadata).toMatchObject({ error_code: 'UPSTREAM_UNAVAILABLE', retryable: true })
    expect(await balance(k.id)).toBe(1_000)
    await client.close()
  })
})

describe('get_exchange_rate', () => {
  test('keyless: base NOK quote usd and base USD quote NOK give the same NOK-per-USD rate as the REST tool', async () => {
    const client = await connect()
    const a = await client.callTool({ name: 'get_exchange_rate', arguments: { base: 'NOK', quote: 'usd' } })
    const b = await client.callTool({ name: 'get_exchange_rate', arguments: { base: 'USD', quote: 'NOK' } })
    expect(a.isError).toBeFalsy()
    expect(b.isError).toBeFalsy()
    const rest = await (await app.get('/api/v1/tools/exchange-rate?currency=USD', { headers: freshIp() })).json()
    expect(body(a).result.rate).toBe(rest.data.rate)
    expect(body(b).result.rate).toBe(rest.data.rate)
    expect(body(a).result).toMatchObject({ currency: 'USD', date: '2026-03-13', requested_date: '2026-03-14' })
    // Whichever side NOK was asked on, the answer is base NOK, quote USD, as on REST.
    for (const r of [body(a).result, body(b).result, rest.data]) expect(r).toMatchObject({ base: 'NOK', quote: 'USD' })
    expect(body(a)._meta.data_source).toBe('Norges Bank')
    await client.close()
  })

  test('base EUR quote USD is UNSUPPORTED_CURRENCY_PAIR', async () => {
    const client = await connect()
    const res = await client.callTool({ name: 'get_exchange_rate', arguments: { base: 'EUR', quote: 'USD' } })
    expect(res.isError).toBe(true)
    expect(body(res).result).toBeNull()
    expect(body(res).metadata.error_code).toBe('UNSUPPORTED_CURRENCY_PAIR')
    await client.close()
  })
})

describe('rulebook 1.1.0 through the company tools', () => {
  test('get_company_obligations evaluates the seven new rules for an AS: the general meeting from the register, the additional advance left open', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    const r = body(await client.callTool({ name: 'get_company_obligations', arguments: { org_number: POSTEN } }))
    await client.close()
    const byId = Object.fromEntries(
      r.result.obligations.map((o: { rule_id: string; evaluation_result: string }) => [o.rule_id, o.evaluation_result]),
    )
    expect(byId).toMatchObject({
      generalforsamling: 'applicable',
      'arsregnskap-fastsetting': 'applicable',
      tilleggsforskudd: 'insufficient_data',
      'mva-manedlig': 'insufficient_data',
      'mva-arstermin-primaer': 'insufficient_data',
      'apenhetsloven-redegjorelse': 'insufficient_data',
    })
    expect(byId['mva-omvendt-avgiftsplikt']).toBeDefined()
    expect(r._meta.rulebook_version).toBe('1.1.0')
  })

  test('get_company_deadlines lists the general meeting and the adoption of the accounts on 30 June, as REST does', async () => {
    const k = await customer({ credits: 10_000 })
    const client = await connect(bearer(k.key))
    const r = body(
      await client.callTool({ name: 'get_company_deadlines', arguments: { org_number: POSTEN, horizon_months: 6 } }),
    )
    await client.close()
    const due = Object.fromEntries(
      r.result.deadlines.map((d: { deadline_id: string; due_at: string }) => [d.deadline_id, d.due_at]),
    )
    expect(due['generalforsamling-2025']).toBe('2026-06-30T23:59:59+02:00')
    expect(due['arsregnskap-fastsetting-2025']).toBe('2026-06-30T23:59:59+02:00')
    const rest = await app.get(`/api/v1/company/${POSTEN}/deadlines?horizon_months=6`, {
      headers: { ...bearer(k.key), ...freshIp() },
    })
    expect(r.result).toEqual((await rest.json()).data)
  })
})

test('get_credit_balance answers what its REST twin answers, top_up_url included (spec: Credit balance resource)', async () => {
  const c = await createConsumer(app, 'starter')
  await addCredits(app, c.id, 2_500)
  const { key } = await createKey(app, c.id)
  const client = await connectMcp(app, bearer(key))
  const tool = toolBody(await client.callTool({ name: 'get_credit_balance', arguments: {} }))
  await client.close()
  const rest = (await (
    await app.get('/api/v1/account/credits/balance', { headers: { ...bearer(key), ...freshIp() } })
  ).json()) as { data: Record<string, unknown> }
  expect(tool.result.top_up_url).toMatch(/^http/)
  expect(tool.result).toEqual(rest.data)
})
