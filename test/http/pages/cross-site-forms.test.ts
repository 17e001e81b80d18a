/**
 * Security review, Low 8: a form on another site must not be able to post to ours — not even the
 * sign-in forms that come before any session (login CSRF: signing a victim into the attacker's
 * account). Every form operation of the registry is tried.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { allOperations } from '../../../src/operations/index.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { freshIp, lastMailTo, magicToken, postForm, signIn, uniqueEmail } from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const FORMS = allOperations.filter((op) => op.bodyType === 'form')
const ID = '00000000-0000-4000-8000-000000000000'

test('the registry has form operations to check', () => {
  expect(FORMS.map((op) => op.id)).toContain('magicLinkSubmit')
})

describe.each([
  ['an Origin of another site', { origin: 'https://evil.example' }],
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
  [
    'Sec-Fetch-Site: same-site (a sibling host)',
    { 'sec-fetch-site': 'same-site', origin: 'https://other.plikt.example' },
  ],
])('a form posted with %s is refused', (_, headers) => {
  test.each(FORMS.map((op) => [op.id, op] as const))('%s', async (_, op) => {
    const session = await signIn(app)
    const res = await postForm(
      app,
      op.path.replace(':id', ID),
      { csrf_token: session.csrf, email: uniqueEmail(), token: 'x', connection: ID },
      { cookie: session.cookie, ...headers, ...freshIp() },
    )
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code>origin</code>')
  })
})

test('login CSRF: a cross-site post of a magic link neither signs in nor uses the link up', async () => {
  const email = uniqueEmail('csrf')
  const ip = freshIp()
  await app.send('POST', '/api/v1/account/signup', { email, company_name: 'Angriper AS', consent: true }, ip)
  const token = magicToken((await lastMailTo(app, email))!.body)
  const attack = await postForm(app, '/auth/magic', { token }, { origin: 'https://evil.example', ...ip })
  expect(attack.status).toBe(400)
  expect(attack.headers.get('set-cookie')).toBeNull()
  const own = await postForm(app, '/auth/magic', { token }, { origin: app.url, 'sec-fetch-site': 'same-origin', ...ip })
  expect(own.headers.get('set-cookie')).toContain('plikt_session=')
})

test('a form from our own pages is accepted, by Origin or by Sec-Fetch-Site', async () => {
  const byOrigin = await postForm(app, '/login', { email: uniqueEmail() }, { origin: app.url, ...freshIp() })
  expect(byOrigin.status).toBe(200)
  const byFetchSite = await postForm(
    app,
    '/login',
    { email: uniqueEmail() },
    { 'sec-fetch-site': 'same-origin', ...freshIp() },
  )
  expect(byFetchSite.status).toBe(200)
})

test('a client that is no browser (neither header) is not refused for it', async () => {
  const res = await postForm(app, '/login', { email: uniqueEmail() }, freshIp())
  expect(res.status).toBe(200)
})
