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
    TOKEN_SERVICE_CLIENT_ID: 'c0ffee00-0000-4000-8000-000000000001',
    TOKEN_SERVICE_KID: 'plikt-2026',
    TOKEN_SERVICE_KEY_FILE: '/etc/plikt/maskinporten.pem',
    DIGITAL_AGENCY_SYSTEM_ID: '314159268_plikt',
  }

  test('mock by default, with the production addresses', () => {
    expect(loadConfig({}).government).toMatchObject({
      mode: 'mock',
      tokenServiceUrl: 'https://maskinporten.no',
      filingPortalUrl: 'https://platform.altinn.no',
      filingPortalVatAppUrl: 'https://skd.apps.altinn.no/skd/mva-melding-innsending-v1',
      taxAuthorityUrl: 'https://idporten.api.skatteetaten.no',
      labourRegisterUrl: 'https://aareg-dist-api.nav.no',
      tokenServiceClientId: null,
    })
  })

  test('GOVERNMENT_MODE=live without credentials refuses to start, naming every missing variable', () => {
    expect(() => loadConfig({ GOVERNMENT_MODE: 'live' })).toThrow(ConfigError)
    expect(() => loadConfig({ GOVERNMENT_MODE: 'live', TOKEN_SERVICE_CLIENT_ID: 'x' })).toThrow(
      /TOKEN_SERVICE_KID, TOKEN_SERVICE_KEY_PEM or TOKEN_SERVICE_KEY_FILE, DIGITAL_AGENCY_SYSTEM_ID/,
    )
  })

  test('GOVERNMENT_MODE=live with credentials starts', () => {
    expect(loadConfig({ GOVERNMENT_MODE: 'live', ...creds }).government).toMatchObject({
      mode: 'live',
      tokenServiceKeyFile: '/etc/plikt/maskinporten.pem',
      digitalAgencySystemId: '314159268_plikt',
    })
  })

  test('with UPSTREAM_MODE=fixtures live mode needs no credentials (the fixtures supply them)', () => {
    expect(loadConfig({ GOVERNMENT_MODE: 'live', UPSTREAM_MODE: 'fixtures' }).government.mode).toBe('live')
  })

  test('the digital agency’s API is on the portal’s platform unless DIGITAL_AGENCY_URL says otherwise', () => {
    expect(loadConfig({ FILING_PORTAL_URL: 'https://platform.tt02.altinn.no' }).government.digitalAgencyUrl).toBe(
      'https://platform.tt02.altinn.no',
    )
    expect(
      loadConfig({ FILING_PORTAL_URL: 'https://a.example', DIGITAL_AGENCY_URL: 'https://b.example' }).government
        .digitalAgencyUrl,
    ).toBe('https://b.example')
  })

  test('every old variable name still works under its current name, and is named in a deprecation note', () => {
    const old = {
      BRREG_BASE_URL: 'https://brreg.example',
      NORGES_BANK_BASE_URL: 'https://bank.example',
      MASKINPORTEN_URL: 'https://test.maskinporten.no',
      MASKINPORTEN_CLIENT_ID: 'client',
      MASKINPORTEN_KID: 'kid',
      MASKINPORTEN_KEY_FILE: '/etc/plikt/key.pem',
      ALTINN_PLATFORM_URL: 'https://platform.tt02.altinn.no',
      ALTINN_SYSTEM_ID: '314159268_plikt',
      ALTINN_MVA_APP_URL: 'https://skd.apps.tt02.altinn.no/skd/mva-melding-innsending-etm2',
      SKATTEETATEN_URL: 'https://tax.example',
      AAREG_URL: 'https://aareg.example',
    }
    const c = loadConfig({ GOVERNMENT_MODE: 'live', ...old })
    expect([c.businessRegisterUrl, c.centralBankUrl]).toEqual(['https://brreg.example', 'https://bank.example'])
    expect(c.government).toMatchObject({
      mode: 'live',
      tokenServiceUrl: 'https://test.maskinporten.no',
      tokenServiceClientId: 'client',
      tokenServiceKid: 'kid',
      tokenServiceKeyFile: '/etc/plikt/key.pem',
      filingPortalUrl: 'https://platform.tt02.altinn.no',
      digitalAgencyUrl: 'https://platform.tt02.altinn.no',
      digitalAgencySystemId: '314159268_plikt',
      filingPortalVatAppUrl: 'https://skd.apps.tt02.altinn.no/skd/mva-melding-innsending-etm2',
      taxAuthorityUrl: 'https://tax.example',
      labourRegisterUrl: 'https://aareg.example',
    })
    expect(c.deprecatedVariables).toContain(
      'ALTINN_PLATFORM_URL is deprecated: use FILING_PORTAL_URL and DIGITAL_AGENCY_URL',
    )
    expect(c.deprecatedVariables).toHaveLength(Object.keys(old).length)
    expect(loadConfig({}).deprecatedVariables).toEqual([])
  })

  test('an old name and its current name set to different values refuse to start', () => {
    expect(() =>
      loadConfig({ BRREG_BASE_URL: 'https://a.example', BUSINESS_REGISTER_URL: 'https://b.example' }),
    ).toThrow(
      'BRREG_BASE_URL is the old name of BUSINESS_REGISTER_URL, and the two are set differently: keep BUSINESS_REGISTER_URL',
    )
  })

  test('a PEM pasted into one line keeps its line breaks', () => {
    const g = loadConfig({
      TOKEN_SERVICE_KEY_PEM: '-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----',
    }).government
    expect(g.tokenServiceKeyPem).toBe('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----')
  })

  test.each([
    ['both a key and a key file', { TOKEN_SERVICE_KEY_PEM: 'x', TOKEN_SERVICE_KEY_FILE: '/k.pem' }, /not both/],
    ['a system id that is not <orgno>_<name>', { DIGITAL_AGENCY_SYSTEM_ID: 'plikt' }, /DIGITAL_AGENCY_SYSTEM_ID/],
    ['an unknown mode', { GOVERNMENT_MODE: 'sandbox' }, /GOVERNMENT_MODE must be one of mock, live/],
    ['a token service address that is not a URL', { TOKEN_SERVICE_URL: 'maskinporten.no' }, /TOKEN_SERVICE_URL/],
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
