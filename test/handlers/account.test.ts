import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sha256Hex } from '../../src/lib/hash.ts'
import { startApp, type TestApp, PINNED_NOW } from '../helpers.ts'
import {
  admin,
  bearer,
  createConsumer,
  createKey,
  freshIp,
  lastMailTo,
  magicToken,
  postForm,
  signIn,
  uniqueEmail,
} from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const outboxCount = async (email: string) =>
  (await app.deps.sql`select count(*)::int as n from outbox_emails where to_email = ${email}`)[0]!.n

describe('POST /api/v1/account/signup', () => {
  test('answers {ok: true} and mails a sign-up link for a new e-mail', async () => {
    const email = uniqueEmail()
    const res = await app.send(
      'POST',
      '/api/v1/account/signup',
      { email, company_name: 'Fjord Regnskap AS', consent: true },
      freshIp(),
    )
    expect(res.status).toBe(200)
    expect((await res.json()).data).toEqual({ ok: true })
    const mail = await lastMailTo(app, email)
    expect(mail!.subject).toContain('registreringen')
    expect(mail!.body).toContain(`${app.config.baseUrl}/auth/magic?token=`)
  })

  test('answers the same for a known e-mail and mails a sign-in link', async () => {
    const c = await createConsumer(app)
    const res = await app.send('POST', '/api/v1/account/signup', { email: c.email }, freshIp())
    expect((await res.json()).data).toEqual({ ok: true })
    expect((await lastMailTo(app, c.email))!.subject).toContain('Logg inn')
  })

  test('answers the same for an unknown e-mail without a company, and sends nothing', async () => {
    const email = uniqueEmail()
    const res = await app.send('POST', '/api/v1/account/signup', { email }, freshIp())
    expect((await res.json()).data).toEqual({ ok: true })
    expect(await outboxCount(email)).toBe(0)
  })

  test('issues no key and creates no account before the link is opened', async () => {
    const email = uniqueEmail()
    await app.send('POST', '/api/v1/account/signup', { email, company_name: 'X AS', consent: true }, freshIp())
    expect((await app.deps.sql`select count(*)::int as n from consumers where email = ${email}`)[0]!.n).toBe(0)
  })

  test.each([
    [{ email: 'a@b.no', company_name: 'X AS' }, 'consent'],
    [{ email: 'a@b.no', company_name: 'X AS', consent: false }, 'consent'],
    [{ email: 'not-an-email' }, 'email'],
    [{ company_name: 'X AS', consent: true }, 'email'],
    [{ email: 'a@b.no', extra: 1 }, 'extra'],
  ])('rejects %p with VALIDATION_FAILED on %s', async (body, field) => {
    const res = await app.send('POST', '/api/v1/account/signup', body, freshIp())
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details.map((d: { field: string }) => d.field)).toContain(field)
  })

  test('allows 5 requests an hour per IP, then 429 RATE_LIMITED', async () => {
    const ip = freshIp()
    for (let i = 0; i < 5; i++)
      expect((await app.send('POST', '/api/v1/account/signup', { email: uniqueEmail() }, ip)).status).toBe(200)
    const res = await app.send('POST', '/api/v1/account/signup', { email: uniqueEmail() }, ip)
    expect(res.status).toBe(429)
    expect((await res.json()).error_code).toBe('RATE_LIMITED')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await app.send('POST', '/api/v1/account/signup', { email: uniqueEmail() }, freshIp())).status).toBe(200)
  })
})

