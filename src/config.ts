/** Configuration comes only from the environment, parsed once here. Every variable is in the README. */

export type UpstreamMode = 'live' | 'fixtures'

export interface Config {
  port: number
  host: string
  /** unset → embedded PGlite under dataDir */
  databaseUrl: string | null
  dataDir: string
  /** pool size for real PostgreSQL; the embedded database always uses one connection */
  databasePoolSize: number
  upstreamMode: UpstreamMode
  /** data.brreg.no: Enhetsregisteret, Fullmakttjenesten and Regnskapsregisteret */
  brregBaseUrl: string
  /** data.norges-bank.no */
  norgesBankBaseUrl: string
  /** per attempt of an upstream read; at most three attempts within 8 s */
  upstreamTimeoutMs: number
  /** bearer for the operator surfaces; unset → they answer AUTH_INVALID_KEY to everyone */
  adminToken: string | null
  /** public address used in links (docs_url, magic links); no trailing slash */
  baseUrl: string
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  /**
   * how many proxies of ours stand in front (TRUST_PROXY=true → TRUSTED_PROXY_HOPS, default 1;
   * otherwise 0): the client address is the X-Forwarded-For entry the outermost of them appended
   */
  trustedProxyHops: number
  /** the public sandbox mirror's protections (src/http/sandbox-edge.ts) */
  publicSandbox: { maxInflight: number; loopLimit: number; disabled: boolean }
  /** smtp(s)://user:pass@host:port; unset → mail goes to the operator outbox */
  smtpUrl: string | null
  /** ALLOW_OUTBOX_MAIL=true: start without SMTP_URL although BASE_URL is https (a public deployment) */
  allowOutboxMail: boolean
  mailFrom: string
  /** the largest top-up request, in øre */
  topupCeilingOre: number
  /** OAuth 2.1 for MCP hosts: null when disabled */
  oauth: { issuer: string; jwksUrl: string; audience: string } | null
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function int(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`)
  const n = Number(raw)
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`)
  return n
}

function proxyHops(env: Record<string, string | undefined>): number {
  const trust = oneOf(env, 'TRUST_PROXY', ['true', 'false'] as const, 'false') === 'true'
  if (!trust && env.TRUSTED_PROXY_HOPS) throw new ConfigError('TRUSTED_PROXY_HOPS needs TRUST_PROXY=true')
  return trust ? int(env, 'TRUSTED_PROXY_HOPS', 1, 1, 16) : 0
}

function oneOf<T extends string>(env: Record<string, string | undefined>, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`)
  }
  return raw as T
}

/**
 * OAuth for MCP is on when an authorization server is configured (the production configuration)
 * and off otherwise (the embedded quick start); OAUTH_ENABLED=false turns it off explicitly.
 */
function oauthConfig(env: Record<string, string | undefined>, baseUrl: string): Config['oauth'] {
  const enabled = oneOf(env, 'OAUTH_ENABLED', ['true', 'false'] as const, env.OAUTH_ISSUER ? 'true' : 'false') === 'true'
  if (!enabled) return null
  const issuer = env.OAUTH_ISSUER
  if (!issuer || !/^https?:\/\/\S+$/.test(issuer)) throw new ConfigError('OAUTH_ENABLED=true needs OAUTH_ISSUER, the authorization server’s issuer URL')
  const jwksUrl = env.OAUTH_JWKS_URL || `${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`
  if (!/^https?:\/\/\S+$/.test(jwksUrl)) throw new ConfigError(`OAUTH_JWKS_URL must be an http(s) URL, got "${jwksUrl}"`)
  return { issuer, jwksUrl, audience: env.OAUTH_AUDIENCE || `${baseUrl}/api/mcp` }
}

function httpUrl(env: Record<string, string | undefined>, name: string, fallback: string): string {
  const raw = (env[name] || fallback).replace(/\/+$/, '')
  if (!/^https?:\/\/[^/\s]+/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`)
  return raw
}

function smtpUrl(raw: string | undefined): string | null {
  if (!raw) return null
  if (!/^smtps?:\/\/[^/\s]+/.test(raw)) throw new ConfigError('SMTP_URL must look like smtp://user:password@host:587 or smtps://…')
  return raw
}

/**
 * Without SMTP, sign-in links wait in the operator outbox: fine on a laptop, not on a public
 * (https) address, where live links would sit in a table meant for development. That needs
 * ALLOW_OUTBOX_MAIL=true, said on purpose.
 */
function allowOutboxMail(env: Record<string, string | undefined>, smtp: string | null, baseUrl: string): boolean {
  const allowed = oneOf(env, 'ALLOW_OUTBOX_MAIL', ['true', 'false'] as const, 'false') === 'true'
  if (!smtp && !allowed && baseUrl.startsWith('https://')) {
    throw new ConfigError(
      `SMTP_URL is unset but BASE_URL (${baseUrl}) is https: sign-in links would be kept in the operator outbox instead of being mailed. ` +
        'Set SMTP_URL, or set ALLOW_OUTBOX_MAIL=true to allow the outbox on purpose.',
    )
  }
  return allowed
}

/**
 * `boundPort`: the port the server actually listens on, once it does. PORT=0 asks for any free
 * port, so the default BASE_URL (and what follows from it: the OAuth audience) can name the real
 * one only after listening; main parses the environment again with it.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, boundPort?: number): Config {
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST || '127.0.0.1'
  const databaseUrl = env.DATABASE_URL || null
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://')
  }
  const adminToken = env.ADMIN_TOKEN || null
  if (adminToken !== null && adminToken.length < 32) {
    throw new ConfigError('ADMIN_TOKEN must be at least 32 characters (generate one with `openssl rand -hex 32`)')
  }
  const baseUrl = (env.BASE_URL || `http://localhost:${boundPort ?? port}`).replace(/\/+$/, '')
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new ConfigError(`BASE_URL must be an http(s) URL, got "${baseUrl}"`)
  const smtp = smtpUrl(env.SMTP_URL)
  return {
    port,
    host,
    databaseUrl,
    dataDir: env.DATA_DIR || './data',
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 100),
    upstreamMode: oneOf(env, 'UPSTREAM_MODE', ['live', 'fixtures'] as const, 'live'),
    brregBaseUrl: httpUrl(env, 'BRREG_BASE_URL', 'https://data.brreg.no'),
    norgesBankBaseUrl: httpUrl(env, 'NORGES_BANK_BASE_URL', 'https://data.norges-bank.no'),
    upstreamTimeoutMs: int(env, 'UPSTREAM_TIMEOUT_MS', 3000, 50, 30_000),
    adminToken,
    baseUrl,
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
    trustedProxyHops: proxyHops(env),
    smtpUrl: smtp,
    allowOutboxMail: allowOutboxMail(env, smtp, baseUrl),
    mailFrom: env.MAIL_FROM || 'Plikt <no-reply@localhost>',
    topupCeilingOre: int(env, 'TOPUP_CEILING_ORE', 100_000, 1_000, 100_000_000),
    oauth: oauthConfig(env, baseUrl),
    publicSandbox: {
      maxInflight: int(env, 'PUBLIC_SANDBOX_MAX_INFLIGHT', 64, 1, 10_000),
      loopLimit: int(env, 'PUBLIC_SANDBOX_LOOP_LIMIT', 20, 1, 10_000),
      disabled: oneOf(env, 'PUBLIC_SANDBOX_DISABLED', ['0', '1'] as const, '0') === '1',
    },
  }
}
