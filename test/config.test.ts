import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../src/config.ts'

test('defaults start the embedded quick start on port 3000', () => {
  const c = loadConfig({})
  expect(c).toMatchObject({
    port: 3000,
    host: '127.0.0.1',
    databaseUrl: null,
    dataDir: './data',
    upstreamMode: 'live',
    adminToken: null,
  })
  expect(c.baseUrl).toBe('http://localhost:3000')
})

test('with PORT=0 the default BASE_URL and OAuth audience name the port bound; an explicit BASE_URL stays', () => {
  const oauth = { OAUTH_ISSUER: 'https://auth.example.no' }
  expect(loadConfig({ PORT: '0', ...oauth }, 41234)).toMatchObject({
    baseUrl: 'http://localhost:41234',
    oauth: { audience: 'http://localhost:41234/api/mcp' },
  })
  expect(loadConfig({ PORT: '0', BASE_URL: 'http://plikt.test:8080' }, 41234).baseUrl).toBe('http://plikt.test:8080')
})

test('BASE_URL loses its trailing slash', () => {
  expect(loadConfig({ BASE_URL: 'https://plikt.example.no/', SMTP_URL: 'smtp://mail.example.no:587' }).baseUrl).toBe(
    'https://plikt.example.no',
  )
})

describe('mail without SMTP (the operator outbox)', () => {
  test('is the default on a plain http address', () => {
    expect(loadConfig({ BASE_URL: 'http://localhost:3000' })).toMatchObject({ smtpUrl: null, allowOutboxMail: false })
  })

  test('refuses to start on an https BASE_URL, naming the variables', () => {
    const env = { BASE_URL: 'https://plikt.example.no' }
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(/SMTP_URL.*BASE_URL.*ALLOW_OUTBOX_MAIL=true/s)
  })

  test('starts on an https BASE_URL with SMTP_URL, or with ALLOW_OUTBOX_MAIL=true', () => {
    expect(
      loadConfig({ BASE_URL: 'https://plikt.example.no', SMTP_URL: 'smtps://u:p@mail.example.no:465' }).smtpUrl,
    ).toBe('smtps://u:p@mail.example.no:465')
    expect(loadConfig({ BASE_URL: 'https://plikt.example.no', ALLOW_OUTBOX_MAIL: 'true' })).toMatchObject({
      smtpUrl: null,
      allowOutboxMail: true,
    })
    expect(
      loadConfig({
        BASE_URL: 'https://plikt.example.no',
        ALLOW_OUTBOX_MAIL: 'false',
        SMTP_URL: 'smtp://mail.example.no',
      }).allowOutboxMail,
    ).toBe(false)
  })
})

