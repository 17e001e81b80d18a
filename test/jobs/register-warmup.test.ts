/**
 * The register warm-up of portfolio companies (jobs/register-warmup.ts over
 * domain/portfolios/warmup.ts), run directly on a pinned clock against the brreg fixture server:
 * at most `WARMUP.perRun` organisations a run, never a burst; a warmed number is due again before
 * its answer stops being fresh; a failure is retried later; a number no portfolio holds is forgotten.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { QUEUE_JOBS } from '../../jobs/runner.ts'
import { runRegisterWarmup } from '../../jobs/register-warmup.ts'
import { isValidOrgNumber } from '../../fixtures/data/mod11.ts'
import { WARMUP } from '../../src/domain/portfolios/warmup.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp()
  key = (await createKey(app, (await createConsumer(app, 'professional')).id)).key
}, 30_000)
afterAll(() => app.stop())

function validOrgs(n: number): string[] {
  const out: string[] = []
  while (out.length < n) {
    const prefix = String(Math.floor(10_000_000 + Math.random() * 79_999_999))
    for (let d = 0; d <= 9; d++)
      if (isValidOrgNumber(`${prefix}${d}`)) {
        out.push(`${prefix}${d}`)
        break
      }
  }
  return out
}

async function portfolio(orgs: string[]): Promise<string> {
  const h = { ...bearer(key), ...freshIp() }
  const id = (await (await app.send('POST', '/api/v1/portfolios', { name: 'Warm' }, h)).json()).data.portfolio_id
  await app.send('PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: orgs }, h)
  return id
}

const requests = async () =>
  ((await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()) as { path: string }[]).length

const drain = async () => {
  while ((await runRegisterWarmup(app.deps)).claimed > 0);
}

test('it is a queue job of the runner, every few seconds', () => {
  expect(QUEUE_JOBS['register-warmup']!.everySeconds).toBe(WARMUP.everySeconds)
})

test('a run takes at most WARMUP.perRun organisations, however many were added: no burst', async () => {
  await drain()
  const orgs = validOrgs(WARMUP.perRun * 3)
  const id = await portfolio(orgs)
  const before = await requests()
  const first = await runRegisterWarmup(app.deps)
  expect(first.claimed).toBe(WARMUP.perRun)
  // an unknown number is asked as a unit, then as a sub-unit: two register calls each at most
  expect((await requests()) - before).toBeLessThanOrEqual(WARMUP.perRun * 3)
  expect((await runRegisterWarmup(app.deps)).claimed).toBe(WARMUP.perRun)
  await app.send('DELETE', `/api/v1/portfolios/${id}`, undefined, { ...bearer(key), ...freshIp() })
})

test('a warmed number is not claimed again until shortly before its answer stops being fresh', async () => {
  await drain()
  const id = await portfolio(['984661185'])
  await drain()
  expect((await runRegisterWarmup(app.deps)).claimed).toBe(0)
  app.clock.advance(3600_000 - WARMUP.refreshAheadMs + 1000)
  try {
    const r = await runRegisterWarmup(app.deps)
    expect(r).toMatchObject({ claimed: 1, warmed: 1 })
  } finally {
    app.clock.set(PINNED_NOW)
    await app.send('DELETE', `/api/v1/portfolios/${id}`, undefined, { ...bearer(key), ...freshIp() })
  }
})

test('a failed read is recorded and retried after a backoff, not at once', async () => {
  await drain()
  const org = '929770404'
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, {
    method: 'POST',
    body: JSON.stringify({ match: `/enheter/${org}`, mode: 'status', status: 503 }),
    headers: { 'content-type': 'application/json' },
  })
  const id = await portfolio([org])
  try {
    expect(await runRegisterWarmup(app.deps)).toMatchObject({ claimed: 1, failed: 1 })
    expect((await runRegisterWarmup(app.deps)).claimed).toBe(0)
    const [row] = await app.deps.sql`select last_error_code from register_warmups where org_number = ${org}`
    expect(row!.last_error_code).toBe('REGISTER_DOWN')
  } finally {
    await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    await app.send('DELETE', `/api/v1/portfolios/${id}`, undefined, { ...bearer(key), ...freshIp() })
  }
})

test('a number no portfolio holds any more is forgotten', async () => {
  const [org] = validOrgs(1)
  const id = await portfolio([org!])
  await app.send('DELETE', `/api/v1/portfolios/${id}`, undefined, { ...bearer(key), ...freshIp() })
  await runRegisterWarmup(app.deps)
  expect(await app.deps.sql`select 1 from register_warmups where org_number = ${org!}`).toHaveLength(0)
})
