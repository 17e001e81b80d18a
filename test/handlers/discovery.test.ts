/** The discovery routes over HTTP: the capabilities document, llms files, workflows, recipes and the front door. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../helpers.ts'
import { bearer, connectMcp, createConsumer, createKey, freshIp } from '../helpers.ts'
import { WORKFLOWS } from '../../src/domain/discovery/workflows.ts'
import { hasValidCheckDigit } from '../../src/lib/org-number.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const DISCOVERY_PATHS = ['/', '/api/v1/capabilities', '/llms.txt', '/llms-full.txt', '/workflows.json', '/recipes']

describe('GET /api/v1/capabilities', () => {
  test('is an envelope whose _meta.schema_version is the document’s own 1.1.0, with data.version 1', async () => {
    const body = await (await app.get('/api/v1/capabilities')).json()
    expect(body.success).toBe(true)
    expect(body._meta.schema_version).toBe('1.1.0')
    expect(body.data).toMatchObject({ service: 'plikt', version: 1, rulebook_version: '1.1.0' })
  })

  test('other /api/v1 answers keep the OpenAPI version', async () => {
    expect((await (await app.get('/api/v1/errors')).json())._meta.schema_version).toBe('1.0.7')
  })

  test('sends a strong ETag and answers 304 to If-None-Match', async () => {
    const first = await app.get('/api/v1/capabilities')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    const again = await app.get('/api/v1/capabilities', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  test('tells the truth about filing: the test app files through the mock submitter', async () => {
    const { data } = await (await app.get('/api/v1/capabilities')).json()
    expect(app.deps.government.filingSubmitter.mock).toBe(true)
    expect(data.actions.execute_supported).toBe(false)
  })

  test('the reserved 999000XXX numbers listed as failing MOD-11 do fail it; 999000002, which passes, is listed apart', async () => {
    const { data } = await (await app.get('/api/v1/capabilities')).json()
    const reserved = data.sandbox.reserved_test_org_numbers
    expect(reserved).toMatchObject({ pattern: '999000XXX', mod11_valid: false, mod11_valid_org_numbers: ['999000002'] })
    expect(reserved.org_numbers).toEqual(['999000901', '999000902', '999000903', '999000904'])
    for (const org of reserved.org_numbers) expect([org, hasValidCheckDigit(org)]).toEqual([org, false])
  })

  test('its MCP block counts the tools tools/list offers with no key and with one', async () => {
    const { data } = await (await app.get('/api/v1/capabilities')).json()
    const manifest = await (await app.get('/.well-known/mcp.json')).json()
    expect(data.mcp.tools).toEqual(manifest.tools.names)
    expect(data.mcp.tool_counts.initial).toBe(manifest.tools.keyless)
  })

  test('its MCP block and the MCP manifest name the resources, templates and prompts a host lists', async () => {
    const { data } = await (await app.get('/api/v1/capabilities')).json()
    const manifest = await (await app.get('/.well-known/mcp.json')).json()
    const c = await createConsumer(app, 'enterprise')
    const host = await connectMcp(app, bearer((await createKey(app, c.id)).key))
    const resources = (await host.listResources()).resources.map((r) => r.uri)
    const templates = (await host.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
    const prompts = (await host.listPrompts()).prompts.map((p) => p.name)
    await host.close()
    for (const doc of [data.mcp, manifest]) {
      expect(doc.uri_scheme).toBe('plikt://')
      expect(doc.resources.map((r: { uri: string }) => r.uri)).toEqual(resources)
      expect(doc.resource_templates.map((t: { uri_template: string }) => t.uri_template)).toEqual(templates)
      expect(doc.prompts.map((p: { name: string }) => p.name)).toEqual(prompts)
      expect(Object.keys(doc.completions)).toContain('org_number')
      expect(doc.change_signalling).toContain('etag')
    }
  })
})

describe('llms.txt, llms-full.txt, workflows.json, recipes', () => {
  test('the llms files are Markdown text', async () => {
    for (const path of ['/llms.txt', '/llms-full.txt']) {
      const res = await app.get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect((await res.text()).startsWith('# Plikt\n')).toBe(true)
    }
  })

  test('workflows.json lists every workflow with its own version', async () => {
    const doc = await (await app.get('/workflows.json')).json()
    expect(doc.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(doc.workflows.map((w: { id: string }) => w.id)).toEqual(WORKFLOWS.map((w) => w.id))
  })

  test('recipes is an HTML page with one section per workflow', async () => {
    const res = await app.get('/recipes')
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    for (const w of WORKFLOWS) expect(html).toContain(`<section id="${w.id}"`)
    expect(html).not.toContain('<script')
  })
})

describe('the front door', () => {
  test('a browser gets the landing page: the sandbox tour and links to the docs, recipes, llms.txt and sign-in', async () => {
    const res = await app.get('/', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('vary')).toBe('Accept')
    const html = await res.text()
    for (const href of ['/docs', '/recipes', '/llms.txt', '/login', '/recipes#sandbox-tour'])
      expect(html).toContain(`href="${href}"`)
  })

  test('no Accept header gets the landing page too', async () => {
    const res = await fetch(`${app.url}/`, { headers: { accept: '' } })
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })

  test('an agent asking for JSON gets the index of the discovery documents, as absolute URLs that answer', async () => {
    const res = await app.get('/', { headers: { accept: 'application/json' } })
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const index = await res.json()
    expect(index.documents.llms_txt).toBe(`${app.config.baseUrl}/llms.txt`)
    for (const url of Object.values(index.documents) as string[]) {
      if (url.endsWith('/api/mcp')) continue
      expect([url, (await fetch(url)).status]).toEqual([url, 200])
    }
  })

  test('an unknown path is still 404 NOT_FOUND', async () => {
    const res = await app.get('/no-such-page')
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })
})

describe('Category A limits', () => {
  test.each(DISCOVERY_PATHS)(
    '%s is refused 429 RATE_LIMIT_EXCEEDED once the address used its 1000 a minute',
    async (path) => {
      const ip = freshIp()
      const now = app.clock.now()
      for (let i = 0; i < 1000; i++) app.deps.softLimiter.hit(ip['x-forwarded-for']!, now)
      const res = await app.get(path, { headers: ip })
      expect(res.status).toBe(429)
      // a page answers with an error page that names the code; a document with the envelope
      expect(await res.text()).toContain('RATE_LIMIT_EXCEEDED')
      expect((await app.get(path, { headers: freshIp() })).status).toBe(200)
    },
  )
})

describe('the OpenAPI document', () => {
  test('documents each discovery route’s answer with its media type', async () => {
    const doc = await (await app.get('/openapi.json')).json()
    const ok = (path: string) => doc.paths[path].get.responses['200'].content
    expect(Object.keys(ok('/'))).toEqual(['text/html', 'application/json'])
    expect(Object.keys(ok('/llms.txt'))).toEqual(['text/markdown'])
    expect(Object.keys(ok('/recipes'))).toEqual(['text/html'])
    expect(Object.keys(ok('/workflows.json'))).toEqual(['application/json'])
    expect(doc.paths['/api/v1/capabilities'].get.responses).toHaveProperty('304')
  })
})
