/** The token service's mock: deterministic tokens, no network, a breaker that never opens. */
import { expect, test } from 'bun:test'
import { fixedClock } from '../../../src/lib/clock.ts'
import { mockTokenService } from '../../../src/upstream/token-service/mock.ts'
import { PINNED_NOW } from '../../helpers.ts'

const service = mockTokenService(fixedClock(PINNED_NOW))

test('is marked as a mock, with its breaker closed', () => {
  expect(service.mock).toBe(true)
  expect(service.breakerState()).toBe('closed')
})

test('the same scope and system user always get the same token; another customer or system user another one', async () => {
  const a = await service.token({ scope: 'altinn:instances.read', systemUser: { org: '984661185', externalRef: 'g1' } })
  expect(
    (await service.token({ scope: 'altinn:instances.read', systemUser: { org: '984661185', externalRef: 'g1' } }))
      .access_token,
  ).toBe(a.access_token)
  expect(
    (await service.token({ scope: 'altinn:instances.read', systemUser: { org: '984661185', externalRef: 'g2' } }))
      .access_token,
  ).not.toBe(a.access_token)
  expect(
    (await service.token({ scope: 'altinn:instances.read', systemUser: { org: '923609016', externalRef: 'g1' } }))
      .access_token,
  ).not.toBe(a.access_token)
  expect((await service.token({ scope: 'altinn:instances.read' })).access_token).not.toBe(a.access_token)
})

test('a token names its scope and expires ten minutes on from now', async () => {
  const t = await service.token({ scope: 'nav:aareg/v1/arbeidsforhold' })
  expect(t.scope).toBe('nav:aareg/v1/arbeidsforhold')
  expect(t.expires_at.toISOString()).toBe('2026-03-14T09:39:59.000Z')
})
