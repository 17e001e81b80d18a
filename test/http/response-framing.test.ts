/**
 * How answers are framed on the wire, over real HTTP: an answer made after database work is sent
 * through a corked stream (src/lib/corked-response.ts), and must still carry its Content-Length,
 * never switch to chunked encoding, whichever route made it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 10_000)
  key = (await createKey(app, c.id)).key
}, 30_000)
afterAll(() => app.stop())

async function framing(res: Response) {
  const text = await res.text()
  return {
    status: res.status,
    length: res.headers.get('content-length'),
    chunked: res.headers.get('transfer-encoding'),
    bytes: String(Buffer.byteLength(text)),
  }
}

test('a metered company answer, made after the charge and the cache read, carries its Content-Length', async () => {
  const f = await framing(
    await app.get('/api/v1/company/984661185/summary', { headers: { ...bearer(key), ...freshIp() } }),
  )
  expect(f).toEqual({ status: 200, length: f.bytes, chunked: null, bytes: f.bytes })
})

test('a free keyed answer, made after the rate-limit count, carries its Content-Length', async () => {
  const f = await framing(
    await app.get('/api/v1/account/credits/balance', { headers: { ...bearer(key), ...freshIp() } }),
  )
  expect(f).toEqual({ status: 200, length: f.bytes, chunked: null, bytes: f.bytes })
})

test('an idempotent operation’s answer, stored for replay, carries its Content-Length, and so does its replay', async () => {
  const body = {
    name: 'framing',
    config: {
      org_number: '984661185',
      action: 'mva_melding',
      payload: { period: '2026-T1', lines: [{ code: 3, base: 1000 }] },
    },
  }
  const headers = { ...bearer(key), ...freshIp(), 'idempotency-key': crypto.randomUUID() }
  const first = await framing(await app.send('POST', '/api/v1/profiles', body, headers))
  expect(first).toEqual({ status: 201, length: first.bytes, chunked: null, bytes: first.bytes })
  const replay = await framing(await app.send('POST', '/api/v1/profiles', body, headers))
  expect(replay).toEqual({ status: 201, length: replay.bytes, chunked: null, bytes: replay.bytes })
})

test('a keyless public answer carries its Content-Length', async () => {
  const f = await framing(await app.get('/api/v1/public/deadlines?year=2026', { headers: freshIp() }))
  expect(f).toEqual({ status: 200, length: f.bytes, chunked: null, bytes: f.bytes })
})

test('an MCP tool call’s answer carries its Content-Length', async () => {
  const res = await app.send(
    'POST',
    '/api/mcp',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_company_summary', arguments: { org_number: '984661185' } },
    },
    { ...bearer(key), ...freshIp(), accept: 'application/json, text/event-stream' },
  )
  const f = await framing(res)
  expect(f).toEqual({ status: 200, length: f.bytes, chunked: null, bytes: f.bytes })
})
