/** The well-known documents (issue 15 item 3) and the comparison matrix (item 6), over HTTP. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import * as W from '../../src/schemas/wellknown.ts'
import { allOperations } from '../../src/operations/index.ts'
import { RETENTION_MS } from '../../src/store/sweeps.ts'
import { PINNED_NOW, onPostgres, startApp, type TestApp } from '../helpers.ts'
import { freshIp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp({ env: { SECURITY_CONTACT: 'mailto:security@plikt.example' } })
})
afterAll(() => app.stop())

const json = async (path: string) => {
  const res = await app.get(path)
  expect(res.status).toBe(200)
  return res.json()
}

test('the agent card has one skill per MCP tool of the registry and matches its schema', async () => {
  const card = await json('/.well-known/agent-card.json')
  expect(Value.Check(W.AgentCard, card)).toBe(true)
  const tools = new Set(allOperations.flatMap((o) => (o.mcpTool ? [o.mcpTool] : [])))
  expect(new Set(card.skills.map((s: { id: string }) => s.id))).toEqual(tools)
  expect(card.skills.length).toBe(tools.size)
})

test('the agent card, the plugin manifest and the MCP manifest name the service, the MCP server and the docs alike', async () => {
  const [card, plugin, mcp] = await Promise.all([
    json('/.well-known/agent-card.json'),
    json('/.well-known/ai-plugin.json'),
    json('/.well-known/mcp.json'),
  ])
  expect(card.name).toBe(mcp.name)
  expect(plugin.name_for_model).toBe(mcp.name)
  expect(card.documentationUrl).toBe(mcp.documentation)
  const ext = card.capabilities.extensions[0]
  expect(ext.params).toEqual({ server_url: mcp.url, schema_version: mcp.schema_version })
  expect(ext.uri).toBe(`${app.url}/.well-known/mcp.json`)
  expect(plugin.api.url).toBe(`${app.url}/openapi.json`)
  expect(plugin.contact_email).toBe('security@plikt.example')
  expect(Value.Check(W.AiPlugin, plugin)).toBe(true)
})

test('security.txt carries Contact from SECURITY_CONTACT, an Expires half a year after the start of the request’s UTC day, Canonical and Preferred-Languages', async () => {
  const res = await app.get('/.well-known/security.txt')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  const fields = Object.fromEntries(
    (await res.text())
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
  )
  expect(fields).toEqual({
    Contact: 'mailto:security@plikt.example',
    Expires: new Date(Date.parse(PINNED_NOW.slice(0, 10)) + 182 * 86_400_000).toISOString().replace('.000Z', 'Z'),
    Canonical: `${app.url}/.well-known/security.txt`,
    'Preferred-Languages': 'en, nb',
  })
})

test('security.txt’s Expires moves with the clock: it is never stale', async () => {
  const later = await startApp()
  try {
    later.clock.advance(400 * 86_400_000)
    const text = await (await later.get('/.well-known/security.txt')).text()
    const expires = new Date(/Expires: (\S+)/.exec(text)![1]!)
    expect(expires.getTime()).toBeGreaterThan(later.clock.now().getTime())
    expect(text).toContain(`Contact: mailto:security@127.0.0.1`)
  } finally {
    await later.stop()
  }
})

test('data-sovereignty names this deployment’s database, its register upstreams and the sweep’s retention', async () => {
  const doc = await json('/.well-known/data-sovereignty')
  expect(Value.Check(W.DataSovereignty, doc)).toBe(true)
  expect(doc.storage.kind).toBe(onPostgres ? 'postgres' : 'embedded')
  const brreg = doc.upstreams.find((u: { operator: string }) => u.operator === 'Brønnøysundregistrene')
  expect(brreg).toMatchObject({ base_url: app.config.businessRegisterUrl, mode: 'fixtures' })
  // GOVERNMENT_MODE=mock: the government systems run in the process and receive nothing.
  expect(doc.upstreams.find((u: { system: string }) => u.system === 'Maskinporten')).toMatchObject({
    base_url: null,
    mode: 'mock',
  })
  expect(doc.retention.find((r: { data: string }) => r.data === 'Sandbox audit rows')).toEqual({
    data: 'Sandbox audit rows',
    kept_for: '30 days',
    seconds: RETENTION_MS.sandbox_audit / 1000,
    why: expect.any(String),
  })
})

test('the API catalog is an RFC 9264 linkset served as application/linkset+json, listing the REST API and the MCP server', async () => {
  const res = await app.get('/.well-known/api-catalog')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/linkset+json')
  const doc = await res.json()
  expect(Value.Check(W.ApiCatalog, doc)).toBe(true)
  expect(doc.linkset[0]).toEqual({
    anchor: `${app.url}/.well-known/api-catalog`,
    item: [{ href: `${app.url}/api/v1` }, { href: `${app.url}/api/mcp` }],
  })
  expect(doc.linkset[1]['service-desc']).toEqual([
    { href: `${app.url}/openapi.json`, type: 'application/openapi+json' },
  ])
})

test('every link of the API catalog on this host answers, except the discovery documents another area serves', async () => {
  const doc = await json('/.well-known/api-catalog')
  const hrefs: string[] = doc.linkset.flatMap((set: Record<string, unknown>) =>
    Object.values(set).flatMap((v) => (Array.isArray(v) ? v.map((l: { href: string }) => l.href) : [])),
  )
  const paths = new Set(allOperations.map((o) => o.path))
  for (const href of hrefs) {
    const path = new URL(href).pathname
    if (path === '/api/v1' || path === '/api/mcp') continue
    // llms.txt, workflows and recipes belong to the capabilities area (the same issue, part A).
    if (!paths.has(path)) continue
    expect({ path, status: (await app.get(path)).status }).toEqual({ path, status: 200 })
  }
})

test('the comparison covers the spec’s nine dimensions, bilingual, with methodology and source', async () => {
  const body = await json('/api/v1/comparison/direct-integration')
  expect(Value.Check(W.Comparison, body.data)).toBe(true)
  expect(body.data.dimensions.map((d: { dimension: string }) => d.dimension)).toEqual([
    'authentication',
    'delegation',
    'audit_trail',
    'legal_grounding',
    'error_handling',
    'deadline_intelligence',
    'cross_agency_orchestration',
    'maintenance_burden',
    'time_to_first_call',
  ])
  expect(body.data.methodology.length).toBeGreaterThan(0)
  expect(body.data.source.length).toBeGreaterThan(0)
  expect(body._meta.schema_version).toBe('1.0.7')
})

test('the comparison makes no quantitative claim: no figures in any of its prose', async () => {
  const { data } = await json('/api/v1/comparison/direct-integration')
  const prose = [
    data.subject,
    data.methodology,
    data.methodology_nb,
    data.source,
    ...data.dimensions.flatMap((d: Record<string, string>) => [
      d.name_en,
      d.name_nb,
      d.direct_integration_en,
      d.direct_integration_nb,
      d.plikt_en,
      d.plikt_nb,
    ]),
  ]
  for (const text of prose)
    expect({
      text,
      figure:
        /\d|%|\b(ten|hundred|twice|half|times|hours?|days?|weeks?|minutes?|timer|dager|uker|minutter|ganger)\b/i.test(
          text,
        ),
    }).toEqual({ text, figure: false })
})

test('each comparison claim names the registry operations behind it', async () => {
  const { data } = await json('/api/v1/comparison/direct-integration')
  const byId = new Map(allOperations.map((o) => [o.id, o]))
  for (const d of data.dimensions) {
    expect(d.evidence.length).toBeGreaterThan(0)
    for (const e of d.evidence)
      expect(e).toEqual({
        operation_id: e.operation_id,
        method: byId.get(e.operation_id)!.method,
        path: byId.get(e.operation_id)!.path,
      })
  }
})

test('the well-known documents, the readiness probe and the comparison are under the Category A limit per address', async () => {
  const ip = freshIp()
  for (let i = 0; i < 1000; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        app.get('/.well-known/security.txt', { headers: ip }).then((r) => r.arrayBuffer()),
      ),
    )
  }
  const paths = allOperations
    .filter(
      (o) =>
        o.path.startsWith('/.well-known/') || ['getAgentReadiness', 'getDirectIntegrationComparison'].includes(o.id),
    )
    .map((o) => o.path)
  expect(paths.length).toBeGreaterThanOrEqual(7)
  for (const path of paths) {
    const res = await app.get(path, { headers: ip })
    expect({ path, status: res.status, code: (await res.json()).error_code }).toEqual({
      path,
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
    })
  }
})
