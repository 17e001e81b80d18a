/**
 * The operator surfaces under /api/v1/admin (spec: Operator surfaces, Credentials): the admin
 * bearer, consumers, keys, credits and the mail outbox; keys kept only as SHA-256.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sha256Hex } from '../../src/lib/hash.ts'
import { allOperations } from '../../src/operations/index.ts'
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers.ts'
import { admin, bearer, createConsumer, createKey, deliverMail, freshIp, uniqueEmail } from '../helpers.ts'

let app: TestApp
// The first file of a run starts the embedded database: allow more than the 5 s hook default on a busy machine.
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const adminOps = allOperations.filter((o) => o.auth === 'admin')
const pathOf = (path: string) => path.replace(/:[A-Za-z_]+/g, crypto.randomUUID())
const cases = adminOps.map((o) => [`${o.method} ${o.path}`, o.method, pathOf(o.path)] as const)

/** The `n` of a `select count(*)::int as n …` query. */
async function countOf(rows: Promise<{ n: number }[]>): Promise<number> {
  return (await rows)[0]!.n
}

function balanceWith(key: string): Promise<Response> {
  return app.send('GET', '/api/v1/account/credits/balance', undefined, bearer(key))
}

describe('the admin bearer', () => {
  test('guards every operator route in the registry', () => {
    expect(adminOps.map((o) => o.id).sort()).toEqual(
      [
        'adminAddCredits',
        'adminApproveTopup',
        'adminBackup',
        'adminCreateConsumer',
        'adminCreateKey',
        'adminListJobs',
        'adminListKeys',
        'adminListOutbox',
        'adminListPrivacyRequests',
        'adminRevokeKey',
        'adminRunJob',
        'adminUpdateConsumer',
      ].sort(),
    )
  })

  test.each(cases)('%s without Authorization answers 401 AUTH_MISSING', async (_name, method, path) => {
    const res = await app.send(method, path, method === 'GET' || method === 'DELETE' ? undefined : {})
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_MISSING')
  })

  // Refused credentials count against a budget per address (20 a minute): each refusal here comes from its own.
  test.each(cases)('%s with a wrong token answers 401 AUTH_INVALID_KEY', async (_name, method, path) => {
    const res = await app.send(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, {
      ...bearer(`${ADMIN_TOKEN}x`),
      ...freshIp(),
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
  })

  test.each(cases)('%s with a consumer API key answers 401 AUTH_INVALID_KEY', async (_name, method, path) => {
    const c = await createConsumer(app, 'enterprise')
    const { key } = await createKey(app, c.id, ['read:*', 'admin:keys'])
    const res = await app.send(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, {
      ...bearer(key),
      ...freshIp(),
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
  })

  test('a non-Bearer Authorization header answers 401 AUTH_INVALID_KEY', async () => {
    const res = await app.send('GET', '/api/v1/admin/outbox', undefined, {
      authorization: `Basic ${ADMIN_TOKEN}`,
      ...freshIp(),
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
  })

  test('with ADMIN_TOKEN unset every operator route refuses the right-looking token with AUTH_INVALID_KEY', async () => {
    const locked = await startApp({ env: { ADMIN_TOKEN: '' } })
    try {
      for (const [name, method, path] of cases) {
        for (const auth of [admin, bearer(''), { authorization: 'Bearer ' }]) {
          const res = await locked.send(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, {
            ...auth,
            ...freshIp(),
          })
          expect({ name, status: res.status, code: (await res.json()).error_code }).toEqual({
            name,
            status: 401,
            code: 'AUTH_INVALID_KEY',
          })
        }
      }
    } finally {
      await locked.stop()
    }
  })
})

describe('POST /api/v1/admin/consumers', () => {
  test('creates a consumer: 201 with data.consumer_id', async () => {
    const email = uniqueEmail('op')
    const res = await app.send(
      'POST',
      '/api/v1/admin/consumers',
      { email, company_name: 'Operatør AS', tier: 'professional' },
      admin,
    )
    expect(res.status).toBe(201)
    const { data } = await res.json()
    expect(data.consumer_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(data.created).toBe(true)
    expect(data.consumer).toMatchObject({
      id: data.consumer_id,
      email,
      company_name: 'Operatør AS',
      tier: 'professional',
      active: true,
    })
  })

  test('the same e-mail in any case answers 200 with the same id and created: false', async () => {
    const email = uniqueEmail('case')
    const first = await (await app.send('POST', '/api/v1/admin/consumers', { email, tier: 'free' }, admin)).json()
    const res = await app.send(
      'POST',
      '/api/v1/admin/consumers',
      { email: email.toUpperCase(), tier: 'starter' },
      admin,
    )
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data).toMatchObject({ consumer_id: first.data.consumer_id, created: false })
    expect(data.consumer.tier).toBe('free')
  })

  test('an e-mail given in capitals is stored lower-case', async () => {
    const email = uniqueEmail('upper')
    const res = await app.send('POST', '/api/v1/admin/consumers', { email: email.toUpperCase(), tier: 'free' }, admin)
    expect(res.status).toBe(201)
    expect((await res.json()).data.consumer.email).toBe(email)
  })

  test('a company name is optional', async () => {
    const res = await app.send('POST', '/api/v1/admin/consumers', { email: uniqueEmail(), tier: 'free' }, admin)
    expect(res.status).toBe(201)
    expect((await res.json()).data.consumer.company_name).toBeNull()
  })

  test.each([
    ['an unknown tier', { tier: 'gold' }, 'tier'],
    ['a missing tier', { tier: undefined }, 'tier'],
    ['a malformed e-mail', { email: 'not-an-email' }, 'email'],
    ['a missing e-mail', { email: undefined }, 'email'],
    ['an unknown member', { extra: 1 }, 'extra'],
  ])('%s answers 400 VALIDATION_FAILED naming the field', async (_name, patch, field) => {
    const body = { email: uniqueEmail(), tier: 'free', ...patch }
    const res = await app.send('POST', '/api/v1/admin/consumers', body, admin)
    expect(res.status).toBe(400)
    const err = await res.json()
    expect(err.error_code).toBe('VALIDATION_FAILED')
    expect(err.explanation.details.map((d: { field: string }) => d.field)).toContain(field)
  })
})

describe('PATCH /api/v1/admin/consumers/:id', () => {
  test('changes the tier; a new key of a free account made starter is an svc_live_ key', async () => {
    const c = await createConsumer(app, 'free')
    expect((await createKey(app, c.id)).key).toMatch(/^svc_free_/)
    const res = await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { tier: 'starter' }, admin)
    expect(res.status).toBe(200)
    expect((await res.json()).data).toMatchObject({
      consumer_id: c.id,
      created: false,
      consumer: { tier: 'starter', active: true },
    })
    expect((await createKey(app, c.id)).key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/)
  })

  test('{active: false} makes the consumer’s keys answer 403 AUTH_CONSUMER_INACTIVE on the very next request', async () => {
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id)
    expect((await balanceWith(key)).status).toBe(200)
    const res = await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: false }, admin)
    expect(res.status).toBe(200)
    expect((await res.json()).data.consumer.active).toBe(false)
    const refused = await balanceWith(key)
    expect(refused.status).toBe(403)
    expect((await refused.json()).error_code).toBe('AUTH_CONSUMER_INACTIVE')
  })

  test('{active: true} restores the keys', async () => {
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id)
    expect((await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: false }, admin)).status).toBe(200)
    expect((await balanceWith(key)).status).toBe(403)
    expect((await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: true }, admin)).status).toBe(200)
    expect((await balanceWith(key)).status).toBe(200)
  })

  test('changing one field leaves the other as it was', async () => {
    const c = await createConsumer(app, 'professional')
    await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: false }, admin)
    const { data } = await (
      await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { tier: 'enterprise' }, admin)
    ).json()
    expect(data.consumer).toMatchObject({ tier: 'enterprise', active: false })
  })

  test('an empty body answers 400 VALIDATION_FAILED', async () => {
    const c = await createConsumer(app)
    const res = await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, {}, admin)
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
  })

  test('an unknown tier answers 400 VALIDATION_FAILED', async () => {
    const c = await createConsumer(app)
    const res = await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { tier: 'gold' }, admin)
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
  })

  test('an unknown id answers 404 NOT_FOUND', async () => {
    const res = await app.send('PATCH', `/api/v1/admin/consumers/${crypto.randomUUID()}`, { tier: 'starter' }, admin)
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })

  test('an id that is not a UUID answers 400 VALIDATION_FAILED on id', async () => {
    const res = await app.send('PATCH', '/api/v1/admin/consumers/not-a-uuid', { tier: 'starter' }, admin)
    expect(res.status).toBe(400)
    const err = await res.json()
    expect(err.error_code).toBe('VALIDATION_FAILED')
    expect(err.explanation.details.map((d: { field: string }) => d.field)).toContain('id')
  })
})