describe('one budget of sign-in mails per IP (issue 18, item 3)', () => {
  const viaSignup = async (ip: Record<string, string>) => {
    const res = await app.send('POST', '/api/v1/account/signup', { email: uniqueEmail() }, ip)
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      code: res.status === 429 ? (await res.json()).error_code : null,
    }
  }
  const viaLogin = async (ip: Record<string, string>) => {
    const res = await postForm(app, '/login', { email: uniqueEmail() }, { origin: app.url, ...ip })
    const html = await res.text()
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      code: /<code>(RATE_LIMITED|RATE_LIMIT_EXCEEDED)<\/code>/.exec(html)?.[1] ?? null,
    }
  }

  test.each([
    ['the sign-up route', viaSignup],
    ['the /login form', viaLogin],
  ])(
    '3 asked by the sign-up route and 2 by the /login form use it up: a 6th by %s is 429 RATE_LIMITED with Retry-After',
    async (_name, sixth) => {
      const ip = freshIp()
      for (let i = 0; i < 3; i++) expect((await viaSignup(ip)).status).toBe(200)
      for (let i = 0; i < 2; i++) expect((await viaLogin(ip)).status).toBe(200)
      const refused = await sixth(ip)
      expect(refused.status).toBe(429)
      expect(refused.code).toBe('RATE_LIMITED')
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      expect((await sixth(freshIp())).status).toBe(200)
    },
  )
})

