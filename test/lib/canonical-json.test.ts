import { expect, test } from 'bun:test'
import { canonicalJson } from '../../src/lib/canonical-json.ts'

// Vectors from RFC 8785 §3.2.2 (structures), §3.2.3 (sorting) and Appendix B (numbers).
test('sorts members by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
  const input = {
    '\u20ac': 'Euro Sign',
    '\r': 'Carriage Return',
    '\ufb33': 'Hebrew Letter Dalet With Dagesh',
    '1': 'One',
    '\ud83d\ude00': 'Emoji: Grinning Face',
    '\u0080': 'Control',
    '\u00f6': 'Latin Small Letter O With Diaeresis',
  }
  expect(canonicalJson(input)).toBe(
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  )
})

test('sorts nested members too', () => {
  expect(canonicalJson({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: null })).toBe(
    '{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}',
  )
})

test('serialises the RFC 8785 structure example byte for byte', () => {
  const input = JSON.parse(
    '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
  )
  expect(canonicalJson(input)).toBe(
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
  )
})

test('drops undefined members and refuses non-finite numbers', () => {
  expect(canonicalJson({ b: 1, a: undefined })).toBe('{"b":1}')
  expect(() => canonicalJson({ n: Number.NaN })).toThrow()
})

test('uses toJSON, so dates serialise as ISO strings', () => {
  expect(canonicalJson({ at: new Date('2026-01-01T00:00:00Z') })).toBe('{"at":"2026-01-01T00:00:00.000Z"}')
})
