/**
 * The token-service client against the Maskinporten fixture over real HTTP: the JWT grant it
 * signs, the cache (one grant for many calls, per scope and customer, refreshed before expiry on a
 * pinned clock), and how each failure surfaces, the open breaker included.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import type { AppError } from '../../../src/errors/app-error.ts'
import { CATALOGUE } from '../../../src/errors/catalogue/index.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { UpstreamClient } from '../../../src/upstream/http.ts'
import { LiveTokenService, REFRESH_MARGIN_MS } from '../../../src/upstream/token-service/live.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { addFault, approvedCompany, clearFaults, clearRequests, FAST, requestLog, tokenService } from '../../helpers.ts'

const clock = fixedClock(PINNED_NOW)
const LIFETIME_S = 120
let fx: FixtureServers
beforeAll(async () => {
  fx = await startFixtureServers({ now: () => clock.now().getTime(), tokenLifetimeS: LIFETIME_S })
})
afterAll(() => fx.stop())
afterEach(async () => {
  clock.set(PINNED_NOW)
  await clearFaults(fx.tokenServiceUrl)
  await clearRequests(fx.tokenServiceUrl)
})

const SCOPE = 'altinn:authentication/systemuser.request.read'
const grants = async () => (await requestLog(fx.tokenServiceUrl)).filter((r) => r.path === '/token').length
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as AppError,
  )

/** A client whose grants are captured as they are sent. */
function capturing() {
  const sent: URLSearchParams[] = []
  const g = fx.governmentClient
  const fetchImpl = ((url: string, init: RequestInit) => {
    sent.push(new URLSearchParams(String(init.body)))
    return fetch(url, init)
  }) as typeof fetch
  const service = new LiveTokenService(
    { url: fx.tokenServiceUrl, clientId: g.clientId, kid: g.kid, privateKey: createPrivateKey(g.privateKeyPem) },
    new UpstreamClient('Maskinporten', FAST, clock, fetchImpl),
    clock,
  )
  return { sent, service }
}

describe('the grant', () => {
  test('a grant yields the token for the scope, expiring expires_in seconds from now', async () => {
    const t = await tokenService(fx, clock).token({ scope: SCOPE })
    expect(t.scope).toBe(SCOPE)
    expect(t.access_token.split('.')).toHaveLength(3)
    expect(t.expires_at.toISOString()).toBe(new Date(clock.now().getTime() + LIFETIME_S * 1000).toISOString())
  })

  test('the grant is a form post of an RS256 JWT with the kid, the issuer as audience and a lifetime of at most 120 s', async () => {
    const { sent, service } = capturing()
    await service.token({ scope: SCOPE })
    expect(sent).toHaveLength(1)
    expect(sent[0]!.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer')
    const assertion = sent[0]!.get('assertion')!
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: 'RS256', kid: fx.governmentClient.kid })
    const claims = decodeJwt(assertion)
    expect(claims).toMatchObject({
      aud: `${fx.tokenServiceUrl}/`,
      iss: fx.governmentClient.clientId,
      scope: SCOPE,
      iat: Math.floor(clock.now().getTime() / 1000),
    })
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(120)
    expect(typeof claims.jti).toBe('string')
    expect(claims.authorization_details).toBeUndefined()
  })

  test('every grant has a jti of its own', async () => {
    const { sent, service } = capturing()
    await service.token({ scope: SCOPE })
    await service.token({ scope: 'altinn:instances.read' })
    const jtis = sent.map((s) => decodeJwt(s.get('assertion')!).jti)
    expect(new Set(jtis).size).toBe(2)
  })

  test('a system-user grant names the customer and the externalRef the system user was requested with, and the token carries its system user', async () => {
    const tokens = tokenService(fx, clock)
    const systemUser = await approvedCompany(fx, tokens, clock, '923609016')
    const { sent, service } = capturing()
    const t = await service.token({ scope: 'altinn:instances.read', systemUser })
    expect(decodeJwt(sent[0]!.get('assertion')!).authorization_details).toEqual([
      {
        type: 'urn:altinn:systemuser',
        systemuser_org: { authority: 'iso6523-actorid-upis', ID: '0192:923609016' },
        externalRef: 'test-923609016',
      },
    ])
    const details = decodeJwt(t.access_token).authorization_details as {
      systemuser_org: { ID: string }
      systemuser_id: string[]
    }[]
    expect(details[0]!.systemuser_org.ID).toBe('0192:923609016')
    expect(details[0]!.systemuser_id).toHaveLength(1)
  })

  test('a system-user grant for a company without a system user is PORTAL_DELEGATION_MISSING naming the company', async () => {
    const e = await failure(
      tokenService(fx, clock).token({
        scope: 'altinn:instances.read',
        systemUser: { org: '984661185', externalRef: 'test-984661185' },
      }),
    )
    expect(e?.code).toBe('PORTAL_DELEGATION_MISSING')
    expect(e?.options.context).toEqual({ org_number: '984661185' })
  })

  test('a system user requested with an externalRef is not found under another one, nor under the org number', async () => {
    const tokens = tokenService(fx, clock)
    const systemUser = await approvedCompany(fx, tokens, clock, '918002437')
    expect(
      (
        await failure(
          tokens.token({
            scope: 'altinn:instances.read',
            systemUser: { org: systemUser.org, externalRef: 'another-ref' },
          }),
        )
      )?.code,
    ).toBe('PORTAL_DELEGATION_MISSING')
    expect(
      (
        await failure(
          tokens.token({
            scope: 'altinn:instances.read',
            systemUser: { org: systemUser.org, externalRef: systemUser.org },
          }),
        )
      )?.code,
    ).toBe('PORTAL_DELEGATION_MISSING')
    expect((await tokens.token({ scope: 'altinn:instances.read', systemUser })).access_token).toBeString()
  })
})

