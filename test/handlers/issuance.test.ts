/**
 * Issuance tokens, end to end: the owner mints one with the dashboard form, an agent redeems it at
 * POST /api/v1/account/issuance-tokens/redeem (spec: Getting a key, Issuance token, Limits).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sha256Hex } from '../../src/lib/hash.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { admin, bearer, createKey, freshIp, postForm, signIn, type Session } from '../helpers.ts'

let app: TestApp
// The first file of a run starts the embedded database: allow more than the 5 s hook default on a busy machine.
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const HOUR = 3_600_000
const REDEEM = '/api/v1/account/issuance-tokens/redeem'

/** The `n` of a `select count(*)::int as n …` query. */
async function countOf(rows: Promise<{ n: number }[]>): Promise<number> {
  return (await rows)[0]!.n
}

function mintForm(s: Session): Promise<Response> {
  return postForm(app, '/dashboard/issuance-tokens', { csrf_token: s.csrf }, { cookie: s.cookie })
}

/** Mints a token with the dashboard form and reads it from the page (shown once). */
async function mint(s: Session): Promise<string> {
  const res = await mintForm(s)
  const html = await res.text()
  if (res.status !== 200) throw new Error(`mint: ${res.status} ${html}`)
  const m = /<output class="secret" id="secret">(svc_issue_[A-Za-z0-9]+)<\/output>/.exec(html)
  if (!m) throw new Error(`no token on the page: ${html}`)
  return m[1]!
}

function redeem(token: string, ip: Record<string, string> = freshIp()): Promise<Response> {
  return app.send('POST', REDEEM, { token }, ip)
}

async function tokenId(token: string): Promise<string> {
  const [row] = await app.deps.sql<
    { id: string }[]
  >`select id from issuance_tokens where token_hash = ${sha256Hex(token)}`
  if (!row) throw new Error('token not stored')
  return row.id
}

function revokeForm(s: Session, id: string): Promise<Response> {
  return postForm(app, `/dashboard/issuance-tokens/${id}/revoke`, { csrf_token: s.csrf }, { cookie: s.cookie })
}

/** The error body without what differs per response. */
function comparable(body: Record<string, unknown>): Record<string, unknown> {
  const { _meta, ...rest } = body
  return rest
}

async function withClockAdvanced<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  app.clock.advance(ms)
  try {
    return await fn()
  } finally {
    app.clock.set(PINNED_NOW)
  }
}

describe('minting an issuance token (dashboard)', () => {
  test('the dashboard form mints an svc_issue_ token and shows it once', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    expect(token).toMatch(/^svc_issue_[A-Za-z0-9]{32}$/)
    const dashboard = await (await app.get('/dashboard', { headers: { cookie: s.cookie } })).text()
    expect(dashboard).not.toContain(token)
  })

  test('only the token’s SHA-256 is stored', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    const rows = await app.deps.sql<{ token_hash: string; row: string }[]>`
      select t.token_hash, row_to_json(t)::text as row from issuance_tokens t where consumer_id = ${s.consumerId}`
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).toBe(sha256Hex(token))
    expect(rows[0]!.row).not.toContain(token.slice('svc_issue_'.length))
  })

  test('at most 3 may be outstanding: the 4th mint answers a 400 error page', async () => {
    const s = await signIn(app)
    for (let i = 0; i < 3; i++) await mint(s)
    const res = await mintForm(s)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('VALIDATION_FAILED')
    expect(html).not.toContain('id="secret"')
    const n = await countOf(
      app.deps.sql<{ n: number }[]>`select count(*)::int as n from issuance_tokens where consumer_id = ${s.consumerId}`,
    )
    expect(n).toBe(3)
  })

  test('revoking an outstanding token makes room for another', async () => {
    const s = await signIn(app)
    const tokens = [await mint(s), await mint(s), await mint(s)]
    expect((await revokeForm(s, await tokenId(tokens[0]!))).status).toBe(303)
    expect(await mint(s)).toMatch(/^svc_issue_/)
  })

  test('another account cannot revoke my token (404), and it stays redeemable', async () => {
    const owner = await signIn(app)
    const other = await signIn(app)
    const token = await mint(owner)
    const res = await revokeForm(other, await tokenId(token))
    expect(res.status).toBe(404)
    expect((await redeem(token)).status).toBe(201)
  })

  test('minting without the session’s CSRF token is refused', async () => {
    const s = await signIn(app)
    const res = await postForm(app, '/dashboard/issuance-tokens', { csrf_token: 'wrong' }, { cookie: s.cookie })
    expect(res.status).toBe(400)
    const n = await countOf(
      app.deps.sql<{ n: number }[]>`select count(*)::int as n from issuance_tokens where consumer_id = ${s.consumerId}`,
    )
    expect(n).toBe(0)
  })
})

