/**
 * The sandbox knobs on the read routes: simulate_error, simulate_latency, mock_date, as_of and the
 * X-Service-Simulate header — what each injects or moves, who may use it, and bad values.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SIMULATED_ERRORS } from '../../../src/schemas/sandbox.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { bearer, createConsumer, createKey } from '../../helpers.ts'
import {
  call,
  expectSandboxError,
  expectSandboxMeta,
  ORG_ROUTES,
  SANDBOX,
  synthetic,
  withoutTimestamp,
} from '../../helpers.ts'

let app: TestApp
let realKey: string

beforeAll(async () => {
  app = await startApp()
  realKey = (await createKey(app, (await createConsumer(app, 'free')).id)).key
})
afterAll(() => app.stop())

/** 999000002: a tier_1_2 AS with no filings on record, so every past deadline is overdue. */
const ORG = '999000002'
const at = (route: string, query = '') => `${SANDBOX}/company/${ORG}/${route}${query}`
const day = (iso: string) => iso.slice(0, 10)

describe('simulate_error', () => {
  const expected: Record<(typeof SIMULATED_ERRORS)[number], { status: number; code: string; upstream: boolean }> = {
    missing_delegation: { status: 403, code: 'AUTH_MISSING_DELEGATION', upstream: false },
    invalid_token: { status: 401, code: 'AUTH_EXPIRED_TOKEN', upstream: false },
    validation_error: { status: 400, code: 'VALIDATION_FAILED', upstream: false },
    scope_missing: { status: 403, code: 'SCOPE_MISSING', upstream: false },
    portal_timeout: { status: 504, code: 'EXECUTION_DEADLINE_EXCEEDED', upstream: true },
    invalid_certificate: { status: 401, code: 'AUTH_EXPIRED_TOKEN', upstream: true },
    malformed_payload: { status: 400, code: 'VALIDATION_FAILED', upstream: true },
    upstream_5xx: { status: 500, code: 'INTERNAL_ERROR', upstream: true },
  }

  test('the knob offers exactly the eight failures of the spec', () => {
    expect(Object.keys(expected).sort()).toEqual([...SIMULATED_ERRORS].sort())
  })

  for (const [knob, e] of Object.entries(expected)) {
    test(`${knob} injects ${e.status} ${e.code}${e.upstream ? ' with a government-shaped upstream object' : ''}, marked simulated`, async () => {
      const body = expectSandboxError(await call(app, at('context', `?simulate_error=${knob}`)), e.status, e.code)
      expect(body._meta.simulated).toBe(true)
      if (!e.upstream) {
        expect(body).not.toHaveProperty('upstream')
        return
      }
      expect(typeof body.upstream.system).toBe('string')
      expect(body.upstream).toHaveProperty('http_status')
      expect(typeof body.upstream.error).toBe('string')
      expect(typeof body.upstream.error_description).toBe('string')
    })
  }

  test('validation_error names its field in explanation.details', async () => {
    const body = expectSandboxError(
      await call(app, at('obligations', '?simulate_error=validation_error')),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.explanation.details.length).toBeGreaterThan(0)
  })

  test('applies on every read route and the catalogue', async () => {
    for (const path of [
      ...ORG_ROUTES.map((r) => at(r, '?simulate_error=scope_missing')),
      `${SANDBOX}/fixtures?simulate_error=scope_missing`,
    ]) {
      expectSandboxError(await call(app, path), 403, 'SCOPE_MISSING')
    }
  })

  test('an unknown failure is 400 VALIDATION_FAILED naming the knob, and is not itself simulated', async () => {
    const body = expectSandboxError(
      await call(app, at('context', '?simulate_error=meteor_strike')),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.explanation.details.map((d: any) => d.field)).toEqual(['simulate_error'])
    expect(body._meta).not.toHaveProperty('simulated')
  })
})

describe('simulate_latency', () => {
  test('a delay changes nothing in the answer', async () => {
    const [plain, delayed, zero] = [
      await call(app, at('summary')),
      await call(app, at('summary', '?simulate_latency=5')),
      await call(app, at('summary', '?simulate_latency=0')),
    ]
    expect(delayed.status).toBe(200)
    expect(withoutTimestamp(delayed.text)).toBe(withoutTimestamp(plain.text))
    expect(withoutTimestamp(zero.text)).toBe(withoutTimestamp(plain.text))
  })

  for (const bad of ['30001', '-1', 'soon', '1.5']) {
    test(`${bad} is 400 VALIDATION_FAILED naming the knob`, async () => {
      const body = expectSandboxError(
        await call(app, at('context', `?simulate_latency=${bad}`)),
        400,
        'VALIDATION_FAILED',
      )
      expect(body.explanation.details.map((d: any) => d.field)).toEqual(['simulate_latency'])
    })
  }
})

