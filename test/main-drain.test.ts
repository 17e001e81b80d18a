/**
 * Graceful drain as an operator meets it: the real entry point in its own process, 200 requests in
 * flight (each held 3 s by the sandbox's latency knob), then SIGTERM. Every request completes with
 * its answer, the process exits 0, and the log says it drained.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listeningAddress } from './helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'plikt-drain-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('SIGTERM during 200 requests in flight: every one completes, then the process exits 0', async () => {
  const { DATABASE_URL: _ignored, BASE_URL: _unset, ...rest } = process.env
  const proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: { ...rest, PORT: '0', DATA_DIR: dir, TRUST_PROXY: 'true', DRAIN_TIMEOUT_MS: '20000' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  // stdout is read from the start: a log filling the pipe would block the service
  const stdout = new Response(proc.stdout).text()
  const { url } = await listeningAddress(proc.stderr)
  const inFlight = Array.from({ length: 200 }, (_, i) =>
    fetch(`${url}/api/v1/sandbox/company/818000006/context?simulate_latency=3000`, {
      headers: { 'x-forwarded-for': `10.9.${i >> 8}.${i & 255}` },
    }).then(async (r) => ({ status: r.status, body: await r.json() })),
  )
  // All 200 are accepted and waiting on the knob before the signal arrives.
  await Bun.sleep(1200)
  proc.kill('SIGTERM')
  const answers = await Promise.all(inFlight)
  expect(answers.filter((a) => a.status === 200)).toHaveLength(200)
  expect(answers.every((a) => a.body.data.org_number === '818000006')).toBe(true)
  expect(await proc.exited).toBe(0)
  const log = await stdout
  expect(log).toContain('"msg":"draining"')
  expect(log).toMatch(/"msg":"stopped".*"drained":true/)
  // the access log is written through a buffer: every request's line is there, none lost on SIGTERM
  expect(
    log.split('\n').filter((l) => l.includes('"msg":"request"') && l.includes('/api/v1/sandbox/company/:org/context'))
      .length,
  ).toBe(200)
}, 60_000)

test('without DRAIN_GRACE_MS, an instance whose readiness is checked keeps serving for four check intervals after SIGTERM, while not ready', async () => {
  const { DATABASE_URL: _ignored, BASE_URL: _unset, DRAIN_GRACE_MS: _none, ...rest } = process.env
  const proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: { ...rest, PORT: '0', DATA_DIR: mkdtempSync(join(dir, 'grace-')) },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const stdout = new Response(proc.stdout).text()
  const { url } = await listeningAddress(proc.stderr)
  // A proxy's checks, every 250 ms.
  for (let i = 0; i < 4; i++) {
    expect((await fetch(`${url}/api/health/ready`)).status).toBe(200)
    await Bun.sleep(250)
  }
  proc.kill('SIGTERM')
  await Bun.sleep(300)
  // Inside the grace: still accepting, and saying it is going.
  expect((await fetch(`${url}/api/health/ready`)).status).toBe(503)
  expect((await fetch(`${url}/api/v1/public/deadlines?year=2026`)).status).toBe(200)
  expect(await proc.exited).toBe(0)
  const draining = JSON.parse((await stdout).split('\n').find((l) => l.includes('"msg":"draining"'))!)
  expect(draining.grace_from).toBe('readiness checks seen')
  expect(draining.grace_ms).toBeGreaterThanOrEqual(1000)
  expect(draining.grace_ms).toBeLessThan(2000)
}, 60_000)

test('without DRAIN_GRACE_MS and nobody checking readiness, SIGTERM does not wait', async () => {
  const { DATABASE_URL: _ignored, BASE_URL: _unset, DRAIN_GRACE_MS: _none, ...rest } = process.env
  const proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: { ...rest, PORT: '0', DATA_DIR: mkdtempSync(join(dir, 'nograce-')) },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const stdout = new Response(proc.stdout).text()
  await listeningAddress(proc.stderr)
  proc.kill('SIGTERM')
  expect(await proc.exited).toBe(0)
  const draining = JSON.parse((await stdout).split('\n').find((l) => l.includes('"msg":"draining"'))!)
  expect(draining.grace_ms).toBe(0)
}, 60_000)
