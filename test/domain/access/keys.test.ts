import { describe, expect, test } from 'bun:test'
import { checkScopes, keyPrefixFor } from '../../../src/domain/access/keys.ts'
import { enforceLimits } from '../../../src/domain/access/limits.ts'
import { scopeGranted, planAtLeast } from '../../../src/domain/access/types.ts'
import { AppError } from '../../../src/errors/app-error.ts'
import { displayPrefix, newSecret, randomBase62 } from '../../../src/lib/tokens.ts'
import { testDatabase } from '../../helpers.ts'

describe('secrets', () => {
  test('carry at least 128 random bits: 32 base62 characters after the prefix', () => {
    const key = newSecret('svc_free_')
    expect(key).toMatch(/^svc_free_[0-9A-Za-z]{32}$/)
    expect(32 * Math.log2(62)).toBeGreaterThan(190)
  })

  test('are all different', () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => randomBase62()))
    expect(seen.size).toBe(10_000)
  })

  test('use every base62 character roughly evenly (no modulo bias)', () => {
    const counts = new Map<string, number>()
    for (let i = 0; i < 2000; i++) for (const ch of randomBase62()) counts.set(ch, (counts.get(ch) ?? 0) + 1)
    expect(counts.size).toBe(62)
    const expected = (2000 * 32) / 62
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.15)
  })

  test('display prefix is the key prefix plus four characters', () => {
    expect(displayPrefix('svc_free_AbCdEfGh', 'svc_free_')).toBe('svc_free_AbCd…')
  })
})

describe('scopes', () => {
  test('default to read:*', () => {
    expect(checkScopes(['read:*'])).toEqual(['read:*'])
  })

  test.each(['write:x', 'act:submit', 'delegate:altinn'])('refuse the reserved %s with SCOPE_RESERVED', (scope) => {
    expect(() => checkScopes([scope])).toThrow(AppError)
    try {
      checkScopes([scope])
    } catch (e) {
      expect((e as AppError).code).toBe('SCOPE_RESERVED')
    }
  })

  test('refuse unknown scopes as a validation error naming the position', () => {
    try {
      checkScopes(['read:register', 'read:everything'])
      throw new Error('no error')
    } catch (e) {
      expect((e as AppError).code).toBe('VALIDATION_FAILED')
      expect((e as AppError).options.details![0]!.field).toBe('scopes.1')
    }
  })

  test('read:* grants every read scope but not others', () => {
    expect(scopeGranted(['read:*'], 'read:register')).toBe(true)
    expect(scopeGranted(['read:*'], 'subscribe:webhooks')).toBe(false)
    expect(scopeGranted(['read:changes'], 'read:register')).toBe(false)
  })

  test('tiers are ordered free < starter < professional < enterprise', () => {
    expect(planAtLeast('professional', 'starter')).toBe(true)
    expect(planAtLeast('starter', 'professional')).toBe(false)
    expect(keyPrefixFor('free')).toBe('svc_free_')
    expect(keyPrefixFor('enterprise')).toBe('svc_live_')
  })
})

describe('fixed-window limits', () => {
  test('refuse the call after the ceiling, per window, naming the longest wait', async () => {
    const { sql } = await testDatabase()
    const bucket = `unit:${crypto.randomUUID()}`
    const now = new Date('2026-03-14T23:59:30.000Z')
    const limits = [
      { bucket, max: 3, window: 'minute' as const, code: 'RATE_LIMIT_EXCEEDED' as const },
      { bucket, max: 2, window: 'day' as const, code: 'RATE_LIMIT_EXCEEDED' as const },
    ]
    await enforceLimits(sql, limits, now)
    await enforceLimits(sql, limits, now)
    const err = await enforceLimits(sql, limits, now).catch((e) => e as AppError)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).options.headers!['retry-after']).toBe('30')
    // The next UTC day starts a new day window.
    await expect(enforceLimits(sql, limits, new Date('2026-03-15T00:00:01.000Z'))).resolves.toBeDefined()
  })
})
