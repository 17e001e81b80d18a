import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { ERROR_CODES } from '../../src/errors/catalogue/index.ts'
import { composeDeps, createApp } from '../../src/app.ts'
import { allOperations } from '../../src/operations/index.ts'
import { openApiPath } from '../../src/http/openapi.ts'
import { startApp, testDatabase, type TestApp } from '../helpers.ts'
import { loadConfig } from '../../src/config.ts'
import { connectMcp } from '../helpers.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'

let app: TestApp
let doc: any
beforeAll(async () => {
  app = await startApp()
  doc = await (await app.get('/openapi.json')).json()
})
afterAll(() => app.stop())

describe('/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  test('has info.version 1.0.7', () => {
    expect(doc.info.version).toBe('1.0.7')
  })

  test('says response_hash is over RFC 8785 canonical JSON', () => {
    expect(doc.info.description).toContain('RFC 8785')
  })

  test('publishes an ErrorCode enum identical to the catalogue and to GET /api/v1/errors', async () => {
    const listed = (await (await app.get('/api/v1/errors')).json()).data.errors.map((e: { code: string }) => e.code)
    expect(doc.components.schemas.ErrorCode.enum).toEqual([...ERROR_CODES])
    expect(listed).toEqual([...ERROR_CODES])
  })

  test('documents 401 AUTH_SESSION_REQUIRED on every session-only operation (a key or nothing is refused there)', () => {
    const sessionOnly = allOperations.filter((o) => o.auth === 'session' && o.format !== 'html')
    expect(sessionOnly.length).toBeGreaterThan(0)
    for (const o of sessionOnly) {
      expect(
        doc.paths[openApiPath(o.path)][o.method.toLowerCase()].responses['401'].content['application/json'].schema
          .allOf[1].properties.error_code.enum,
        o.id,
      ).toContain('AUTH_SESSION_REQUIRED')
    }
  })

  test('answers 304 to its own ETag', async () => {
    const first = await app.get('/openapi.json')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    const again = await app.get('/openapi.json', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })
})

describe('the registry is the single source of routes and documented paths', () => {
  const registry = allOperations.map((o) => `${o.method} ${openApiPath(o.path)}`).sort()

  test('every registry operation is in the OpenAPI document, and nothing else', () => {
    const documented: string[] = []
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) documented.push(`${method.toUpperCase()} ${path}`)
    }
    expect(documented.sort()).toEqual(registry)
  })

  test('every mounted route is a registry operation, except the docs UI assets and the site icon', async () => {
    const db = await testDatabase()
    const elysia = createApp(
      composeDeps({
        config: loadConfig({}),
        sql: db.sql,
        dbKind: db.kind,
        clock: systemClock,
        logger: createLogger('error'),
      }),
    )
    const mounted = elysia.routes
      .filter((r) => r.path !== '/docs/assets/:name' && r.path !== '/favicon.ico')
      .map((r) => `${r.method} ${openApiPath(r.path)}`)
      .sort()
    expect(mounted).toEqual(registry)
  })
})

describe('the description of /api/mcp', () => {
  test('names exactly the tools an MCP client without a key is shown', async () => {
    const description: string = doc.paths['/api/mcp'].post.description
    const named = /only the keyless tools \(([^;)]+);/.exec(description)?.[1]?.split(', ')
    const client = await connectMcp(app)
    const { tools } = await client.listTools()
    await client.close()
    expect(tools.length).toBeGreaterThan(0)
    expect(named?.sort()).toEqual(tools.map((t) => t.name).sort())
  })
})
