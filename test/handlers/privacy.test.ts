import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../helpers.ts'
import { admin, freshIp, uniqueEmail } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

test('a data-subject request is recorded and answered with a reference and a one-month deadline', async () => {
  const email = uniqueEmail('dsr')
  const res = await app.send(
    'POST',
    '/api/v1/privacy/dsr',
    { email, request_type: 'erasure', details: 'Slett kontoen min.' },
    freshIp(),
  )
  expect(res.status).toBe(201)
  const { data } = await res.json()
  expect(data).toMatchObject({ request_type: 'erasure', status: 'received', received_at: '2026-03-14T09:30:00.000Z' })
  // 14 March 2026 + one month, end of the Oslo day (summer time by then).
  expect(data.respond_by).toBe('2026-04-14T21:59:59.000Z')
  expect(data.message_nb).toContain('referansen')
  const open = (await (await app.get('/api/v1/admin/privacy-requests', { headers: admin })).json()).data.requests
  expect(open.find((r: { id: string }) => r.id === data.reference)).toMatchObject({
    email,
    request_type: 'erasure',
    details: 'Slett kontoen min.',
  })
  const audit = await app.deps.sql`select action from audit_log where details->>'request_id' = ${data.reference}`
  expect(audit.map((r) => r.action)).toEqual(['privacy_request_received'])
})

test.each([
  [{ email: 'x@example.no', request_type: 'delete-everything' }, 'request_type'],
  [{ email: 'not-an-email', request_type: 'access' }, 'email'],
  [{ email: 'x@example.no', request_type: 'access', details: 'x'.repeat(2001) }, 'details'],
  [{ email: 'x@example.no', request_type: 'access', extra: 1 }, 'extra'],
])('rejects %p with VALIDATION_FAILED on %s', async (body, field) => {
  const res = await app.send('POST', '/api/v1/privacy/dsr', body, freshIp())
  expect(res.status).toBe(400)
  expect((await res.json()).explanation.details.map((d: { field: string }) => d.field)).toContain(field)
})

test('allows 10 requests a minute per IP, then 429 RATE_LIMIT_EXCEEDED', async () => {
  const ip = freshIp()
  for (let i = 0; i < 10; i++)
    expect(
      (await app.send('POST', '/api/v1/privacy/dsr', { email: uniqueEmail('dsr'), request_type: 'access' }, ip)).status,
    ).toBe(201)
  const res = await app.send('POST', '/api/v1/privacy/dsr', { email: uniqueEmail('dsr'), request_type: 'access' }, ip)
  expect(res.status).toBe(429)
  expect((await res.json()).error_code).toBe('RATE_LIMIT_EXCEEDED')
  expect(res.headers.get('retry-after')).toBe('60')
})

test('the operator list needs the admin token', async () => {
  expect((await app.get('/api/v1/admin/privacy-requests')).status).toBe(401)
})
