import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Health } from '../../src/schemas/common.ts'
import { scratchDatabase, startApp, onPostgres, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

test('GET /api/health answers 200 with the database up, outside the envelope', async () => {
  const res = await app.get('/api/health')
  expect(res.status).toBe(200)
  const body = await res.json()
  expect(Value.Check(Health, body)).toBe(true)
  expect(body).toMatchObject({
    status: 'ok',
    service: 'plikt',
    version: '1.0.7',
    database: { status: 'up', kind: onPostgres ? 'postgres' : 'embedded' },
  })
  expect('success' in body).toBe(false)
})

test('GET /api/health answers 503 when the database is down', async () => {
  const db = await scratchDatabase()
  const down = await startApp({ db })
  await db.close()
  try {
    const res = await down.get('/api/health')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    const body = await res.json()
    expect(body).toMatchObject({ status: 'degraded', database: { status: 'down', latency_ms: null } })
  } finally {
    await down.stop()
  }
})
