/**
 * The public sandbox mirror (/api/v1/sandbox/public/…): one organisation, a 32 KiB POST body
 * limit, a per-IP bucket, and the edge protections of src/http/sandbox-edge.ts — loop detection
 * and load shedding, both with the short body.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PUBLIC_SANDBOX_ORG, RESERVED_ERROR_ORGS } from '../../../fixtures/sandbox/companies.ts'
import { PUBLIC_SANDBOX_PER_MINUTE } from '../../../src/operations/index.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { SERVE_OPTIONS } from '../../../src/http/server.ts'
import { freshIp } from '../../helpers.ts'
import {
  call,
  expectSandboxError,
  expectSandboxMeta,
  expectShortBody,
  ORG_ROUTES,
  PUBLIC,
  SANDBOX,
  withoutTimestamp,
  type Answer,
} from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const mirror = (org: string, route: string, query = '') => `${PUBLIC}/company/${org}/${route}${query}`

/** A plan body padded to about `bytes` bytes of JSON. */
function paddedPlan(bytes: number, org = PUBLIC_SANDBOX_ORG): string {
  const base = JSON.stringify({
    org_number: org,
    action_type: 'mva_melding',
    period: '2026-T1',
    payload: { total_revenue_nok: 125_000, pad: '' },
  })
  return base.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, bytes - base.length))}"`)
}

async function post(
  path: string,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(app.url + path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...freshIp(), ...headers },
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) }
}

describe('the one organisation', () => {
  test(`${PUBLIC_SANDBOX_ORG} answers on every read route exactly as the private sandbox does`, async () => {
    for (const route of ORG_ROUTES) {
      const [pub, priv] = [
        await call(app, mirror(PUBLIC_SANDBOX_ORG, route), freshIp()),
        await call(app, `${SANDBOX}/company/${PUBLIC_SANDBOX_ORG}/${route}`, freshIp()),
      ]
      expect({ route, status: pub.status }).toEqual({ route, status: 200 })
      expectSandboxMeta(pub.body._meta)
      expect(withoutTimestamp(pub.text)).toBe(withoutTimestamp(priv.text))
    }
  })

  test('the fixtures catalogue is on the mirror too and names the mirror’s org', async () => {
    const a = await call(app, `${PUBLIC}/fixtures`, freshIp())
    expect(a.status).toBe(200)
    expect(a.body.data.public_mirror).toMatchObject({
      base_path: PUBLIC,
      org_number: PUBLIC_SANDBOX_ORG,
      post_body_limit_bytes: 32 * 1024,
    })
  })

  const others: [string, string][] = [
    ['another fixture company', '818000006'],
    ['a magic-state company', '999660002'],
    ['a synthetic number of a valid series', '818123456'],
    ['an org the sandbox does not know', '123456785'],
    ...Object.keys(RESERVED_ERROR_ORGS).map((org): [string, string] => ['a reserved error org', org]),
  ]
  for (const [what, org] of others) {
    test(`${what} (${org}) is 403 PUBLIC_SANDBOX_ORG_NOT_PERMITTED on every route`, async () => {
      for (const route of ORG_ROUTES) {
        const body = expectSandboxError(
          await call(app, mirror(org, route), freshIp()),
          403,
          'PUBLIC_SANDBOX_ORG_NOT_PERMITTED',
        )
        expect(body._meta).not.toHaveProperty('simulated')
      }
    })
  }

  test('the knobs work on the mirror’s org', async () => {
    const body = expectSandboxError(
      await call(app, mirror(PUBLIC_SANDBOX_ORG, 'context', '?simulate_error=missing_delegation'), freshIp()),
      403,
      'AUTH_MISSING_DELEGATION',
    )
    expect(body._meta.simulated).toBe(true)
  })
})

