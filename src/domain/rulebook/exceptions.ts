/**
 * Dated exceptions: the law sometimes moves one period's date by statute or forskrift (the 2020
 * accounts' late-fee date by two months; in 2021 the general meeting by two months). Such a move
 * is a row here — rule, period, new legal date, legal basis — never a weekend rule and never code
 * in the rule. The rule's shift policy still applies to the new date.
 *
 * A row that names an unknown rule or a period the rule does not have fails when the rulebook is
 * built, so a typo cannot silently do nothing.
 */
import type { LocalDate } from '../../lib/local-date.ts'
import type { Period, Rule } from './rules.ts'

export interface DatedException {
  rule_id: string
  /** the period label as in the calendar: `2020`, `2026-T3`, `2026-Q2` */
  period: string
  /** the legal due date that replaces the rule's, before any weekend/holiday shift */
  due: LocalDate
  /** the legal basis of the move; it replaces the rule's reference for that period */
  legal_reference: string
}

export const DATED_EXCEPTIONS: readonly DatedException[] = [
  {
    rule_id: 'arsregnskap',
    period: '2020',
    due: '2021-09-30',
    legal_reference:
      'regnskapsloven (LOV-1998-07-17-56) § 8-3 første ledd; gebyrfristen for regnskapsåret 2020 utsatt ved forskrift (covid-19)',
  },
]

/** The period's year, for finding it among `rule.periods(year)`: every label starts with it. */
const yearOfLabel = (label: string) => Number(label.slice(0, 4))

/** The rules with their dated exceptions applied to the periods they name. */
export function withExceptions(rules: readonly Rule[], exceptions: readonly DatedException[]): Rule[] {
  for (const e of exceptions) {
    const rule = rules.find((r) => r.id === e.rule_id)
    if (!rule) throw new Error(`rulebook exception: no rule '${e.rule_id}'`)
    if (!rule.periods(yearOfLabel(e.period)).some((p) => p.label === e.period))
      throw new Error(`rulebook exception: rule '${e.rule_id}' has no period ${e.period}`)
  }
  return rules.map((rule) => {
    const own = exceptions.filter((e) => e.rule_id === rule.id)
    if (own.length === 0) return rule
    const periods = (year: number): Period[] =>
      rule.periods(year).map((p) => {
        const e = own.find((x) => x.period === p.label)
        return e ? { ...p, legal_due: e.due, legal_reference: e.legal_reference } : p
      })
    return { ...rule, periods }
  })
}
