/**
 * Saved profiles over real HTTP: create, read, list, replace and delete; ownership (another
 * account's profile is 404 and stays as it was); the config's allowed members and bounds; refusal
 * of every key-, token- and identity-number shape, nested and in property names, without echoing
 * it; the cap of 100 per account, concurrent saves included; replay with the same Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { insertProfile } from '../../src/store/profiles.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

const POSTEN = '984661185'

let app: TestApp
let key: string
let consumerId: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  consumerId = c.id
  key = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

async function send(method: string, path: string, body?: unknown, k = key, headers: Record<string, string> = {}) {
  const res = await app.send(method, path, body, { ...bearer(k), ...freshIp(), ...headers })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as any }
}

const create = (body: unknown, k = key, headers: Record<string, string> = {}) =>
  send('POST', '/api/v1/profiles', body, k, headers)
const fields = (r: { body: any }) => (r.body.explanation?.details ?? []).map((d: { field: string }) => d.field)

async function account(tier: 'free' | 'enterprise' = 'enterprise', scopes?: string[]) {
  const c = await createConsumer(app, tier)
  return { id: c.id, key: (await createKey(app, c.id, scopes)).key }
}

const GOOD = {
  name: 'Posten, mva',
  config: {
    org_number: POSTEN,
    action: 'mva_melding',
    payload: { period: '2026-T1', lines: [{ code: 3, base: 1000 }] },
  },
}

describe('create, read, list, replace, delete', () => {
  test('POST saves a profile: 201 with its id, name, config and timestamps', async () => {
    const r = await create(GOOD)
    expect(r.status).toBe(201)
    expect(r.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: GOOD.name,
      config: GOOD.config,
      created_at: PINNED_NOW,
      updated_at: PINNED_NOW,
    })
  })

  test('a profile with no config has an empty one', async () => {
    const r = await create({ name: 'empty' })
    expect(r.body.data.config).toEqual({})
  })

  test('GET by id answers what was saved', async () => {
    const made = (await create(GOOD)).body.data
    const r = await send('GET', `/api/v1/profiles/${made.id}`)
    expect(r.status).toBe(200)
    expect(r.body.data).toEqual(made)
  })

  test('GET lists the account’s profiles, most recently changed first, with the cap', async () => {
    const a = await account()
    const first = (await create({ name: 'first' }, a.key)).body.data
    app.clock.advance(1000)
    try {
      const second = (await create({ name: 'second' }, a.key)).body.data
      const r = await send('GET', '/api/v1/profiles', undefined, a.key)
      expect(r.body.data).toEqual({ count: 2, max_profiles: 100, profiles: [second, first] })
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('every key of the account sees the same profiles', async () => {
    const made = (await create(GOOD)).body.data
    const other = (await createKey(app, consumerId)).key
    expect((await send('GET', `/api/v1/profiles/${made.id}`, undefined, other)).body.data).toEqual(made)
  })

  test('PUT replaces name and config whole and moves updated_at', async () => {
    const made = (await create(GOOD)).body.data
    app.clock.advance(60_000)
    try {
      const r = await send('PUT', `/api/v1/profiles/${made.id}`, { name: 'renamed', config: { action: 'a_melding' } })
      expect(r.status).toBe(200)
      expect(r.body.data).toEqual({
        id: made.id,
        name: 'renamed',
        config: { action: 'a_melding' },
        created_at: PINNED_NOW,
        updated_at: '2026-03-14T09:31:00.000Z',
      })
      expect((await send('GET', `/api/v1/profiles/${made.id}`)).body.data).toEqual(r.body.data)
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('DELETE removes it: 200, then GET and a second DELETE are 404', async () => {
    const made = (await create(GOOD)).body.data
    const r = await send('DELETE', `/api/v1/profiles/${made.id}`)
    expect([r.status, r.body.data]).toEqual([200, { id: made.id, deleted: true }])
    expect((await send('GET', `/api/v1/profiles/${made.id}`)).status).toBe(404)
    expect((await send('DELETE', `/api/v1/profiles/${made.id}`)).body.error_code).toBe('NOT_FOUND')
  })

  test('an id that is not a UUID is 400 naming id', async () => {
    const r = await send('GET', '/api/v1/profiles/not-a-uuid')
    expect([r.status, fields(r)]).toEqual([400, ['id']])
  })
})

describe('ownership', () => {
  test('another account’s profile is 404 on GET, PUT and DELETE, and stays as it was', async () => {
    const made = (await create(GOOD)).body.data
    const stranger = await account()
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'taken' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await send(method, `/api/v1/profiles/${made.id}`, body, stranger.key)
      expect([method, r.status, r.body.error_code]).toEqual([method, 404, 'NOT_FOUND'])
    }
    expect((await send('GET', `/api/v1/profiles/${made.id}`)).body.data).toEqual(made)
  })

  test('another account’s list does not show it', async () => {
    const made = (await create(GOOD)).body.data
    const stranger = await account()
    const r = await send('GET', '/api/v1/profiles', undefined, stranger.key)
    expect(r.body.data.profiles.map((p: { id: string }) => p.id)).not.toContain(made.id)
  })

  test('a key without read:actions is 403 SCOPE_INSUFFICIENT', async () => {
    const narrow = await account('enterprise', ['read:register'])
    const r = await create(GOOD, narrow.key)
    expect([r.status, r.body.error_code]).toEqual([403, 'SCOPE_INSUFFICIENT'])
  })

  test('no key is 401 AUTH_MISSING', async () => {
    const res = await app.send('GET', '/api/v1/profiles', undefined, freshIp())
    expect([res.status, ((await res.json()) as any).error_code]).toEqual([401, 'AUTH_MISSING'])
  })
})

describe('what config may hold', () => {
  test('a member other than org_number, action and payload is 400 naming it', async () => {
    const r = await create({ name: 'x', config: { org_number: POSTEN, api_key: 'harmless' } })
    expect(r.status).toBe(400)
    expect(fields(r)).toContain('config.api_key')
  })

  test('an org number of the wrong shape is 400 naming config.org_number', async () => {
    const r = await create({ name: 'x', config: { org_number: '12345' } })
    expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
    expect(fields(r)).toContain('config.org_number')
  })

  test('nine digits failing MOD-11 are saved, with a warning naming the field in bokmål and English (spec: `org_number` (9 digits))', async () => {
    const r = await create({ name: 'mod11', config: { org_number: '818123456' } })
    expect(r.status).toBe(201)
    expect(r.body.data.config.org_number).toBe('818123456')
    expect(r.body.data.warnings).toEqual([
      {
        field: 'config.org_number',
        code: 'ORG_NUMBER_CHECK_DIGIT',
        message_nb: expect.stringContaining('MOD-11'),
        message_en: expect.stringContaining('MOD-11'),
      },
    ])
  })

  test('a valid org number carries no warnings', async () => {
    const r = await create({ name: 'valid', config: { org_number: '984661185' } })
    expect(r.status).toBe(201)
    expect(r.body.data.warnings).toBeUndefined()
  })

  test('an unknown action is 400 naming config.action', async () => {
    const r = await create({ name: 'x', config: { action: 'skattemelding' } })
    expect(fields(r)).toContain('config.action')
  })

  test('a payload that is not an object is 400 naming config.payload', async () => {
    expect(fields(await create({ name: 'x', config: { payload: [1, 2] } }))).toContain('config.payload')
    expect(fields(await create({ name: 'x', config: { payload: 'text' } }))).toContain('config.payload')
  })

  test('a name that is empty, blank or over 80 characters is 400 naming name', async () => {
    for (const name of ['', '   ', 'x'.repeat(81)]) {
      const r = await create({ name })
      expect([JSON.stringify(name).slice(0, 10), r.status, fields(r)]).toEqual([
        JSON.stringify(name).slice(0, 10),
        400,
        ['name'],
      ])
    }
  })

  test('a name of exactly 80 characters is saved', async () => {
    expect((await create({ name: 'x'.repeat(80) })).status).toBe(201)
  })

  /** A payload whose UTF-8 JSON is exactly `bytes` long. */
  const payloadOf = (bytes: number) => ({ text: 'x'.repeat(bytes - JSON.stringify({ text: '' }).length) })

  test('a payload of exactly 64 KiB is saved', async () => {
    const payload = payloadOf(65_536)
    expect(Buffer.byteLength(JSON.stringify(payload))).toBe(65_536)
    expect((await create({ name: 'big', config: { payload } })).status).toBe(201)
  })

  test('a payload of 64 KiB + 1 byte is 400 naming config.payload', async () => {
    const r = await create({ name: 'too big', config: { payload: payloadOf(65_537) } })
    expect([r.status, fields(r)]).toEqual([400, ['config.payload']])
  })

  test('a NUL character in the payload is 400 naming its path, never a 500', async () => {
    const r = await create({ name: 'x', config: { payload: { note: 'a\u0000b' } } })
    expect([r.status, fields(r)]).toEqual([400, ['config.payload.note']])
  })

  test('a lone surrogate in a property name is 400 naming the object holding it', async () => {
    const r = await create('{"name":"x","config":{"payload":{"inner":{"\\ud800":1}}}}')
    expect([r.status, fields(r)]).toEqual([400, ['config.payload.inner']])
  })

  test('nothing is stored when the input is refused', async () => {
    const a = await account()
    await create({ name: 'x', config: { payload: { token: 'svc_live_0123456789abcdefghijklmnopqrstuv' } } }, a.key)
    expect((await send('GET', '/api/v1/profiles', undefined, a.key)).body.data.count).toBe(0)
  })
})

