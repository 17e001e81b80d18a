/**
 * How entries are written (src/operations/define.ts): the codes a declaration implies are derived,
 * so an entry lists by hand only what its handler throws itself, and the lists cannot drift back.
 */
import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import type { ErrorCode } from '../../src/errors/catalogue/index.ts'
import { allOperations, impliedErrors, op } from '../../src/operations/index.ts'

const base = {
  method: 'GET',
  path: '/api/v1/test',
  format: 'envelope',
  tag: 'Test',
  summary: 'test',
  response: null,
} as const
const Query = Type.Object({ q: Type.Optional(Type.String()) })

describe('impliedErrors', () => {
  test('a key: missing, invalid, inactive consumer, the tier ceilings, and a test key where no synthetic answer exists; scope and tier minimum when declared', () => {
    expect(op({ ...base, id: 'k', category: 'B' }).errors.sort()).toEqual([
      'AUTH_CONSUMER_INACTIVE',
      'AUTH_INVALID_KEY',
      'AUTH_MISSING',
      'RATE_LIMIT_EXCEEDED',
      'TEST_KEY_PRODUCTION_ONLY',
    ])
    const scoped = op({ ...base, id: 'ks', category: 'B', scope: 'read:register', planMinimum: 'professional' })
    expect(scoped.errors).toContain('SCOPE_INSUFFICIENT')
    expect(scoped.errors).toContain('PLAN_INSUFFICIENT')
    // A scope on a keyless operation names what its MCP tool needs; nothing refuses with it.
    expect(op({ ...base, id: 'a', category: 'A', scope: 'read:rulebook' }).errors).toEqual([])
  })

  test('a key or a session: as a key (the scope is checked for keys only)', () => {
    expect(op({ ...base, id: 'ks', category: 'B', auth: 'key_or_session', scope: 'read:x' }).errors.sort()).toEqual([
      'AUTH_CONSUMER_INACTIVE',
      'AUTH_INVALID_KEY',
      'AUTH_MISSING',
      'RATE_LIMIT_EXCEEDED',
      'SCOPE_INSUFFICIENT',
      'TEST_KEY_PRODUCTION_ONLY',
    ])
  })

  test('a key on an operation with a sandbox mirror: a test key is answered there, never refused', () => {
    expect(op({ ...base, id: 'km', category: 'B', sandboxMirror: 'getSandboxContext' }).errors).not.toContain(
      'TEST_KEY_PRODUCTION_ONLY',
    )
  })

  // Every mode that reads a credential: an address with too many refused this minute (RATE_LIMIT_EXCEEDED).
  test('the admin token: missing or not it', () => {
    expect(op({ ...base, id: 'ad', category: 'admin' }).errors.sort()).toEqual([
      'AUTH_INVALID_KEY',
      'AUTH_MISSING',
      'RATE_LIMIT_EXCEEDED',
    ])
  })

  test('a session: none (a key is refused the same way), or its consumer deactivated', () => {
    expect(op({ ...base, id: 's', category: 'session' }).errors.sort()).toEqual([
      'AUTH_CONSUMER_INACTIVE',
      'AUTH_SESSION_REQUIRED',
      'RATE_LIMIT_EXCEEDED',
    ])
  })

  test('the sandbox: no credential is fine, a real key is checked', () => {
    expect(op({ ...base, id: 'sb', category: 'sandbox', format: 'sandbox' }).errors.sort()).toEqual([
      'AUTH_CONSUMER_INACTIVE',
      'AUTH_INVALID_KEY',
      'RATE_LIMIT_EXCEEDED',
    ])
  })

  test('Idempotency-Key: malformed, reused with another body, still running; and missing when required', () => {
    const optional: ErrorCode[] = [
      'IDEMPOTENCY_IN_PROGRESS',
      'IDEMPOTENCY_KEY_INVALID_FORMAT',
      'IDEMPOTENCY_KEY_MISMATCH',
    ]
    expect(op({ ...base, id: 'io', category: 'A', idempotency: 'optional' }).errors.sort()).toEqual(optional)
    expect(op({ ...base, id: 'ir', category: 'A', idempotency: 'required' }).errors.sort()).toEqual(
      [...optional, 'IDEMPOTENCY_KEY_REQUIRED' as const].sort(),
    )
  })

  test('a price: no credit, or the balance unreadable', () => {
    expect(op({ ...base, id: 'm', category: 'A', costOre: 50 }).errors.sort()).toEqual([
      'CREDIT_CHECK_UNAVAILABLE',
      'INSUFFICIENT_CREDITS',
    ])
  })

  test('each limit: its code', () => {
    const limited = op({
      ...base,
      id: 'l',
      category: 'A',
      limits: [
        { per: 'ip', max: 5, window: 'hour', code: 'RATE_LIMITED' },
        { per: 'ip', max: 60, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' },
      ],
    })
    expect(limited.errors.sort()).toEqual((['RATE_LIMITED', 'RATE_LIMIT_EXCEEDED'] as ErrorCode[]).sort())
  })

  test('a validated request schema: VALIDATION_FAILED; a raw body is read by the handler, not validated', () => {
    expect(op({ ...base, id: 'q', category: 'A', request: { query: Query } }).errors).toEqual(['VALIDATION_FAILED'])
    expect(op({ ...base, id: 'p', category: 'A', request: { params: Query } }).errors).toEqual(['VALIDATION_FAILED'])
    expect(op({ ...base, id: 'b', method: 'POST', category: 'A', request: { body: Query } }).errors).toEqual([
      'VALIDATION_FAILED',
    ])
    expect(
      op({ ...base, id: 'r', method: 'POST', category: 'A', bodyType: 'raw', request: { body: Query } }).errors,
    ).toEqual([])
  })

  test('a page answers its errors as pages: it documents none', () => {
    const page = op({
      ...base,
      id: 'h',
      category: 'session',
      format: 'html',
      bodyType: 'form',
      request: { body: Query },
      limits: [{ per: 'ip', max: 5, window: 'hour', code: 'RATE_LIMITED' }],
    })
    expect(page.errors).toEqual([])
  })

  test('an entry’s own codes come after the implied ones, each code once', () => {
    const o = op({ ...base, id: 'o', category: 'admin', request: { query: Query }, errors: ['MAX_KEYS_REACHED'] })
    expect(o.ownErrors).toEqual(['MAX_KEYS_REACHED'])
    expect(o.errors).toEqual([
      'AUTH_MISSING',
      'AUTH_INVALID_KEY',
      'RATE_LIMIT_EXCEEDED',
      'VALIDATION_FAILED',
      'MAX_KEYS_REACHED',
    ])
  })
})

describe('every registry entry', () => {
  test('lists by hand no code its declarations imply', () => {
    const drift = allOperations.flatMap((o) => {
      const implied = impliedErrors(o)
      return o.ownErrors.filter((c) => implied.includes(c)).map((c) => `${o.id}: ${c}`)
    })
    expect(drift).toEqual([])
  })

  test('lists each of its own codes once', () => {
    expect(allOperations.filter((o) => new Set(o.ownErrors).size !== o.ownErrors.length).map((o) => o.id)).toEqual([])
  })

  test('documents exactly the implied codes and its own', () => {
    for (const o of allOperations)
      expect([...o.errors].sort(), o.id).toEqual([...new Set([...impliedErrors(o), ...o.ownErrors])].sort())
  })

  test('a page lists no codes of its own (they would be documented as JSON error envelopes)', () => {
    expect(allOperations.filter((o) => o.format === 'html' && o.errors.length > 0).map((o) => o.id)).toEqual([])
  })
})
