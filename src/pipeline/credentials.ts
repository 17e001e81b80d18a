/**
 * What a caller presents, read once from the request's headers by whichever surface received it
 * (REST and MCP both arrive over HTTP). Admission decides from this, never from a Request.
 */
export const SESSION_COOKIE = 'plikt_session'

export interface Credentials {
  /** null: no Authorization header; '' : a header that is not a bearer (a bad credential, never "none") */
  bearer: string | null
  sessionToken: string | null
  /** X-CSRF-Token, for session writes that send no form */
  csrfHeader: string | null
  /**
   * a calendar feed's token, the one credential that travels in a URL (calendar programs send no
   * headers of ours): read from the path by the REST codec for an operation whose `auth` is `feed`
   */
  feedToken?: string | null
}

export function bearerOf(authorization: string | null): string | null {
  if (authorization === null) return null
  const m = /^Bearer[ ]+(.+)$/i.exec(authorization.trim())
  return m ? m[1]!.trim() : ''
}

export function cookieOf(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null
  for (const part of cookieHeader.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) {
      // A value that is not valid percent-encoding is no credential of ours: as if it were absent.
      try {
        return decodeURIComponent(part.slice(i + 1).trim())
      } catch {
        return null
      }
    }
  }
  return null
}

export function credentialsOf(headers: Headers): Credentials {
  return {
    bearer: bearerOf(headers.get('authorization')),
    sessionToken: cookieOf(headers.get('cookie'), SESSION_COOKIE),
    csrfHeader: headers.get('x-csrf-token'),
  }
}
