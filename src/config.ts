/** Configuration comes only from the environment, parsed once here. Every variable is in the README. */

export type UpstreamMode = 'live' | 'fixtures'

/**
 * The government systems Plikt acts in on a company's behalf (token service, digital agency,
 * filing portal, tax authority, labour register): `mock` (the default, no credentials) answers
 * deterministically in process; `live` calls them with the service's own token-service client.
 */
export interface GovernmentConfig {
  mode: 'mock' | 'live'
  /** the token service, e.g. https://maskinporten.no (test: https://test.maskinporten.no) */
  tokenServiceUrl: string
  tokenServiceClientId: string | null
  /** the registered key's id (the grant's `kid` header) */
  tokenServiceKid: string | null
  /** the client's RSA private key, PEM (TOKEN_SERVICE_KEY_PEM), or the file holding it (TOKEN_SERVICE_KEY_FILE) */
  tokenServiceKeyPem: string | null
  tokenServiceKeyFile: string | null
  /** the portal's platform (Altinn): the token exchange and the instance queries */
  filingPortalUrl: string
  /** the digital agency's system-user API (Altinn Authentication); by default the portal's platform, where it lives */
  digitalAgencyUrl: string
  /** our system's id in the digital agency's system register, `<vendor orgno>_<name>` */
  digitalAgencySystemId: string | null
  /** the tax authority's VAT app in the portal */
  filingPortalVatAppUrl: string
  /** the tax authority's REST gateway (VAT validation) */
  taxAuthorityUrl: string
  /** NAV Aa-registeret (GraphQL) */
  labourRegisterUrl: string
}

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
  businessRegisterUrl: string
  /** data.norges-bank.no */
  centralBankUrl: string
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
  /** bearer a Prometheus scrape sends for GET /metrics; null → the route refuses everyone */
  metricsToken: string | null
  /** also serve /metrics (only) on this port, e.g. one the proxy does not expose; null → the main port only */
  metricsPort: number | null
  /**
   * SIGTERM/SIGINT: how long the instance keeps serving while not ready, so a proxy's health check
   * sees it go first; null (DRAIN_GRACE_MS unset): four intervals of the readiness checks seen,
   * none when nobody checks (Lifecycle.automaticGrace)
   */
  drainGraceMs: number | null
  /** SIGTERM/SIGINT: how long requests in flight may take to finish before their connections are cut */
  drainTimeoutMs: number
  /** the largest top-up request, in øre */
  topupCeilingOre: number
  /**
   * SERVER_SECRET: the root of the keys the service derives (fnr HMAC, receipt signing); null →
   * main.ts keeps a generated one in DATA_DIR (src/lib/server-secret.ts)
   */
  serverSecret: string | null
  /** OAuth 2.1 for MCP hosts: null when disabled */
  oauth: { issuer: string; jwksUrl: string; audience: string } | null
  /** WEBHOOK_ALLOW_LOOPBACK=true: webhooks may go to http(s)://127.0.0.1:<port> and http(s)://localhost:<port> (development and tests only) */
  webhookAllowLoopback: boolean
  /** TSA_URL: an RFC 3161 time-stamping authority for the daily anchor roots; null → no timestamps */
  tsaUrl: string | null
  /** an old variable name that was used, as a sentence for the start-up warning (RENAMED_VARIABLES) */
  deprecatedVariables: string[]
  government: GovernmentConfig
  /** SECURITY_CONTACT: the `Contact` of /.well-known/security.txt (a `mailto:` or `https://` URI) */
  securityContact: string
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function int(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
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

function oneOf<T extends string>(
  env: Record<string, string | undefined>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
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
  const enabled =
    oneOf(env, 'OAUTH_ENABLED', ['true', 'false'] as const, env.OAUTH_ISSUER ? 'true' : 'false') === 'true'
  if (!enabled) return null
  const issuer = env.OAUTH_ISSUER
  if (!issuer || !/^https?:\/\/\S+$/.test(issuer))
    throw new ConfigError('OAUTH_ENABLED=true needs OAUTH_ISSUER, the authorization server’s issuer URL')
  const jwksUrl = env.OAUTH_JWKS_URL || `${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`
  if (!/^https?:\/\/\S+$/.test(jwksUrl))
    throw new ConfigError(`OAUTH_JWKS_URL must be an http(s) URL, got "${jwksUrl}"`)
  return { issuer, jwksUrl, audience: env.OAUTH_AUDIENCE || `${baseUrl}/api/mcp` }
}

function httpUrl(env: Record<string, string | undefined>, name: string, fallback: string): string {
  const raw = (env[name] || fallback).replace(/\/+$/, '')
  if (!/^https?:\/\/[^/\s]+/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`)
  return raw
}

/**
 * GOVERNMENT_MODE=live needs the service's own credentials, except with UPSTREAM_MODE=fixtures,
 * where main.ts takes them from the fixture token service. A PEM pasted into one line of an env
 * file keeps its line breaks as `\n`; they are restored.
 */
function governmentConfig(env: Record<string, string | undefined>, upstreamMode: UpstreamMode): GovernmentConfig {
  const mode = oneOf(env, 'GOVERNMENT_MODE', ['mock', 'live'] as const, 'mock')
  const keyPem = env.TOKEN_SERVICE_KEY_PEM ? env.TOKEN_SERVICE_KEY_PEM.replaceAll('\\n', '\n') : null
  const keyFile = env.TOKEN_SERVICE_KEY_FILE || null
  if (keyPem !== null && keyFile !== null)
    throw new ConfigError('set TOKEN_SERVICE_KEY_PEM or TOKEN_SERVICE_KEY_FILE, not both')
  const systemId = env.DIGITAL_AGENCY_SYSTEM_ID || null
  if (systemId !== null && !/^\d{9}_[\w.-]{1,100}$/.test(systemId))
    throw new ConfigError(`DIGITAL_AGENCY_SYSTEM_ID must look like <vendor orgno>_<name>, got "${systemId}"`)
  const config: GovernmentConfig = {
    mode,
    tokenServiceUrl: httpUrl(env, 'TOKEN_SERVICE_URL', 'https://maskinporten.no'),
    tokenServiceClientId: env.TOKEN_SERVICE_CLIENT_ID || null,
    tokenServiceKid: env.TOKEN_SERVICE_KID || null,
    tokenServiceKeyPem: keyPem,
    tokenServiceKeyFile: keyFile,
    filingPortalUrl: httpUrl(env, 'FILING_PORTAL_URL', 'https://platform.altinn.no'),
    digitalAgencyUrl: httpUrl(env, 'DIGITAL_AGENCY_URL', env.FILING_PORTAL_URL || 'https://platform.altinn.no'),
    digitalAgencySystemId: systemId,
    filingPortalVatAppUrl: httpUrl(
      env,
      'FILING_PORTAL_VAT_APP_URL',
      'https://skd.apps.altinn.no/skd/mva-melding-innsending-v1',
    ),
    taxAuthorityUrl: httpUrl(env, 'TAX_AUTHORITY_URL', 'https://idporten.api.skatteetaten.no'),
    labourRegisterUrl: httpUrl(env, 'LABOUR_REGISTER_URL', 'https://aareg-dist-api.nav.no'),
  }
  if (mode === 'live' && upstreamMode === 'live') {
    const missing = missingGovernmentCredentials(config)
    if (missing.length > 0) throw new ConfigError(`GOVERNMENT_MODE=live needs ${missing.join(', ')}`)
  }
  return config
}

/** The variables a live government configuration lacks, by name. */
export function missingGovernmentCredentials(g: GovernmentConfig): string[] {
  const missing: string[] = []
  if (!g.tokenServiceClientId) missing.push('TOKEN_SERVICE_CLIENT_ID')
  if (!g.tokenServiceKid) missing.push('TOKEN_SERVICE_KID')
  if (!g.tokenServiceKeyPem && !g.tokenServiceKeyFile) missing.push('TOKEN_SERVICE_KEY_PEM or TOKEN_SERVICE_KEY_FILE')
  if (!g.digitalAgencySystemId) missing.push('DIGITAL_AGENCY_SYSTEM_ID')
  return missing
}

function smtpUrl(raw: string | undefined): string | null {
  if (!raw) return null
  if (!/^smtps?:\/\/[^/\s]+/.test(raw))
    throw new ConfigError('SMTP_URL must look like smtp://user:password@host:587 or smtps://…')
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

/** RFC 9116 wants a URI a reporter can use; without one configured, security@ the public host. */
function securityContact(env: Record<string, string | undefined>, baseUrl: string): string {
  const raw = env.SECURITY_CONTACT
  if (raw === undefined || raw === '') return `mailto:security@${new URL(baseUrl).hostname}`
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(raw))
    throw new ConfigError(`SECURITY_CONTACT must be a mailto: address or an https:// URL, got "${raw}"`)
  return raw
}

/**
 * Variables renamed to the outside systems' role names (ARCHITECTURE.md "The outside systems, by
 * name"), old name first. The old name keeps working and is reported at start; the portal's old
 * platform variable stood for the digital agency's API too, which lives on the same platform.
 */
export const RENAMED_VARIABLES: readonly (readonly [string, string])[] = [
  ['BRREG_BASE_URL', 'BUSINESS_REGISTER_URL'],
  ['NORGES_BANK_BASE_URL', 'CENTRAL_BANK_URL'],
  ['MASKINPORTEN_URL', 'TOKEN_SERVICE_URL'],
  ['MASKINPORTEN_CLIENT_ID', 'TOKEN_SERVICE_CLIENT_ID'],
  ['MASKINPORTEN_KID', 'TOKEN_SERVICE_KID'],
  ['MASKINPORTEN_KEY_PEM', 'TOKEN_SERVICE_KEY_PEM'],
  ['MASKINPORTEN_KEY_FILE', 'TOKEN_SERVICE_KEY_FILE'],
  ['ALTINN_PLATFORM_URL', 'FILING_PORTAL_URL'],
  ['ALTINN_PLATFORM_URL', 'DIGITAL_AGENCY_URL'],
  ['ALTINN_SYSTEM_ID', 'DIGITAL_AGENCY_SYSTEM_ID'],
  ['ALTINN_MVA_APP_URL', 'FILING_PORTAL_VAT_APP_URL'],
  ['SKATTEETATEN_URL', 'TAX_AUTHORITY_URL'],
  ['AAREG_URL', 'LABOUR_REGISTER_URL'],
]

/** The environment with each old name's value under its current name, and the old names that were used. */
function withCurrentNames(given: Record<string, string | undefined>): {
  env: Record<string, string | undefined>
  deprecated: string[]
} {
  const env = { ...given }
  const used = new Map<string, string[]>()
  for (const [old, current] of RENAMED_VARIABLES) {
    const value = given[old]
    if (value === undefined || value === '') continue
    const set = given[current]
    if (set !== undefined && set !== '' && set !== value)
      throw new ConfigError(`${old} is the old name of ${current}, and the two are set differently: keep ${current}`)
    env[current] = value
    used.set(old, [...(used.get(old) ?? []), current])
  }
  return { env, deprecated: [...used].map(([old, current]) => `${old} is deprecated: use ${current.join(' and ')}`) }
}

/**
 * `boundPort`: the port the server actually listens on, once it does. PORT=0 asks for any free
 * port, so the default BASE_URL (and what follows from it: the OAuth audience) can name the real
 * one only after listening; main parses the environment again with it.
 */
export function loadConfig(given: Record<string, string | undefined> = process.env, boundPort?: number): Config {
  const { env, deprecated } = withCurrentNames(given)
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
  const upstreamMode = oneOf(env, 'UPSTREAM_MODE', ['live', 'fixtures'] as const, 'live')
  const metricsToken = env.METRICS_TOKEN || null
  if (metricsToken !== null && metricsToken.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters (generate one with `openssl rand -hex 16`)')
  const serverSecret = env.SERVER_SECRET || null
  if (serverSecret !== null && serverSecret.length < 32) {
    throw new ConfigError('SERVER_SECRET must be at least 32 characters (generate one with `openssl rand -hex 32`)')
  }
  return {
    port,
    host,
    databaseUrl,
    dataDir: env.DATA_DIR || './data',
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 100),
    upstreamMode,
    businessRegisterUrl: httpUrl(env, 'BUSINESS_REGISTER_URL', 'https://data.brreg.no'),
    centralBankUrl: httpUrl(env, 'CENTRAL_BANK_URL', 'https://data.norges-bank.no'),
    upstreamTimeoutMs: int(env, 'UPSTREAM_TIMEOUT_MS', 3000, 50, 30_000),
    adminToken,
    baseUrl,
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
    trustedProxyHops: proxyHops(env),
    smtpUrl: smtp,
    allowOutboxMail: allowOutboxMail(env, smtp, baseUrl),
    mailFrom: env.MAIL_FROM || 'Plikt <no-reply@localhost>',
    drainTimeoutMs: int(env, 'DRAIN_TIMEOUT_MS', 10_000, 0, 600_000),
    drainGraceMs: env.DRAIN_GRACE_MS ? int(env, 'DRAIN_GRACE_MS', 0, 0, 600_000) : null,
    metricsToken,
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 1, 65535) : null,
    topupCeilingOre: int(env, 'TOPUP_CEILING_ORE', 100_000, 1_000, 100_000_000),
    serverSecret,
    oauth: oauthConfig(env, baseUrl),
    webhookAllowLoopback: oneOf(env, 'WEBHOOK_ALLOW_LOOPBACK', ['true', 'false'] as const, 'false') === 'true',
    tsaUrl: env.TSA_URL ? httpUrl(env, 'TSA_URL', '') : null,
    government: governmentConfig(env, upstreamMode),
    securityContact: securityContact(env, baseUrl),
    deprecatedVariables: deprecated,
    publicSandbox: {
      maxInflight: int(env, 'PUBLIC_SANDBOX_MAX_INFLIGHT', 64, 1, 10_000),
      loopLimit: int(env, 'PUBLIC_SANDBOX_LOOP_LIMIT', 20, 1, 10_000),
      disabled: oneOf(env, 'PUBLIC_SANDBOX_DISABLED', ['0', '1'] as const, '0') === '1',
    },
  }
}
