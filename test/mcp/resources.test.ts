/**
 * MCP resources and resource templates (src/mcp/resources.ts) with the official SDK client against
 * the real app and its fixture servers: what a host sees with no key and with one, that a read
 * answers the REST body, and that a keyed template is charged and refused as its tool is.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp } from '../helpers.ts'
import { OPERATION_REFUSED } from '../../src/mcp/resources.ts'
import { readBalance } from '../../src/store/credits.ts'
import { RULEBOOK_VERSION } from '../../src/domain/rulebook/version.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const POSTEN = '984661185'

const connect = (headers: Record<string, string> = {}): Promise<Client> => connectMcp(app, headers)

async function customer(opts: { credits?: number; scopes?: string[]; tier?: 'free' | 'enterprise' } = {}) {
  const c = await createConsumer(app, opts.tier ?? 'enterprise')
  if (opts.credits) await addCredits(app, c.id, opts.credits)
  return { id: c.id, key: (await createKey(app, c.id, opts.scopes)).key }
}

const balance = async (consumerId: string) => (await readBalance(app.deps.sql, consumerId)).balance_ore

/** The REST answer of a path, as a JSON body without its per-response timestamp. */
async function restBody(path: string, headers: Record<string, string> = {}) {
  const res = await app.send('GET', path, undefined, { ...freshIp(), ...headers })
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() }
}

const withoutTimestamp = (text: string) => {
  const body = JSON.parse(text) as { _meta?: Record<string, unknown> }
  if (body._meta) delete body._meta.response_timestamp
  return body
}

describe('without a key', () => {
  test('resources/list names the keyless resources: workflows, error catalogue, pricing, llms-full.txt, the year’s deadlines and the obligations of each entity type', async () => {
    const client = await connect()
    const { resources } = await client.listResources()
    await client.close()
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [
        'plikt://errors',
        'plikt://llms-full.txt',
        'plikt://pricing',
        'plikt://rulebook/deadlines',
        'plikt://rulebook/obligations/ANS',
        'plikt://rulebook/obligations/AS',
        'plikt://rulebook/obligations/DA',
        'plikt://rulebook/obligations/ENK',
        'plikt://rulebook/obligations/NUF',
        'plikt://workflows',
      ].sort(),
    )
    for (const r of resources) {
      expect(r.name).toBeTruthy()
      expect(r.title).toBeTruthy()
      expect(r.mimeType).toBeTruthy()
    }
    expect(resources.find((r) => r.uri === 'plikt://llms-full.txt')!.mimeType).toBe('text/markdown')
    expect(resources.find((r) => r.uri === 'plikt://rulebook/obligations/AS')!._meta).toMatchObject({
      operation_id: 'getPublicObligations',
      rest: 'GET /api/v1/public/obligations',
      rulebook_version: RULEBOOK_VERSION,
    })
  })

  test('resources/templates/list names only the keyless templates', async () => {
    const client = await connect()
    const { resourceTemplates } = await client.listResourceTemplates()
    await client.close()
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'plikt://rulebook/deadlines{?year,entity_type}',
      'plikt://rulebook/obligations/{entity_type}',
    ])
  })

  test('reading the obligations of an AS answers the REST body of /public/obligations?entity_type=AS, with its ETag', async () => {
    const client = await connect()
    const read = await client.readResource({ uri: 'plikt://rulebook/obligations/AS' })
    await client.close()
    const [content] = read.contents as { uri: string; mimeType: string; text: string; _meta: any }[]
    const rest = await restBody('/api/v1/public/obligations?entity_type=AS')
    expect(content!.mimeType).toBe('application/json')
    expect(withoutTimestamp(content!.text)).toEqual(withoutTimestamp(rest.text))
    expect(content!._meta.etag).toBe(rest.etag!)
    expect(content!._meta.rulebook_version).toBe(RULEBOOK_VERSION)
  })

  test('a query variable reads the REST query: the deadlines of 2027 for an ENK', async () => {
    const client = await connect()
    const read = await client.readResource({ uri: 'plikt://rulebook/deadlines?year=2027&entity_type=ENK' })
    await client.close()
    const rest = await restBody('/api/v1/public/deadlines?year=2027&entity_type=ENK')
    expect(withoutTimestamp((read.contents[0] as { text: string }).text)).toEqual(withoutTimestamp(rest.text))
  })

  test('workflows and llms-full.txt read as the documents REST serves, with their tags', async () => {
    const client = await connect()
    for (const [uri, path] of [
      ['plikt://workflows', '/workflows.json'],
      ['plikt://llms-full.txt', '/llms-full.txt'],
    ] as const) {
      const [content] = (await client.readResource({ uri })).contents as { text: string; _meta: any }[]
      const rest = await restBody(path)
      expect(content!.text).toBe(rest.text)
      expect(content!._meta.etag).toBe(rest.etag!)
    }
    await client.close()
  })

  test('an entity type the rulebook does not know is refused -32602 with VALIDATION_FAILED, as REST refuses it', async () => {
    const client = await connect()
    await expect(client.readResource({ uri: 'plikt://rulebook/obligations/ASA' })).rejects.toMatchObject({
      code: -32602,
      data: { success: false, error_code: 'VALIDATION_FAILED' },
    })
    await client.close()
  })

  test('a URI no resource has is -32602 Resource not found', async () => {
    const client = await connect()
    await expect(client.readResource({ uri: 'plikt://nothing/here' })).rejects.toMatchObject({ code: -32602 })
    await expect(client.readResource({ uri: 'plikt://rulebook/deadlines?colour=red' })).rejects.toMatchObject({
      code: -32602,
    })
    await client.close()
  })

  test('reading a company template is told to authenticate: 401 with the challenge, as a keyed tool call is', async () => {
    const res = await fetch(`${app.url}/api/mcp`, {
      method: 'POST',
      headers: { ...freshIp(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `plikt://company/${POSTEN}/summary` },
      }),
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('Bearer realm="svc-mcp"')
    expect(((await res.json()) as { error_code: string }).error_code).toBe('AUTH_MISSING')
  })
})

