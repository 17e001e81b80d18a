/**
 * Security review, High 1: an over-long string is refused for its length alone — no pattern runs on
 * it, so what a request costs is bounded by the schema, not by what the sender chose to send.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../helpers.ts'
import { freshIp, postForm } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

// The shape that made the old e-mail pattern take quadratic time: a run of dots after the @.
const HOSTILE_EMAIL = `a@${'.'.repeat(64_000)}@`

test('an over-long address to the privacy route is refused for its length only', async () => {
  const res = await app.send('POST', '/api/v1/privacy/dsr', { email: HOSTILE_EMAIL, request_type: 'access' }, freshIp())
  expect(res.status).toBe(400)
  const body = await res.json()
  expect(body.error_code).toBe('VALIDATION_FAILED')
  expect(body.explanation.details).toEqual([{ field: 'email', message: 'Expected string length less or equal to 254' }])
})

test('an over-long address to signup is refused for its length only', async () => {
  const res = await app.send('POST', '/api/v1/account/signup', { email: HOSTILE_EMAIL }, freshIp())
  expect(res.status).toBe(400)
  expect((await res.json()).explanation.details).toEqual([
    { field: 'email', message: 'Expected string length less or equal to 254' },
  ])
})

test('an over-long address in the sign-in form is refused without touching the account tables', async () => {
  const before = (await app.deps.sql`select count(*)::int as n from consumers`)[0]!.n
  const res = await postForm(app, '/login', { email: HOSTILE_EMAIL }, { ...freshIp(), origin: app.url })
  expect(res.status).toBe(400)
  expect(await res.text()).toContain('Expected string length less or equal to 254')
  expect((await app.deps.sql`select count(*)::int as n from consumers`)[0]!.n).toBe(before)
})

test('every over-long field is named, nested ones by their dotted path', async () => {
  const res = await app.send(
    'POST',
    '/api/v1/explain',
    { error_code: 'X'.repeat(100_000), context: { role: 'r'.repeat(65) } },
    freshIp(),
  )
  expect(res.status).toBe(400)
  expect((await res.json()).explanation.details).toEqual([
    { field: 'error_code', message: 'Expected string length less or equal to 64' },
    { field: 'context.role', message: 'Expected string length less or equal to 64' },
  ])
})

test('a valid address of the maximum length is still accepted', async () => {
  const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.no`
  expect(email.length).toBe(254)
  const res = await app.send('POST', '/api/v1/privacy/dsr', { email, request_type: 'access' }, freshIp())
  expect(res.status).toBe(201)
})

test.each(['a@b', 'a@.no', 'a@b..no', 'a b@c.no', 'a@b@c.no', 'a@b.no.'])(
  '%p is not an e-mail address',
  async (email) => {
    const res = await app.send('POST', '/api/v1/privacy/dsr', { email, request_type: 'access' }, freshIp())
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details.map((d: { field: string }) => d.field)).toEqual(['email'])
  },
)
