/**
 * Properties every rule's dated deadlines keep, over random period years 2020–2100, checked against
 * the independent working-day oracle: a date that moves lands on the first working day on or after
 * the legal date; a date the law does not move never moves, and says why whenever it sits on a
 * weekend or holiday.
 */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { RULES } from '../../../src/domain/rulebook/rules.ts'
import { instanceOf, instanceUncertainties, keptNote } from '../../../src/domain/rulebook/schedule.ts'
import { firstWorkingDayFrom, isWorkingDay } from '../../helpers.ts'

const years = fc.integer({ min: 2020, max: 2100 })
const RUNS = { numRuns: 300 }
const instancesOf = (year: number) => RULES.flatMap((rule) => rule.periods(year).map((p) => instanceOf(rule, p)))

describe('deadlines of every rule — properties over period years 2020–2100', () => {
  test('a rule that moves dates lands on a working day: the first one on or after the legal date', () => {
    fc.assert(
      fc.property(years, (y) => {
        for (const inst of instancesOf(y).filter((i) => i.rule.shift.policy === 'next_business_day')) {
          expect(isWorkingDay(inst.due)).toBe(true)
          expect({ id: inst.id, due: inst.due }).toEqual({ id: inst.id, due: firstWorkingDayFrom(inst.legal_due) })
          expect(inst.shifted).toBe(inst.due !== inst.legal_due)
        }
      }),
      RUNS,
    )
  })

  test('a rule the law does not move keeps its legal date, weekend or not', () => {
    fc.assert(
      fc.property(years, (y) => {
        for (const inst of instancesOf(y).filter((i) => i.rule.shift.policy === 'none')) {
          expect({ id: inst.id, due: inst.due, shifted: inst.shifted }).toEqual({
            id: inst.id,
            due: inst.legal_due,
            shifted: false,
          })
        }
      }),
      RUNS,
    )
  })

  test('a date kept on a weekend or holiday says why, in both languages; a working-day date says nothing', () => {
    fc.assert(
      fc.property(years, (y) => {
        for (const inst of instancesOf(y).filter((i) => i.rule.shift.policy === 'none')) {
          const note = keptNote(inst)
          if (isWorkingDay(inst.legal_due)) expect(note).toBeNull()
          else {
            expect(note).not.toBeNull()
            expect(note!.nb).not.toBe(note!.en)
          }
        }
      }),
      RUNS,
    )
  })

  test('a contested date answers the earliest date the sources give', () => {
    fc.assert(
      fc.property(years, (y) => {
        for (const inst of instancesOf(y)) {
          for (const u of instanceUncertainties(inst).filter((x) => x.contested_dates)) {
            const dates = u.contested_dates!.map((c) => c.date).sort()
            expect({ id: inst.id, legal: inst.legal_due }).toEqual({ id: inst.id, legal: dates[0]! })
            expect(u.contested_dates!.filter((c) => c.answered).map((c) => c.date)).toEqual([inst.legal_due])
          }
        }
      }),
      RUNS,
    )
  })
})

describe('the weekend cases past 2028', () => {
  const inst = (ruleId: string, year: number) => {
    const rule = RULES.find((r) => r.id === ruleId)!
    return instanceOf(rule, rule.periods(year)[0]!)
  }

  test.each(['generalforsamling', 'arsregnskap-fastsetting', 'apenhetsloven-redegjorelse'])(
    '%s for 2028 stays on Saturday 30 June 2029 and says why',
    (id) => {
      const i = inst(id, 2028)
      expect([i.legal_due, i.due, i.shifted]).toEqual(['2029-06-30', '2029-06-30', false])
      expect(keptNote(i)!.nb).toContain('30. juni 2029 er en lørdag')
      expect(keptNote(i)!.en).toContain('30 June 2029 is a Saturday')
    },
  )

  test('the general meeting for 2028 carries the note that "no shift" rests on the absence of a rule; 2027 (a Friday) does not', () => {
    expect(instanceUncertainties(inst('generalforsamling', 2028)).map((u) => u.id)).toContain(
      'generalforsamling-ingen-helgeregel',
    )
    expect(instanceUncertainties(inst('generalforsamling', 2027)).map((u) => u.id)).not.toContain(
      'generalforsamling-ingen-helgeregel',
    )
  })

  test('the additional advance for 2029 stays on Friday 31 May 2030; for 2030, Saturday 31 May 2031, Whit Sunday and Whit Monday pass to Tuesday 3 June', () => {
    expect(inst('tilleggsforskudd', 2029).due).toBe('2030-05-31')
    expect(inst('tilleggsforskudd', 2030)).toMatchObject({ legal_due: '2031-05-31', due: '2031-06-03', shifted: true })
    expect(inst('tilleggsforskudd', 2030).skipped.map((s) => s.date)).toEqual([
      '2031-05-31',
      '2031-06-01',
      '2031-06-02',
    ])
  })
})

describe('uncertainty notes', () => {
  test('every note is dated, sourced and bilingual', () => {
    for (const rule of RULES) {
      for (const n of rule.uncertainties ?? []) {
        expect(n.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(n.sources.length).toBeGreaterThan(0)
        for (const s of n.sources) expect(s.url === null || s.url.startsWith('https://')).toBe(true)
        expect(n.nb.length).toBeGreaterThan(20)
        expect(n.en.length).toBeGreaterThan(20)
        expect(n.nb).not.toBe(n.en)
      }
    }
  })

  test('note ids are unique within a rule', () => {
    for (const rule of RULES) {
      const ids = (rule.uncertainties ?? []).map((n) => n.id)
      expect(ids.length).toBe(new Set(ids).size)
    }
  })
})
