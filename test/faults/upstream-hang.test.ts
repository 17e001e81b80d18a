/**
 * The register hanging under load (its fixture server holds every request; then resets them): the
 * breaker opens and later calls stop reaching it, cached answers are served stale, no request runs
 * past the 8-second upstream budget, and once the register is back (and the breaker's 30 s have
 * passed) the same app answers live again — nothing is left stuck.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addCredits, createConsumer, createKey } from '../helpers.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 1_000_000)
  key = (await createKey(app, c.id)).key
})
afterAll(async () => {
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
  await app.stop()
})

const CACHED = ['984661185', '923609016', '996501205']

async function summary(org: string, i: number) {
  const t0 = performance.now()
  const res = await app.get(`/api/v1/company/${org}/context`, {
    headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': `10.81.${i >> 8}.${i & 255}` },
  })
  const body = await res.json()
  return {
    status: res.status,
    stale: body._meta?.stale === true,
    code: body.error_code as string | undefined,
    ms: performance.now() - t0,
  }
}

const upstreamCalls = async () =>
  ((await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()) as unknown[]).length

test('the register hangs and resets under load: stale answers, the breaker opens, every request in time, recovery after', async () => {
  for (const [i, org] of CACHED.entries()) expect((await summary(org, i)).status).toBe(200)
  // Past the units' hour of freshness: every answer now needs the register, which hangs.
  app.clock.advance(2 * 3600_000)
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: '/enhetsregisteret', mode: 'timeout' }),
  })
  const first = await Promise.all(Array.from({ length: 30 }, (_, i) => summary(CACHED[i % CACHED.length]!, 100 + i)))
  expect(first.every((r) => r.status === 200 && r.stale)).toBe(true)
  expect(Math.max(...first.map((r) => r.ms))).toBeLessThan(8_000 + 1_000)

  // Then it resets connections instead: still stale answers, and by now the breaker has opened
  // (one upstream call per organisation at a time, so it took two waves of failures).
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: '/enhetsregisteret', mode: 'reset' }),
  })
  const second = await Promise.all(Array.from({ length: 30 }, (_, i) => summary(CACHED[i % CACHED.length]!, 200 + i)))
  expect(second.every((r) => r.status === 200 && r.stale)).toBe(true)
  expect(Math.max(...second.map((r) => r.ms))).toBeLessThan(8_000 + 1_000)

  // The breaker is open: calls are refused without reaching the register.
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })
  const third = await Promise.all(Array.from({ length: 30 }, (_, i) => summary(CACHED[i % CACHED.length]!, 250 + i)))
  expect(third.every((r) => r.status === 200 && r.stale)).toBe(true)
  expect(await upstreamCalls()).toBe(0)
  // An organisation nobody has asked about has nothing stale to serve: a quick, retryable refusal.
  const unknown = await summary('993718807', 300)
  expect([unknown.status, unknown.ms < 1_000]).toEqual([503, true])

  // Back: the fault gone and the breaker's open period over, the same app answers live.
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
  app.clock.advance(31_000)
  const after = await summary(CACHED[0]!, 400)
  expect([after.status, after.stale]).toEqual([200, false])
  app.clock.set(PINNED_NOW)
}, 60_000)
