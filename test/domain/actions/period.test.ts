import { describe, expect, test } from 'bun:test'
import { parsePeriod, periodDeadline, type ActionType, type ParsedPeriod } from '../../../src/domain/actions/period.ts'

function parsed(action: ActionType, label: string): ParsedPeriod {
  const r = parsePeriod(action, label)
  if (!r.ok) throw new Error(`expected ${label} to parse: ${JSON.stringify(r.details)}`)
  return r.period
}

// Expected dates worked out by hand from the law and a 2026/2027 calendar, not from the code.
describe('deadlines of valid periods', () => {
  test.each([
    ['2026-T1', 'bimonthly', '2026-04-10'], // 10 April, a Friday
    ['2026-T2', 'bimonthly', '2026-06-10'],
    ['2026-T3', 'bimonthly', '2026-08-31'], // the summer exception
    ['2026-T4', 'bimonthly', '2026-10-12'], // 10 October is a Saturday
    ['2026-T5', 'bimonthly', '2026-12-10'],
    ['2026-T6', 'bimonthly', '2027-02-10'],
    ['2026-A', 'annual', '2027-03-10'],
    ['2025-A', 'annual', '2026-03-10'],
    ['2026-01', 'monthly', '2026-03-10'], // one month and ten days after the month
    ['2026-06', 'monthly', '2026-08-10'], // no summer exception for a monthly term
    ['2026-11', 'monthly', '2027-01-11'], // 10 January 2027 is a Sunday
    ['2026-12', 'monthly', '2027-02-10'],
  ])('mva_melding %s (%s) is due %s', (label, kind, due) => {
    const p = parsed('mva_melding', label)
    expect(p.kind).toBe(kind as ParsedPeriod['kind'])
    expect(periodDeadline(p)).toBe(due)
  })

  test.each([
    ['2026-02', '2026-03-05'],
    ['2026-03', '2026-04-07'], // 5 April is Easter Sunday, 6 April Easter Monday
    ['2026-12', '2027-01-05'],
  ])('a_melding %s is due %s', (label, due) => {
    expect(periodDeadline(parsed('a_melding', label))).toBe(due)
  })

  test('a VAT term is dated by the rulebook’s own rule', () => {
    expect(parsed('mva_melding', '2026-T2').deadline.rule.id).toBe('mva-termin')
    expect(parsed('mva_melding', '2026-A').deadline.rule.id).toBe('mva-arstermin')
    expect(parsed('a_melding', '2026-02').deadline.rule.id).toBe('a-melding')
  })

  test('a shifted deadline keeps its legal date and the days it passed over', () => {
    const d = parsed('mva_melding', '2026-T4').deadline
    expect(d.legal_due).toBe('2026-10-10')
    expect(d.skipped.map((s) => s.kind)).toEqual(['saturday', 'sunday'])
  })
})

describe('invalid periods', () => {
  test.each([
    ['mva_melding', '2026-T7', 'two-month term must be T1 to T6'],
    ['mva_melding', '2026-T0', 'two-month term must be T1 to T6'],
    ['mva_melding', '2026-T01', 'two-month term must be T1 to T6'],
    ['mva_melding', '2026-13', 'month must be 01 to 12'],
    ['mva_melding', '2026-00', 'month must be 01 to 12'],
    ['a_melding', '2026-13', 'month must be 01 to 12'],
    ['mva_melding', '1999-T1', 'year must be 2000 to 2099'],
    ['a_melding', '2100-01', 'year must be 2000 to 2099'],
  ])('%s %s: %s', (action, label, message) => {
    expect(parsePeriod(action as ActionType, label)).toEqual({ ok: false, details: [{ field: 'period', message }] })
  })

  test.each([['2026-A'], ['2026-T1'], ['2026'], ['2026-1'], ['26-01']])(
    'a_melding refuses %s: only YYYY-MM',
    (label) => {
      expect(parsePeriod('a_melding', label)).toEqual({
        ok: false,
        details: [{ field: 'period', message: 'must be YYYY-MM for a_melding' }],
      })
    },
  )

  test.each([['2026'], ['2026-a'], ['2026-t1'], ['2026-T'], ['2026-1'], [' 2026-T1'], ['2026-T1 '], ['2026/T1']])(
    'mva_melding refuses %p',
    (label) => {
      const r = parsePeriod('mva_melding', label)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.details[0]!.message).toMatch(/^must be YYYY-T1 to YYYY-T6/)
    },
  )

  test('an empty or over-long period is refused on length', () => {
    for (const label of ['', '2026-T1-and-then-more']) {
      expect(parsePeriod('mva_melding', label)).toEqual({
        ok: false,
        details: [{ field: 'period', message: 'must be 1 to 20 characters' }],
      })
    }
  })

  test('an unknown action type is reported on action_type', () => {
    const r = parsePeriod('skattemelding' as ActionType, '2026-01')
    expect(r).toEqual({
      ok: false,
      details: [{ field: 'action_type', message: 'must be one of mva_melding, a_melding' }],
    })
  })
})