describe('magic link', () => {
  test('opening it once creates the account, a free key shown once and a session', async () => {
    const s = await signIn(app)
    expect(s.firstKey).toMatch(/^svc_free_[0-9A-Za-z]{32}$/)
    expect((await app.get('/api/v1/account/credits/balance', { headers: bearer(s.firstKey!) })).status).toBe(200)
    const keys = await app.deps
      .sql`select key_hash, display_prefix, scopes, source from api_keys where consumer_id = ${s.consumerId}`
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatchObject({
      key_hash: sha256Hex(s.firstKey!),
      scopes: ['read:*'],
      source: 'signup',
      display_prefix: `${s.firstKey!.slice(0, 13)}…`,
    })
  })

  test('the GET only shows a button: mail scanners do not use the link up', async () => {
    const email = uniqueEmail()
    await app.send('POST', '/api/v1/account/signup', { email, company_name: 'X AS', consent: true }, freshIp())
    const token = magicToken((await lastMailTo(app, email))!.body)
    const page = await app.get(`/auth/magic?token=${token}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('id="confirm"')
    expect((await app.deps.sql`select count(*)::int as n from consumers where email = ${email}`)[0]!.n).toBe(0)
  })

  test('works once: a second use is refused', async () => {
    const email = uniqueEmail()
    const ip = freshIp()
    await app.send('POST', '/api/v1/account/signup', { email, company_name: 'X AS', consent: true }, ip)
    const token = magicToken((await lastMailTo(app, email))!.body)
    expect((await postForm(app, '/auth/magic', { token }, ip)).status).toBe(200)
    const again = await postForm(app, '/auth/magic', { token }, ip)
    expect(again.status).toBe(400)
    expect(again.headers.get('set-cookie')).toBeNull()
  })

  test('expires after 15 minutes', async () => {
    const email = uniqueEmail()
    const ip = freshIp()
    await app.send('POST', '/api/v1/account/signup', { email, company_name: 'X AS', consent: true }, ip)
    const token = magicToken((await lastMailTo(app, email))!.body)
    app.clock.advance(15 * 60_000 + 1)
    try {
      expect((await postForm(app, '/auth/magic', { token }, ip)).status).toBe(400)
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('signing in again gives a session but no new key', async () => {
    const first = await signIn(app)
    const again = await signIn(app, first.email, null)
    expect(again.firstKey).toBeNull()
    expect(again.consumerId).toBe(first.consumerId)
    expect(
      (await app.deps.sql`select count(*)::int as n from api_keys where consumer_id = ${first.consumerId}`)[0]!.n,
    ).toBe(1)
    const actions = (
      await app.deps.sql`select action from audit_log where consumer_id = ${first.consumerId} order by occurred_at, id`
    ).map((r) => r.action)
    expect(actions).toContain('sign_up')
    expect(actions).toContain('sign_in')
  })

  test('the session cookie is HttpOnly and SameSite=Lax, and not Secure on plain localhost', async () => {
    const email = uniqueEmail()
    const ip = freshIp()
    await app.send('POST', '/api/v1/account/signup', { email, company_name: 'X AS', consent: true }, ip)
    const res = await postForm(app, '/auth/magic', { token: magicToken((await lastMailTo(app, email))!.body) }, ip)
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).not.toContain('Secure')
  })
})

describe('session routes', () => {
  test('GET /api/v1/account/me answers with the session and refuses a Bearer key', async () => {
    const s = await signIn(app)
    const me = await (await app.get('/api/v1/account/me', { headers: { cookie: s.cookie } })).json()
    expect(me.data.consumer.email).toBe(s.email)
    const withKey = await app.get('/api/v1/account/me', { headers: bearer(s.firstKey!) })
    expect(withKey.status).toBe(401)
    expect((await withKey.json()).error_code).toBe('AUTH_SESSION_REQUIRED')
  })

  test.each([
    ['GET', '/api/v1/account/keys'],
    ['POST', '/api/v1/account/keys'],
    ['DELETE', '/api/v1/account/keys/00000000-0000-4000-8000-000000000000'],
  ])(
    'a Bearer key on the session-only %s %s is refused with 401 AUTH_SESSION_REQUIRED and where to sign in',
    async (method, path) => {
      const s = await signIn(app)
      const res = await app.send(method, path, method === 'POST' ? {} : undefined, bearer(s.firstKey!))
      expect(res.status).toBe(401)
      const body = await res.json()
      expect(body).toMatchObject({
        error_code: 'AUTH_SESSION_REQUIRED',
        sign_in_url: `${app.config.baseUrl}/login`,
        retryable: false,
      })
      expect(body.explanation.summary_en).toContain('browser session')
      expect(
        (await app.deps.sql`select count(*)::int as n from api_keys where consumer_id = ${s.consumerId}`)[0]!.n,
      ).toBe(1)
    },
  )

  test('a session-only route without any credential says the same: a browser session is needed', async () => {
    const res = await app.send('POST', '/api/v1/account/keys', {})
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({
      error_code: 'AUTH_SESSION_REQUIRED',
      sign_in_url: `${app.config.baseUrl}/login`,
    })
  })

  test('minting a key needs the CSRF token', async () => {
    const s = await signIn(app)
    const without = await app.send('POST', '/api/v1/account/keys', {}, { cookie: s.cookie })
    expect(without.status).toBe(400)
    expect((await without.json()).explanation.details[0].field).toBe('csrf_token')
    const wrong = await app.send('POST', '/api/v1/account/keys', {}, { cookie: s.cookie, 'x-csrf-token': 'nope' })
    expect(wrong.status).toBe(400)
  })

  test('mints a key shown once, with read:* by default, and lists only metadata', async () => {
    const s = await signIn(app)
    const res = await app.send(
      'POST',
      '/api/v1/account/keys',
      { label: 'agent' },
      { cookie: s.cookie, 'x-csrf-token': s.csrf },
    )
    expect(res.status).toBe(201)
    const { data } = await res.json()
    expect(data.plaintext_key).toMatch(/^svc_free_/)
    expect(data.scopes).toEqual(['read:*'])
    const list = await (await app.get('/api/v1/account/keys', { headers: { cookie: s.cookie } })).json()
    expect(list.data.active_count).toBe(2)
    expect(JSON.stringify(list)).not.toContain(data.plaintext_key)
  })

  test('refuses reserved scope prefixes with 403 SCOPE_RESERVED', async () => {
    const s = await signIn(app)
    for (const scope of ['write:filings', 'act:submit', 'delegate:altinn']) {
      const res = await app.send(
        'POST',
        '/api/v1/account/keys',
        { scopes: ['read:register', scope] },
        { cookie: s.cookie, 'x-csrf-token': s.csrf },
      )
      expect(res.status).toBe(403)
      expect((await res.json()).error_code).toBe('SCOPE_RESERVED')
    }
  })

  test('allows three active keys, then 409 MAX_KEYS_REACHED; revoking one makes room', async () => {
    const s = await signIn(app)
    const headers = { cookie: s.cookie, 'x-csrf-token': s.csrf }
    expect((await app.send('POST', '/api/v1/account/keys', {}, headers)).status).toBe(201)
    const third = await (await app.send('POST', '/api/v1/account/keys', {}, headers)).json()
    const fourth = await app.send('POST', '/api/v1/account/keys', {}, headers)
    expect(fourth.status).toBe(409)
    expect((await fourth.json()).error_code).toBe('MAX_KEYS_REACHED')
    expect((await app.send('DELETE', `/api/v1/account/keys/${third.data.key.id}`, undefined, headers)).status).toBe(200)
    expect((await app.send('POST', '/api/v1/account/keys', {}, headers)).status).toBe(201)
  })

  test('concurrent mints never pass three active keys', async () => {
    const s = await signIn(app)
    const headers = { cookie: s.cookie, 'x-csrf-token': s.csrf }
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => app.send('POST', '/api/v1/account/keys', {}, headers).then((r) => r.status)),
    )
    expect(statuses.filter((x) => x === 201)).toHaveLength(2)
    expect(statuses.filter((x) => x === 409)).toHaveLength(4)
    expect(
      (
        await app.deps
          .sql`select count(*)::int as n from api_keys where consumer_id = ${s.consumerId} and revoked_at is null`
      )[0]!.n,
    ).toBe(3)
  })

  test('revoking a key rejects it at once, and the revocation is audited', async () => {
    const s = await signIn(app)
    const headers = { cookie: s.cookie, 'x-csrf-token': s.csrf }
    const id = (await app.deps.sql`select id from api_keys where consumer_id = ${s.consumerId}`)[0]!.id
    const res = await app.send('DELETE', `/api/v1/account/keys/${id}`, undefined, headers)
    expect((await res.json()).data).toMatchObject({ already_revoked: false, key: { id, is_revoked: true } })
    expect((await app.get('/api/v1/account/credits/balance', { headers: bearer(s.firstKey!) })).status).toBe(401)
    expect((await app.send('DELETE', `/api/v1/account/keys/${id}`, undefined, headers)).status).toBe(200)
    const audit = await app.deps
      .sql`select action from audit_log where consumer_id = ${s.consumerId} and action = 'key_revoked'`
    expect(audit).toHaveLength(1)
  })

  test('another account’s key is not found', async () => {
    const mine = await signIn(app)
    const other = await createConsumer(app)
    const { id } = await createKey(app, other.id)
    const res = await app.send('DELETE', `/api/v1/account/keys/${id}`, undefined, {
      cookie: mine.cookie,
      'x-csrf-token': mine.csrf,
    })
    expect(res.status).toBe(404)
    expect((await app.get('/api/v1/admin/keys?consumer_id=' + other.id, { headers: admin })).status).toBe(200)
  })

  test('usage with the session lists every active key', async () => {
    const s = await signIn(app)
    const { data } = await (await app.get('/api/v1/account/usage', { headers: { cookie: s.cookie } })).json()
    expect(data.tier).toBe('free')
    expect(data.ceilings).toEqual({ per_minute: 30, per_day: 1000 })
    expect(data.keys).toHaveLength(1)
  })

  test('signing out ends the session', async () => {
    const s = await signIn(app)
    const res = await postForm(app, '/logout', { csrf_token: s.csrf }, { cookie: s.cookie })
    expect(res.status).toBe(303)
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await app.get('/api/v1/account/me', { headers: { cookie: s.cookie } })).status).toBe(401)
    const dash = await app.get('/dashboard', { headers: { cookie: s.cookie }, redirect: 'manual' })
    expect(dash.status).toBe(303)
    expect(dash.headers.get('location')).toBe('/login')
  })
})
