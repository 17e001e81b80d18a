import { expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../src/config.ts'

test('defaults start the embedded quick start on port 3000', () => {
  const c = loadConfig({})
  expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: null, dataDir: './data', upstreamMode: 'live', adminToken: null })
  expect(c.baseUrl).toBe('http://localhost:3000')
})

test('BASE_URL loses its trailing slash', () => {
  expect(loadConfig({ BASE_URL: 'https://plikt.example.no/' }).baseUrl).toBe('https://plikt.example.no')
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
])('rejects %p with a message naming the variable', (env, message) => {
  expect(() => loadConfig(env)).toThrow(ConfigError)
  expect(() => loadConfig(env)).toThrow(message)
})

test('TRUST_PROXY trusts one proxy hop unless TRUSTED_PROXY_HOPS says more; without it, none', () => {
  expect(loadConfig({}).trustedProxyHops).toBe(0)
  expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxyHops).toBe(1)
  expect(loadConfig({ TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2)
})