describe('mock_date', () => {
  test('the default today is 2026-01-01: naming it changes nothing', async () => {
    const [plain, named] = [await call(app, at('deadlines')), await call(app, at('deadlines', '?mock_date=2026-01-01'))]
    expect(withoutTimestamp(named.text)).toBe(withoutTimestamp(plain.text))
  })

  test('needs no bearer and is not echoed as as_of', async () => {
    const a = await call(app, at('deadlines', '?mock_date=2026-03-01'))
    expect(a.status).toBe(200)
    expectSandboxMeta(a.body._meta)
    expect(a.body._meta).not.toHaveProperty('as_of')
  })

  test('moves which deadlines are overdue: everything due before the mock date, nothing after', async () => {
    const before = (await call(app, at('deadlines'))).body.data.deadlines
    const after = (await call(app, at('deadlines', '?mock_date=2026-03-01'))).body.data.deadlines
    const dated = after.filter((d: any) => d.deadline_at !== null)
    for (const d of dated)
      expect({ id: d.deadline_id, status: d.status }).toEqual({
        id: d.deadline_id,
        status: day(d.deadline_at) < '2026-03-01' ? 'overdue' : 'upcoming',
      })
    // Deadlines of January and February were upcoming on 2026-01-01 and are overdue on 2026-03-01.
    const wasUpcoming = new Set(before.filter((d: any) => d.status === 'upcoming').map((d: any) => d.deadline_id))
    const nowOverdue = after.filter((d: any) => d.status === 'overdue' && wasUpcoming.has(d.deadline_id))
    expect(nowOverdue.length).toBeGreaterThan(0)
  })

  test('moves the obligations’ next deadline to on or after the mock date', async () => {
    const obligations = (await call(app, at('obligations', '?mock_date=2026-05-01'))).body.data.obligations
    const dated = obligations.filter((o: any) => o.deadline_at !== null)
    expect(dated.length).toBeGreaterThan(0)
    for (const o of dated) expect(day(o.deadline_at) >= '2026-05-01').toBe(true)
  })

  for (const [bad, why] of [
    ['2026-02-30', 'not a calendar date'],
    ['2026-1-5', 'not YYYY-MM-DD'],
    ['2019-12-31', 'before 2020'],
    ['2100-01-01', 'after 2099'],
  ] as const) {
    test(`${bad} (${why}) is 400 VALIDATION_FAILED naming the knob`, async () => {
      const body = expectSandboxError(await call(app, at('deadlines', `?mock_date=${bad}`)), 400, 'VALIDATION_FAILED')
      expect(body.explanation.details.map((d: any) => d.field)).toEqual(['mock_date'])
    })
  }
})

