/** Form tokens without a session: good for their purpose, subject and lifetime only, and made only with the key. */
import { expect, test } from 'bun:test'
import { checkFormToken, formToken } from '../../src/lib/form-token.ts'
import { deriveKey } from '../../src/lib/server-secret.ts'
import { PINNED_NOW } from '../helpers.ts'

const KEY = deriveKey('a'.repeat(40), 'form-tokens')
const NOW = new Date(PINNED_NOW)
const EXPIRES = new Date('2026-03-14T10:30:00Z')
const token = formToken(KEY, 'decide', 'request-1', EXPIRES)

test('a token is good for its purpose and subject before it expires', () => {
  expect(checkFormToken(KEY, 'decide', 'request-1', token, NOW)).toBe(true)
  expect(checkFormToken(KEY, 'decide', 'request-1', token, new Date(EXPIRES.getTime() - 1000))).toBe(true)
})

test('a token is refused from its expiry on', () => {
  expect(checkFormToken(KEY, 'decide', 'request-1', token, EXPIRES)).toBe(false)
})

test('a token is refused for another subject or purpose', () => {
  expect(checkFormToken(KEY, 'decide', 'request-2', token, NOW)).toBe(false)
  expect(checkFormToken(KEY, 'other', 'request-1', token, NOW)).toBe(false)
})

test('a token made with another key is refused', () => {
  expect(
    checkFormToken(
      KEY,
      'decide',
      'request-1',
      formToken(deriveKey('b'.repeat(40), 'form-tokens'), 'decide', 'request-1', EXPIRES),
      NOW,
    ),
  ).toBe(false)
})

test('a token whose expiry was moved is refused', () => {
  const [, mac] = token.split('.')
  expect(checkFormToken(KEY, 'decide', 'request-1', `${Math.floor(EXPIRES.getTime() / 1000) + 1}.${mac}`, NOW)).toBe(
    false,
  )
})

test('anything not shaped like a token is refused', () => {
  for (const t of ['', 'x', token.slice(0, -1), `${token}A`, `-1.${token.split('.')[1]}`])
    expect(checkFormToken(KEY, 'decide', 'request-1', t, NOW)).toBe(false)
})
