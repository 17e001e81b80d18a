import { afterAll, beforeAll, expect, test } from 'bun:test'
import { handlers } from '../../src/app.ts'
import { startApp, type TestApp } from '../helpers.ts'

// A route that throws something unexpected must answer 500 INTERNAL_ERROR in the envelope,
// with nothing internal in the body, and log the fault with the correlation id.
let app: TestApp
const original = handlers.getErrorDocs
beforeAll(async () => {
  handlers.getErrorDocs = () => {
    throw new Error('db password is hunter2 at /srv/plikt/src/secret.ts:12')
  }
  app = await startApp()
})
afterAll(async () => {
  handlers.getErrorDocs = original
  await app.stop()
})

test('an unexpected exception answers 500 INTERNAL_ERROR without internals', async () => {
  const res = await app.get('/docs/errors', { headers: { 'x-correlation-id': 'boom-correlation-1' } })
  expect(res.status).toBe(500)
  const text = await res.text()
  const body = JSON.parse(text)
  expect(body.success).toBe(false)
  expect(body.error_code).toBe('INTERNAL_ERROR')
  expect(text).not.toContain('hunter2')
  expect(text).not.toContain('secret.ts')
  expect(text).not.toContain('at ')
})

test('the fault is logged with the correlation id and the route template', async () => {
  const line = app.logs
    .map((l) => JSON.parse(l))
    .find((l) => l.msg === 'unhandled error' && l.correlation_id === 'boom-correlation-1')
  expect(line).toBeDefined()
  expect(line.route).toBe('/docs/errors')
  expect(line.level).toBe('error')
})