describe('POST /api/v1/admin/keys', () => {
  test('mints a key: 201 with the plaintext once and read:* by default', async () => {
    const c = await createConsumer(app)
    const res = await app.send('POST', '/api/v1/admin/keys', { consumer_id: c.id }, admin)
    expect(res.status).toBe(201)
    const { data } = await res.json()
    expect(data.plaintext_key).toMatch(/^svc_free_[A-Za-z0-9]{32}$/)
    expect(data.scopes).toEqual(['read:*'])
    expect(data.key).toMatchObject({ source: 'admin', is_revoked: false, revoked_at: null, scopes: ['read:*'] })
    expect((await balanceWith(data.plaintext_key)).status).toBe(200)
  })

  test('mints a key with the scopes asked for', async () => {
    const c = await createConsumer(app)
    const res = await app.send(
      'POST',
      '/api/v1/admin/keys',
      { consumer_id: c.id, scopes: ['read:register', 'read:rulebook'] },
      admin,
    )
    expect(res.status).toBe(201)
    expect((await res.json()).data.scopes).toEqual(['read:register', 'read:rulebook'])
  })

  test.each(['write:filings', 'act:x', 'delegate:y'])(
    'the reserved scope %p answers 403 SCOPE_RESERVED and mints nothing',
    async (scope) => {
      const c = await createConsumer(app)
      const res = await app.send(
        'POST',
        '/api/v1/admin/keys',
        { consumer_id: c.id, scopes: ['read:register', scope] },
        admin,
      )
      expect(res.status).toBe(403)
      expect((await res.json()).error_code).toBe('SCOPE_RESERVED')
      const n = await countOf(
        app.deps.sql<{ n: number }[]>`select count(*)::int as n from api_keys where consumer_id = ${c.id}`,
      )
      expect(n).toBe(0)
    },
  )

  test('an unknown scope answers 400 VALIDATION_FAILED', async () => {
    const c = await createConsumer(app)
    const res = await app.send('POST', '/api/v1/admin/keys', { consumer_id: c.id, scopes: ['read:everything'] }, admin)
    expect(res.status).toBe(400)
    const err = await res.json()
    expect(err.error_code).toBe('VALIDATION_FAILED')
    expect(err.explanation.details.map((d: { field: string }) => d.field)).toContain('scopes.0')
  })

  test('the 4th active key answers 409 MAX_KEYS_REACHED', async () => {
    const c = await createConsumer(app)
    for (let i = 0; i < 3; i++) await createKey(app, c.id)
    const res = await app.send('POST', '/api/v1/admin/keys', { consumer_id: c.id }, admin)
    expect(res.status).toBe(409)
    expect((await res.json()).error_code).toBe('MAX_KEYS_REACHED')
  })

  test('concurrent mints never exceed 3 active keys', async () => {
    const c = await createConsumer(app)
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => app.send('POST', '/api/v1/admin/keys', { consumer_id: c.id }, admin)),
    )
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409])
    expect(
      await countOf(
        app.deps.sql<
          { n: number }[]
        >`select count(*)::int as n from api_keys where consumer_id = ${c.id} and revoked_at is null`,
      ),
    ).toBe(3)
  })

  test('a revoked key frees its place under the cap', async () => {
    const c = await createConsumer(app)
    const first = await createKey(app, c.id)
    await createKey(app, c.id)
    await createKey(app, c.id)
    expect((await app.send('DELETE', `/api/v1/admin/keys/${first.id}`, undefined, admin)).status).toBe(200)
    expect((await app.send('POST', '/api/v1/admin/keys', { consumer_id: c.id }, admin)).status).toBe(201)
  })

  test('an unknown consumer answers 404 NOT_FOUND', async () => {
    const res = await app.send('POST', '/api/v1/admin/keys', { consumer_id: crypto.randomUUID() }, admin)
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })
})