describe('with a key', () => {
  test('resources/templates/list adds the company templates: summary, context, deadlines, obligations, authority, accounts', async () => {
    const k = await customer()
    const client = await connect(bearer(k.key))
    const { resourceTemplates } = await client.listResourceTemplates()
    await client.close()
    const names = resourceTemplates.map((t) => t.name)
    for (const n of [
      'company-summary',
      'company-context',
      'company-deadlines',
      'company-obligations',
      'company-authority',
      'company-accounts',
    ])
      expect(names).toContain(n)
    const summary = resourceTemplates.find((t) => t.name === 'company-summary')!
    expect(summary.uriTemplate).toBe('plikt://company/{org_number}/summary')
    expect(summary.description).toContain('50 øre')
    expect(summary._meta).toMatchObject({ tool: 'get_company_summary', price_ore: 50 })
  })

  test('reading a summary answers the REST data and _meta of /company/{org}/summary, and charges 50 øre as the tool does', async () => {
    const k = await customer({ credits: 1_000 })
    const client = await connect(bearer(k.key))
    const read = await client.readResource({ uri: `plikt://company/${POSTEN}/summary` })
    await client.close()
    expect(await balance(k.id)).toBe(950)
    const [content] = read.contents as { text: string; _meta: any }[]
    const rest = await restBody(`/api/v1/company/${POSTEN}/summary`, bearer(k.key))
    expect(rest.status).toBe(200)
    const [mcp, viaRest] = [withoutTimestamp(content!.text) as any, withoutTimestamp(rest.text) as any]
    expect(mcp.data).toEqual(viaRest.data)
    expect(mcp._meta.response_hash).toBe(viaRest._meta.response_hash)
    expect(content!._meta.response_hash).toBe(viaRest._meta.response_hash)
    // a keyed answer is private: no tag
    expect(content!._meta.etag).toBeUndefined()
  })

  test('with no credits the read is refused INSUFFICIENT_CREDITS (OPERATION_REFUSED), and nothing is charged', async () => {
    const k = await customer({ tier: 'free' })
    const before = await balance(k.id)
    const client = await connect(bearer(k.key))
    await expect(client.readResource({ uri: `plikt://company/${POSTEN}/summary` })).rejects.toMatchObject({
      code: OPERATION_REFUSED,
      data: { success: false, error_code: 'INSUFFICIENT_CREDITS' },
    })
    await client.close()
    expect(await balance(k.id)).toBe(before)
  })

  test('a wrong check digit is refused -32602 ORG_NUMBER_INVALID_CHECKSUM, and not charged', async () => {
    const k = await customer({ credits: 1_000 })
    const client = await connect(bearer(k.key))
    await expect(client.readResource({ uri: 'plikt://company/984661186/summary' })).rejects.toMatchObject({
      code: -32602,
      data: { error_code: 'ORG_NUMBER_INVALID_CHECKSUM' },
    })
    await client.close()
    expect(await balance(k.id)).toBe(1_000)
  })

  test('a key without read:register is not offered the company templates, and reading one is -32602, as its tool is hidden', async () => {
    const k = await customer({ credits: 1_000, scopes: ['read:rulebook'] })
    const client = await connect(bearer(k.key))
    const names = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.name)
    expect(names).not.toContain('company-summary')
    expect(names).toContain('rulebook-obligations')
    await expect(client.readResource({ uri: `plikt://company/${POSTEN}/summary` })).rejects.toMatchObject({
      code: -32602,
    })
    await client.close()
    expect(await balance(k.id)).toBe(1_000)
  })

  test('a deadlines template reads its query variables as the REST query: horizon_months=3', async () => {
    const k = await customer({ credits: 1_000 })
    const client = await connect(bearer(k.key))
    const read = await client.readResource({ uri: `plikt://company/${POSTEN}/deadlines?horizon_months=3` })
    await client.close()
    const rest = await restBody(`/api/v1/company/${POSTEN}/deadlines?horizon_months=3`, bearer(k.key))
    expect((withoutTimestamp((read.contents[0] as { text: string }).text) as any).data).toEqual(
      (withoutTimestamp(rest.text) as any).data,
    )
  })
})

describe('under the sandbox bearer', () => {
  test('a company template reads the sandbox mirror’s answer, with the sandbox _meta, for nothing', async () => {
    const client = await connect(bearer('svc_sandbox_test_resources'))
    const read = await client.readResource({ uri: 'plikt://company/818000001/context' })
    await client.close()
    const [content] = read.contents as { text: string; _meta: any }[]
    const rest = await restBody('/api/v1/sandbox/company/818000001/context', bearer('svc_sandbox_test_resources'))
    expect((JSON.parse(content!.text) as any).data).toEqual((JSON.parse(rest.text) as any).data)
    expect(content!._meta.is_sandbox).toBe(true)
  })
})
