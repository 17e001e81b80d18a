import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startApp, type TestApp } from '../helpers.ts'
import { admin, bearer, freshIp, postForm, signIn, type Session } from '../helpers.ts'
import { startAuthServer } from '../helpers.ts'

type AuthServer = Awaited<ReturnType<typeof startAuthServer>>
let auth: AuthServer
let app: TestApp
let aud: string
beforeAll(async () => {
  auth = await startAuthServer()
  app = await startApp({ env: { OAUTH_ISSUER: auth.issuer, OAUTH_JWKS_URL: auth.jwksUrl } })
  aud = `${app.url}/api/mcp`
}, 30_000)
afterAll(async () => {
  await app.stop()
  auth.stop()
})

function rpc(a: TestApp, headers: Record<string, string>, method = 'tools/list', params: object = {}) {
  return fetch(`${a.url}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...freshIp(),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'plikt-oauth-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), {
      requestInit: { headers: { ...freshIp(), ...bearer(token) } },
    }),
  )
  return client
}

/** Presents a token and returns the connection id of its OAUTH_SUBJECT_UNMAPPED consent_url. */
async function pendingConnection(token: string): Promise<string> {
  const body = await (await rpc(app, bearer(token))).json()
  expect(body.error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
  return new URL(body.consent_url).searchParams.get('connection')!
}

/** A token of the owner's own MCP host: it carries the owner's e-mail, verified by the issuer. */
function ownerToken(owner: Session, sub: string): Promise<string> {
  return auth.token({ sub, aud, email: owner.email, email_verified: true, client_id: 'owner-host' })
}

/** Presents a new subject's token, follows the consent_url as the signed-in owner and approves. */
async function connectSubject(owner: Session, sub: string): Promise<{ token: string; connection: string }> {
  const token = await ownerToken(owner, sub)
  const connection = await pendingConnection(token)
  const page = await app.get(`/oauth/consent?connection=${connection}`, { headers: { cookie: owner.cookie } })
  expect(await page.text()).toContain('id="approve"')
  const approved = await postForm(
    app,
    '/oauth/consent',
    { connection, csrf_token: owner.csrf },
    { cookie: owner.cookie },
  )
  expect(approved.status).toBe(200)
  return { token, connection }
}

describe('protected-resource metadata (RFC 9728)', () => {
  test.each(['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource'])(
    '%s names the resource, the issuer and identity scopes only',
    async (path) => {
      const res = await app.get(path)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        resource: aud,
        authorization_servers: [auth.issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: ['openid', 'profile', 'email', 'phone', 'offline_access'],
      })
    },
  )
})

describe('a valid token', () => {
  test('of an unmapped subject gives 401 OAUTH_SUBJECT_UNMAPPED with a consent link and the full challenge', async () => {
    const res = await rpc(app, bearer(await auth.token({ sub: `user-${crypto.randomUUID()}`, aud })))
    expect(res.status).toBe(401)
    const challenge = res.headers.get('www-authenticate')!
    expect(challenge).toStartWith('Bearer realm="svc-mcp", error="invalid_token", error_description="')
    expect(challenge).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/mcp"`)
    const body = await res.json()
    expect(body.error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
    expect(body.consent_url).toStartWith(`${app.url}/oauth/consent?connection=`)
  })

  test('works once the owner approved: a dedicated key with exactly the OAuth scopes, counted in the cap', async () => {
    const owner = await signIn(app)
    const { token } = await connectSubject(owner, `user-${crypto.randomUUID()}`)
    const client = await connect(token)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('get_credit_balance')
    expect(names).not.toContain('get_public_obligations') // needs read:rulebook, which OAuth keys do not carry
    const balance = (await client.callTool({ name: 'get_credit_balance', arguments: {} })).structuredContent as {
      result: { currency: string }
    }
    expect(balance.result.currency).toBe('NOK')
    await client.close()
    const keys = await app.deps
      .sql`select scopes, source, label from api_keys where consumer_id = ${owner.consumerId} and revoked_at is null order by created_at`
    expect(keys).toHaveLength(2)
    expect(keys[1]).toMatchObject({
      source: 'oauth',
      scopes: ['read:register', 'read:portal', 'read:directorate', 'read:centralbank', 'read:changes'],
    })
    expect(keys[1]!.label).toContain(auth.issuer)
  })

  test('re-approving a connection reuses it', async () => {
    const owner = await signIn(app)
    const { connection } = await connectSubject(owner, `user-${crypto.randomUUID()}`)
    const again = await postForm(
      app,
      '/oauth/consent',
      { connection, csrf_token: owner.csrf },
      { cookie: owner.cookie },
    )
    expect(await again.text()).toContain('fantes fra før')
    expect(
      (
        await app.deps
          .sql`select count(*)::int as n from api_keys where consumer_id = ${owner.consumerId} and source = 'oauth'`
      )[0]!.n,
    ).toBe(1)
  })

  test('nothing is approved while the account holds three active keys', async () => {
    const owner = await signIn(app)
    for (let i = 0; i < 2; i++)
      await app.send('POST', '/api/v1/account/keys', {}, { cookie: owner.cookie, 'x-csrf-token': owner.csrf })
    const token = await ownerToken(owner, `user-${crypto.randomUUID()}`)
    const connection = await pendingConnection(token)
    const res = await postForm(app, '/oauth/consent', { connection, csrf_token: owner.csrf }, { cookie: owner.cookie })
    expect(res.status).toBe(409)
    expect((await app.deps.sql`select status from oauth_connections where id = ${connection}`)[0]!.status).toBe(
      'pending',
    )
    expect((await (await rpc(app, bearer(token))).json()).error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
  })

  test('disconnecting revokes the mapping and its key together', async () => {
    const owner = await signIn(app)
    const { token, connection } = await connectSubject(owner, `user-${crypto.randomUUID()}`)
    expect((await rpc(app, bearer(token))).status).toBe(200)
    const res = await postForm(
      app,
      `/dashboard/oauth-connections/${connection}/disconnect`,
      { csrf_token: owner.csrf },
      { cookie: owner.cookie },
    )
    expect(res.status).toBe(303)
    expect((await (await rpc(app, bearer(token))).json()).error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
    expect(
      (
        await app.deps
          .sql`select count(*)::int as n from api_keys where consumer_id = ${owner.consumerId} and source = 'oauth' and revoked_at is null`
      )[0]!.n,
    ).toBe(0)
  })
})