describe('GET /api/v1/admin/keys', () => {
  test('lists a consumer’s keys as metadata only, never the key or its hash', async () => {
    const c = await createConsumer(app)
    const a = await createKey(app, c.id)
    const b = await createKey(app, c.id, ['read:register'])
    const res = await app.send('GET', `/api/v1/admin/keys?consumer_id=${c.id}`, undefined, admin)
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.keys.map((k: { id: string }) => k.id).sort()).toEqual([a.id, b.id].sort())
    for (const k of data.keys) {
      for (const f of ['id', 'label', 'created_at', 'display_prefix', 'scopes', 'is_revoked', 'revoked_at'])
        expect(k).toHaveProperty(f)
      expect(k.display_prefix).toMatch(/^svc_free_[A-Za-z0-9]{4}…$/)
    }
    const text = JSON.stringify(data)
    for (const plain of [a.key, b.key]) {
      expect(text).not.toContain(plain)
      expect(text).not.toContain(plain.slice('svc_free_'.length))
      expect(text).not.toContain(sha256Hex(plain))
    }
    expect(text).not.toMatch(/[0-9a-f]{64}/)
  })

  test('shows a revoked key as revoked', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)
    const { data } = await (await app.send('GET', `/api/v1/admin/keys?consumer_id=${c.id}`, undefined, admin)).json()
    expect(data.keys[0]).toMatchObject({ id: k.id, is_revoked: true })
    expect(data.keys[0].revoked_at).not.toBeNull()
  })

  test('without consumer_id, or with one that is not a UUID, answers 400 VALIDATION_FAILED', async () => {
    for (const q of ['', '?consumer_id=nope']) {
      const res = await app.send('GET', `/api/v1/admin/keys${q}`, undefined, admin)
      expect(res.status).toBe(400)
      expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
    }
  })

  test('an unknown consumer answers 404 NOT_FOUND', async () => {
    const res = await app.send('GET', `/api/v1/admin/keys?consumer_id=${crypto.randomUUID()}`, undefined, admin)
    expect(res.status).toBe(404)
  })
})

