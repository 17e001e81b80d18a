/**
 * The seven rules rulebook 1.1.0 added, checked for every deadline falling in 2025–2030 against
 * dates derived here from the due rules as the research notes state them (rulebook 1.1 notes §§ 1–7),
 * NOT from the implementation: the only src import is the calendar under test. Weekdays and holidays
 * come from the independent oracle (Gauss's Easter, plain UTC arithmetic).
 *
 *   generalforsamling           YYYY   30 June after the year               never moves
 *   arsregnskap-fastsetting     YYYY   30 June after the year               never moves
 *   apenhetsloven-redegjorelse  YYYY   30 June after the year               never moves
 *   tilleggsforskudd            YYYY   31 May after the year                next working day
 *   mva-manedlig                YYYY-MM 10th of the second month after     next working day (no 31 Aug exception)
 *   mva-arstermin-primaer       YYYY-A 10 April after the year              next working day
 *   mva-omvendt-avgiftsplikt    YYYY-Qn 10th of the second month after      next working day (Q2: 10 Aug, the earlier
 *                                      the quarter (Q4: 10 Feb)             of the two contested dates)
 *
 * Anchors stated in the notes, checked below before the oracle is trusted: tilleggsforskudd 2024 →
 * Mon 2 Jun 2025 (31 May Sat), 2025 → Mon 1 Jun 2026 (Sun); mva-arstermin-primaer 2026-A → Mon
 * 12 Apr 2027 (Sat); mva-omvendt-avgiftsplikt 2025-Q1 → Mon 12 May 2025 (Sat), 2026-Q1 → Mon 11 May
 * 2026 (Sun); 30 June is Mon/Tue/Wed/Fri in 2025–2028, Sat in 2029 and Sun in 2030.
 */
import { describe, expect, test } from 'bun:test'
import { publicDeadlines } from '../../../src/domain/rulebook/public.ts'
import { dow, firstWorkingDayFrom, iso, osloEndOfDay } from '../../helpers.ts'

interface Expected {
  id: string
  rule: string
  period: string
  legal: string
  due: string
  types: string[]
  /** a word the legal reference must contain */
  law: string
}

const ALL = ['AS', 'ENK', 'ANS', 'DA', 'NUF']
const pad = (n: number) => String(n).padStart(2, '0')

/** The periods of period-year `y` for each rule, with the legal date as the notes state it. */
function periodsOf(y: number): Omit<Expected, 'due'>[] {
  const out: Omit<Expected, 'due'>[] = []
  out.push({
    id: `generalforsamling-${y}`,
    rule: 'generalforsamling',
    period: `${y}`,
    legal: iso(y + 1, 6, 30),
    types: ['AS'],
    law: 'aksjeloven',
  })
  out.push({
    id: `arsregnskap-fastsetting-${y}`,
    rule: 'arsregnskap-fastsetting',
    period: `${y}`,
    legal: iso(y + 1, 6, 30),
    types: ['AS', 'ENK', 'ANS', 'DA'],
    law: 'regnskapsloven',
  })
  out.push({
    id: `apenhetsloven-redegjorelse-${y}`,
    rule: 'apenhetsloven-redegjorelse',
    period: `${y}`,
    legal: iso(y + 1, 6, 30),
    types: ['AS', 'ANS', 'DA', 'NUF'],
    law: 'åpenhetsloven',
  })
  out.push({
    id: `tilleggsforskudd-${y}`,
    rule: 'tilleggsforskudd',
    period: `${y}`,
    legal: iso(y + 1, 5, 31),
    types: ['AS', 'ENK', 'NUF'],
    law: 'skattebetalingsloven',
  })
  out.push({
    id: `mva-arstermin-primaer-${y}`,
    rule: 'mva-arstermin-primaer',
    period: `${y}-A`,
    legal: iso(y + 1, 4, 10),
    types: ALL,
    law: '8-3-7',
  })
  for (let m = 1; m <= 12; m++) {
    // iso() normalises month 13/14 into the next year
    out.push({
      id: `mva-manedlig-${y}-${pad(m)}`,
      rule: 'mva-manedlig',
      period: `${y}-${pad(m)}`,
      legal: iso(y, m + 2, 10),
      types: ALL,
      law: '8-3-2',
    })
  }
  for (let q = 1; q <= 4; q++) {
    out.push({
      id: `mva-omvendt-avgiftsplikt-${q}-${y}`,
      rule: 'mva-omvendt-avgiftsplikt',
      period: `${y}-Q${q}`,
      legal: iso(y, q * 3 + 2, 10),
      types: ALL,
      law: '11-3',
    })
  }
  return out
}