describe('the cache', () => {
  test('two calls for the same scope make one grant', async () => {
    const tokens = tokenService(fx, clock)
    const a = await tokens.token({ scope: SCOPE })
    const b = await tokens.token({ scope: SCOPE })
    expect(b.access_token).toBe(a.access_token)
    expect(await grants()).toBe(1)
  })

  test('concurrent callers for the same token share one grant', async () => {
    const tokens = tokenService(fx, clock)
    const all = await Promise.all(Array.from({ length: 5 }, () => tokens.token({ scope: SCOPE })))
    expect(new Set(all.map((t) => t.access_token)).size).toBe(1)
    expect(await grants()).toBe(1)
  })

  test('another scope or another customer is another grant', async () => {
    const tokens = tokenService(fx, clock)
    const systemUser = await approvedCompany(fx, tokens, clock, '993718807')
    await clearRequests(fx.tokenServiceUrl)
    await tokens.token({ scope: SCOPE })
    await tokens.token({ scope: 'altinn:instances.read' })
    await tokens.token({ scope: 'altinn:instances.read', systemUser })
    expect(await grants()).toBe(3)
  })

  test('a token is reused while more than the margin is left, and fetched anew within it', async () => {
    const tokens = tokenService(fx, clock)
    const first = await tokens.token({ scope: SCOPE })
    clock.advance(LIFETIME_S * 1000 - REFRESH_MARGIN_MS - 1000)
    expect((await tokens.token({ scope: SCOPE })).access_token).toBe(first.access_token)
    expect(await grants()).toBe(1)
    clock.advance(2000)
    const second = await tokens.token({ scope: SCOPE })
    expect(second.access_token).not.toBe(first.access_token)
    expect(await grants()).toBe(2)
  })
})