describe('DELETE /api/v1/admin/keys/:id', () => {
  test('revokes: is_revoked true and revoked_at set', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    const res = await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data).toMatchObject({ id: k.id, is_revoked: true, already_revoked: false })
    expect(Number.isNaN(Date.parse(data.revoked_at))).toBe(false)
  })

  test('the revoked key answers 401 AUTH_INVALID_KEY on the very next request', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    expect((await balanceWith(k.key)).status).toBe(200)
    await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)
    const res = await balanceWith(k.key)
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
  })

  test('a second DELETE answers 200 with already_revoked: true and the first revoked_at', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    const first = (await (await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)).json()).data
    const res = await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)
    expect(res.status).toBe(200)
    expect((await res.json()).data).toMatchObject({
      id: k.id,
      is_revoked: true,
      already_revoked: true,
      revoked_at: first.revoked_at,
    })
  })

  test('an unknown id answers 404 NOT_FOUND', async () => {
    const res = await app.send('DELETE', `/api/v1/admin/keys/${crypto.randomUUID()}`, undefined, admin)
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })

  test('revocation is audited', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, admin)
    const rows = await app.deps.sql<{ actor: string; details: { key_id: string } }[]>`
      select actor, details from audit_log where consumer_id = ${c.id} and action = 'key_revoked'`
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ actor: 'admin', details: { key_id: k.id } })
  })
})

