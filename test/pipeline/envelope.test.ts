import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { TrustMetadata } from '../../src/schemas/common.ts'
import { canonicalJson } from '../../src/lib/canonical-json.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { startApp, PINNED_NOW, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

async function expectErrorEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toContain('application/json')
  const body = await res.json()
  expect(body.success).toBe(false)
  expect(body.error_code).toBe(code)
  expect(typeof body.explanation.summary).toBe('string')
  expect(typeof body.explanation.summary_en).toBe('string')
  expect(typeof body.retryable).toBe('boolean')
  expect(body.fix_hint).toBe(body.fix_hint_en)
  expect(body.docs_url).toBe(`${app.config.baseUrl}/docs/errors#${code}`)
  expect(Value.Check(TrustMetadata, body._meta)).toBe(true)
  expect(body._meta.response_hash).toBeUndefined()
  return body
}

describe('success envelope', () => {
  test('carries data and TrustMetadata with the schema version, service name and a UTC timestamp', async () => {
    const res = await app.get('/api/v1/errors')
    const body = await res.json()
    expect(body.success).toBe(true)
    expect(Value.Check(TrustMetadata, body._meta)).toBe(true)
    expect(body._meta.schema_version).toBe('1.0.7')
    expect(body._meta.source).toBe('plikt')
    expect(body._meta.rulebook_version).toBe('1.1.0')
    expect(body._meta.response_timestamp).toBe(PINNED_NOW)
  })

  test('response_hash is sha256 of the RFC 8785 canonical JSON of data', async () => {
    const body = await (await app.post('/api/v1/explain', { error_code: 'AUTH_MISSING' })).json()
    expect(body._meta.response_hash).toBe(`sha256:${sha256Hex(canonicalJson(body.data))}`)
  })
})

describe('error envelope on every failure under /api/v1', () => {
  test('unknown route gives 404 NOT_FOUND', async () => {
    await expectErrorEnvelope(await app.get('/api/v1/no-such-thing'), 404, 'NOT_FOUND')
  })

  test('wrong method gives 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    const res = await app.get('/api/v1/explain')
    expect(res.headers.get('allow')).toBe('POST')
    await expectErrorEnvelope(res, 405, 'METHOD_NOT_ALLOWED')
  })

  test('malformed JSON gives 400 VALIDATION_FAILED naming the body', async () => {
    const body = await expectErrorEnvelope(
      await app.post('/api/v1/explain', '{"error_code": '),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.explanation.details).toEqual([{ field: 'body', message: 'is not valid JSON' }])
  })

  test('schema failure gives 400 VALIDATION_FAILED with dotted field paths', async () => {
    const body = await expectErrorEnvelope(
      await app.post('/api/v1/explain', { error_code: 'AUTH_MISSING', context: { org_number: '12' } }),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.explanation.details.map((d: { field: string }) => d.field)).toContain('context.org_number')
    expect(body.retryable).toBe(false)
  })

  test('a missing required field is reported as required', async () => {
    const body = await expectErrorEnvelope(await app.post('/api/v1/explain', {}), 400, 'VALIDATION_FAILED')
    expect(body.explanation.details).toContainEqual({ field: 'error_code', message: 'is required' })
  })

  test('a body over 256 KB with Content-Length gives 413 REQUEST_TOO_LARGE', async () => {
    const big = JSON.stringify({ error_code: 'AUTH_MISSING', pad: 'x'.repeat(256 * 1024) })
    await expectErrorEnvelope(await app.post('/api/v1/explain', big), 413, 'REQUEST_TOO_LARGE')
  })

  test('a chunked body over 256 KB gives 413 REQUEST_TOO_LARGE', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const res = await fetch(`${app.url}/api/v1/explain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    })
    await expectErrorEnvelope(res, 413, 'REQUEST_TOO_LARGE')
  })

  test('a chunked body under the limit is accepted', async () => {
    const payload = new TextEncoder().encode(JSON.stringify({ error_code: 'AUTH_MISSING' }))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(payload)
        controller.close()
      },
    })
    const res = await fetch(`${app.url}/api/v1/explain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    })
    expect(res.status).toBe(200)
  })
})

describe('correlation id', () => {
  test('is generated when the client sends none', async () => {
    const res = await app.get('/api/v1/errors')
    expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('is echoed when the client sends a sane one, on success and on error', async () => {
    const id = 'agent-run-42.step:7'
    expect(
      (await app.get('/api/v1/errors', { headers: { 'x-correlation-id': id } })).headers.get('x-correlation-id'),
    ).toBe(id)
    expect(
      (await app.get('/api/v1/nope', { headers: { 'x-correlation-id': id } })).headers.get('x-correlation-id'),
    ).toBe(id)
  })

  test('is replaced when the client sends something unsafe', async () => {
    const res = await app.get('/api/v1/errors', { headers: { 'x-correlation-id': 'x y<script>' } })
    expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('request log', () => {
  test('writes one JSON line per request with method, route template, status, duration and correlation id', async () => {
    const before = app.logs.length
    const res = await app.get('/api/v1/errors', { headers: { 'x-correlation-id': 'log-line-test-1' } })
    await res.arrayBuffer()
    const lines = app.logs
      .slice(before)
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'request')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/errors',
      status: 200,
      correlation_id: 'log-line-test-1',
    })
    expect(typeof lines[0].duration_ms).toBe('number')
    expect('consumer_id' in lines[0]).toBe(true)
  })

  test('never contains the bearer key or the body a caller sent', async () => {
    const secret = 'svc_free_SECRETSECRETSECRETSECRET'
    const before = app.logs.length
    await (
      await app.post(
        '/api/v1/explain',
        { error_code: 'AUTH_MISSING', context: { field: secret } },
        { headers: { authorization: `Bearer ${secret}` } },
      )
    ).arrayBuffer()
    expect(app.logs.slice(before).join('\n')).not.toContain('SECRETSECRET')
  })
})
