/**
 * Norwegian public holidays, checked against the law (helligdagsloven § 2, the 1947 act on 1 and
 * 17 May; see shared/reference/rulebook.md §2) and against two independent sources: a Gauss Easter
 * computation written here, and the `date-holidays` package.
 */
import { describe, expect, test } from 'bun:test'
import Holidays from 'date-holidays'
import { easterSunday, holidayOn, publicHolidays } from '../../../src/domain/calendar/holidays.ts'
import { isBusinessDay } from '../../../src/domain/calendar/business-days.ts'
import { dow, gaussEaster, iso, shift } from '../../helpers.ts'

const FIRST_YEAR = 2020
const LAST_YEAR = 2100
const YEARS: number[] = []
for (let y = FIRST_YEAR; y <= LAST_YEAR; y++) YEARS.push(y)

describe('easterSunday', () => {
  test('matches the dates printed in rulebook.md §2 (2025–2028)', () => {
    expect(easterSunday(2025)).toBe('2025-04-20')
    expect(easterSunday(2026)).toBe('2026-04-05')
    expect(easterSunday(2027)).toBe('2027-03-28')
    expect(easterSunday(2028)).toBe('2028-04-16')
  })

  test('the independent Gauss computation agrees with the rulebook dates (sanity check of the oracle)', () => {
    expect(gaussEaster(2025)).toBe('2025-04-20')
    expect(gaussEaster(2026)).toBe('2026-04-05')
    expect(gaussEaster(2027)).toBe('2027-03-28')
    expect(gaussEaster(2028)).toBe('2028-04-16')
    // The two Gauss exceptions, at years where they bite (well-known Gregorian Easter dates).
    expect(gaussEaster(1981)).toBe('1981-04-19') // d = 29, e = 6
    expect(gaussEaster(1954)).toBe('1954-04-18') // d = 28, e = 6, (11M + 11) mod 30 < 19
  })

  test(`equals the Gauss computation for every year ${FIRST_YEAR}–${LAST_YEAR}`, () => {
    const mismatches = YEARS.filter((y) => easterSunday(y) !== gaussEaster(y)).map(
      (y) => `${y}: got ${easterSunday(y)}, expected ${gaussEaster(y)}`,
    )
    expect(mismatches).toEqual([])
  })

  test('is always a Sunday between 22 March and 25 April', () => {
    for (const y of YEARS) {
      const e = easterSunday(y)
      expect(dow(e)).toBe(0)
      expect(e >= iso(y, 3, 22) && e <= iso(y, 4, 25)).toBe(true)
    }
  })
})

/** Public holidays per date-holidays (type 'public' only; 24 and 31 Dec removed if present). */
const dh = new Holidays('NO')
function libraryHolidays(year: number): string[] {
  const dates = dh
    .getHolidays(year)
    .filter((h) => h.type === 'public')
    .map((h) => h.date.slice(0, 10)) // the library's format is 'YYYY-MM-DD HH:mm:ss' (local time)
    .filter((d) => !d.endsWith('-12-24') && !d.endsWith('-12-31'))
  return [...new Set(dates)].sort()
}

function ownHolidays(year: number): string[] {
  return [...new Set(publicHolidays(year).map((h) => h.date))].sort()
}

describe('publicHolidays', () => {
  test(`equals date-holidays' public holidays for Norway, every year ${FIRST_YEAR}–${LAST_YEAR}`, () => {
    const mismatches: string[] = []
    for (const y of YEARS) {
      const ours = ownHolidays(y)
      const theirs = libraryHolidays(y)
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        mismatches.push(`${y}: ours ${ours.join(',')} vs date-holidays ${theirs.join(',')}`)
      }
    }
    expect(mismatches).toEqual([])
  })

  test('has the twelve statutory days, built from Easter Sunday as E−3, E−2, E, E+1, E+39, E+49, E+50', () => {
    for (const y of YEARS) {
      const e = gaussEaster(y)
      const expected = [
        iso(y, 1, 1),
        shift(e, -3),
        shift(e, -2),
        e,
        shift(e, 1),
        iso(y, 5, 1),
        iso(y, 5, 17),
        shift(e, 39),
        shift(e, 49),
        shift(e, 50),
        iso(y, 12, 25),
        iso(y, 12, 26),
      ]
      expect(ownHolidays(y)).toEqual([...new Set(expected)].sort())
    }
  })

  test('every entry lies in its year, is a valid date, has both names, and the list is in date order', () => {
    for (const y of YEARS) {
      const list = publicHolidays(y)
      expect(list.length).toBeGreaterThan(0)
      for (const h of list) {
        expect(h.date.startsWith(`${y}-`)).toBe(true)
        expect(iso(Number(h.date.slice(0, 4)), Number(h.date.slice(5, 7)), Number(h.date.slice(8, 10)))).toBe(h.date)
        expect(h.name_nb.length).toBeGreaterThan(0)
        expect(h.name_en.length).toBeGreaterThan(0)
      }
      const dates = list.map((h) => h.date)
      expect(dates).toEqual([...dates].sort())
    }
  })

  test('holidayOn finds exactly the listed dates', () => {
    for (const y of [2025, 2026, 2027]) {
      const set = new Set(ownHolidays(y))
      for (let d = iso(y, 1, 1); d <= iso(y, 12, 31); d = shift(d, 1)) {
        expect(holidayOn(d) !== null).toBe(set.has(d))
      }
    }
  })

  test('2027: Whit Monday and Constitution Day share 17 May', () => {
    expect(shift(easterSunday(2027), 50)).toBe('2027-05-17')
    expect(holidayOn('2027-05-17')).not.toBeNull()
    expect(isBusinessDay('2027-05-17')).toBe(false)
  })
})

