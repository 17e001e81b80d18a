/**
 * The token service over real HTTP (reference/flows.md §1, §2.4): a JWT grant signed with the
 * client's registered RSA key (RS256, `kid` in the header), posted form-encoded to `<url>/token`.
 * Tokens are kept per (scope, system user) until a few seconds before they expire, and
 * concurrent callers asking for the same one share a single grant. The breaker is the
 * UpstreamClient's: while it is open every call fails at once with EXECUTION_CIRCUIT_OPEN.
 */
import type { KeyObject } from 'node:crypto'
import { SignJWT, type JWTPayload } from 'jose'
import { AppError } from '../../errors/app-error.ts'
import type { Clock } from '../../lib/clock.ts'
import { UpstreamGaveUp, type UpstreamClient } from '../http.ts'
import { mapTokenError, mapTokenResponse } from './map.ts'
import type { AccessToken, TokenRequest, TokenService } from './port.ts'

export const TOKEN_SERVICE_NAME = 'Maskinporten'

/** A token with less left than this is fetched anew: it could expire on its way to the API. */
export const REFRESH_MARGIN_MS = 10_000
/** The grant's own lifetime; the service refuses more than 120 s. */
const ASSERTION_LIFETIME_S = 120
/** Past this many cached tokens, expired ones are dropped on the next insert. */
const PRUNE_ABOVE = 1000

export interface TokenServiceConfig {
  /** e.g. https://maskinporten.no, no trailing slash: the token endpoint is `<url>/token`, the audience (issuer) `<url>/` */
  url: string
  clientId: string
  /** the registered key's id, sent as the grant header's `kid` */
  kid: string
  privateKey: KeyObject
}

/** The service refuses a system-user grant this way when the customer has no system user for us (MP-303). */
const NO_SYSTEM_USER = 'invalid_altinn_customer_configuration'

export class LiveTokenService implements TokenService {
  readonly mock = false
  private readonly cache = new Map<string, AccessToken>()
  private readonly inflight = new Map<string, Promise<AccessToken>>()

  constructor(
    private readonly config: TokenServiceConfig,
    private readonly client: UpstreamClient,
    private readonly clock: Clock,
  ) {}

  breakerState() {
    return this.client.state
  }

  /**
   * Callers that share an in-flight grant share the first caller's time budget: the grant is one
   * call, and a second budget could only make it longer.
   */
  token(req: TokenRequest): Promise<AccessToken> {
    const key = JSON.stringify([req.scope, req.systemUser?.org ?? null, req.systemUser?.externalRef ?? null])
    const cached = this.cache.get(key)
    if (cached && cached.expires_at.getTime() - this.clock.now().getTime() > REFRESH_MARGIN_MS)
      return Promise.resolve(cached)
    let pending = this.inflight.get(key)
    if (!pending) {
      pending = this.grant(req)
        .then((token) => {
          this.remember(key, token)
          return token
        })
        .finally(() => this.inflight.delete(key))
      this.inflight.set(key, pending)
    }
    return pending
  }

  private remember(key: string, token: AccessToken): void {
    if (this.cache.size >= PRUNE_ABOVE) {
      const now = this.clock.now().getTime()
      for (const [k, t] of this.cache) if (t.expires_at.getTime() <= now) this.cache.delete(k)
    }
    this.cache.set(key, token)
  }

  private async assertion(req: TokenRequest): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000)
    const claims: JWTPayload = {
      aud: `${this.config.url}/`,
      iss: this.config.clientId,
      scope: req.scope,
      jti: crypto.randomUUID(),
    }
    if (req.systemUser !== undefined) {
      // `externalRef` beside `systemuser_org`, as the digital agency's token guide and its own
      // integration tests write it (contracts/maskinporten/SOURCES.md).
      claims.authorization_details = [
        {
          type: 'urn:altinn:systemuser',
          systemuser_org: { authority: 'iso6523-actorid-upis', ID: `0192:${req.systemUser.org}` },
          externalRef: req.systemUser.externalRef,
        },
      ]
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: this.config.kid })
      .setIssuedAt(iat)
      .setExpirationTime(iat + ASSERTION_LIFETIME_S)
      .sign(this.config.privateKey)
  }

  private async grant(req: TokenRequest): Promise<AccessToken> {
    const context = { upstream_system: TOKEN_SERVICE_NAME }
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: await this.assertion(req),
    })
    let res
    try {
      res = await this.client.request(
        `${this.config.url}/token`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: body.toString(),
        },
        req.budgetMs === undefined ? {} : { budgetMs: req.budgetMs },
      )
    } catch (e) {
      if (e instanceof UpstreamGaveUp && e.reason === 'circuit') {
        throw new AppError('EXECUTION_CIRCUIT_OPEN', {
          context,
          headers: e.options.headers ?? {},
          extra: { upstream_system: TOKEN_SERVICE_NAME },
          cause: e,
        })
      }
      throw e
    }
    if (res.status === 200) {
      const token = mapTokenResponse(res.text, this.clock.now())
      if (token) return token
      throw new AppError('GOVERNMENT_API_ERROR', {
        context,
        extra: { upstream_system: TOKEN_SERVICE_NAME, reason: 'unreadable answer' },
      })
    }
    if (res.status >= 400 && res.status < 500) {
      const refused = mapTokenError(res.text)
      // The description can name our client and key: it goes to the log (cause), not to the caller.
      const cause = new Error(
        `${TOKEN_SERVICE_NAME} ${res.status}: ${refused ? `${refused.error}: ${refused.error_description ?? ''}` : res.text.slice(0, 200)}`,
      )
      if (req.systemUser !== undefined && refused?.error === NO_SYSTEM_USER) {
        throw new AppError('PORTAL_DELEGATION_MISSING', {
          context: { org_number: req.systemUser.org },
          extra: { upstream_system: TOKEN_SERVICE_NAME, upstream_error: refused.error },
          cause,
        })
      }
      throw new AppError('TOKEN_SERVICE_AUTH_FAILED', {
        context,
        extra: {
          upstream_system: TOKEN_SERVICE_NAME,
          upstream_status: res.status,
          upstream_error: refused?.error ?? null,
        },
        cause,
      })
    }
    throw new AppError('GOVERNMENT_API_ERROR', {
      context,
      extra: { upstream_system: TOKEN_SERVICE_NAME, upstream_status: res.status },
    })
  }
}