describe('the POST body limit', () => {
  test('a declared body over 32 KiB is 413 PUBLIC_SANDBOX_BODY_TOO_LARGE in the sandbox envelope', async () => {
    const a = await post(`${PUBLIC}/actions/plan`, paddedPlan(32 * 1024 + 1))
    expectSandboxError(a, 413, 'PUBLIC_SANDBOX_BODY_TOO_LARGE')
  })

  test('a streamed body without Content-Length over 32 KiB is refused the same way', async () => {
    const bytes = new TextEncoder().encode(paddedPlan(40 * 1024))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096))
        controller.close()
      },
    })
    const a = await post(`${PUBLIC}/actions/plan`, stream)
    expectSandboxError(a, 413, 'PUBLIC_SANDBOX_BODY_TOO_LARGE')
  })

  test('a body of exactly 32 KiB is not refused for its size', async () => {
    const body = paddedPlan(32 * 1024)
    expect(new TextEncoder().encode(body).length).toBe(32 * 1024)
    const a = await post(`${PUBLIC}/actions/plan`, body)
    expect(a.status).not.toBe(413)
    expect(a.body.error_code).toBeUndefined()
  })

  test('the private sandbox takes the same 40 KiB body', async () => {
    const a = await post(`${SANDBOX}/actions/plan`, paddedPlan(40 * 1024, '999000002'))
    expect(a.status).not.toBe(413)
    expect(a.body.error_code).toBeUndefined()
  })
})

describe('the per-IP bucket', () => {
  /** Distinct URLs (one mock date each), so the loop detector never sees the same request twice. */
  const nth = (i: number) =>
    mirror(
      PUBLIC_SANDBOX_ORG,
      'context',
      `?mock_date=2026-${String(1 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    )

  test(`${PUBLIC_SANDBOX_PER_MINUTE} requests a minute pass; the next is 429 RATE_LIMIT_EXCEEDED with Retry-After`, async () => {
    const ip = freshIp()
    for (let i = 0; i < PUBLIC_SANDBOX_PER_MINUTE; i++) {
      const a = await call(app, nth(i), ip)
      expect({ i, status: a.status }).toEqual({ i, status: 200 })
    }
    const over = await call(app, nth(PUBLIC_SANDBOX_PER_MINUTE), ip)
    expectSandboxError(over, 429, 'RATE_LIMIT_EXCEEDED')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another address has a bucket of its own.
    expect((await call(app, nth(PUBLIC_SANDBOX_PER_MINUTE), freshIp())).status).toBe(200)
  })

  test('the private sandbox has no such bucket', async () => {
    const ip = freshIp()
    for (let i = 0; i <= PUBLIC_SANDBOX_PER_MINUTE; i++) {
      const a = await call(
        app,
        `${SANDBOX}/company/${PUBLIC_SANDBOX_ORG}/context?mock_date=2026-${String(1 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        ip,
      )
      expect({ i, status: a.status }).toEqual({ i, status: 200 })
    }
  })

  test('a mirror answer tells a browser its bucket: RateLimit headers, exposed by CORS', async () => {
    const a = await call(app, mirror(PUBLIC_SANDBOX_ORG, 'context'), freshIp())
    expect(a.headers.get('ratelimit-policy')).toContain(`q=${PUBLIC_SANDBOX_PER_MINUTE}`)
    expect(a.headers.get('ratelimit')).toContain(`r=${PUBLIC_SANDBOX_PER_MINUTE - 1}`)
    const exposed = (a.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim())
    for (const h of ['ratelimit-policy', 'ratelimit', 'retry-after', 'x-correlation-id']) expect(exposed).toContain(h)
  })
})

