import { expect, test } from 'bun:test'
import { NAMESPACE_DNS, NAMESPACE_URL, uuidV5 } from '../../src/lib/uuid-v5.ts'

// Vectors from Python's uuid module, an independent implementation of the same RFC.
test.each([
  [NAMESPACE_DNS, 'www.example.com', '2ed6657d-e927-568b-95e1-2665a8aea6a2'],
  [NAMESPACE_DNS, 'python.org', '886313e1-3b8a-5372-9b90-0c9aee199e5d'],
  [NAMESPACE_URL, 'https://www.ietf.org/rfc/rfc4122.txt', '6537e054-8e6f-5f5c-9f9a-1070caa77cd7'],
])('uuid v5 of %s / %s is the known vector', (ns, name, expected) => {
  expect(uuidV5(name, ns)).toBe(expected)
})

test('a non-ASCII name is hashed as UTF-8', () => {
  expect(uuidV5('blåbær.no', NAMESPACE_DNS)).toBe('7a2e6ba5-c8cd-51e3-8d08-9b85b3e8bc36')
  expect(uuidV5(new TextEncoder().encode('blåbær.no'), NAMESPACE_DNS)).toBe('7a2e6ba5-c8cd-51e3-8d08-9b85b3e8bc36')
})

test('an upper-case namespace gives the same UUID as its lower-case form', () => {
  expect(uuidV5('www.example.com', NAMESPACE_DNS.toUpperCase())).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2')
})

test('every result carries version 5 and the RFC 4122 variant', () => {
  for (let i = 0; i < 50; i++)
    expect(uuidV5(`name-${i}`, NAMESPACE_URL)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
})

test('a namespace that is not a UUID is refused', () => {
  expect(() => uuidV5('x', 'not-a-uuid')).toThrow(TypeError)
})
