/**
 * The token service when no credentials are configured: deterministic tokens made in process, no
 * network. The same (scope, system user) always gets the same token, valid for the token service's
 * usual ten minutes from the moment it is asked for; the breaker never opens.
 */
import { sha256Hex } from '../../lib/hash.ts'
import type { Clock } from '../../lib/clock.ts'
import type { AccessToken, TokenRequest, TokenService } from './port.ts'

/** What the real service answers as `expires_in`, in seconds (reference/flows.md §1). */
const LIFETIME_S = 599

export function mockTokenService(clock: Clock): TokenService {
  return {
    mock: true,
    breakerState: () => 'closed',
    async token(req: TokenRequest): Promise<AccessToken> {
      const digest = sha256Hex(
        JSON.stringify([
          'plikt-mock-token',
          req.scope,
          req.systemUser?.org ?? null,
          req.systemUser?.externalRef ?? null,
        ]),
      )
      return {
        access_token: `mock.${digest}`,
        scope: req.scope,
        expires_at: new Date(clock.now().getTime() + LIFETIME_S * 1000),
      }
    },
  }
}
