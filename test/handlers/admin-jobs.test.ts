/** The operator's job routes: the list with schedules and last runs, and a run now that is claimed like any tick and answers its outcome. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { admin, bearer, createConsumer, createKey } from '../helpers.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const call = async (method: string, path: string, headers: Record<string, string> = admin) => {
  const res = await app.send(method, path, undefined, headers)
  return { status: res.status, body: (await res.json()) as any }
}

test('GET /api/v1/admin/jobs lists every job with its schedule', async () => {
  const r = await call('GET', '/api/v1/admin/jobs')
  expect(r.status).toBe(200)
  const byName = Object.fromEntries(r.body.data.jobs.map((j: { name: string }) => [j.name, j]))
  expect(byName['accounts-diff']).toMatchObject({ kind: 'scheduled', schedule: '0 * * * *' })
  expect(byName.anchor).toMatchObject({ kind: 'scheduled', schedule: '0 * * * *' })
  expect(byName['webhook-deliveries']).toMatchObject({ kind: 'queue', schedule: '* * * * * *', last_runs: [] })
  expect(Object.keys(byName)).toEqual(
    expect.arrayContaining(['expiry-sweep', 'register-updates', 'delegation-refresh', 'mail-queue']),
  )
})

test('POST /api/v1/admin/jobs/anchor/run runs one tick and answers its outcome; it shows as a manual run', async () => {
  const r = await call('POST', '/api/v1/admin/jobs/anchor/run')
  expect(r.status).toBe(200)
  expect(r.body.data).toMatchObject({ job: 'anchor', kind: 'scheduled', ran: true, ok: true, error: null })
  expect(r.body.data.result).toHaveProperty('anchored')
  const list = await call('GET', '/api/v1/admin/jobs')
  const anchor = list.body.data.jobs.find((j: { name: string }) => j.name === 'anchor')
  expect(anchor.last_runs[0]).toMatchObject({ tick: r.body.data.tick, manual: true, error: null })
  expect(anchor.last_runs[0].finished_at).not.toBeNull()
})

test('a run of a queue job is one pass', async () => {
  const r = await call('POST', '/api/v1/admin/jobs/webhook-deliveries/run')
  expect(r.body.data).toMatchObject({ job: 'webhook-deliveries', kind: 'queue', tick: null, ran: true, ok: true })
})

test('an unknown job is 404', async () => {
  const r = await call('POST', '/api/v1/admin/jobs/no-such-job/run')
  expect([r.status, r.body.error_code]).toEqual([404, 'NOT_FOUND'])
})

test('a name every object inherits that a job name could be (constructor) is no job: 404', async () => {
  // the other inherited names (toString, __proto__ …) are not job-name-shaped: 400 before any lookup
  for (const name of ['constructor']) {
    const r = await call('POST', `/api/v1/admin/jobs/${name}/run`)
    expect([name, r.status, r.body.error_code]).toEqual([name, 404, 'NOT_FOUND'])
  }
})

test('a consumer key is refused', async () => {
  const key = (await createKey(app, (await createConsumer(app, 'enterprise')).id)).key
  expect((await call('POST', '/api/v1/admin/jobs/anchor/run', bearer(key))).status).toBe(401)
  expect((await call('GET', '/api/v1/admin/jobs', bearer(key))).status).toBe(401)
})

test('an operator’s run is claimed like any tick: asked twice for the same instant (two instances), it runs once', async () => {
  const other = await startApp()
  try {
    other.clock.set('2026-03-14T09:45:00.000Z')
    app.clock.set('2026-03-14T09:45:00.000Z')
    const [a, b] = await Promise.all([
      call('POST', '/api/v1/admin/jobs/expiry-sweep/run'),
      other
        .send('POST', '/api/v1/admin/jobs/expiry-sweep/run', undefined, admin)
        .then(async (r) => ({ body: (await r.json()) as any })),
    ])
    expect([a.body.data.ran, b.body.data.ran].sort()).toEqual([false, true])
  } finally {
    app.clock.set(PINNED_NOW)
    await other.stop()
  }
})