const NEVER_MOVES = new Set(['generalforsamling', 'arsregnskap-fastsetting', 'apenhetsloven-redegjorelse'])
const NEW_RULES = new Set([
  'generalforsamling',
  'arsregnskap-fastsetting',
  'apenhetsloven-redegjorelse',
  'tilleggsforskudd',
  'mva-manedlig',
  'mva-arstermin-primaer',
  'mva-omvendt-avgiftsplikt',
])

/** Every deadline of the seven rules whose (shifted) date falls in calendar year `year`. */
function expectedFor(year: number): Expected[] {
  const out: Expected[] = []
  for (let y = year - 2; y <= year; y++) {
    for (const p of periodsOf(y)) {
      const due = NEVER_MOVES.has(p.rule) ? p.legal : firstWorkingDayFrom(p.legal)
      if (due.startsWith(`${year}-`)) out.push({ ...p, due })
    }
  }
  return out
}

const YEARS = [2025, 2026, 2027, 2028, 2029, 2030]

describe('the derived table itself', () => {
  test('the weekday anchors the notes state', () => {
    expect(['2026-06-30', '2027-06-30', '2028-06-30'].map(dow)).toEqual([2, 3, 5])
    expect(dow('2025-06-30')).toBe(1)
    expect(dow('2029-06-30')).toBe(6)
    expect(dow('2030-06-30')).toBe(0)
  })

  test('the shifted cases the notes work out by hand', () => {
    const due = (id: string) => YEARS.flatMap(expectedFor).find((e) => e.id === id)!.due
    expect(due('tilleggsforskudd-2024')).toBe('2025-06-02')
    expect(due('tilleggsforskudd-2025')).toBe('2026-06-01')
    expect(due('tilleggsforskudd-2026')).toBe('2027-05-31')
    expect(due('tilleggsforskudd-2027')).toBe('2028-05-31')
    expect(due('mva-arstermin-primaer-2026')).toBe('2027-04-12')
    expect(due('mva-omvendt-avgiftsplikt-1-2025')).toBe('2025-05-12')
    expect(due('mva-omvendt-avgiftsplikt-1-2026')).toBe('2026-05-11')
    // monthly May and June: no summer exception
    expect(due('mva-manedlig-2026-05')).toBe('2026-07-10')
    expect(due('mva-manedlig-2026-06')).toBe('2026-08-10')
    // the weekend cases past 2028: 30 June 2029 is a Saturday and 2030 a Sunday, and they stay
    expect(due('generalforsamling-2028')).toBe('2029-06-30')
    expect(due('arsregnskap-fastsetting-2029')).toBe('2030-06-30')
    expect(due('apenhetsloven-redegjorelse-2028')).toBe('2029-06-30')
  })

  test('per year: one general meeting, one adoption, one account, one additional advance, one primary-industry return, twelve months, four quarters', () => {
    for (const year of YEARS) {
      const count = (rule: string) => expectedFor(year).filter((e) => e.rule === rule).length
      expect([
        year,
        ...[
          'generalforsamling',
          'arsregnskap-fastsetting',
          'apenhetsloven-redegjorelse',
          'tilleggsforskudd',
          'mva-arstermin-primaer',
          'mva-manedlig',
          'mva-omvendt-avgiftsplikt',
        ].map(count),
      ]).toEqual([year, 1, 1, 1, 1, 1, 12, 4])
    }
  })
})

