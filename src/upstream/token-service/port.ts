/**
 * The token service (Maskinporten): a JWT-grant client that trades a signed assertion for an
 * access token (reference/flows.md §1, §2.4). Everything Plikt does at the government on an
 * organisation's behalf starts here, so its breaker state is what the agent-readiness probe reports.
 */
import type { BreakerState } from '../http.ts'

export interface AccessToken {
  access_token: string
  /** the scopes granted, space-separated as the service answers */
  scope: string
  /** when the token stops being valid (UTC); the client refreshes before it */
  expires_at: Date
}

/** Which system user a token acts as: the customer, and the externalRef its request carried. */
export interface SystemUserRef {
  org: string
  externalRef: string
}

export interface TokenRequest {
  /** space-separated scopes, e.g. `altinn:instances.read altinn:instances.write` */
  scope: string
  /**
   * A system-user token for this customer (`authorization_details` of type urn:altinn:systemuser),
   * naming the system user by the `externalRef` it was requested with: the digital agency's
   * contract says a system user requested with an externalRef is found only by it (without one the
   * token service looks for the customer's org number as the reference). Absent: a plain client token.
   */
  systemUser?: SystemUserRef
  /** per-call time budget left, ms (the execute path gives what remains of its 8 s) */
  budgetMs?: number
}

export interface TokenService {
  readonly mock: boolean
  /**
   * A token for the request, from the cache while it has more than a few seconds left.
   * Fails with EXECUTION_CIRCUIT_OPEN while the breaker is open (no call is made),
   * TOKEN_SERVICE_AUTH_FAILED when the service refuses the grant (4xx: configuration, not
   * transient), UPSTREAM_UNAVAILABLE / UPSTREAM_TIMEOUT when it is down.
   */
  token(req: TokenRequest): Promise<AccessToken>
  /** `closed`, `open` or `half_open` (the first call after the open period is a probe) */
  breakerState(): BreakerState
}
