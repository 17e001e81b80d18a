/** iCalendar text by RFC 5545's rules: TEXT escaping (§3.3.11), folding at 75 octets (§3.1), CRLF. */
import { describe, expect, test } from 'bun:test'
import { contentLines, escapeText, foldLine, icalDate, icalUtc, property } from '../../src/lib/icalendar.ts'

const octets = (s: string) => new TextEncoder().encode(s).length
const unfold = (s: string) => s.replaceAll('\r\n ', '')

describe('escapeText', () => {
  test('escapes backslash, semicolon and comma', () => {
    expect(escapeText('a\\b;c,d')).toBe('a\\\\b\\;c\\,d')
  })

  test('writes every line break, CRLF, LF or CR, as \\n', () => {
    expect(escapeText('a\r\nb\nc\rd')).toBe('a\\nb\\nc\\nd')
  })

  test('leaves colons, quotes and Norwegian letters alone', () => {
    expect(escapeText('Frist: «Æøå» "x"')).toBe('Frist: «Æøå» "x"')
  })
})

describe('foldLine', () => {
  test('leaves a line of 75 octets whole', () => {
    const line = 'x'.repeat(75)
    expect(foldLine(line)).toBe(line)
  })

  test('folds a longer line into lines of at most 75 octets, each continuation starting with one space', () => {
    const line = `DESCRIPTION:${'a'.repeat(200)}`
    const folded = foldLine(line)
    const parts = folded.split('\r\n')
    expect(parts.length).toBe(3)
    for (const p of parts) expect(octets(p)).toBeLessThanOrEqual(75)
    expect(octets(parts[0]!)).toBe(75)
    for (const p of parts.slice(1)) expect(p.startsWith(' ')).toBe(true)
    expect(unfold(folded)).toBe(line)
  })

  test('never splits a multi-byte character: a line of two-octet letters folds between them', () => {
    const line = `SUMMARY:${'ø'.repeat(80)}`
    const parts = foldLine(line).split('\r\n')
    for (const p of parts) {
      expect(octets(p)).toBeLessThanOrEqual(75)
      expect(p.isWellFormed()).toBe(true)
    }
    // 8 ASCII octets then 33 two-octet letters make 74: the 34th would make 76
    expect(octets(parts[0]!)).toBe(74)
    expect(unfold(foldLine(line))).toBe(line)
  })

  test('keeps a four-octet character (outside the BMP) whole', () => {
    const line = `SUMMARY:${'a'.repeat(66)}😀😀`
    const parts = foldLine(line).split('\r\n')
    expect(parts[0]).toBe(`SUMMARY:${'a'.repeat(66)}`)
    expect(octets(parts[0]!)).toBe(74)
    expect(parts[1]).toBe(' 😀😀')
  })
})

describe('content lines', () => {
  test('each line is folded and ended by CRLF', () => {
    const out = contentLines(['BEGIN:VCALENDAR', `X:${'b'.repeat(100)}`, 'END:VCALENDAR'])
    expect(out.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(out.split('\r\n').every((l) => octets(l) <= 75)).toBe(true)
    expect(/(?<!\r)\n/.test(out)).toBe(false)
  })

  test('a property is NAME;PARAM=value:value', () => {
    expect(property('DTSTART', '20260310', { VALUE: 'DATE' })).toBe('DTSTART;VALUE=DATE:20260310')
  })

  test('dates and UTC date-times in iCalendar’s basic format', () => {
    expect(icalDate('2026-03-10')).toBe('20260310')
    expect(icalUtc(new Date('2026-03-13T23:00:00.000Z'))).toBe('20260313T230000Z')
  })
})