describe('no key, token or identity number anywhere in it', () => {
  const SECRETS: [string, string][] = [
    ['a production API key', 'svc_live_0123456789abcdefghijklmnopqrstuv'],
    ['a free-tier API key', 'svc_free_0123456789abcdefghijklmnopqrstuv'],
    ['a test-tier API key', 'svc_test_0123456789abcdefghijklmnopqrstuv'],
    ['an issuance token', 'svc_issue_0123456789abcdefghijklmnopqrstuv'],
    ['the sandbox bearer', 'svc_sandbox_test_my-agent'],
    ['an approval token', 'apt_0123456789abcdefghijklmnopqrstuv'],
    ['a webhook secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['a JWT (a Maskinporten token)', 'eyJhbGciOiJSUzI1NiJ9.eyJzY29wZSI6Im12YSJ9.c2lnbmF0dXJl'],
    ['a bearer credential', 'Bearer 0123456789abcdef0123456789abcdef'],
    ['a fødselsnummer', '12046823441'],
  ]

  test.each(SECRETS)('%s deep in the payload is 400 naming its path, never echoing it', async (_, secret) => {
    const r = await create({ name: 'x', config: { payload: { a: { b: [1, 2, { c: `see ${secret} here` }] } } } })
    expect([r.status, r.body.error_code, fields(r)]).toEqual([400, 'VALIDATION_FAILED', ['config.payload.a.b.2.c']])
    expect(r.text).not.toContain(secret)
  })

  test.each(SECRETS)(
    '%s as a property name is 400 naming the object holding it, never echoing it',
    async (_, secret) => {
      const r = await create({ name: 'x', config: { payload: { outer: { [secret]: true } } } })
      expect([r.status, fields(r)]).toEqual([400, ['config.payload.outer']])
      expect(r.text).not.toContain(secret)
    },
  )

  test.each(SECRETS)('%s as the profile’s name is 400 naming name', async (_, secret) => {
    const r = await create({ name: secret })
    expect([r.status, fields(r)]).toEqual([400, ['name']])
  })

  test('a real key this service minted is refused', async () => {
    const minted = (await createKey(app, consumerId)).key
    const r = await create({ name: 'x', config: { payload: { key: minted } } })
    expect(fields(r)).toEqual(['config.payload.key'])
    expect(r.text).not.toContain(minted)
  })

  test('an identity number written with a separator (space, -, .) is refused as the bare one is', async () => {
    for (const person of ['120468 23441', '120468-23441', '120468.23441']) {
      const r = await create({ name: 'x', config: { payload: { person } } })
      expect([r.status, fields(r)]).toEqual([400, ['config.payload.person']])
    }
  })

  test('an identity number sent as a JSON number is refused', async () => {
    const r = await create({ name: 'x', config: { payload: { person: 12046823441 } } })
    expect(fields(r)).toEqual(['config.payload.person'])
  })

  test('PUT refuses a secret as POST does, and the profile stays as it was', async () => {
    const made = (await create(GOOD)).body.data
    const r = await send('PUT', `/api/v1/profiles/${made.id}`, {
      name: 'x',
      config: { payload: { t: 'apt_0123456789abcdefghijklmnopqrstuv' } },
    })
    expect([r.status, fields(r)]).toEqual([400, ['config.payload.t']])
    expect((await send('GET', `/api/v1/profiles/${made.id}`)).body.data).toEqual(made)
  })

  test('every offending path is named, not only the first', async () => {
    const r = await create({
      name: 'x',
      config: { payload: { one: 'svc_live_abcdefgh', two: ['Bearer abcdefgh12345678'] } },
    })
    expect(fields(r)).toEqual(['config.payload.one', 'config.payload.two.0'])
  })

  test('ordinary words and numbers that merely resemble a shape are saved', async () => {
    const payload = {
      adapt_settings: 'adapt_x',
      note: 'bearer of good news',
      amount: 12345678901,
      period: '2026-T1',
      count: 1204682344,
    }
    expect((await create({ name: 'harmless', config: { payload } })).status).toBe(201)
  })
})

describe('the cap of 100 profiles an account', () => {
  test('the 101st is 400 naming profiles; after a delete there is room again', async () => {
    const a = await account()
    for (let i = 0; i < 100; i++) await insertProfile(app.deps.sql, a.id, `p${i}`, {}, new Date(PINNED_NOW))
    const r = await create({ name: 'one too many' }, a.key)
    expect([r.status, r.body.error_code, fields(r)]).toEqual([400, 'VALIDATION_FAILED', ['profiles']])
    expect(r.body.explanation.details[0].message).toContain('100')
    const victim = (await send('GET', '/api/v1/profiles', undefined, a.key)).body.data.profiles[0].id
    await send('DELETE', `/api/v1/profiles/${victim}`, undefined, a.key)
    expect((await create({ name: 'fits now' }, a.key)).status).toBe(201)
  })

  test('three concurrent saves with room for two: exactly two are saved', async () => {
    const a = await account()
    for (let i = 0; i < 98; i++) await insertProfile(app.deps.sql, a.id, `p${i}`, {}, new Date(PINNED_NOW))
    const results = await Promise.all([1, 2, 3].map((i) => create({ name: `racer ${i}` }, a.key)))
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 400])
    expect((await send('GET', '/api/v1/profiles', undefined, a.key)).body.data.count).toBe(100)
  })
})

