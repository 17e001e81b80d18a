import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { canonicalJson } from '../../src/lib/canonical-json.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp, signIn, postForm } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const KEYLESS = [
  'explain_compliance_error',
  'get_exchange_rate',
  'get_pricing',
  'get_public_deadlines',
  'get_public_obligations',
  'redeem_issuance_token',
]

const connect = (headers: Record<string, string> = {}): Promise<Client> => connectMcp(app, headers)
const body = toolBody

describe('keyless (no Authorization header)', () => {
  test('initialize reports the server name and the manifest version 2026.10.0', async () => {
    const client = await connect()
    expect(client.getServerVersion()).toMatchObject({ name: 'plikt', version: '2026.10.0' })
    await client.close()
  })

  test('tools/list shows exactly the keyless tools', async () => {
    const client = await connect()
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(KEYLESS)
    const obligations = tools.find((t) => t.name === 'get_public_obligations')!
    expect(obligations.inputSchema.properties).toHaveProperty('entity_type')
    await client.close()
  })

  test('a tool answers {result, justification, metadata, _meta} with the hash of the result', async () => {
    const client = await connect()
    const r = body(await client.callTool({ name: 'get_public_obligations', arguments: { entity_type: 'AS' } }))
    expect(r.result.entity_type).toBe('AS')
    expect(r.result.obligations.map((o: { obligation_id: string }) => o.obligation_id)).toContain(
      'aksjonaerregisteroppgave',
    )
    expect(r.justification).toContain('Rulebook 1.1.0')
    expect(r.metadata).toMatchObject({ tool: 'get_public_obligations', operation_id: 'getPublicObligations' })
    expect(r._meta.response_hash).toBe(`sha256:${sha256Hex(canonicalJson(r.result))}`)
    await client.close()
  })

  test('the deadline calendar over MCP equals the REST answer', async () => {
    const client = await connect()
    const r = body(
      await client.callTool({ name: 'get_public_deadlines', arguments: { year: 2026, entity_type: 'AS' } }),
    )
    const rest = await (await app.get('/api/v1/public/deadlines?year=2026&entity_type=AS')).json()
    expect(r.result).toEqual(rest.data)
    await client.close()
  })

  test('get_public_deadlines shows the 1.1.0 rules, and the contested Q2 reverse-charge date with both dates and its sources', async () => {
    const client = await connect()
    const r = body(await client.callTool({ name: 'get_public_deadlines', arguments: { year: 2026 } }))
    await client.close()
    const rules = new Set(r.result.deadlines.map((d: { rule_id: string }) => d.rule_id))
    for (const id of [
      'generalforsamling',
      'arsregnskap-fastsetting',
      'tilleggsforskudd',
      'mva-manedlig',
      'mva-arstermin-primaer',
      'mva-omvendt-avgiftsplikt',
      'apenhetsloven-redegjorelse',
    ])
      expect(rules).toContain(id)
    const q2 = r.result.deadlines.find(
      (d: { obligation_id: string }) => d.obligation_id === 'mva-omvendt-avgiftsplikt-2-2026',
    )
    expect(q2).toMatchObject({ period: '2026-Q2', deadline: '2026-08-10T23:59:59+02:00' })
    expect(q2.uncertainties[0].contested_dates).toEqual([
      { date: '2026-08-10', sources: expect.any(Array), answered: true },
      { date: '2026-08-31', sources: expect.any(Array), answered: false },
    ])
    expect(q2.uncertainties[0].sources.map((s: { url: string }) => s.url)).toContain(
      'https://www.skatteetaten.no/skjema/mva-melding-for-omvendt-avgiftsplikt/',
    )
  })

  test('get_public_obligations for an AS lists the general meeting and the Tier 2 facts of the additional advance', async () => {
    const client = await connect()
    const r = body(await client.callTool({ name: 'get_public_obligations', arguments: { entity_type: 'AS' } }))
    await client.close()
    const byId = Object.fromEntries(r.result.obligations.map((o: { obligation_id: string }) => [o.obligation_id, o]))
    expect(byId.generalforsamling).toMatchObject({ tier_2_required: false, moves_to_next_business_day: false })
    expect(byId.tilleggsforskudd).toMatchObject({
      tier_2_required: true,
      tier_2_facts: ['expects_residual_tax'],
      moves_to_next_business_day: true,
    })
  })

  test('explain_compliance_error takes the flattened context', async () => {
    const client = await connect()
    const r = body(
      await client.callTool({
        name: 'explain_compliance_error',
        arguments: { error_code: 'company_not_found', context_org_number: '984661185' },
      }),
    )
    expect(r.result.explanation.error_code).toBe('COMPANY_NOT_FOUND')
    expect(r.result.explanation.summary).toContain('984661185')
    await client.close()
  })

  test('explain_compliance_error explains a code with punctuation as UNKNOWN, as REST does', async () => {
    const client = await connect()
    const r = body(await client.callTool({ name: 'explain_compliance_error', arguments: { error_code: 'foo-bar' } }))
    expect(r.result.explanation.error_code).toBe('UNKNOWN')
    expect(r.result.requested_error_code).toBe('foo-bar')
    await client.close()
  })

  test('explain_compliance_error takes context_org_number as a nine-digit JSON integer', async () => {
    const client = await connect()
    const r = body(
      await client.callTool({
        name: 'explain_compliance_error',
        arguments: { error_code: 'company_not_found', context_org_number: 984661185 },
      }),
    )
    expect(r.result.explanation.summary).toContain('984661185')
    await client.close()
  })

  test('bad arguments give a failed result with VALIDATION_FAILED and the field', async () => {
    const client = await connect()
    const res = await client.callTool({ name: 'get_public_obligations', arguments: { entity_type: 'ASA' } })
    expect(res.isError).toBe(true)
    const r = body(res)
    expect(r.result).toBeNull()
    expect(r.metadata).toMatchObject({ error_code: 'VALIDATION_FAILED', retryable: false })
    expect(r.metadata.remediation.explanation.details.map((d: { field: string }) => d.field)).toContain('entity_type')
    await client.close()
  })

  test('an over-long argument is refused for its length alone, before any pattern runs', async () => {
    const client = await connect()
    const res = await client.callTool({
      name: 'explain_compliance_error',
      arguments: { error_code: 'X'.repeat(100_000) },
    })
    expect(res.isError).toBe(true)
    expect(body(res).metadata.remediation.explanation.details).toEqual([
      { field: 'error_code', message: 'Expected string length less or equal to 64' },
    ])
    await client.close()
  })

  test('arguments nested 20 000 levels deep are refused as VALIDATION_FAILED', async () => {
    const client = await connect()
    const deep = JSON.parse('['.repeat(20_000) + ']'.repeat(20_000))
    const res = await client.callTool({
      name: 'explain_compliance_error',
      arguments: { error_code: 'NOT_FOUND', context_role: deep },
    })
    expect(res.isError).toBe(true)
    expect(body(res).metadata.remediation.explanation.details).toEqual([
      { field: 'arguments', message: 'is nested deeper than 32 levels' },
    ])
    await client.close()
  })

  test('calling a keyed tool is asked to authenticate: 401 AUTH_MISSING with the bare Bearer challenge, no error code (RFC 6750 §3.1; OAuth off)', async () => {
    const client = await connect()
    await expect(client.callTool({ name: 'get_credit_balance', arguments: {} })).rejects.toMatchObject({ code: 401 })
    await client.close()
    const res = await fetch(`${app.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...freshIp() },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_company_summary', arguments: { org_number: '984661185' } },
      }),
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc-mcp"')
    expect((await res.json()).error_code).toBe('AUTH_MISSING')
  })

  test('calling a tool that does not exist is JSON-RPC error -32602', async () => {
    const client = await connect()
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    await client.close()
  })

  test('redeem_issuance_token issues a key once; a second use fails like any bad token', async () => {
    const s = await signIn(app)
    const html = await (
      await postForm(app, '/dashboard/issuance-tokens', { csrf_token: s.csrf }, { cookie: s.cookie })
    ).text()
    const token = /<output class="secret" id="secret">([^<]+)<\/output>/.exec(html)![1]!
    const client = await connect()
    const first = body(await client.callTool({ name: 'redeem_issuance_token', arguments: { token } }))
    expect(first.result.plaintext_key).toMatch(/^svc_free_/)
    expect(first.result.scopes).toEqual(['read:*'])
    const again = await client.callTool({ name: 'redeem_issuance_token', arguments: { token } })
    expect(again.isError).toBe(true)
    expect(body(again).metadata.error_code).toBe('ISSUANCE_TOKEN_INVALID')
    await client.close()
  })

  test('keyless calls are limited to 100 an hour per IP', async () => {
    const ip = freshIp()
    const client = await connect(ip)
    for (let i = 0; i < 100; i++)
      expect((await client.callTool({ name: 'get_pricing', arguments: {} })).isError).toBeFalsy()
    const refused = await client.callTool({ name: 'get_pricing', arguments: {} })
    expect(refused.isError).toBe(true)
    expect(body(refused).metadata).toMatchObject({ error_code: 'RATE_LIMIT_EXCEEDED', retryable: true })
    await client.close()
  })
})

describe('with a key', () => {
  test('tools/list shows what the key’s scopes allow, and keyed tools work', async () => {
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id)
    const client = await connect(bearer(key))
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('get_credit_balance')
    expect(names).toContain('get_public_deadlines')
    const r = body(await client.callTool({ name: 'get_credit_balance', arguments: {} }))
    expect(r.result).toMatchObject({ balance_ore: 0, currency: 'NOK', updated_at: null })
    await client.close()
  })

  test('a key’s calls over MCP and REST share its per-minute limit, every MCP message counting (connecting sends two)', async () => {
    const c = await createConsumer(app, 'free')
    const { key } = await createKey(app, c.id)
    for (let i = 0; i < 20; i++)
      expect((await app.get('/api/v1/account/credits/balance', { headers: bearer(key) })).status).toBe(200)
    // initialize and notifications/initialized: two of the free plan's 30 a minute.
    const client = await connect(bearer(key))
    for (let i = 0; i < 8; i++)
      expect((await client.callTool({ name: 'get_credit_balance', arguments: {} })).isError).toBeFalsy()
    const refused = await client.callTool({ name: 'get_credit_balance', arguments: {} })
    expect(refused.isError).toBe(true)
    expect(body(refused).metadata.error_code).toBe('RATE_LIMIT_EXCEEDED')
    expect((await app.get('/api/v1/account/credits/balance', { headers: bearer(key) })).status).toBe(429)
    await client.close()
  })

  test('a key over its per-minute limit gets no tools/list over MCP either: 429, never the list (a batch counts each message)', async () => {
    const c = await createConsumer(app, 'free')
    const { key } = await createKey(app, c.id)
    for (let i = 0; i < 30; i++)
      expect((await app.get('/api/v1/account/credits/balance', { headers: bearer(key) })).status).toBe(200)
    const res = await fetch(`${app.url}/api/mcp`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }))),
    })
    expect(res.status).toBe(429)
    expect((await res.json()).error_code).toBe('RATE_LIMIT_EXCEEDED')
  })

  test('a batch of tools/list counts each message against the key’s limit', async () => {
    const c = await createConsumer(app, 'free')
    const { key } = await createKey(app, c.id)
    const list = (n: number) =>
      fetch(`${app.url}/api/mcp`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(
          Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
        ),
      })
    for (let i = 0; i < 3; i++) expect((await list(10)).status).toBe(200)
    expect((await list(1)).status).toBe(429)
  })

  test('a key without read:rulebook does not see the rulebook tools, the explainer among them (its scope in the spec’s tool table)', async () => {
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id, ['read:changes'])
    const client = await connect(bearer(key))
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).not.toContain('get_public_obligations')
    expect(names).not.toContain('explain_compliance_error')
    expect(names).toContain('get_credit_balance')
    await expect(
      client.callTool({ name: 'get_public_obligations', arguments: { entity_type: 'AS' } }),
    ).rejects.toMatchObject({ code: -32602 })
    await expect(
      client.callTool({ name: 'explain_compliance_error', arguments: { error_code: 'AUTH_MISSING' } }),
    ).rejects.toMatchObject({ code: -32602 })
    await client.close()
  })

  test('a present but bad header is refused with 401 and the Bearer challenge, never served keyless', async () => {
    // The synthetic sandbox bearer is not bad here: MCP answers it from the sandbox (test/mcp/sandbox-tools.test.ts).
    for (const auth of ['Bearer svc_free_nope', 'Basic abc', 'Bearer svc_sandboxtest_x']) {
      const res = await fetch(`${app.url}/api/mcp`, {
        method: 'POST',
        headers: {
          authorization: auth,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc-mcp", error="invalid_token"')
      expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
    }
  })
})

describe('/.well-known/mcp.json', () => {
  test('carries schema_version 2026.10.0, and its name and version are the ones initialize reports', async () => {
    const m = await (await app.get('/.well-known/mcp.json')).json()
    expect(m.schema_version).toBe('2026.10.0')
    const client = await connect()
    expect(client.getServerVersion()).toEqual({ name: m.name, version: m.version })
    expect(m.version).toBe(m.schema_version)
    await client.close()
  })

  test('describes the server: URL, transport, authentication and tool counts', async () => {
    const m = await (await app.get('/.well-known/mcp.json')).json()
    expect(m).toMatchObject({
      name: 'plikt',
      version: '2026.10.0',
      url: `${app.url}/api/mcp`,
      transport: { type: 'streamable-http', stateless: true },
      authentication: { oauth: null, keyless: { calls_per_hour_per_ip: 100 } },
    })
    expect(m.authentication.keyless.tools.sort()).toEqual(KEYLESS)
    const client = await connect()
    expect(m.tools.keyless).toBe((await client.listTools()).tools.length)
    await client.close()
  })
})

describe('what one client address may ask of /api/mcp without a key', () => {
  const rpc = (ip: Record<string, string>, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...ip, ...headers },
      body: JSON.stringify(body),
    })
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' })

  test('a batch of more than 10 messages is refused whole with VALIDATION_FAILED', async () => {
    const res = await rpc(
      freshIp(),
      Array.from({ length: 11 }, (_, i) => list(i)),
    )
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error_code).toBe('VALIDATION_FAILED')
    expect(body.explanation.details).toEqual([{ field: 'body', message: 'a JSON-RPC batch holds at most 10 messages' }])
  })

  test('every message counts against the soft limit of 1000 a minute, tools/list included', async () => {
    const ip = freshIp()
    for (let i = 0; i < 100; i++)
      expect(
        (
          await rpc(
            ip,
            Array.from({ length: 10 }, (_, j) => list(j)),
          )
        ).status,
      ).toBe(200)
    const res = await rpc(ip, list(1))
    expect(res.status).toBe(429)
    expect((await res.json()).error_code).toBe('RATE_LIMIT_EXCEEDED')
  })

  test('the sandbox bearer does not raise the keyless budget of production keyless tools', async () => {
    const ip = freshIp()
    const call = () =>
      rpc(
        ip,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_pricing', arguments: {} } },
        { authorization: 'Bearer svc_sandbox_test_budget' },
      )
    for (let i = 0; i < 100; i++) expect((await (await call()).json()).result.isError).toBeFalsy()
    const over = (await (await call()).json()).result
    expect(over.isError).toBe(true)
    expect(over.structuredContent.metadata.error_code).toBe('RATE_LIMIT_EXCEEDED')
  })
})
