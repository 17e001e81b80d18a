/**
 * Rulebook 1.1.0 added rules; it changed no date or verdict of 1.0.0's. fixtures/rulebook-1.0.0.json
 * holds 1.0.0's own answers, recorded from its code before 1.1.0 touched anything: for the rules it
 * had, 1.1.0 must give the same entries, field for field.
 */
import { describe, expect, test } from 'bun:test'
import { companyDeadlines, evaluateObligations } from '../../../src/domain/rulebook/evaluate.ts'
import { ENTITY_TYPES } from '../../../src/domain/rulebook/facts.ts'
import { publicDeadlines, publicObligations } from '../../../src/domain/rulebook/public.ts'
import { AS_SMALL_TIER2, AS_TIER1, ANS_MANY_PARTNERS, ENK_SMALL_TIER2, NUF_TIER1 } from '../../helpers.ts'
import V1_0_0 from './fixtures/rulebook-1.0.0.json'

type Keyed = { obligation_id?: string; rule_id?: string; deadline_id?: string | null }
const old = V1_0_0 as unknown as {
  rulebook_version: string
  public_deadlines: Record<string, (Keyed & { rule_id: string; obligation_id: string })[]>
  public_obligations: Record<string, (Keyed & { obligation_id: string })[]>
  company: Record<
    string,
    { obligations: (Keyed & { rule_id: string })[]; deadlines: { deadlines: (Keyed & { obligation_id: string })[] } }
  >
}
const OLD_RULES = new Set(Object.values(old.public_obligations).flatMap((list) => list.map((o) => o.obligation_id)))
const COMPANIES = { AS_TIER1, AS_SMALL_TIER2, ENK_SMALL_TIER2, ANS_MANY_PARTNERS, NUF_TIER1 }

/** The one 1.0.0 rule whose wording 1.1.0 changed: mva-termin's condition names the new periods it gives way to. */
const REWORDED: Record<string, string[]> = { 'mva-termin': ['condition_nb', 'condition_en'] }
const without = (o: object, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)))

test('the fixture is 1.0.0’s, with its fifteen rules', () => {
  expect(old.rulebook_version).toBe('1.0.0')
  expect(OLD_RULES.size).toBe(15)
})

test('a-melding for March 2026 (due 7 April after Easter) answers exactly as in 1.0.0', () => {
  const was = old.public_deadlines['2026']!.find((d) => d.obligation_id === 'a-melding-2026-03')
  expect(was).toBeDefined()
  expect(publicDeadlines(2026).find((d) => d.obligation_id === 'a-melding-2026-03')).toEqual(was as never)
})

describe.each(Object.keys(old.public_deadlines))('the public calendar of %s', (year) => {
  test('gives every 1.0.0 entry unchanged, and no entry of a 1.0.0 rule that 1.0.0 did not give', () => {
    const now = publicDeadlines(Number(year)).filter((d) => OLD_RULES.has(d.rule_id))
    expect(now).toEqual(old.public_deadlines[year] as never)
  })
})

describe.each([...ENTITY_TYPES])('the public obligations of %s', (type) => {
  test('are 1.0.0’s for the rules it had (mva-termin only reworded)', () => {
    const now = publicObligations(type).filter((o) => OLD_RULES.has(o.obligation_id))
    const was = old.public_obligations[type]!
    expect(now.map((o) => without(o, REWORDED[o.obligation_id] ?? []))).toEqual(
      was.map((o) => without(o, REWORDED[o.obligation_id] ?? [])),
    )
  })
})

describe.each(Object.keys(COMPANIES) as (keyof typeof COMPANIES)[])('the test company %s', (name) => {
  test('has 1.0.0’s verdicts, reasons and references for the rules it had', () => {
    const now = evaluateObligations(COMPANIES[name]).filter((e) => OLD_RULES.has(e.rule_id))
    expect(now).toEqual(old.company[name]!.obligations as never)
  })

  test('has 1.0.0’s deadlines for the rules it had', () => {
    const now = companyDeadlines(COMPANIES[name], { fromDate: '2026-03-14', horizonMonths: 12 }).deadlines.filter((d) =>
      OLD_RULES.has(d.obligation_id),
    )
    expect(now).toEqual(old.company[name]!.deadlines.deadlines as never)
  })
})
