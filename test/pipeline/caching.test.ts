/** The caching step's pure parts (pipeline/caching.ts): tags, their versions, If-None-Match, Cache-Control. */
import { expect, test } from 'bun:test'
import { RULEBOOK_VERSION } from '../../src/domain/rulebook/version.ts'
import { SCHEMA_VERSION } from '../../src/lib/service.ts'
import { allOperations, CACHE } from '../../src/operations/index.ts'
import {
  cacheControl,
  cacheControlOf,
  cachedDocument,
  entityTag,
  ifNoneMatch,
  precomputedTag,
  strongTag,
  TAG_VERSIONS,
  tagVersions,
} from '../../src/pipeline/caching.ts'
import { precompute } from '../../src/pipeline/envelope.ts'

const byId = (id: string) => allOperations.find((o) => o.id === id)!

test('a tag is computed over this build’s rulebook and service versions', () => {
  expect(TAG_VERSIONS).toBe(tagVersions(RULEBOOK_VERSION, SCHEMA_VERSION))
  expect(strongTag('x')).toBe(entityTag(tagVersions(RULEBOOK_VERSION, SCHEMA_VERSION), 'x'))
})

test('a new rulebook changes the tag of unchanged data', () => {
  expect(entityTag(tagVersions('1.0.0', '1.0.7'), 'sha256:ab')).not.toBe(
    entityTag(tagVersions('1.1.0', '1.0.7'), 'sha256:ab'),
  )
})

test('a new release of the service changes the tag of unchanged data', () => {
  expect(entityTag(tagVersions('1.0.0', '1.0.7'), 'sha256:ab')).not.toBe(
    entityTag(tagVersions('1.0.0', '1.0.8'), 'sha256:ab'),
  )
})

test('a tag is strong: a quoted SHA-256, no W/ prefix', () => {
  expect(strongTag('x')).toMatch(/^"[0-9a-f]{64}"$/)
})

test('a memoised answer’s tag leaves out the per-response and per-instance times of _meta', () => {
  const a = precompute({ n: 1 })
  const b = precompute({ n: 1 })
  expect(precomputedTag(a, { served_from: 'static', data_freshness: new Date(0) })).toBe(
    precomputedTag(b, { served_from: 'static', data_freshness: new Date(1e12) }),
  )
})

test('a memoised answer’s tag covers the rest of _meta', () => {
  expect(precomputedTag(precompute({ n: 1 }), { legal_basis: 'a' })).not.toBe(
    precomputedTag(precompute({ n: 1 }), { legal_basis: 'b' }),
  )
})

test('a document’s tag changes with its bytes', () => {
  expect(cachedDocument('a', {}).etag).not.toBe(cachedDocument('b', {}).etag)
})

test('If-None-Match matches the tag, a list holding it, its weak form and *', () => {
  const tag = strongTag('x')
  for (const header of [tag, `"other", ${tag}`, `W/${tag}`, '*']) expect(ifNoneMatch(header, tag)).toBe(true)
  for (const header of [null, '', '"other"', tag.slice(0, -2) + '"']) expect(ifNoneMatch(header, tag)).toBe(false)
})

test('stale-while-revalidate is offered only where the policy allows a stale copy', () => {
  expect(cacheControl(CACHE.discovery)).toBe('public, max-age=3600, stale-while-revalidate=86400')
  expect(cacheControl(CACHE.rulebook)).toBe('public, max-age=3600')
  expect(cacheControl(CACHE.pricing)).toBe('public, max-age=300')
})

test('every operation that reads a credential answers private, no-store', () => {
  const keyed = allOperations.filter((o) => !['none', 'sandbox'].includes(o.auth))
  expect(keyed.length).toBeGreaterThan(50)
  expect(keyed.filter((o) => cacheControlOf(o) !== 'private, no-store').map((o) => o.id)).toEqual([])
})

test('a keyless live reading has no Cache-Control of its own', () => {
  expect(cacheControlOf(byId('getAgentReadiness'))).toBeNull()
  expect(cacheControlOf(byId('getExchangeRate'))).toBeNull()
})

test('every operation a cache may keep is a keyless, free GET', () => {
  const cached = allOperations.filter((o) => o.cache)
  expect(cached.length).toBeGreaterThan(20)
  expect(cached.filter((o) => o.method !== 'GET' || o.auth !== 'none' || o.costOre > 0).map((o) => o.id)).toEqual([])
})