describe('as_of', () => {
  test('without a bearer is 403 SANDBOX_TEST_KEY_REQUIRED', async () => {
    expectSandboxError(await call(app, at('deadlines', '?as_of=2026-03-01')), 403, 'SANDBOX_TEST_KEY_REQUIRED')
  })

  test('with a real key is 403 SANDBOX_TEST_KEY_REQUIRED', async () => {
    expectSandboxError(
      await call(app, at('obligations', '?as_of=2026-03-01'), bearer(realKey)),
      403,
      'SANDBOX_TEST_KEY_REQUIRED',
    )
  })

  test('is echoed in _meta.as_of on obligations, deadlines and summary', async () => {
    for (const route of ['obligations', 'deadlines', 'summary']) {
      const a = await call(app, at(route, '?as_of=2026-03-01'), synthetic())
      expect(a.status).toBe(200)
      expectSandboxMeta(a.body._meta)
      expect(a.body._meta.as_of).toBe('2026-03-01')
    }
  })

  test('moves deadline statuses to the date travelled to', async () => {
    const deadlines = (await call(app, at('deadlines', '?as_of=2026-06-15'), synthetic())).body.data.deadlines
    const dated = deadlines.filter((d: any) => d.deadline_at !== null)
    for (const d of dated)
      expect({ id: d.deadline_id, status: d.status }).toEqual({
        id: d.deadline_id,
        status: day(d.deadline_at) < '2026-06-15' ? 'overdue' : 'upcoming',
      })
    expect(dated.some((d: any) => d.status === 'overdue' && day(d.deadline_at) >= '2026-01-01')).toBe(true)
  })

  test('answers as mock_date would on the same day, apart from the echo', async () => {
    const travelled = await call(app, at('summary', '?as_of=2026-04-20'), synthetic())
    const mocked = await call(app, at('summary', '?mock_date=2026-04-20'), synthetic())
    expect(travelled.body.data).toEqual(mocked.body.data)
  })

  test('wins over mock_date when both are given', async () => {
    const both = await call(app, at('deadlines', '?as_of=2026-04-20&mock_date=2026-01-01'), synthetic())
    const alone = await call(app, at('deadlines', '?as_of=2026-04-20'), synthetic())
    expect(both.body.data).toEqual(alone.body.data)
    expect(both.body._meta.as_of).toBe('2026-04-20')
  })

  test('a period already filed is not an obligation’s next deadline, even when due after the date', async () => {
    // 818000006 filed a-melding 2025-09, 2025-10 and 2025-11 ahead of time; on 2025-10-01 the next
    // a-melding still to meet is 2025-12, due 2026-01-05.
    const h = synthetic()
    const deadlines = (await call(app, `${SANDBOX}/company/818000006/deadlines?as_of=2025-10-01`, h)).body.data
      .deadlines
    expect(deadlines.find((d: any) => d.deadline_id === 'a-melding-2025-09')).toMatchObject({
      status: 'filed',
      deadline_at: '2025-10-06T23:59:59+02:00',
    })
    const obligations = (await call(app, `${SANDBOX}/company/818000006/obligations?as_of=2025-10-01`, h)).body.data
      .obligations
    expect(obligations.find((o: any) => o.obligation_id === 'a-melding').deadline_at).toBe('2026-01-05T23:59:59+01:00')
  })

  test('is not a knob of the other routes: 400 VALIDATION_FAILED', async () => {
    for (const route of ['context', 'audit', 'verify', 'authority', 'accounts']) {
      const body = expectSandboxError(
        await call(app, at(route, '?as_of=2026-03-01'), synthetic()),
        400,
        'VALIDATION_FAILED',
      )
      expect(body.explanation.details.map((d: any) => d.field)).toEqual(['as_of'])
    }
  })

  test('a date that is not a calendar date is 400 VALIDATION_FAILED naming the knob', async () => {
    const body = expectSandboxError(
      await call(app, at('deadlines', '?as_of=2026-13-01'), synthetic()),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.explanation.details.map((d: any) => d.field)).toEqual(['as_of'])
  })
})

describe('X-Service-Simulate', () => {
  const simulate = (value: string, h: Record<string, string> = synthetic()) =>
    call(app, at('context'), { ...h, 'x-service-simulate': value })

  test('error_500 gives 500 INTERNAL_ERROR marked simulated', async () => {
    expect(expectSandboxError(await simulate('error_500'), 500, 'INTERNAL_ERROR')._meta.simulated).toBe(true)
  })

  test('timeout gives 504 EXECUTION_DEADLINE_EXCEEDED marked simulated', async () => {
    expect(expectSandboxError(await simulate('timeout'), 504, 'EXECUTION_DEADLINE_EXCEEDED')._meta.simulated).toBe(true)
  })

  test('rate_limit gives 429 RATE_LIMIT_EXCEEDED with Retry-After, marked simulated', async () => {
    const a = await simulate('rate_limit')
    expect(expectSandboxError(a, 429, 'RATE_LIMIT_EXCEEDED')._meta.simulated).toBe(true)
    expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('an unknown value is 400 VALIDATION_FAILED naming the header, and is not itself simulated', async () => {
    const body = expectSandboxError(await simulate('gremlins'), 400, 'VALIDATION_FAILED')
    expect(body.explanation.details.map((d: any) => d.field)).toEqual(['X-Service-Simulate'])
    expect(body._meta).not.toHaveProperty('simulated')
  })

  test('without a bearer is 403 SANDBOX_TEST_KEY_REQUIRED', async () => {
    expectSandboxError(await simulate('error_500', {}), 403, 'SANDBOX_TEST_KEY_REQUIRED')
  })

  test('with a real key is 403 SANDBOX_TEST_KEY_REQUIRED', async () => {
    expectSandboxError(await simulate('error_500', bearer(realKey)), 403, 'SANDBOX_TEST_KEY_REQUIRED')
  })

  test('applies on the catalogue too', async () => {
    expectSandboxError(
      await call(app, `${SANDBOX}/fixtures`, { ...synthetic(), 'x-service-simulate': 'timeout' }),
      504,
      'EXECUTION_DEADLINE_EXCEEDED',
    )
  })
})
