import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../src/config.ts'

test('defaults start the embedded quick start on port 3000', () => {
  const c = loadConfig({})
  expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: null, dataDir: './data', upstreamMode: 'live', adminToken: null })
  expect(c.baseUrl).toBe('http://localhost:3000')
})

test('with PORT=0 the default BASE_URL and OAuth audience name the port bound; an explicit BASE_URL stays', () => {
  const oauth = { OAUTH_ISSUER: 'https://auth.example.no' }
  expect(loadConfig({ PORT: '0', ...oauth }, 41234)).toMatchObject({ baseUrl: 'http://localhost:41234', oauth: { audience: 'http://localhost:41234/api/mcp' } })
  expect(loadConfig({ PORT: '0', BASE_URL: 'http://plikt.test:8080' }, 41234).baseUrl).toBe('http://plikt.test:8080')
})

test('BASE_URL loses its trailing slash', () => {
  expect(loadConfig({ BASE_URL: 'https://plikt.example.no/', SMTP_URL: 'smtp://mail.example.no:587' }).baseUrl).toBe('https://plikt.example.no')
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
    expect(loadConfig({ BASE_URL: 'https://plikt.example.no', SMTP_URL: 'smtps://u:p@mail.example.no:465' }).smtpUrl).toBe('smtps://u:p@mail.example.no:465')
    expect(loadConfig({ BASE_URL: 'https://plikt.example.no', ALLOW_OUTBOX_MAIL: 'true' })).toMatchObject({ smtpUrl: null, allowOutboxMail: true })
    expect(loadConfig({ BASE_URL: 'https://plikt.example.no', ALLOW_OUTBOX_MAIL: 'false', SMTP_URL: 'smtp://mail.example.no' }).allowOutboxMail).toBe(false)
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