describe('revoking the key behind a connection ends the connection (issue 18, item 1)', () => {
  const connectionRow = async (id: string) =>
    (
      await app.deps.sql<
        { status: string; key_id: string }[]
      >`select status, key_id from oauth_connections where id = ${id}`
    )[0]!
  const activeOAuthKeys = async (consumerId: string) =>
    (
      await app.deps.sql<
        { id: string }[]
      >`select id from api_keys where consumer_id = ${consumerId} and source = 'oauth' and revoked_at is null`
    ).map((k) => k.id)
  const revokeByOwner = (owner: Session, keyId: string) =>
    app.send('DELETE', `/api/v1/account/keys/${keyId}`, undefined, { cookie: owner.cookie, 'x-csrf-token': owner.csrf })
  const approve = (owner: Session, connection: string) =>
    postForm(app, '/oauth/consent', { connection, csrf_token: owner.csrf }, { cookie: owner.cookie })

  test.each([
    ['the owner (DELETE /api/v1/account/keys/{id})', revokeByOwner],
    [
      'the owner’s dashboard form',
      (owner: Session, keyId: string) =>
        postForm(app, `/dashboard/keys/${keyId}/revoke`, { csrf_token: owner.csrf }, { cookie: owner.cookie }),
    ],
    [
      'the operator (DELETE /api/v1/admin/keys/{id})',
      (_owner: Session, keyId: string) => app.send('DELETE', `/api/v1/admin/keys/${keyId}`, undefined, admin),
    ],
  ])(
    'revoked by %s: the connection ends in the same transaction, audited, and the host is told to reconnect',
    async (_name, revoke) => {
      const owner = await signIn(app)
      const { token, connection } = await connectSubject(owner, `user-${crypto.randomUUID()}`)
      const { key_id: keyId } = await connectionRow(connection)
      expect((await revoke(owner, keyId)).status).toBeLessThan(400)

      expect((await connectionRow(connection)).status).toBe('revoked')
      const audit = await app.deps.sql<{ action: string; correlation_id: string; details: Record<string, unknown> }[]>`
      select action, correlation_id, details from audit_log where consumer_id = ${owner.consumerId} and action in ('key_revoked', 'oauth_connection_revoked') order by id`
      expect(audit.map((a) => a.action).sort()).toEqual(['key_revoked', 'oauth_connection_revoked'])
      expect(audit[0]!.correlation_id).toBe(audit[1]!.correlation_id)
      expect(audit.find((a) => a.action === 'oauth_connection_revoked')!.details).toMatchObject({
        connection_id: connection,
        key_id: keyId,
        reason: 'key_revoked',
      })

      const res = await rpc(app, bearer(token))
      expect(res.status).toBe(401)
      const body = await res.json()
      expect(body.error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
      expect(new URL(body.consent_url).searchParams.get('connection')).not.toBe(connection)
    },
  )

  test('the host reconnects: its consent link offers Approve again, and approval mints a fresh dedicated key', async () => {
    const owner = await signIn(app)
    const { token, connection } = await connectSubject(owner, `user-${crypto.randomUUID()}`)
    const { key_id: oldKey } = await connectionRow(connection)
    const client = await connect(token)
    expect((await client.callTool({ name: 'get_credit_balance', arguments: {} })).isError).toBeFalsy()
    expect((await revokeByOwner(owner, oldKey)).status).toBe(200)
    await expect(client.callTool({ name: 'get_credit_balance', arguments: {} })).rejects.toMatchObject({ code: 401 })
    await client.close()

    const again = await pendingConnection(token)
    const page = await (
      await app.get(`/oauth/consent?connection=${again}`, { headers: { cookie: owner.cookie } })
    ).text()
    expect(page).toContain('id="approve"')
    expect(page).not.toContain('Already connected')
    expect((await approve(owner, again)).status).toBe(200)

    const { key_id: newKey } = await connectionRow(again)
    expect(newKey).not.toBe(oldKey)
    expect(await activeOAuthKeys(owner.consumerId)).toEqual([newKey])
    const reconnected = await connect(token)
    expect(reconnected.getServerVersion()?.name).toBe('plikt')
    expect((await reconnected.callTool({ name: 'get_credit_balance', arguments: {} })).isError).toBeFalsy()
    await reconnected.close()
  })

  test('reconnecting counts toward the three-key cap like the first connection', async () => {
    const owner = await signIn(app)
    const { token, connection } = await connectSubject(owner, `user-${crypto.randomUUID()}`)
    expect((await revokeByOwner(owner, (await connectionRow(connection)).key_id)).status).toBe(200)
    const minted: string[] = []
    for (let i = 0; i < 2; i++)
      minted.push(
        (
          await (
            await app.send('POST', '/api/v1/account/keys', {}, { cookie: owner.cookie, 'x-csrf-token': owner.csrf })
          ).json()
        ).data.key.id,
      )

    const again = await pendingConnection(token)
    const refused = await approve(owner, again)
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('MAX_KEYS_REACHED')
    expect((await connectionRow(again)).status).toBe('pending')

    expect((await revokeByOwner(owner, minted[0]!)).status).toBe(200)
    expect((await approve(owner, again)).status).toBe(200)
    expect((await rpc(app, bearer(token))).status).toBe(200)
  })
})

describe('consent binds the connection to the token holder (issue 19, Medium 2)', () => {
  const consentPage = (who: Session, connection: string) =>
    app.get(`/oauth/consent?connection=${connection}`, { headers: { cookie: who.cookie } })
  const approve = (who: Session, connection: string) =>
    postForm(app, '/oauth/consent', { connection, csrf_token: who.csrf }, { cookie: who.cookie })
  const connectionRow = async (id: string) =>
    (await app.deps.sql`select status, consumer_id, key_id from oauth_connections where id = ${id}`)[0]!
  const oauthKeysOf = async (consumerId: string) =>
    (
      await app.deps.sql`select count(*)::int as n from api_keys where consumer_id = ${consumerId} and source = 'oauth'`
    )[0]!.n
  const auditOf = (consumerId: string) =>
    app.deps.sql<
      { action: string; details: Record<string, unknown> }[]
    >`select action, details from audit_log where consumer_id = ${consumerId} and action like 'oauth_connection_%'`

  /** Whoever approved, nothing was linked: still pending, no key, no approval in the audit, and the token still unmapped. */
  async function expectNothingLinked(who: Session, connection: string, token: string, reason: string) {
    const res = await approve(who, connection)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('OAUTH_IDENTITY_MISMATCH')
    expect(await connectionRow(connection)).toMatchObject({ status: 'pending', consumer_id: null, key_id: null })
    expect(await oauthKeysOf(who.consumerId)).toBe(0)
    const audit = await auditOf(who.consumerId)
    expect(audit.map((a) => a.action)).toEqual(['oauth_connection_refused'])
    expect(audit[0]!.details).toMatchObject({ connection_id: connection, reason })
    expect((await (await rpc(app, bearer(token))).json()).error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
  }

  test('the attack: a victim who approves an attacker’s consent link links nothing, and is shown whose identity it is', async () => {
    const attackerSub = `attacker-${crypto.randomUUID()}`
    const attackerEmail = `attacker-${crypto.randomUUID().slice(0, 8)}@example.no`
    const token = await auth.token({
      sub: attackerSub,
      aud,
      email: attackerEmail,
      email_verified: true,
      client_id: 'evil-host',
    })
    const connection = await pendingConnection(token)
    const victim = await signIn(app)

    const page = await consentPage(victim, connection)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).not.toContain('id="approve"')
    expect(html).toContain('id="refused"')
    expect(html).toContain(`<code id="token-client">evil-host</code>`)
    expect(html).toContain(`<code id="token-issuer">${auth.issuer}</code>`)
    expect(html).toContain(`<code id="token-subject">${attackerSub}</code>`)
    expect(html).toContain(`<code id="token-email">${attackerEmail}</code>`)
    expect(html).toContain(`<code id="account-email">${victim.email}</code>`)

    await expectNothingLinked(victim, connection, token, 'other_account')
    const audit = await auditOf(victim.consumerId)
    expect(audit[0]!.details).toMatchObject({ issuer: auth.issuer, subject: attackerSub, client_id: 'evil-host' })
  })

  test('the honest path: the token’s verified e-mail is the account’s (compared as sign-in normalises it) → linked', async () => {
    const owner = await signIn(app)
    const sub = `user-${crypto.randomUUID()}`
    const token = await auth.token({
      sub,
      aud,
      email: `  ${owner.email.toUpperCase()} `,
      email_verified: true,
      azp: 'owner-azp-host',
    })
    const connection = await pendingConnection(token)
    const html = await (await consentPage(owner, connection)).text()
    expect(html).toContain('id="approve"')
    expect(html).not.toContain('id="refused"')
    expect(html).toContain('<code id="token-client">owner-azp-host</code>') // azp when the token has no client_id
    expect(html).toContain(`<code id="token-subject">${sub}</code>`)
    const res = await approve(owner, connection)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(sub)
    expect(await connectionRow(connection)).toMatchObject({ status: 'active', consumer_id: owner.consumerId })
    expect((await auditOf(owner.consumerId)).map((a) => a.action)).toEqual(['oauth_connection_approved'])
    expect((await rpc(app, bearer(token))).status).toBe(200)
  })

  test.each([
    ['email_verified false', false],
    ['email_verified the string "true"', 'true'],
    ['no email_verified claim', undefined],
  ])('the account’s own e-mail, not verified by the issuer (%s) → refused', async (_name, verified) => {
    const owner = await signIn(app)
    const token = await auth.token({
      sub: `user-${crypto.randomUUID()}`,
      aud,
      email: owner.email,
      email_verified: verified,
    })
    const connection = await pendingConnection(token)
    const html = await (await consentPage(owner, connection)).text()
    expect(html).not.toContain('id="approve"')
    expect(html).toContain('id="refused"')
    expect(html).toContain('email_verified')
    await expectNothingLinked(owner, connection, token, 'email_unverified')
  })

  test('no e-mail claim → refused; once the host presents a token with the verified e-mail, the same link is approvable', async () => {
    const owner = await signIn(app)
    const sub = `user-${crypto.randomUUID()}`
    const bare = await auth.token({ sub, aud })
    const connection = await pendingConnection(bare)
    const html = await (await consentPage(owner, connection)).text()
    expect(html).not.toContain('id="approve"')
    expect(html).toContain('id="refused"')
    await expectNothingLinked(owner, connection, bare, 'no_email')

    const withEmail = await ownerToken(owner, sub)
    expect(await pendingConnection(withEmail)).toBe(connection)
    expect(await (await consentPage(owner, connection)).text()).toContain('id="approve"')
    expect((await approve(owner, connection)).status).toBe(200)
    expect((await rpc(app, bearer(bare))).status).toBe(200) // the subject is linked, whichever of its tokens is presented
  })
})

describe('a rejected token', () => {
  test.each([
    ['expired', () => auth.token({ sub: 'u1', aud, expiresIn: -60 }), 'OAUTH_TOKEN_EXPIRED'],
    [
      'for another audience',
      () => auth.token({ sub: 'u1', aud: 'https://elsewhere.example/api/mcp' }),
      'OAUTH_AUDIENCE_MISMATCH',
    ],
    [
      'from another issuer',
      () => auth.token({ sub: 'u1', aud, iss: 'https://other-issuer.example' }),
      'OAUTH_TOKEN_INVALID',
    ],
    ['not yet valid (nbf)', () => auth.token({ sub: 'u1', aud, notBefore: 600 }), 'OAUTH_TOKEN_INVALID'],
    ['alg none', async () => auth.unsigned('u1', aud), 'OAUTH_TOKEN_INVALID'],
    ['HS256', () => auth.hs256('u1', aud), 'OAUTH_TOKEN_INVALID'],
  ])('%s → 401 %s', async (_name, make, code) => {
    const res = await rpc(app, bearer(await make()))
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe(code)
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=')
  })

  test('RS256 tokens are accepted as well as ES256', async () => {
    const res = await rpc(app, bearer(await auth.token({ sub: `user-${crypto.randomUUID()}`, aud, alg: 'RS256' })))
    expect((await res.json()).error_code).toBe('OAUTH_SUBJECT_UNMAPPED') // verified; only the mapping is missing
  })

  test('a token signed by a rotated-in key (unknown kid) makes the server fetch the key set again', async () => {
    await (await rpc(app, bearer(await auth.token({ sub: 'warm', aud })))).arrayBuffer()
    const before = auth.fetches
    const kid = await auth.rotate()
    const res = await rpc(app, bearer(await auth.token({ sub: `user-${crypto.randomUUID()}`, aud, kid })))
    expect((await res.json()).error_code).toBe('OAUTH_SUBJECT_UNMAPPED')
    expect(auth.fetches).toBe(before + 1)
  })
})

describe('fail closed and the flag', () => {
  test('an unreachable key set gives 503 OAUTH_JWKS_UNAVAILABLE, retryable', async () => {
    const down = await startAuthServer()
    down.setDown(true)
    const a = await startApp({ env: { OAUTH_ISSUER: down.issuer, OAUTH_JWKS_URL: down.jwksUrl } })
    try {
      const res = await rpc(a, bearer(await down.token({ sub: 'u', aud: `${a.url}/api/mcp` })))
      expect(res.status).toBe(503)
      const body = await res.json()
      expect(body).toMatchObject({ error_code: 'OAUTH_JWKS_UNAVAILABLE', retryable: true })
    } finally {
      await a.stop()
      down.stop()
    }
  })

  test('with OAuth on, an anonymous call of a keyed tool is asked to authenticate (401), not told the tool is unknown', async () => {
    const res = await rpc(app, {}, 'tools/call', { name: 'get_credit_balance', arguments: {} })
    expect(res.status).toBe(401)
    // No credential was sent: the challenge carries no error code (RFC 6750 §3.1), only where to get one.
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="svc-mcp", resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/mcp"`,
    )
    expect((await rpc(app, {}, 'tools/call', { name: 'get_pricing', arguments: {} })).status).toBe(200)
  })

  test('with OAuth off: metadata is 404 OAUTH_DISABLED and a JWT is just an unknown key with the plain challenge', async () => {
    const off = await startApp()
    try {
      const meta = await off.get('/.well-known/oauth-protected-resource')
      expect(meta.status).toBe(404)
      expect((await meta.json()).error_code).toBe('OAUTH_DISABLED')
      const res = await rpc(off, bearer(await auth.token({ sub: 'u', aud: `${off.url}/api/mcp` })))
      expect(res.status).toBe(401)
      expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc-mcp", error="invalid_token"')
    } finally {
      await off.stop()
    }
  })
})