describe('loop detection', () => {
  const LOOP_LIMIT = 20

  test(`the same request more than ${LOOP_LIMIT} times a minute is 429 AGENT_LOOP_DETECTED with the short body`, async () => {
    const ip = freshIp()
    const path = mirror(PUBLIC_SANDBOX_ORG, 'deadlines')
    for (let i = 0; i < LOOP_LIMIT; i++) expect((await call(app, path, ip)).status).toBe(200)
    const looped = await call(app, path, ip)
    expectShortBody(looped, 429, 'AGENT_LOOP_DETECTED')
    expect(Number(looped.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('a looping client may still send other requests, and others may send the same one', async () => {
    const ip = freshIp()
    const path = mirror(PUBLIC_SANDBOX_ORG, 'accounts')
    for (let i = 0; i <= LOOP_LIMIT; i++) await call(app, path, ip)
    expect((await call(app, path, ip)).body.error_code).toBe('AGENT_LOOP_DETECTED')
    expect((await call(app, mirror(PUBLIC_SANDBOX_ORG, 'verify'), ip)).status).toBe(200)
    expect((await call(app, path, freshIp())).status).toBe(200)
  })
})

describe('load shedding', () => {
  test('a mirror switched off answers 503 SANDBOX_TEMPORARILY_UNAVAILABLE with the short body and Retry-After', async () => {
    const off = await startApp({ env: { PUBLIC_SANDBOX_DISABLED: '1' } })
    try {
      const a = await call(off, mirror(PUBLIC_SANDBOX_ORG, 'context'), freshIp())
      expectShortBody(a, 503, 'SANDBOX_TEMPORARILY_UNAVAILABLE')
      expect(a.headers.get('retry-after')).toBe('5')
      // The private sandbox and the mirror's preflight still answer.
      expect((await call(off, `${SANDBOX}/company/${PUBLIC_SANDBOX_ORG}/context`, freshIp())).status).toBe(200)
      expect((await fetch(`${off.url}${mirror(PUBLIC_SANDBOX_ORG, 'context')}`, { method: 'OPTIONS' })).status).toBe(
        204,
      )
    } finally {
      await off.stop()
    }
  })

  test('more requests in flight than PUBLIC_SANDBOX_MAX_INFLIGHT are shed, and admitted again once it drains', async () => {
    const narrow = await startApp({ env: { PUBLIC_SANDBOX_MAX_INFLIGHT: '1' } })
    try {
      let shed: Answer | null = null
      // One slow request holds the only slot; requests sent while it is pending are shed. Should a
      // probe take the slot first (the slow one then being the one shed), the round is repeated.
      for (let round = 0; round < 5 && shed === null; round++) {
        let pending = true
        const slow = call(narrow, mirror(PUBLIC_SANDBOX_ORG, 'context', '?simulate_latency=1500'), freshIp()).finally(
          () => {
            pending = false
          },
        )
        while (pending && shed === null) {
          const probe = await call(narrow, mirror(PUBLIC_SANDBOX_ORG, 'summary'), freshIp())
          if (probe.status === 503 && pending) shed = probe
        }
        await slow
      }
      expect(shed).not.toBeNull()
      expectShortBody(shed!, 503, 'SANDBOX_TEMPORARILY_UNAVAILABLE')
      expect((await call(narrow, mirror(PUBLIC_SANDBOX_ORG, 'summary'), freshIp())).status).toBe(200)
    } finally {
      await narrow.stop()
    }
  })
})

describe('the latency knob on the public mirror', () => {
  test('a slow request whose client has gone gives its in-flight slot back', async () => {
    const narrow = await startApp({ env: { PUBLIC_SANDBOX_MAX_INFLIGHT: '1' } })
    try {
      const gone = new AbortController()
      const slow = fetch(narrow.url + mirror(PUBLIC_SANDBOX_ORG, 'context', '?simulate_latency=25000'), {
        headers: freshIp(),
        signal: gone.signal,
      }).catch(() => null)
      // The slow request holds the only slot…
      let held = false
      for (let i = 0; i < 50 && !held; i++)
        held = (await call(narrow, mirror(PUBLIC_SANDBOX_ORG, 'summary'), freshIp())).status === 503
      expect(held).toBe(true)
      // …until its client hangs up: then the slot is free again well before the 25 s are over.
      gone.abort()
      await slow
      let status = 503
      for (let i = 0; i < 40 && status === 503; i++) {
        await Bun.sleep(50)
        status = (await call(narrow, mirror(PUBLIC_SANDBOX_ORG, 'summary'), freshIp())).status
      }
      expect(status).toBe(200)
    } finally {
      await narrow.stop()
    }
  })

  // Bun's default idle timeout (10 s, checked in ticks of a few seconds) cut such a request at ~12 s.
  test('a latency longer than Bun’s default idle timeout is served, not cut off', async () => {
    const res = await call(app, mirror(PUBLIC_SANDBOX_ORG, 'context', '?simulate_latency=14500'), freshIp())
    expect(res.status).toBe(200)
  })

  test('the server’s idle timeout outlasts the longest legitimate wait (30 s of latency, 8 s of upstream reads)', () => {
    expect(SERVE_OPTIONS.idleTimeout * 1000).toBeGreaterThan(30_000 + 8_000)
  })
})
