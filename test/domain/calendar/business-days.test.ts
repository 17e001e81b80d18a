/**
 * Working days and the roll-over to the next working day (sktfvl. § 5-5 (2) with dstl. §§ 148–149;
 * sktbl. § 10-2; rulebook.md §1–2). The oracle here is independent of src: weekdays from
 * Date.getUTCDay, holidays from a Gauss Easter and the statutory list.
 */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { isBusinessDay, nextBusinessDay } from '../../../src/domain/calendar/business-days.ts'
import { dow, gaussEaster, shift } from '../../helpers.ts'

const DAY_MS = 86_400_000
const START = Date.UTC(2020, 0, 1)
const END = Date.UTC(2100, 11, 31)
const SPAN_DAYS = Math.round((END - START) / DAY_MS)

function fromIndex(i: number): string {
  return new Date(START + i * DAY_MS).toISOString().slice(0, 10)
}

const holidayCache = new Map<number, Set<string>>()
/** Statutory public holidays (helligdagsloven § 2; 1 and 17 May); Sundays are handled separately. */
function isHoliday(date: string): boolean {
  const year = Number(date.slice(0, 4))
  let set = holidayCache.get(year)
  if (!set) {
    const e = gaussEaster(year)
    const y = String(year)
    set = new Set([
      `${y}-01-01`,
      shift(e, -3),
      shift(e, -2),
      e,
      shift(e, 1),
      `${y}-05-01`,
      `${y}-05-17`,
      shift(e, 39),
      shift(e, 49),
      shift(e, 50),
      `${y}-12-25`,
      `${y}-12-26`,
    ])
    holidayCache.set(year, set)
  }
  return set.has(date)
}

function isWorkingDay(date: string): boolean {
  const wd = dow(date)
  return wd !== 0 && wd !== 6 && !isHoliday(date)
}

/** The kinds a skipped day may carry: a holiday on a weekend may be reported either way. */
function allowedKinds(date: string): string[] {
  const kinds: string[] = []
  if (isHoliday(date)) kinds.push('public_holiday')
  if (dow(date) === 6) kinds.push('saturday')
  if (dow(date) === 0) kinds.push('sunday')
  return kinds
}

const anyDate = fc.integer({ min: 0, max: SPAN_DAYS }).map(fromIndex)
/** Dates biased toward the awkward stretches: Easter, Whitsun, May and Christmas. */
const awkwardDate = fc
  .tuple(
    fc.integer({ min: 2020, max: 2100 }),
    fc.constantFrom(-5, -4, -3, -2, -1, 0, 1, 37, 38, 39, 46, 47, 48, 49, 50),
    fc.integer({ min: 0, max: 1 }),
  )
  .map(([year, offset, which]) =>
    which === 0 ? shift(gaussEaster(year), offset) : `${year}-12-${String(22 + ((offset + 5) % 10)).padStart(2, '0')}`,
  )
const dates = fc.oneof(
  anyDate,
  awkwardDate,
  fc
    .integer({ min: 2020, max: 2100 })
    .chain((y) =>
      fc.constantFrom(
        `${y}-04-29`,
        `${y}-04-30`,
        `${y}-05-01`,
        `${y}-05-15`,
        `${y}-05-16`,
        `${y}-05-17`,
        `${y}-12-31`,
        `${y}-01-01`,
      ),
    ),
)

const RUNS = { numRuns: 3000 }

describe('isBusinessDay', () => {
  test('agrees with the statutory oracle on every day 2020-01-01..2100-12-31', () => {
    const wrong: string[] = []
    for (let i = 0; i <= SPAN_DAYS; i++) {
      const d = fromIndex(i)
      if (isBusinessDay(d) !== isWorkingDay(d)) wrong.push(d)
    }
    expect(wrong).toEqual([])
  })
})

