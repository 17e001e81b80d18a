/**
 * The shapes a saved profile refuses: each credential we mint or accept, JWTs, bearer credentials
 * and identity numbers, found inside longer text too; and the ordinary strings that only resemble
 * one, which pass.
 */
import { describe, expect, test } from 'bun:test'
import { secretShapeOf } from '../../../src/domain/profiles/secret-shapes.ts'

describe('what is recognised', () => {
  test.each([
    ['svc_live_Ab3x9', 'an API key (svc_live_…)'],
    ['svc_free_Ab3x9', 'an API key (svc_free_…)'],
    ['svc_test_Ab3x9', 'an API key (svc_test_…)'],
    ['svc_issue_Ab3x9', 'an issuance token (svc_issue_…)'],
    ['svc_sandbox_test_agent-1', 'a sandbox bearer (svc_sandbox_test_…)'],
    ['apt_0123456789abcdefABCD', 'an approval token (apt_…)'],
    ['whsec_0123456789abcdefABCD', 'a webhook secret (whsec_…)'],
    ['eyJhbGciOiJSUzI1NiJ9.eyJzY29wZSI6Im12YSJ9.c2lnbmF0dXJl', 'a JWT (such as a Maskinporten, Altinn or OAuth token)'],
    ['eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'a JWT (such as a Maskinporten, Altinn or OAuth token)'],
    ['Bearer abcdefgh12345678', 'a bearer credential (Bearer …)'],
    ['authorization: bearer abcdefgh12345678', 'a bearer credential (Bearer …)'],
    ['12046823441', 'an identity number (fødselsnummer or D-number)'],
    ['52046823435', 'an identity number (fødselsnummer or D-number)'],
  ])('%s is %s', (s, what) => {
    expect(secretShapeOf(s)).toBe(what)
  })

  test('inside longer text too', () => {
    expect(secretShapeOf('use key svc_live_Ab3x9 for this')).toContain('API key')
    expect(secretShapeOf('https://x.no/?token=eyJhbGciOiJSUzI1NiJ9.eyJzY29wZSI6Im12YSJ9.c2ln&x=1')).toContain('JWT')
    expect(secretShapeOf('fnr: 12046823441.')).toContain('identity number')
  })

  test.each([
    '120468 23441',
    '120468-23441',
    '120468.23441',
    '120468\u00a023441',
    '12 04 68 234 41',
    '12.04.68 23441',
    'fnr 120468-23441, takk',
  ])('with separators, %s is an identity number', (s) => {
    expect(secretShapeOf(s)).toBe('an identity number (fødselsnummer or D-number)')
  })
})

describe('what passes', () => {
  test.each([
    ['adapt_the_settings', 'apt_ at the end of a word'],
    ['apt_short', 'apt_ with fewer than 16 characters after it'],
    ['bearer of good news', 'the word bearer before ordinary words'],
    ['12046823442', 'eleven digits whose control digits are wrong'],
    ['120468234411', 'twelve digits'],
    ['eyJ.a.b', 'a too-short first segment'],
    ['2026-T1', 'a period'],
    ['984661185', 'an organisation number'],
    ['120468 23442', 'separated digits whose control digits are wrong'],
    ['120468 234411', 'separated digits that make twelve'],
    ['984 661 185', 'a separated organisation number'],
  ])('%s (%s)', (s) => {
    expect(secretShapeOf(s)).toBeNull()
  })

  test('64 KiB of repeated prefixes and fragments is no secret, and is answered', () => {
    for (const unit of ['eyJ', 'eyJa.', 'apt_', 'whsec_', 'bearer ', '1', '1 ', '12-'])
      expect(secretShapeOf(unit.repeat(Math.ceil(65_536 / unit.length)))).toBeNull()
  })
})