describe('Idempotency-Key', () => {
  test('the same key and body replay the first answer and save one profile', async () => {
    const a = await account()
    const idem = { 'idempotency-key': crypto.randomUUID() }
    const first = await create(GOOD, a.key, idem)
    const again = await create(GOOD, a.key, idem)
    expect(first.status).toBe(201)
    expect([again.status, again.body.data]).toEqual([201, first.body.data])
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await send('GET', '/api/v1/profiles', undefined, a.key)).body.data.count).toBe(1)
  })

  test('the same key with another body is IDEMPOTENCY_KEY_MISMATCH and saves nothing more', async () => {
    const a = await account()
    const idem = { 'idempotency-key': crypto.randomUUID() }
    await create(GOOD, a.key, idem)
    const r = await create({ ...GOOD, name: 'other' }, a.key, idem)
    expect(r.body.error_code).toBe('IDEMPOTENCY_KEY_MISMATCH')
    expect((await send('GET', '/api/v1/profiles', undefined, a.key)).body.data.count).toBe(1)
  })

  test('without the header two identical saves are two profiles', async () => {
    const a = await account()
    await create(GOOD, a.key)
    await create(GOOD, a.key)
    expect((await send('GET', '/api/v1/profiles', undefined, a.key)).body.data.count).toBe(2)
  })
})