describe('POST /api/v1/account/issuance-tokens/redeem', () => {
  test('redeems a token for a read:* key, returned once with 201', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    const res = await redeem(token)
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body.success).toBe(true)
    expect(body.data.plaintext_key).toMatch(/^svc_free_[A-Za-z0-9]{32}$/)
    expect(body.data.scopes).toEqual(['read:*'])
    expect(body.data.key).toMatchObject({ scopes: ['read:*'], source: 'issuance', is_revoked: false, revoked_at: null })
  })

  test('the issued key works at once', async () => {
    const s = await signIn(app)
    const { data } = await (await redeem(await mint(s))).json()
    const res = await app.send('GET', '/api/v1/account/credits/balance', undefined, bearer(data.plaintext_key))
    expect(res.status).toBe(200)
    expect((await res.json()).data.balance_ore).toBe(0)
  })

  test('the key prefix follows the account tier (starter → svc_live_)', async () => {
    const s = await signIn(app)
    const patch = await app.send('PATCH', `/api/v1/admin/consumers/${s.consumerId}`, { tier: 'starter' }, admin)
    expect(patch.status).toBe(200)
    const res = await redeem(await mint(s))
    expect(res.status).toBe(201)
    expect((await res.json()).data.plaintext_key).toMatch(/^svc_live_/)
  })

  test('a token is redeemable until just before 24 hours have passed', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    const res = await withClockAdvanced(24 * HOUR - 1000, () => redeem(token))
    expect(res.status).toBe(201)
  })

  test('a second redemption of the same token answers 401 ISSUANCE_TOKEN_INVALID', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    expect((await redeem(token)).status).toBe(201)
    const res = await redeem(token)
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('ISSUANCE_TOKEN_INVALID')
  })

  const causes: [string, () => Promise<Response>][] = [
    ['an unknown token', async () => redeem(`svc_issue_${'A'.repeat(32)}`)],
    ['garbage', async () => redeem('not a token at all; <>"\'')],
    ['a key instead of a token', async () => redeem((await signIn(app)).firstKey!)],
    [
      'a used token',
      async () => {
        const token = await mint(await signIn(app))
        expect((await redeem(token)).status).toBe(201)
        return redeem(token)
      },
    ],
    [
      'an expired token (24 hours later)',
      async () => {
        const token = await mint(await signIn(app))
        return withClockAdvanced(24 * HOUR + 1000, () => redeem(token))
      },
    ],
    [
      'a revoked token',
      async () => {
        const s = await signIn(app)
        const token = await mint(s)
        const revoked = await revokeForm(s, await tokenId(token))
        expect(revoked.status).toBe(303)
        expect(revoked.headers.get('location')).toBe('/dashboard#issuance')
        return redeem(token)
      },
    ],
  ]

  test.each(causes)(
    '%s gets the same 401 ISSUANCE_TOKEN_INVALID body as any other failure',
    async (_cause, attempt) => {
      const reference = await redeem(`svc_issue_${crypto.randomUUID().replaceAll('-', '')}`)
      expect(reference.status).toBe(401)
      const expected = comparable(await reference.json())
      expect(expected.error_code).toBe('ISSUANCE_TOKEN_INVALID')
      const res = await attempt()
      expect(res.status).toBe(401)
      expect(comparable(await res.json())).toEqual(expected)
    },
  )

  test('an expired token issues no key', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    await withClockAdvanced(24 * HOUR + 1000, () => redeem(token))
    const n = await countOf(
      app.deps.sql<
        { n: number }[]
      >`select count(*)::int as n from api_keys where consumer_id = ${s.consumerId} and source = 'issuance'`,
    )
    expect(n).toBe(0)
  })

  test('an empty token is a validation error', async () => {
    const res = await redeem('')
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
  })

  test('with 3 active keys it answers 409 MAX_KEYS_REACHED and keeps the token for later', async () => {
    const s = await signIn(app)
    await createKey(app, s.consumerId)
    await createKey(app, s.consumerId)
    const token = await mint(s)
    const full = await redeem(token)
    expect(full.status).toBe(409)
    expect((await full.json()).error_code).toBe('MAX_KEYS_REACHED')
    const [t] = await app.deps.sql<
      { redeemed_at: Date | null }[]
    >`select redeemed_at from issuance_tokens where token_hash = ${sha256Hex(token)}`
    expect(t!.redeemed_at).toBeNull()

    const keys = (await (await app.send('GET', '/api/v1/account/keys', undefined, { cookie: s.cookie })).json()).data
      .keys
    expect(keys).toHaveLength(3)
    const del = await app.send('DELETE', `/api/v1/account/keys/${keys[0].id}`, undefined, {
      cookie: s.cookie,
      'x-csrf-token': s.csrf,
    })
    expect(del.status).toBe(200)

    const res = await redeem(token)
    expect(res.status).toBe(201)
    expect((await res.json()).data.scopes).toEqual(['read:*'])
  })

  test('20 concurrent redemptions of one token issue exactly one key', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    const responses = await Promise.all(Array.from({ length: 20 }, () => redeem(token)))
    const bodies = await Promise.all(responses.map((r) => r.json()))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((st) => st === 201)).toHaveLength(1)
    expect(statuses.filter((st) => st === 401)).toHaveLength(19)
    for (const [i, b] of bodies.entries()) if (statuses[i] === 401) expect(b.error_code).toBe('ISSUANCE_TOKEN_INVALID')
    const rows = await app.deps.sql<
      { id: string }[]
    >`select id from api_keys where consumer_id = ${s.consumerId} and source = 'issuance'`
    expect(rows).toHaveLength(1)
    expect(rows[0]!.id).toBe(bodies[statuses.indexOf(201)].data.key.id)
  })

  test('20 attempts an hour per IP: the 21st answers 429 RATE_LIMITED with Retry-After, another IP still redeems', async () => {
    const s = await signIn(app)
    const token = await mint(s)
    const ip = freshIp()
    for (let i = 0; i < 20; i++) {
      const res = await redeem(`svc_issue_guess${i}`, ip)
      expect(res.status).toBe(401)
    }
    const limited = await redeem(token, ip)
    expect(limited.status).toBe(429)
    expect((await limited.json()).error_code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600)

    const elsewhere = await redeem(token, freshIp())
    expect(elsewhere.status).toBe(201)
  })
})

