import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { AppError } from '../../src/errors/app-error.ts'
import { fixedClock, systemClock } from '../../src/lib/clock.ts'
import { parseRetryAfter, UpstreamClient, UpstreamGaveUp, type UpstreamPolicy } from '../../src/upstream/http.ts'
import { PINNED_NOW } from '../helpers.ts'

// A real HTTP server with failure modes on demand, counting what it receives per path.
const hits = new Map<string, number>()
let server: ReturnType<typeof Bun.serve>
let base: string
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      const n = (hits.get(path) ?? 0) + 1
      hits.set(path, n)
      switch (path) {
        case '/ok':
          return Response.json({ n })
        case '/flaky': // two 503s, then success
          return n <= 2 ? new Response('busy', { status: 503 }) : Response.json({ n })
        case '/down':
          return new Response('down', { status: 502 })
        case '/missing':
          return new Response('gone', { status: 404 })
        case '/limited':
          return n === 1
            ? new Response('slow down', { status: 429, headers: { 'retry-after': '1' } })
            : Response.json({ n })
        case '/slow':
          await Bun.sleep(500)
          return Response.json({ n })
        case '/redirect':
          return Response.redirect('http://169.254.169.254/latest/meta-data', 302)
        default:
          return new Response('?', { status: 500 })
      }
    },
  })
  base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))

const fast: UpstreamPolicy = {
  timeoutMs: 200,
  attempts: 3,
  backoffMs: 5,
  budgetMs: 2000,
  breakerThreshold: 3,
  breakerOpenMs: 30_000,
}
const reset = (path: string) => hits.delete(path)

describe('retries', () => {
  test('a transient 5xx is retried with backoff until it succeeds, within three attempts', async () => {
    reset('/flaky')
    const res = await new UpstreamClient('Testregisteret', fast, systemClock).request(`${base}/flaky`)
    expect(res.status).toBe(200)
    expect(res.attempts).toBe(3)
    expect(hits.get('/flaky')).toBe(3)
  })

  test('a persistent 5xx fails after three attempts with UPSTREAM_UNAVAILABLE naming the system', async () => {
    reset('/down')
    const err = await new UpstreamClient('Testregisteret', fast, systemClock)
      .request(`${base}/down`)
      .catch((e) => e as AppError)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).code).toBe('UPSTREAM_UNAVAILABLE')
    expect((err as AppError).options.context).toEqual({ upstream_system: 'Testregisteret' })
    expect(hits.get('/down')).toBe(3)
  })

  test('a 4xx answer is returned at once, not retried', async () => {
    reset('/missing')
    const res = await new UpstreamClient('Testregisteret', fast, systemClock).request(`${base}/missing`)
    expect(res.status).toBe(404)
    expect(hits.get('/missing')).toBe(1)
  })

  test('a 429 is retried after the Retry-After it gives', async () => {
    reset('/limited')
    const waits: number[] = []
    const client = new UpstreamClient('Testregisteret', fast, systemClock, fetch, async (ms) => {
      waits.push(ms)
    })
    const res = await client.request(`${base}/limited`)
    expect(res.status).toBe(200)
    expect(waits[0]).toBeGreaterThanOrEqual(1000)
  })

  test('an attempt that outlives its timeout fails with UPSTREAM_TIMEOUT', async () => {
    const err = await new UpstreamClient('Testregisteret', { ...fast, attempts: 1 }, systemClock)
      .request(`${base}/slow`)
      .catch((e) => e as AppError)
    expect((err as AppError).code).toBe('UPSTREAM_TIMEOUT')
  })

  test('the overall budget caps the total: no attempt starts once it is spent', async () => {
    reset('/slow')
    const t0 = performance.now()
    const err = await new UpstreamClient('Testregisteret', { ...fast, timeoutMs: 300, budgetMs: 450 }, systemClock)
      .request(`${base}/slow`)
      .catch((e) => e as AppError)
    expect((err as AppError).code).toBe('UPSTREAM_TIMEOUT')
    expect(hits.get('/slow')).toBeLessThanOrEqual(2)
    expect(performance.now() - t0).toBeLessThan(1500)
  })

  test('redirects are not followed', async () => {
    const res = await new UpstreamClient('Testregisteret', fast, systemClock).request(`${base}/redirect`)
    expect(res.status).toBe(302)
  })
})

