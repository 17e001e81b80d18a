/**
 * The token service's answers (reference/flows.md §1): a token response `{access_token, token_type,
 * expires_in, scope}`, or an error `{error, error_description, error_uri?}`.
 */
import { isRecord, tryParseJson } from '../../lib/json.ts'
import type { AccessToken } from './port.ts'

export interface TokenError {
  error: string
  error_description: string | null
}

/** The token, expiring `expires_in` seconds after `now`; null when the body is not a Bearer token response. */
export function mapTokenResponse(text: string, now: Date): AccessToken | null {
  const body = tryParseJson(text)
  if (!isRecord(body)) return null
  const { access_token, token_type, expires_in, scope } = body
  if (typeof access_token !== 'string' || access_token === '') return null
  if (typeof token_type !== 'string' || token_type.toLowerCase() !== 'bearer') return null
  if (typeof expires_in !== 'number' || !Number.isFinite(expires_in) || expires_in <= 0) return null
  if (typeof scope !== 'string') return null
  return { access_token, scope, expires_at: new Date(now.getTime() + expires_in * 1000) }
}

/** The error body of a refused grant; null when the body is not one. */
export function mapTokenError(text: string): TokenError | null {
  const body = tryParseJson(text)
  if (!isRecord(body) || typeof body.error !== 'string') return null
  return {
    error: body.error,
    error_description: typeof body.error_description === 'string' ? body.error_description : null,
  }
}