describe('failures', () => {
  test('a refused grant (a key the service does not know for the kid) is TOKEN_SERVICE_AUTH_FAILED, not retried, not retryable', async () => {
    const g = fx.governmentClient
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const tokens = new LiveTokenService(
      { url: fx.tokenServiceUrl, clientId: g.clientId, kid: g.kid, privateKey },
      new UpstreamClient('Maskinporten', FAST, clock),
      clock,
    )
    const e = await failure(tokens.token({ scope: SCOPE }))
    expect(e?.code).toBe('TOKEN_SERVICE_AUTH_FAILED')
    expect(e?.options.extra).toMatchObject({ upstream_status: 400, upstream_error: 'invalid_client' })
    expect(CATALOGUE.TOKEN_SERVICE_AUTH_FAILED.retryable).toBe(false)
    expect(await grants()).toBe(1)
  })

  test('a scope the client may not have is TOKEN_SERVICE_AUTH_FAILED (invalid_scope)', async () => {
    const e = await failure(tokenService(fx, clock).token({ scope: 'skatteetaten:formueinntekt/skattemelding' }))
    expect(e?.code).toBe('TOKEN_SERVICE_AUTH_FAILED')
    expect(e?.options.extra).toMatchObject({ upstream_error: 'invalid_scope' })
  })

  test('a service answering 503 is UPSTREAM_UNAVAILABLE after three attempts, retryable', async () => {
    await addFault(fx.tokenServiceUrl, { match: '/token', mode: 'status', status: 503 })
    const e = await failure(tokenService(fx, clock).token({ scope: SCOPE }))
    expect(e?.code).toBe('UPSTREAM_UNAVAILABLE')
    expect(CATALOGUE.UPSTREAM_UNAVAILABLE.retryable).toBe(true)
    expect(await grants()).toBe(3)
  })

  test('a service that does not answer is UPSTREAM_TIMEOUT', async () => {
    await addFault(fx.tokenServiceUrl, { match: '/token', mode: 'timeout' })
    const e = await failure(tokenService(fx, clock, { ...FAST, timeoutMs: 100, attempts: 2 }).token({ scope: SCOPE }))
    expect(e?.code).toBe('UPSTREAM_TIMEOUT')
  })

  test('a 200 that is not a token response is GOVERNMENT_API_ERROR (unreadable answer)', async () => {
    await addFault(fx.tokenServiceUrl, { match: '/token', mode: 'malformed' })
    const e = await failure(tokenService(fx, clock).token({ scope: SCOPE }))
    expect(e?.code).toBe('GOVERNMENT_API_ERROR')
    expect(e?.options.extra).toMatchObject({ reason: 'unreadable answer' })
  })

  test('after repeated failure the breaker opens: EXECUTION_CIRCUIT_OPEN at once, with Retry-After, and no call is made', async () => {
    const tokens = tokenService(fx, clock, { ...FAST, attempts: 1, breakerThreshold: 2, breakerOpenMs: 30_000 })
    await addFault(fx.tokenServiceUrl, { match: '/token', mode: 'status', status: 503 })
    expect(tokens.breakerState()).toBe('closed')
    await failure(tokens.token({ scope: SCOPE }))
    await failure(tokens.token({ scope: SCOPE }))
    expect(tokens.breakerState()).toBe('open')
    await clearRequests(fx.tokenServiceUrl)
    const e = await failure(tokens.token({ scope: SCOPE }))
    expect(e?.code).toBe('EXECUTION_CIRCUIT_OPEN')
    expect(e?.options.headers?.['retry-after']).toBe('30')
    expect(await grants()).toBe(0)
  })

  test('after the open period one call probes; its success closes the breaker', async () => {
    const tokens = tokenService(fx, clock, { ...FAST, attempts: 1, breakerThreshold: 1, breakerOpenMs: 30_000 })
    await addFault(fx.tokenServiceUrl, { match: '/token', mode: 'status', status: 503, times: 1 })
    await failure(tokens.token({ scope: SCOPE }))
    expect(tokens.breakerState()).toBe('open')
    clock.advance(30_000)
    expect(tokens.breakerState()).toBe('half_open')
    await tokens.token({ scope: SCOPE })
    expect(tokens.breakerState()).toBe('closed')
  })
})