describe('nextBusinessDay — properties over 2020-01-01..2100-12-31', () => {
  test('the result is a working day', () => {
    fc.assert(
      fc.property(dates, (d) => {
        const r = nextBusinessDay(d).date
        expect(isBusinessDay(r)).toBe(true)
        expect(isWorkingDay(r)).toBe(true)
      }),
      RUNS,
    )
  })

  test('the result is never before the input', () => {
    fc.assert(
      fc.property(dates, (d) => {
        expect(nextBusinessDay(d).date >= d).toBe(true)
      }),
      RUNS,
    )
  })

  test('the result equals the input iff the input is a working day', () => {
    fc.assert(
      fc.property(dates, (d) => {
        expect(nextBusinessDay(d).date === d).toBe(isWorkingDay(d))
      }),
      RUNS,
    )
  })

  test('every day from the input up to (not including) the result is a non-working day, so the result is the first working day', () => {
    fc.assert(
      fc.property(dates, (d) => {
        const r = nextBusinessDay(d).date
        for (let x = d; x < r; x = shift(x, 1)) expect(isWorkingDay(x)).toBe(false)
      }),
      RUNS,
    )
  })

  test('skipped lists exactly those non-working days, in order, each with a fitting reason', () => {
    fc.assert(
      fc.property(dates, (d) => {
        const { date: r, skipped } = nextBusinessDay(d)
        const expected: string[] = []
        for (let x = d; x < r; x = shift(x, 1)) expected.push(x)
        expect(skipped.map((s) => s.date)).toEqual(expected)
        for (const s of skipped) expect(allowedKinds(s.date)).toContain(s.kind)
      }),
      RUNS,
    )
  })

  test('never skips more than five days (longest chain: Maundy Thursday to Easter Monday)', () => {
    fc.assert(
      fc.property(dates, (d) => {
        expect(nextBusinessDay(d).skipped.length).toBeLessThanOrEqual(5)
      }),
      RUNS,
    )
  })
})

describe('nextBusinessDay — chains', () => {
  test('2026-04-02 (Maundy Thursday) → 2026-04-07 over Good Friday, Saturday, Easter Sunday and Easter Monday', () => {
    const r = nextBusinessDay('2026-04-02')
    expect(r.date).toBe('2026-04-07')
    expect(r.skipped.map((s) => s.date)).toEqual(['2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05', '2026-04-06'])
    expect(r.skipped[0]!.kind).toBe('public_holiday')
    expect(r.skipped[1]!.kind).toBe('public_holiday')
    expect(r.skipped[2]!.kind).toBe('saturday') // Easter Saturday is not a holiday
    expect(r.skipped[4]!.kind).toBe('public_holiday')
  })

  test('2027-05-15 (Saturday) → 2027-05-18 over Whit Sunday and Whit Monday/Constitution Day', () => {
    const r = nextBusinessDay('2027-05-15')
    expect(r.date).toBe('2027-05-18')
    expect(r.skipped.map((s) => s.date)).toEqual(['2027-05-15', '2027-05-16', '2027-05-17'])
    expect(r.skipped[0]!.kind).toBe('saturday') // Whit Saturday is not a holiday
    expect(r.skipped[2]!.kind).toBe('public_holiday')
  })

  test('2026-12-24 (Thursday, Christmas Eve) is itself a working day', () => {
    const r = nextBusinessDay('2026-12-24')
    expect(r.date).toBe('2026-12-24')
    expect(r.skipped).toEqual([])
  })

  test('2026-12-25 (Friday, Christmas Day) → 2026-12-28 over Boxing Day (Saturday) and Sunday', () => {
    const r = nextBusinessDay('2026-12-25')
    expect(r.date).toBe('2026-12-28')
    expect(r.skipped.map((s) => s.date)).toEqual(['2026-12-25', '2026-12-26', '2026-12-27'])
    expect(r.skipped[0]!.kind).toBe('public_holiday')
  })

  test('more roll-overs from the deadline table: 2026-04-05 → 2026-04-07, 2025-05-31 → 2025-06-02, 2026-05-31 → 2026-06-01, 2026-01-31 → 2026-02-02', () => {
    expect(nextBusinessDay('2026-04-05').date).toBe('2026-04-07')
    expect(nextBusinessDay('2025-05-31').date).toBe('2025-06-02')
    expect(nextBusinessDay('2026-05-31').date).toBe('2026-06-01')
    expect(nextBusinessDay('2026-01-31').date).toBe('2026-02-02')
  })

  test('31 December is a working day when Mon–Fri: 2025-12-31 (Wednesday) → itself; 2027-12-31 (Friday) → itself', () => {
    expect(nextBusinessDay('2025-12-31').date).toBe('2025-12-31')
    expect(nextBusinessDay('2027-12-31').date).toBe('2027-12-31')
  })
})