describe('audit', () => {
  test('minting, revoking and redeeming are audited, and no row holds a token', async () => {
    const s = await signIn(app)
    const revokedToken = await mint(s)
    const revokedId = await tokenId(revokedToken)
    expect((await revokeForm(s, revokedId)).status).toBe(303)
    const token = await mint(s)
    const redeemed = await (await redeem(token)).json()

    const rows = await app.deps.sql<{ action: string; details: Record<string, unknown> }[]>`
      select action, details from audit_log where consumer_id = ${s.consumerId} order by occurred_at, id`
    const actions = rows.map((r) => r.action)
    expect(actions.filter((a) => a === 'issuance_token_minted')).toHaveLength(2)
    expect(actions.filter((a) => a === 'issuance_token_revoked')).toHaveLength(1)
    expect(actions.filter((a) => a === 'issuance_token_redeemed')).toHaveLength(1)
    expect(rows.find((r) => r.action === 'issuance_token_revoked')!.details.token_id).toBe(revokedId)
    const r = rows.find((r) => r.action === 'issuance_token_redeemed')!
    expect(r.details).toMatchObject({ token_id: await tokenId(token), key_id: redeemed.data.key.id })
    const text = JSON.stringify(rows)
    expect(text).not.toContain(token)
    expect(text).not.toContain(revokedToken)
    expect(text).not.toContain(redeemed.data.plaintext_key)
  })
})
