/**
 * Dated exceptions are data: a row (rule, period, new date, legal basis) moves one period's date,
 * and the calendar follows without a line of rule code. The rows here are made up for the test.
 */
import { describe, expect, test } from 'bun:test'
import { DATED_EXCEPTIONS, withExceptions, type DatedException } from '../../../src/domain/rulebook/exceptions.ts'
import { publicDeadlines } from '../../../src/domain/rulebook/public.ts'
import { RULES } from '../../../src/domain/rulebook/rules.ts'

const MADE_UP: DatedException = {
  rule_id: 'generalforsamling',
  period: '2031',
  due: '2032-08-31',
  legal_reference: 'midlertidig lov om utsatt generalforsamling (oppdiktet, bare for testen) § 1',
}

const entry = (rules: typeof RULES, year: number, id: string) =>
  publicDeadlines(year, undefined, rules).find((d) => d.obligation_id === id)

describe('a dated exception', () => {
  test('moves the named period to the new date, with its legal basis as the reference', () => {
    const d = entry(withExceptions(RULES, [MADE_UP]), 2032, 'generalforsamling-2031')!
    expect(d.deadline).toBe('2032-08-31T23:59:59+02:00')
    expect(d.legal_reference).toBe(MADE_UP.legal_reference)
    expect(entry(RULES, 2032, 'generalforsamling-2031')!.deadline).toBe('2032-06-30T23:59:59+02:00')
  })

  test('leaves the rule’s other periods alone', () => {
    const moved = withExceptions(RULES, [MADE_UP])
    for (const id of ['generalforsamling-2030', 'generalforsamling-2032']) {
      const year = Number(id.slice(-4)) + 1
      expect(entry(moved, year, id)).toEqual(entry(RULES, year, id))
    }
  })

  test('on a rule that moves off weekends, the new date moves too when it is not a working day', () => {
    // 31 August 2031 is a Sunday
    const moved = withExceptions(RULES, [
      { rule_id: 'tilleggsforskudd', period: '2030', due: '2031-08-31', legal_reference: 'oppdiktet forskrift § 1' },
    ])
    const d = entry(moved, 2031, 'tilleggsforskudd-2030')!
    expect([d.deadline, d.adjusted_from]).toEqual(['2031-09-01T23:59:59+02:00', '2031-08-31T23:59:59+02:00'])
  })

  test('naming a rule that does not exist fails when the rulebook is built', () => {
    expect(() => withExceptions(RULES, [{ ...MADE_UP, rule_id: 'generalforsamlingen' }])).toThrow(
      "no rule 'generalforsamlingen'",
    )
  })

  test('naming a period the rule does not have fails when the rulebook is built', () => {
    expect(() => withExceptions(RULES, [{ ...MADE_UP, period: '2031-Q2' }])).toThrow('has no period 2031-Q2')
  })
})

describe('the exceptions in force', () => {
  test('the 2020 accounts: the late-fee date moved to 30 September 2021 by forskrift', () => {
    expect(DATED_EXCEPTIONS).toContainEqual(
      expect.objectContaining({ rule_id: 'arsregnskap', period: '2020', due: '2021-09-30' }),
    )
    const d = entry(RULES, 2021, 'arsregnskap-2020')!
    expect(d.deadline).toBe('2021-09-30T23:59:59+02:00')
    expect(d.legal_reference).toContain('covid-19')
  })
})
