/**
 * MCP under the synthetic sandbox bearer, with the real SDK client: mirrored tools answer from the
 * sandbox exactly as the sandbox routes do, tools without a mirror answer SANDBOX_TOOL_UNAVAILABLE,
 * keyless tools still work, nothing is metered and nothing real is touched.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { freshIp } from '../helpers.ts'

let app: TestApp
let mcp: Client
const BEARER = { authorization: 'Bearer svc_sandbox_test_mcp-suite' }

beforeAll(async () => {
  app = await startApp()
  mcp = await connectMcp(app, BEARER)
}, 30_000)
afterAll(async () => {
  await mcp.close()
  await app.stop()
})

const MIRRORED: Record<string, string> = {
  get_company_summary: 'summary',
  get_company_context: 'context',
  get_company_obligations: 'obligations',
  get_company_deadlines: 'deadlines',
  get_company_verification: 'verify',
  get_company_authority: 'authority',
  get_company_accounts: 'accounts',
}
const UNMIRRORED = ['get_company_profile', 'search_companies', 'get_company_filing_history', 'get_credit_balance']

async function call(name: string, args: Record<string, unknown>) {
  return toolBody(await mcp.callTool({ name, arguments: args }))
}

describe('mirrored tools', () => {
  for (const [tool, route] of Object.entries(MIRRORED)) {
    test(`${tool} answers what GET /api/v1/sandbox/company/{org}/${route} answers`, async () => {
      const body = await call(tool, { org_number: '818000006' })
      const rest = (await (
        await app.get(`/api/v1/sandbox/company/818000006/${route}`, { headers: freshIp() })
      ).json()) as { data: unknown }
      expect(body.result).toEqual(rest.data)
      expect(body._meta).toMatchObject({
        is_sandbox: true,
        rulebook_version: 'sandbox',
        data_freshness: '2026-01-01T00:00:00+01:00',
      })
      expect(body._meta).not.toHaveProperty('response_hash')
    })
  }

  for (const [tool, route] of Object.entries(MIRRORED)) {
    test(`${tool} answers a synthetic number of a valid series (818123456) as its sandbox route does`, async () => {
      const body = await call(tool, { org_number: '818123456' })
      const rest = (await (
        await app.get(`/api/v1/sandbox/company/818123456/${route}`, { headers: freshIp() })
      ).json()) as { success: boolean; data: unknown }
      expect(rest.success).toBe(true)
      expect(body.result).toEqual(rest.data)
    })
  }

  test('a sandbox org number that fails MOD-11 (999000002) is accepted', async () => {
    const body = await call('get_company_context', { org_number: '999000002' })
    expect(body.result.name).toBe('PLIKT SANDKASSE AS')
  })

  test('a sandbox org number sent as a nine-digit JSON integer answers as the string does', async () => {
    const body = await call('get_company_context', { org_number: 999000002 })
    expect(body.result.name).toBe('PLIKT SANDKASSE AS')
  })

  test('a reserved error org answers its error in the tool envelope', async () => {
    const r = await mcp.callTool({ name: 'get_company_summary', arguments: { org_number: '999000904' } })
    expect(r.isError).toBe(true)
    expect(toolBody(r).metadata.error_code).toBe('SCOPE_MISSING')
    expect(toolBody(r)._meta.is_sandbox).toBe(true)
  })

  test('an unknown sandbox org answers COMPANY_NOT_FOUND', async () => {
    const r = await mcp.callTool({ name: 'get_company_context', arguments: { org_number: '123456785' } })
    expect(toolBody(r).metadata.error_code).toBe('COMPANY_NOT_FOUND')
  })

  test('malformed arguments are VALIDATION_FAILED', async () => {
    const r = await mcp.callTool({ name: 'get_company_context', arguments: { org_number: '12345' } })
    expect(toolBody(r).metadata.error_code).toBe('VALIDATION_FAILED')
  })
})

describe('tools without a sandbox mirror', () => {
  for (const tool of UNMIRRORED) {
    test(`${tool} answers SANDBOX_TOOL_UNAVAILABLE`, async () => {
      const r = await mcp.callTool({
        name: tool,
        arguments:
          tool === 'search_companies'
            ? { name: 'posten' }
            : tool === 'get_credit_balance'
              ? {}
              : { org_number: '984661185' },
      })
      expect(r.isError).toBe(true)
      expect(toolBody(r).metadata.error_code).toBe('SANDBOX_TOOL_UNAVAILABLE')
    })
  }

  test('tools/list shows them, so an agent learns why rather than "unknown tool"', async () => {
    const names = (await mcp.listTools()).tools.map((t) => t.name)
    for (const t of [...Object.keys(MIRRORED), ...UNMIRRORED]) expect(names).toContain(t)
  })
})

describe('keyless tools and credentials', () => {
  test('a keyless tool works under the sandbox bearer', async () => {
    const body = await call('get_public_obligations', { entity_type: 'AS' })
    expect(body.result.obligations.length).toBeGreaterThan(5)
  })

  test('a keyless tool answers with production’s `_meta` under the sandbox bearer: its answer is real', async () => {
    const body = await call('get_public_obligations', { entity_type: 'AS' })
    expect(body._meta.response_hash).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(body._meta).not.toHaveProperty('is_sandbox')
  })

  test('no upstream register is called for a sandbox answer', async () => {
    await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })
    await call('get_company_verification', { org_number: '999660002' })
    expect(await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()).toEqual([])
  })

  test('a sandbox bearer with a bad suffix is refused without echoing it', async () => {
    const res = await fetch(`${app.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer svc_sandbox_test_bad suffix!',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...freshIp(),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(res.status).toBe(400)
    const text = await res.text()
    expect(JSON.parse(text).error_code).toBe('VALIDATION_FAILED')
    expect(text).not.toContain('bad suffix!')
  })
})
