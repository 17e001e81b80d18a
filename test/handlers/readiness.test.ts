import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Lifecycle } from '../../src/pipeline/lifecycle.ts'
import { migrate, loadMigrations } from '../../src/store/migrate.ts'
import { scratchDatabase, startApp, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

test('a serving instance with a current schema is ready', async () => {
  const res = await app.get('/api/health/ready')
  expect(res.status).toBe(200)
  expect(await res.json()).toMatchObject({
    status: 'ready',
    checks: { database: { status: 'up' }, migrations: { status: 'current', missing: [] }, draining: false },
  })
})

test('a draining instance is not ready, with Retry-After, while liveness still answers', async () => {
  app.deps.lifecycle.draining = true
  try {
    const res = await app.get('/api/health/ready')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect((await res.json()).checks.draining).toBe(true)
    expect((await app.get('/api/health')).status).toBe(200)
  } finally {
    app.deps.lifecycle.draining = false
  }
})

test('an instance whose database lacks a migration this build needs is not ready, naming it', async () => {
  const db = await scratchDatabase()
  const all = await loadMigrations()
  await migrate(db.sql, all.slice(0, -1))
  const behind = await startApp({ db })
  try {
    const res = await behind.get('/api/health/ready')
    expect(res.status).toBe(503)
    expect((await res.json()).checks.migrations).toEqual({ status: 'behind', missing: [all.at(-1)!.version] })
  } finally {
    await behind.stop()
    await db.close()
  }
}, 60_000)

test('an instance whose database is down stays ready (the outage is every instance’s), reporting the database down, quickly', async () => {
  const db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  const orphan = await startApp({ db })
  await db.close()
  try {
    const t0 = performance.now()
    const res = await orphan.get('/api/health/ready')
    const waited = performance.now() - t0
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      status: 'ready',
      checks: { database: { status: 'down', latency_ms: null }, migrations: { status: 'unknown' }, draining: false },
    })
    // the probe gives the database 250 ms, so a proxy's check never times out waiting for it (the health route waits 2 s)
    expect(waited).toBeLessThan(1500)
    orphan.deps.lifecycle.draining = true
    expect((await orphan.get('/api/health/ready')).status).toBe(503)
  } finally {
    await orphan.stop()
  }
}, 60_000)

test('a grace shorter than two intervals of the checks seen is warned about at SIGTERM; enough grace, or no checker, is not', () => {
  const l = new Lifecycle()
  expect(l.graceWarning(0, 1_000)).toBeNull() // nobody checks: nothing to wait for
  for (const t of [1_000, 1_500, 2_000]) l.readinessChecked(t)
  expect(l.graceWarning(0, 2_100)).toContain('every 500 ms, but DRAIN_GRACE_MS is 0')
  expect(l.graceWarning(999, 2_100)).toContain('DRAIN_GRACE_MS is 999')
  expect(l.graceWarning(2_000, 2_100)).toBeNull() // the guide's (fall + 1) × inter
  expect(l.graceWarning(0, 70_000)).toBeNull() // the checker went away a minute ago
})

test('the automatic grace is four intervals of the checks seen, at most 30 s, and none when nobody checks', () => {
  const l = new Lifecycle()
  expect(l.automaticGrace(1_000)).toBe(0)
  for (const t of [1_000, 1_500, 2_000]) l.readinessChecked(t)
  expect(l.automaticGrace(2_100)).toBe(2_000) // the guide's HAProxy: inter 500ms fall 3
  expect(l.automaticGrace(70_000)).toBe(0) // the checker went away a minute ago
  const slow = new Lifecycle()
  for (const t of [0, 20_000]) slow.readinessChecked(t)
  expect(slow.automaticGrace(20_100)).toBe(30_000)
})

test('the readiness route tells the lifecycle it was checked', async () => {
  await app.get('/api/health/ready')
  await app.get('/api/health/ready')
  expect(app.deps.lifecycle.graceWarning(0)).toContain('DRAIN_GRACE_MS is 0')
})

test('health probes are never soft-limited: a load balancer’s address past the keyless limit still gets its checks answered', async () => {
  const proxy = { 'x-forwarded-for': '198.51.100.77' }
  // The address spends the keyless limit (1 000 a minute) on public reads first.
  let limited = false
  for (let i = 0; i < 1_100 && !limited; i++)
    limited = (await app.get('/api/v1/public/deadlines?year=2026', { headers: proxy })).status === 429
  expect(limited).toBe(true)
  for (const path of ['/api/health/ready', '/api/health'])
    expect((await app.get(path, { headers: proxy })).status, path).toBe(200)
})
