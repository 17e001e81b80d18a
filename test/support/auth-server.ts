/**
 * A real authorization server for tests: publishes its key set over HTTP and signs access tokens
 * (ES256 by default, RS256 on request), with knobs for rotation and outages.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose'

interface SigningKey {
  kid: string
  alg: 'ES256' | 'RS256'
  privateKey: CryptoKey
  jwk: Record<string, unknown>
}

async function newKey(kid: string, alg: 'ES256' | 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
}

export async function startAuthServer() {
  let keys = [await newKey('es-1', 'ES256'), await newKey('rs-1', 'RS256')]
  let down = false
  let fetches = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      if (new URL(req.url).pathname !== '/.well-known/jwks.json') return new Response('not found', { status: 404 })
      fetches++
      if (down) return new Response('unavailable', { status: 503 })
      return Response.json({ keys: keys.map((k) => k.jwk) })
    },
  })
  const issuer = `http://127.0.0.1:${server.port}`
  return {
    issuer,
    jwksUrl: `${issuer}/.well-known/jwks.json`,
    get fetches() {
      return fetches
    },
    setDown(value: boolean) {
      down = value
    },
    /** Replaces the key set; tokens signed with the new key carry a `kid` the resource server has not seen. */
    async rotate(): Promise<string> {
      const k = await newKey(`es-${crypto.randomUUID().slice(0, 8)}`, 'ES256')
      keys = [k, ...keys]
      return k.kid
    },
    /**
     * An access token. `email`/`email_verified` are the holder's e-mail claims (sent only when
     * given, as the issuer would with the `email` scope); `client_id`/`azp` name the client.
     */
    async token(claims: {
      sub: string
      aud: string
      expiresIn?: number
      notBefore?: number
      iss?: string
      kid?: string
      alg?: 'ES256' | 'RS256'
      email?: string
      email_verified?: unknown
      client_id?: string
      azp?: string
    }): Promise<string> {
      const key = keys.find((k) => (claims.kid ? k.kid === claims.kid : k.alg === (claims.alg ?? 'ES256')))!
      const now = Math.floor(Date.now() / 1000)
      const holder: Record<string, unknown> = {}
      for (const name of ['email', 'email_verified', 'client_id', 'azp'] as const)
        if (claims[name] !== undefined) holder[name] = claims[name]
      let jwt = new SignJWT({
        scope: claims.email === undefined ? 'openid profile' : 'openid profile email',
        ...holder,
      })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
        .setIssuer(claims.iss ?? issuer)
        .setSubject(claims.sub)
        .setAudience(claims.aud)
        .setIssuedAt(now)
        .setExpirationTime(now + (claims.expiresIn ?? 300))
      if (claims.notBefore !== undefined) jwt = jwt.setNotBefore(now + claims.notBefore)
      return jwt.sign(key.privateKey)
    },
    /** A token "signed" with alg none, or with a shared secret (HS256): both must be refused. */
    unsigned(sub: string, aud: string): string {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
      const now = Math.floor(Date.now() / 1000)
      return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ iss: issuer, sub, aud, exp: now + 300 })}.`
    },
    async hs256(sub: string, aud: string): Promise<string> {
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: 'es-1' })
        .setIssuer(issuer)
        .setSubject(sub)
        .setAudience(aud)
        .setExpirationTime(now + 300)
        .sign(new TextEncoder().encode('a shared secret of 32 bytes!!!!!'))
    },
    stop: () => server.stop(true),
  }
}