describe('circuit breaker', () => {
  test('opens after repeated failed calls and then refuses without calling, with Retry-After', async () => {
    const clock = fixedClock(PINNED_NOW)
    const client = new UpstreamClient('Testregisteret', { ...fast, attempts: 1 }, clock)
    reset('/down')
    for (let i = 0; i < 3; i++) await client.request(`${base}/down`).catch(() => {})
    expect(client.open).toBe(true)
    const err = await client.request(`${base}/down`).catch((e) => e as AppError)
    expect((err as AppError).code).toBe('UPSTREAM_UNAVAILABLE')
    expect((err as AppError).options.headers!['retry-after']).toBe('30')
    expect(hits.get('/down')).toBe(3) // the fourth call never reached the server
  })

  test('after the open period one call is tried: success closes the breaker, failure re-opens it', async () => {
    const clock = fixedClock(PINNED_NOW)
    const client = new UpstreamClient('Testregisteret', { ...fast, attempts: 1 }, clock)
    for (let i = 0; i < 3; i++) await client.request(`${base}/down`).catch(() => {})
    clock.advance(30_001)
    expect(client.open).toBe(false)
    await client.request(`${base}/down`).catch(() => {})
    expect(client.open).toBe(true) // one failed probe is enough
    clock.advance(30_001)
    expect((await client.request(`${base}/ok`)).status).toBe(200)
    expect(client.open).toBe(false)
  })

  test('a success resets the count of failures', async () => {
    const client = new UpstreamClient('Testregisteret', { ...fast, attempts: 1 }, fixedClock(PINNED_NOW))
    for (let i = 0; i < 2; i++) await client.request(`${base}/down`).catch(() => {})
    await client.request(`${base}/ok`)
    for (let i = 0; i < 2; i++) await client.request(`${base}/down`).catch(() => {})
    expect(client.open).toBe(false)
  })
})

describe('breaker state and why a call gave up', () => {
  const gaveUp = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as UpstreamGaveUp,
    )

  test('the breaker reads closed, then open, then half_open once the open period is over', async () => {
    const clock = fixedClock(PINNED_NOW)
    const client = new UpstreamClient('Testregisteret', { ...fast, attempts: 1 }, clock)
    expect(client.state).toBe('closed')
    for (let i = 0; i < 3; i++) await client.request(`${base}/down`).catch(() => {})
    expect(client.state).toBe('open')
    clock.advance(30_000)
    expect(client.state).toBe('half_open')
  })

  test('an open breaker gives up at once, reason circuit, no attempt made', async () => {
    const client = new UpstreamClient('Testregisteret', { ...fast, attempts: 1 }, fixedClock(PINNED_NOW))
    for (let i = 0; i < 3; i++) await client.request(`${base}/down`).catch(() => {})
    const e = await gaveUp(client.request(`${base}/down`))
    expect(e).toBeInstanceOf(UpstreamGaveUp)
    expect([e?.reason, e?.attempts]).toEqual(['circuit', 0])
  })

  test('a call may allow fewer attempts than the policy: one attempt, reason attempts', async () => {
    reset('/down')
    const e = await gaveUp(
      new UpstreamClient('Testregisteret', fast, systemClock).request(`${base}/down`, {}, { attempts: 1 }),
    )
    expect([e?.code, e?.reason, e?.attempts]).toEqual(['UPSTREAM_UNAVAILABLE', 'attempts', 1])
    expect(hits.get('/down')).toBe(1)
  })

  test("a call's own budget, smaller than the policy's, cuts the attempt short: reason budget", async () => {
    const e = await gaveUp(
      new UpstreamClient('Testregisteret', fast, systemClock).request(`${base}/slow`, {}, { budgetMs: 100 }),
    )
    expect([e?.code, e?.reason]).toEqual(['UPSTREAM_TIMEOUT', 'budget'])
  })

  test('a call with no budget left makes no attempt and does not count against the breaker', async () => {
    reset('/down')
    const client = new UpstreamClient('Testregisteret', { ...fast, attempts: 1, breakerThreshold: 1 }, systemClock)
    const e = await gaveUp(client.request(`${base}/down`, {}, { budgetMs: 0 }))
    expect([e?.reason, e?.attempts]).toEqual(['budget', 0])
    expect(hits.get('/down')).toBeUndefined()
    expect(client.state).toBe('closed')
  })
})

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = new Date(PINNED_NOW)
  expect(parseRetryAfter('7', now)).toBe(7000)
  expect(parseRetryAfter('Sat, 14 Mar 2026 09:30:10 GMT', now)).toBe(10_000)
  expect(parseRetryAfter('soon', now)).toBeNull()
  expect(parseRetryAfter(null, now)).toBeNull()
})