describe('POST /api/v1/admin/credits', () => {
  test('credits add up over two calls', async () => {
    const c = await createConsumer(app)
    const one = await app.send(
      'POST',
      '/api/v1/admin/credits',
      { consumer_id: c.id, amount_ore: 1500, reason: 'welcome' },
      admin,
    )
    expect(one.status).toBe(200)
    expect((await one.json()).data).toEqual({ consumer_id: c.id, balance_ore: 1500 })
    const two = await app.send(
      'POST',
      '/api/v1/admin/credits',
      { consumer_id: c.id, amount_ore: 2250, reason: 'goodwill' },
      admin,
    )
    expect((await two.json()).data.balance_ore).toBe(3750)
  })

  test.each([0, -100])('amount_ore %p answers 400 VALIDATION_FAILED and credits nothing', async (amount) => {
    const c = await createConsumer(app)
    const res = await app.send(
      'POST',
      '/api/v1/admin/credits',
      { consumer_id: c.id, amount_ore: amount, reason: 'x' },
      admin,
    )
    expect(res.status).toBe(400)
    const err = await res.json()
    expect(err.error_code).toBe('VALIDATION_FAILED')
    expect(err.explanation.details.map((d: { field: string }) => d.field)).toContain('amount_ore')
    const n = await countOf(
      app.deps.sql<{ n: number }[]>`select count(*)::int as n from credit_ledger where consumer_id = ${c.id}`,
    )
    expect(n).toBe(0)
  })

  test('an unknown consumer answers 404 NOT_FOUND', async () => {
    const res = await app.send(
      'POST',
      '/api/v1/admin/credits',
      { consumer_id: crypto.randomUUID(), amount_ore: 1000, reason: 'x' },
      admin,
    )
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })
})

describe('GET /api/v1/admin/outbox', () => {
  test('lists the sign-in mail once the mail job has sent it', async () => {
    const email = uniqueEmail('outbox')
    const signup = await app.send(
      'POST',
      '/api/v1/account/signup',
      { email, company_name: 'Post AS', consent: true },
      freshIp(),
    )
    expect(signup.status).toBe(200)
    await deliverMail(app)
    const res = await app.send('GET', '/api/v1/admin/outbox?limit=100', undefined, admin)
    expect(res.status).toBe(200)
    const mail = (await res.json()).data.emails.find((m: { to: string }) => m.to === email)
    expect(mail).toBeDefined()
    expect(mail.subject).toContain('Plikt')
    expect(mail.body).toContain(`${app.url}/auth/magic?token=`)
  })

  test('a limit outside 1..100 answers 400 VALIDATION_FAILED', async () => {
    for (const limit of ['0', '101']) {
      const res = await app.send('GET', `/api/v1/admin/outbox?limit=${limit}`, undefined, admin)
      expect(res.status).toBe(400)
      expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
    }
  })
})

describe('keys at rest', () => {
  test('the database keeps a key only as its SHA-256', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    const [row] = await app.deps.sql<{ key_hash: string }[]>`select key_hash from api_keys where id = ${k.id}`
    expect(row!.key_hash).toBe(sha256Hex(k.key))
    const secretPart = k.key.slice('svc_free_'.length)
    const n = await countOf(app.deps.sql<{ n: number }[]>`
      select count(*)::int as n from api_keys a where strpos(row_to_json(a)::text, ${secretPart}) > 0`)
    expect(n).toBe(0)
    const inAudit = await countOf(app.deps.sql<{ n: number }[]>`
      select count(*)::int as n from audit_log l where consumer_id = ${c.id} and strpos(row_to_json(l)::text, ${secretPart}) > 0`)
    expect(inAudit).toBe(0)
  })
})
