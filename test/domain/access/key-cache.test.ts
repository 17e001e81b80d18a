import { describe, expect, test } from 'bun:test'
import { KeyCache } from '../../../src/domain/access/key-cache.ts'
import { cachedPrincipalForKey } from '../../../src/domain/access/keys.ts'
import type { KeyPrincipal } from '../../../src/domain/access/types.ts'
import type { Sql } from '../../../src/store/db.ts'
import { hashSecret } from '../../../src/lib/tokens.ts'

const principal = (keyId: string, plan: KeyPrincipal['plan'] = 'free'): KeyPrincipal => ({
  kind: 'key',
  keyId,
  consumerId: `consumer-of-${keyId}`,
  scopes: ['read:*'],
  plan,
  test: false,
  confirmed: true,
})

/** A database that must not be touched: a cache hit needs no lookup. */
const noDatabase = (() => {
  throw new Error('the database was queried')
}) as unknown as Sql

describe('KeyCache', () => {
  test('an entry read back is the principal that was stored, unconfirmed', () => {
    const cache = new KeyCache()
    cache.set('h1', principal('k1', 'starter'))
    expect(cache.get('h1')).toEqual({ ...principal('k1', 'starter'), confirmed: false })
  })

  test('storing copies the principal: the caller’s object is neither marked nor shared', () => {
    const cache = new KeyCache()
    const given = principal('k1')
    cache.set('h1', given)
    expect(given.confirmed).toBe(true)
    expect(cache.get('h1')).not.toBe(given)
  })

  test('a principal resolved from the cache is unconfirmed, and needs no lookup', async () => {
    const cache = new KeyCache()
    cache.set(hashSecret('svc_free_secret-one'), principal('k1'))
    const resolved = await cachedPrincipalForKey(noDatabase, cache, 'svc_free_secret-one')
    expect(resolved).toMatchObject({ keyId: 'k1', confirmed: false })
  })

  test('an unknown hash is undefined', () => {
    const cache = new KeyCache()
    cache.set('h1', principal('k1'))
    expect(cache.get('h2')).toBeUndefined()
  })

  test('when full, storing a new hash evicts the oldest entry', () => {
    const cache = new KeyCache(2)
    cache.set('h1', principal('k1'))
    cache.set('h2', principal('k2'))
    cache.set('h3', principal('k3'))
    expect(cache.size).toBe(2)
    expect(cache.get('h1')).toBeUndefined()
    expect(cache.get('h2')!.keyId).toBe('k2')
    expect(cache.get('h3')!.keyId).toBe('k3')
  })

  test('when full, storing a hash already cached replaces it and evicts nothing', () => {
    const cache = new KeyCache(2)
    cache.set('h1', principal('k1', 'free'))
    cache.set('h2', principal('k2'))
    cache.set('h1', principal('k1', 'starter'))
    expect(cache.size).toBe(2)
    expect(cache.get('h1')!.plan).toBe('starter')
    expect(cache.get('h2')!.keyId).toBe('k2')
  })

  test('forget removes every hash of the key id and nothing else', () => {
    const cache = new KeyCache()
    cache.set('h1', principal('k1'))
    cache.set('h2', principal('k1'))
    cache.set('h3', principal('k2'))
    cache.forget('k1')
    expect(cache.get('h1')).toBeUndefined()
    expect(cache.get('h2')).toBeUndefined()
    expect(cache.get('h3')!.keyId).toBe('k2')
    expect(cache.size).toBe(1)
  })
})
