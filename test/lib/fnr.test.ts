/**
 * The birth date an identity number encodes: ordinary numbers by century, D-numbers, the two kinds
 * of synthetic test number, and numbers that encode no date. The numbers below were built by hand
 * (DDMMYY, an individual number, control digits worked out with the published weights).
 */
import { describe, expect, test } from 'bun:test'
import { birthDateOf, isIdentityNumber, sameBirthDate } from '../../src/lib/fnr.ts'

describe('birthDateOf', () => {
  test.each([
    ['12046823441', { day: 12, month: 4, yy: 68, year: 1968 }, 'individual number 234: 1900s'],
    ['01010550048', { day: 1, month: 1, yy: 5, year: 2005 }, 'individual number 500 with year 05: 2000s'],
    ['01016095040', { day: 1, month: 1, yy: 60, year: 1960 }, 'individual number 950 with year 60: 1900s'],
    ['01015560041', { day: 1, month: 1, yy: 55, year: 1855 }, 'individual number 600 with year 55: 1800s'],
  ])('%s encodes %o (%s)', (fnr, expected) => {
    expect(isIdentityNumber(fnr)).toBe(true)
    expect(birthDateOf(fnr)).toEqual(expected)
  })

  test('a D-number (day + 40) encodes the day less 40', () => {
    expect(birthDateOf('52046823435')).toEqual({ day: 12, month: 4, yy: 68, year: 1968 })
  })

  test('a synthetic number with month + 80 (Skatteetaten) encodes the month less 80', () => {
    expect(birthDateOf('12846823407')).toEqual({ day: 12, month: 4, yy: 68, year: 1968 })
  })

  test('a synthetic number with month + 40 (NAV, H-numbers) encodes the month less 40', () => {
    expect(birthDateOf('12446823424')).toEqual({ day: 12, month: 4, yy: 68, year: 1968 })
  })

  test('a help number (first digit 8) encodes no birth date', () => {
    expect(isIdentityNumber('87010100052')).toBe(true)
    expect(birthDateOf('87010100052')).toBeNull()
  })

  test('a date that does not exist (31 February) encodes no birth date', () => {
    expect(isIdentityNumber('31029912370')).toBe(true)
    expect(birthDateOf('31029912370')).toBeNull()
  })

  test('29 February stands in a leap year and not in another', () => {
    expect(birthDateOf('29020050088')).toEqual({ day: 29, month: 2, yy: 0, year: 2000 })
    expect(birthDateOf('29020150260')).toBeNull()
  })
})

describe('sameBirthDate', () => {
  const encoded = { day: 12, month: 4, yy: 68, year: 1968 }

  test('the same day is the same birth date', () => {
    expect(sameBirthDate(encoded, '1968-04-12')).toBe(true)
  })

  test('the same day and month a century apart is not', () => {
    expect(sameBirthDate(encoded, '2068-04-12')).toBe(false)
  })

  test('with the century unknown, the two-digit year decides', () => {
    const open = { ...encoded, year: null }
    expect(sameBirthDate(open, '1868-04-12')).toBe(true)
    expect(sameBirthDate(open, '1969-04-12')).toBe(false)
  })

  test('a date that is not YYYY-MM-DD matches nothing', () => {
    expect(sameBirthDate(encoded, '12.04.1968')).toBe(false)
  })
})
