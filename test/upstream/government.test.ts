/**
 * The choice of government adapters from configuration: mocks by default (the digital agency left
 * to the composition root), the live clients with GOVERNMENT_MODE=live, and a clear ConfigError
 * when live mode cannot be built.
 */
import { afterAll, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { buildGovernment } from '../../src/upstream/government.ts'
import { PINNED_NOW } from '../helpers.ts'

const clock = fixedClock(PINNED_NOW)
const dir = mkdtempSync(join(tmpdir(), 'plikt-government-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string
const live = {
  GOVERNMENT_MODE: 'live',
  TOKEN_SERVICE_CLIENT_ID: 'c0ffee00-0000-4000-8000-000000000001',
  TOKEN_SERVICE_KID: 'plikt-2026',
  DIGITAL_AGENCY_SYSTEM_ID: '314159268_plikt',
}

test('by default every adapter is a mock, and the digital agency is left to the composition root', () => {
  const g = buildGovernment(loadConfig({}), clock)
  expect([g.tokenService.mock, g.filingSubmitter.mock, g.taxAuthority.mock, g.labourRegister.mock]).toEqual([
    true,
    true,
    true,
    true,
  ])
  expect(g.digitalAgency).toBeNull()
  expect(g.tokenService.breakerState()).toBe('closed')
})

test('GOVERNMENT_MODE=live builds the live clients, with the key from the environment', () => {
  const g = buildGovernment(loadConfig({ ...live, TOKEN_SERVICE_KEY_PEM: rsaPem }), clock)
  expect([
    g.tokenService.mock,
    g.digitalAgency?.mock,
    g.filingSubmitter.mock,
    g.taxAuthority.mock,
    g.labourRegister.mock,
  ]).toEqual([false, false, false, false, false])
  expect(g.tokenService.breakerState()).toBe('closed')
})

test('the key may come from a file', () => {
  const file = join(dir, 'maskinporten.pem')
  writeFileSync(file, rsaPem)
  expect(buildGovernment(loadConfig({ ...live, TOKEN_SERVICE_KEY_FILE: file }), clock).tokenService.mock).toBe(false)
})

test('live mode whose credentials are still missing (fixtures mode without them) is a ConfigError naming them', () => {
  const config = loadConfig({ GOVERNMENT_MODE: 'live', UPSTREAM_MODE: 'fixtures' })
  expect(() => buildGovernment(config, clock)).toThrow(ConfigError)
  expect(() => buildGovernment(config, clock)).toThrow(/TOKEN_SERVICE_CLIENT_ID/)
})

test('a key file that cannot be read is a ConfigError naming it', () => {
  expect(() =>
    buildGovernment(loadConfig({ ...live, TOKEN_SERVICE_KEY_FILE: join(dir, 'missing.pem') }), clock),
  ).toThrow(/TOKEN_SERVICE_KEY_FILE cannot be read \(ENOENT\)/)
})

test('a key that is not a PEM private key, or not RSA, is a ConfigError', () => {
  expect(() => buildGovernment(loadConfig({ ...live, TOKEN_SERVICE_KEY_PEM: 'not a key' }), clock)).toThrow(
    /not a PEM private key/,
  )
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string
  expect(() => buildGovernment(loadConfig({ ...live, TOKEN_SERVICE_KEY_PEM: ec }), clock)).toThrow(/must be an RSA key/)
})
