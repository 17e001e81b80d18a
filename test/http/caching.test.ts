/**
 * HTTP caching against the real app (pipeline/caching.ts, the registry's `cache` policies): every
 * public, deterministic document is cacheable with a strong ETag and answers 304; keyed answers
 * are private; a metered answer has no validator, so a conditional request is answered and charged.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { exampleRequest } from '../../src/domain/discovery/examples.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { allOperations } from '../../src/operations/index.ts'
import { cacheControlOf } from '../../src/pipeline/caching.ts'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

// The proofs need an anchored day (test/jobs/anchor.test.ts); the OAuth metadata needs OAuth on.
const needsSetup = new Set(['getAnchorProof', 'getProtectedResourceMetadata', 'getProtectedResourceMetadataAlias'])
const cacheable = allOperations.filter((o) => o.cache && !needsSetup.has(o.id))
const urlOf = (id: string) => {
  const example = exampleRequest(allOperations.find((o) => o.id === id)!, '')
  return example.url
}

describe('every public, deterministic document', () => {
  test.each(cacheable.map((o) => [o.id]))(
    '%s says how long any cache may keep it and carries a strong ETag',
    async (id) => {
      const res = await app.get(urlOf(id))
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe(cacheControlOf(allOperations.find((o) => o.id === id)!))
      expect(res.headers.get('cache-control')).toStartWith('public, max-age=')
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/)
    },
  )

  test.each(cacheable.map((o) => [o.id]))(
    '%s answers 304 with no body, its ETag and its Cache-Control to If-None-Match',
    async (id) => {
      const first = await app.get(urlOf(id))
      const etag = first.headers.get('etag')!
      const again = await app.get(urlOf(id), { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'))
    },
  )
})

test('a later response of the same document carries the same ETag and its own response_timestamp', async () => {
  const a = await app.get('/api/v1/public/deadlines?year=2026')
  app.clock.advance(1500)
  const b = await app.get('/api/v1/public/deadlines?year=2026')
  expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
  expect((await b.json())._meta.response_timestamp).not.toBe((await a.json())._meta.response_timestamp)
})

test('another year’s deadlines carry another ETag', async () => {
  const a = await app.get('/api/v1/public/deadlines?year=2026')
  const b = await app.get('/api/v1/public/deadlines?year=2027')
  expect(b.headers.get('etag')).not.toBe(a.headers.get('etag'))
})

test('rulebook answers and the price list are never served stale: no stale-while-revalidate', async () => {
  expect((await app.get('/api/v1/public/deadlines?year=2026')).headers.get('cache-control')).toBe(
    'public, max-age=3600',
  )
  expect((await app.get('/api/v1/public/obligations?entity_type=AS')).headers.get('cache-control')).toBe(
    'public, max-age=3600',
  )
  expect((await app.get('/api/v1/pricing')).headers.get('cache-control')).toBe('public, max-age=300')
})

test('documents about the service may be served stale for a day while a cache asks again', async () => {
  expect((await app.get('/llms.txt')).headers.get('cache-control')).toBe(
    'public, max-age=3600, stale-while-revalidate=86400',
  )
})

test('this year’s deadlines asked without a year are kept no longer than until New Year in Oslo', async () => {
  const late = await startApp({ clock: fixedClock('2026-12-31T22:30:00.000Z') })
  try {
    const res = await late.get('/api/v1/public/deadlines')
    expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'public, max-age=1800'])
    expect((await late.get('/api/v1/public/deadlines?year=2026')).headers.get('cache-control')).toBe(
      'public, max-age=3600',
    )
  } finally {
    await late.stop()
  }
})

describe('the front door, which answers by Accept', () => {
  test('says Vary: Accept on both representations', async () => {
    expect((await app.get('/', { headers: { accept: 'text/html' } })).headers.get('vary')).toBe('Accept')
    expect((await app.get('/', { headers: { accept: 'application/json' } })).headers.get('vary')).toBe('Accept')
  })

  test('tags the page and the JSON index apart: the page’s tag is not a 304 for JSON', async () => {
    const page = (await app.get('/', { headers: { accept: 'text/html' } })).headers.get('etag')!
    const json = await app.get('/', { headers: { accept: 'application/json', 'if-none-match': page } })
    expect(json.status).toBe(200)
    expect(json.headers.get('etag')).not.toBe(page)
  })

  test('keeps Vary on its 304', async () => {
    const etag = (await app.get('/', { headers: { accept: 'application/json' } })).headers.get('etag')!
    const again = await app.get('/', { headers: { accept: 'application/json', 'if-none-match': etag } })
    expect([again.status, again.headers.get('vary')]).toEqual([304, 'Accept'])
  })
})

describe('keyed answers', () => {
  test('a metered company answer is private, no-store, with no ETag', async () => {
    const c = await createConsumer(app, 'enterprise')
    await addCredits(app, c.id, 10_000)
    const { key } = await createKey(app, c.id)
    const res = await app.get('/api/v1/company/984661185/summary', { headers: bearer(key) })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(res.headers.get('etag')).toBeNull()
  })

  test('a metered call with If-None-Match is answered in full and charged: no 304 hides a charge', async () => {
    const c = await createConsumer(app, 'enterprise')
    await addCredits(app, c.id, 10_000)
    const { key } = await createKey(app, c.id)
    const first = await app.get('/api/v1/company/984661185/summary', { headers: bearer(key) })
    const hash = (await first.json())._meta.response_hash as string
    const again = await app.get('/api/v1/company/984661185/summary', {
      headers: { ...bearer(key), 'if-none-match': `"${hash.slice('sha256:'.length)}"` },
    })
    expect(again.status).toBe(200)
    expect(
      Number(first.headers.get('x-credits-balance-ore')) - Number(again.headers.get('x-credits-balance-ore')),
    ).toBe(50)
  })

  test('account data is private, no-store', async () => {
    const c = await createConsumer(app, 'free')
    const { key } = await createKey(app, c.id)
    const res = await app.get('/api/v1/account/usage', { headers: bearer(key) })
    expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'private, no-store'])
  })
})

test('an error is kept by no cache', async () => {
  const res = await app.get('/api/v1/public/deadlines?year=1999')
  expect([res.status, res.headers.get('cache-control'), res.headers.get('etag')]).toEqual([400, 'no-store', null])
})

test('the price list tells that metered answers carry no ETag and never answer 304', async () => {
  const { data } = await (await app.get('/api/v1/pricing')).json()
  expect(data.caching).toMatchObject({ cache_control: 'private, no-store', etag: false, not_modified: false })
})

test('the OpenAPI document says how a cached copy’s age is read', async () => {
  const doc = await (await app.get('/openapi.json')).json()
  expect(doc.info.description).toContain('`Age`')
  expect(doc.info.description).toContain('response_timestamp')
  const deadlines = doc.paths['/api/v1/public/deadlines'].get
  expect(Object.keys(deadlines.responses['200'].headers)).toEqual(
    expect.arrayContaining(['Cache-Control', 'ETag', 'Age']),
  )
  expect(deadlines.responses).toHaveProperty('304')
  expect(doc.paths['/api/v1/company/{org}/summary'].get.responses['200'].headers['Cache-Control'].schema.const).toBe(
    'private, no-store',
  )
})