test.each([
  [{ PORT: 'abc' }, /PORT/],
  [{ PORT: '70000' }, /PORT/],
  [{ UPSTREAM_MODE: 'mock' }, /UPSTREAM_MODE/],
  [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
  [{ ADMIN_TOKEN: 'short' }, /ADMIN_TOKEN/],
  [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  [{ TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '0' }, /TRUSTED_PROXY_HOPS/],
  [{ TRUSTED_PROXY_HOPS: '2' }, /TRUSTED_PROXY_HOPS/],
  [{ ALLOW_OUTBOX_MAIL: 'yes' }, /ALLOW_OUTBOX_MAIL/],
])('rejects %p with a message naming the variable', (env, message) => {
  expect(() => loadConfig(env)).toThrow(ConfigError)
  expect(() => loadConfig(env)).toThrow(message)
})

test('TRUST_PROXY trusts one proxy hop unless TRUSTED_PROXY_HOPS says more; without it, none', () => {
  expect(loadConfig({}).trustedProxyHops).toBe(0)
  expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxyHops).toBe(1)
  expect(loadConfig({ TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2)
})

describe('government systems', () => {
  const creds = {
    MASKINPORTEN_CLIENT_ID: 'c0ffee00-0000-4000-8000-000000000001',
    MASKINPORTEN_KID: 'plikt-2026',
    MASKINPORTEN_KEY_FILE: '/etc/plikt/maskinporten.pem',
    ALTINN_SYSTEM_ID: '314159268_plikt',
  }

  test('mock by default, with the production addresses', () => {
    expect(loadConfig({}).government).toMatchObject({
      mode: 'mock',
      maskinportenUrl: 'https://maskinporten.no',
      altinnPlatformUrl: 'https://platform.altinn.no',
      mvaAppUrl: 'https://skd.apps.altinn.no/skd/mva-melding-innsending-v1',
      skatteetatenUrl: 'https://idporten.api.skatteetaten.no',
      aaregUrl: 'https://aareg-dist-api.nav.no',
      maskinportenClientId: null,
    })
  })

  test('GOVERNMENT_MODE=live without credentials refuses to start, naming every missing variable', () => {
    expect(() => loadConfig({ GOVERNMENT_MODE: 'live' })).toThrow(ConfigError)
    expect(() => loadConfig({ GOVERNMENT_MODE: 'live', MASKINPORTEN_CLIENT_ID: 'x' })).toThrow(
      /MASKINPORTEN_KID, MASKINPORTEN_KEY_PEM or MASKINPORTEN_KEY_FILE, ALTINN_SYSTEM_ID/,
    )
  })

  test('GOVERNMENT_MODE=live with credentials starts', () => {
    expect(loadConfig({ GOVERNMENT_MODE: 'live', ...creds }).government).toMatchObject({
      mode: 'live',
      maskinportenKeyFile: '/etc/plikt/maskinporten.pem',
      altinnSystemId: '314159268_plikt',
    })
  })

  test('with UPSTREAM_MODE=fixtures live mode needs no credentials (the fixtures supply them)', () => {
    expect(loadConfig({ GOVERNMENT_MODE: 'live', UPSTREAM_MODE: 'fixtures' }).government.mode).toBe('live')
  })

  test('a PEM pasted into one line keeps its line breaks', () => {
    const g = loadConfig({
      MASKINPORTEN_KEY_PEM: '-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----',
    }).government
    expect(g.maskinportenKeyPem).toBe('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----')
  })

  test.each([
    ['both a key and a key file', { MASKINPORTEN_KEY_PEM: 'x', MASKINPORTEN_KEY_FILE: '/k.pem' }, /not both/],
    ['a system id that is not <orgno>_<name>', { ALTINN_SYSTEM_ID: 'plikt' }, /ALTINN_SYSTEM_ID/],
    ['an unknown mode', { GOVERNMENT_MODE: 'sandbox' }, /GOVERNMENT_MODE must be one of mock, live/],
    ['a token service address that is not a URL', { MASKINPORTEN_URL: 'maskinporten.no' }, /MASKINPORTEN_URL/],
  ])('refuses %s', (_what, env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })
})

describe('webhooks and anchors', () => {
  test('loopback webhook targets are refused unless WEBHOOK_ALLOW_LOOPBACK=true; no time-stamping authority unless TSA_URL', () => {
    expect(loadConfig({})).toMatchObject({ webhookAllowLoopback: false, tsaUrl: null })
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true', TSA_URL: 'http://tsa.example.com/tsr/' })).toMatchObject({
      webhookAllowLoopback: true,
      tsaUrl: 'http://tsa.example.com/tsr',
    })
  })

  test('a bad WEBHOOK_ALLOW_LOOPBACK or TSA_URL refuses to start, naming the variable', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow('WEBHOOK_ALLOW_LOOPBACK')
    expect(() => loadConfig({ TSA_URL: 'tsa.example.com' })).toThrow('TSA_URL')
  })
})

describe('SECURITY_CONTACT (security.txt)', () => {
  test('defaults to security@ the public host', () => {
    expect(loadConfig({ BASE_URL: 'http://plikt.example.no:8080' }).securityContact).toBe(
      'mailto:security@plikt.example.no',
    )
  })

  test('takes a mailto: address or an https URL', () => {
    expect(loadConfig({ SECURITY_CONTACT: 'mailto:sikkerhet@plikt.no' }).securityContact).toBe(
      'mailto:sikkerhet@plikt.no',
    )
    expect(loadConfig({ SECURITY_CONTACT: 'https://plikt.no/security' }).securityContact).toBe(
      'https://plikt.no/security',
    )
  })

  test('anything else refuses to start, naming the variable', () => {
    expect(() => loadConfig({ SECURITY_CONTACT: 'security@plikt.no' })).toThrow(/SECURITY_CONTACT/)
    expect(() => loadConfig({ SECURITY_CONTACT: 'http://plikt.no/security' })).toThrow(ConfigError)
  })
})