describe('days that are NOT holidays (rulebook.md §2)', () => {
  test('24 Dec and 31 Dec are working days whenever they fall Monday–Friday', () => {
    let weekdaysSeen = 0
    for (const y of YEARS) {
      for (const d of [iso(y, 12, 24), iso(y, 12, 31)]) {
        expect(holidayOn(d)).toBeNull()
        const wd = dow(d)
        const monToFri = wd >= 1 && wd <= 5
        if (monToFri) weekdaysSeen++
        expect(isBusinessDay(d)).toBe(monToFri)
      }
    }
    expect(weekdaysSeen).toBeGreaterThan(100)
  })

  test('Easter Saturday and Whit Saturday are not holidays (always Saturdays, so closed only as Saturdays)', () => {
    // Both are by construction Saturdays, so "working day when Mon–Fri" never arises; what the
    // law requires is that they are not holidays: they stop deadlines only because dstl. § 149 and
    // sktbl. § 10-2 name Saturdays.
    for (const y of YEARS) {
      const e = easterSunday(y)
      for (const d of [shift(e, -1), shift(e, 48)]) {
        expect(dow(d)).toBe(6)
        // Whit Saturday can coincide with Constitution Day (17 May, e.g. 2059); only then is it a holiday.
        if (!d.endsWith('-05-17')) expect(holidayOn(d)).toBeNull()
        expect(isBusinessDay(d)).toBe(false)
      }
    }
  })

  test('the Wednesday before Maundy Thursday is a working day', () => {
    for (const y of YEARS) {
      const d = shift(easterSunday(y), -4)
      expect(dow(d)).toBe(3)
      expect(holidayOn(d)).toBeNull()
      expect(isBusinessDay(d)).toBe(true)
    }
  })

  test('named examples: 24 Dec 2025 (Wed), 31 Dec 2025 (Wed), 24 Dec 2026 (Thu), 31 Dec 2026 (Thu), 24 Dec 2027 (Fri), 31 Dec 2027 (Fri)', () => {
    for (const d of ['2025-12-24', '2025-12-31', '2026-12-24', '2026-12-31', '2027-12-24', '2027-12-31']) {
      expect(isBusinessDay(d)).toBe(true)
    }
  })
})

describe('working-day holidays named in rulebook.md §2 (2025–2027)', () => {
  // Copied from the rulebook's list "Working-day holidays (Mon–Fri) that matter in 2025–2027".
  const named: Record<number, string[]> = {
    2025: [
      '2025-01-01',
      '2025-04-17',
      '2025-04-18',
      '2025-04-21',
      '2025-05-01',
      '2025-05-29',
      '2025-06-09',
      '2025-12-25',
      '2025-12-26',
    ],
    2026: [
      '2026-01-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-06',
      '2026-05-01',
      '2026-05-14',
      '2026-05-25',
      '2026-12-25',
    ],
    2027: ['2027-01-01', '2027-03-25', '2027-03-26', '2027-03-29', '2027-05-06', '2027-05-17'],
  }
  // The rulebook's "falling on weekends, so no extra effect" list.
  const onWeekends: Record<number, string[]> = {
    2025: ['2025-05-17'],
    2026: ['2026-05-17', '2026-12-26'],
    2027: ['2027-05-01', '2027-12-25', '2027-12-26'],
  }

  for (const y of [2025, 2026, 2027]) {
    test(`${y}: the Mon–Fri holidays are exactly the named ones`, () => {
      const monToFri = ownHolidays(y).filter((d) => dow(d) >= 1 && dow(d) <= 5)
      expect(monToFri).toEqual(named[y]!)
      for (const d of named[y]!) expect(isBusinessDay(d)).toBe(false)
    })

    test(`${y}: the fixed-date holidays listed as falling on a weekend do fall on a weekend`, () => {
      for (const d of onWeekends[y]!) {
        expect(holidayOn(d)).not.toBeNull()
        expect([0, 6]).toContain(dow(d))
      }
    })
  }
})