for (const year of YEARS) {
  describe(`publicDeadlines(${year}): the seven 1.1.0 rules`, () => {
    const want = expectedFor(year)
    const got = publicDeadlines(year).filter((d) => NEW_RULES.has(d.rule_id))
    const byId = new Map(got.map((d) => [d.obligation_id, d]))

    test('lists exactly the derived ids (nothing missing, nothing extra, no duplicates)', () => {
      const ids = got.map((d) => d.obligation_id)
      expect(ids.length).toBe(new Set(ids).size)
      expect([...ids].sort()).toEqual(want.map((e) => e.id).sort())
    })

    test('each deadline is the end of the derived Oslo due day', () => {
      const wrong = want
        .filter((e) => byId.get(e.id)?.deadline !== osloEndOfDay(e.due))
        .map((e) => `${e.id}: got ${byId.get(e.id)?.deadline}, expected ${osloEndOfDay(e.due)}`)
      expect(wrong).toEqual([])
    })

    test('adjusted_from is the legal date exactly where the date moved, and null elsewhere', () => {
      const wrong = want
        .filter((e) => {
          const d = byId.get(e.id)
          const moved = e.due !== e.legal
          return !d || d.adjusted_from !== (moved ? osloEndOfDay(e.legal) : null) || d.business_day_adjusted !== moved
        })
        .map((e) => e.id)
      expect(wrong).toEqual([])
    })

    test('rule_id, period label, entity types and legal reference', () => {
      for (const e of want) {
        const d = byId.get(e.id)!
        expect({ id: e.id, rule: d.rule_id, period: d.period, types: d.applies_to_entity_types as string[] }).toEqual({
          id: e.id,
          rule: e.rule,
          period: e.period,
          types: e.types,
        })
        expect(d.legal_reference).toContain(e.law)
      }
    })

    test('a date that never moves says why exactly when it falls on a weekend or holiday', () => {
      for (const e of want.filter((x) => NEVER_MOVES.has(x.rule))) {
        const d = byId.get(e.id)!
        const weekend = dow(e.legal) === 0 || dow(e.legal) === 6
        expect({ id: e.id, explained: d.not_adjusted_reason !== null }).toEqual({ id: e.id, explained: weekend })
      }
    })
  })
}

describe('the contested Q2 date of mva-omvendt-avgiftsplikt', () => {
  test.each(YEARS)('Q2 %i answers 10 August (the earlier date) and names both dates and their sources', (year) => {
    const d = publicDeadlines(year).find((x) => x.obligation_id === `mva-omvendt-avgiftsplikt-2-${year}`)!
    expect(d.deadline).toBe(osloEndOfDay(firstWorkingDayFrom(`${year}-08-10`)))
    const note = d.uncertainties!.find((u) => u.contested_dates !== null)!
    expect(note.contested_dates!.map((c) => [c.date, c.answered])).toEqual([
      [`${year}-08-10`, true],
      [`${year}-08-31`, false],
    ])
    expect(note.contested_dates![0]!.sources.join(' ')).toContain('RF-0005')
    expect(note.contested_dates![1]!.sources.join(' ')).toContain('Skatteforvaltningshåndboken')
    expect(note.note.nb).toContain('31. august')
    expect(note.note.en).toContain('10 August')
    expect(note.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  test('the other quarters carry no contested date', () => {
    const others = publicDeadlines(2026).filter(
      (x) => x.rule_id === 'mva-omvendt-avgiftsplikt' && !x.period.endsWith('-Q2'),
    )
    expect(others.map((x) => x.period)).toEqual(['2025-Q4', '2026-Q1', '2026-Q3']) // 2026-Q4 falls due in 2027
    expect(others.every((x) => !x.uncertainties?.some((u) => u.contested_dates))).toBe(true)
  })
})
