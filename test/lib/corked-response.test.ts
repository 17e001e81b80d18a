import { afterAll, beforeAll, expect, test } from 'bun:test'
import { corkedResponse } from '../../src/lib/corked-response.ts'

const BODY = JSON.stringify({ success: true, data: 'x'.repeat(2000) })
/** two bytes a letter in UTF-8: the length Bun must buffer is in bytes, not characters */
const NORWEGIAN = JSON.stringify({ success: true, data: 'æøå'.repeat(1000) })
let server: ReturnType<typeof Bun.serve>
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    // Answers after a timer, as a handler answers after a database read.
    async fetch(req) {
      await Bun.sleep(1)
      const init = {
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-correlation-id': 'corked-test-1' },
      }
      const path = new URL(req.url).pathname
      if (path === '/norwegian') return corkedResponse(NORWEGIAN, init)
      if (path === '/norwegian-bytes') return corkedResponse(new TextEncoder().encode(NORWEGIAN), init)
      return path === '/corked' ? corkedResponse(BODY, init) : new Response(BODY, init)
    },
  })
})
afterAll(() => server.stop(true))

// That it leaves in one send() instead of a dozen is a cost, measured by the benchmarks (bench/RESULTS.md),
// not something a client can see: the kernel coalesces the small sends into the same TCP segments.
test('a corked answer reaches the client with the same status, headers, Content-Length and body as a plain one, not chunked', async () => {
  const corked = await fetch(`http://127.0.0.1:${server.port}/corked`)
  const plain = await fetch(`http://127.0.0.1:${server.port}/plain`)
  expect(corked.status).toBe(201)
  expect(corked.headers.get('content-type')).toBe(plain.headers.get('content-type'))
  expect(corked.headers.get('x-correlation-id')).toBe('corked-test-1')
  expect(corked.headers.get('content-length')).toBe(String(Buffer.byteLength(BODY)))
  expect(corked.headers.get('transfer-encoding')).toBeNull()
  expect(await corked.text()).toBe(await plain.text())
})

test.each(['/norwegian', '/norwegian-bytes'])(
  'a corked answer of %s keeps its Content-Length in bytes',
  async (path) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`)
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(NORWEGIAN)))
    expect(res.headers.get('transfer-encoding')).toBeNull()
    expect(await res.text()).toBe(NORWEGIAN)
  },
)
