/**
 * The period an action files for, and its legal deadline. Deadlines come from the rulebook: each
 * accepted label is looked up among its rule's own periods and dated by `instanceOf`, so a filing
 * and the deadline calendar can never disagree.
 *
 * A monthly VAT period (`YYYY-MM`) is the rulebook's `mva-manedlig`: the 10th of the second month
 * after, with no summer exception.
 */
import type { FieldIssue } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { RULES, type Rule } from '../rulebook/rules.ts'
import { instanceOf, type DeadlineInstance } from '../rulebook/schedule.ts'

export const ACTION_TYPES = ['mva_melding', 'a_melding'] as const
export type ActionType = (typeof ACTION_TYPES)[number]

export function isActionType(value: unknown): value is ActionType {
  return (ACTION_TYPES as readonly unknown[]).includes(value)
}

/** The rulebook models present law; a year outside this range is a typo, not a filing. */
export const MIN_PERIOD_YEAR = 2000
export const MAX_PERIOD_YEAR = 2099

export type PeriodKind = 'bimonthly' | 'annual' | 'monthly'

export interface ParsedPeriod {
  action_type: ActionType
  /** the label as sent, e.g. `2026-T3` */
  label: string
  kind: PeriodKind
  year: number
  /** the rulebook's deadline for this period: legal date, shifted date and the reason */
  deadline: DeadlineInstance
}

export type PeriodParse = { ok: true; period: ParsedPeriod } | { ok: false; details: FieldIssue[] }

function rule(id: string): Rule {
  const found = RULES.find((r) => r.id === id)
  if (!found) throw new Error(`actions/period: the rulebook has no rule '${id}'`)
  return found
}

const VAT_TERM = rule('mva-termin')
const VAT_ANNUAL = rule('mva-arstermin')
const VAT_MONTHLY = rule('mva-manedlig')
const A_MELDING = rule('a-melding')

function fromRule(r: Rule, year: number, label: string): DeadlineInstance {
  const period = r.periods(year).find((p) => p.label === label)
  if (!period) throw new Error(`actions/period: rule '${r.id}' has no period ${label}`)
  return instanceOf(r, period)
}

const FORMS: Record<ActionType, string> = {
  mva_melding: 'YYYY-T1 to YYYY-T6 (two-month term), YYYY-A (annual term) or YYYY-MM (monthly term)',
  a_melding: 'YYYY-MM',
}

const fail = (message: string): PeriodParse => ({ ok: false, details: [{ field: 'period', message }] })

export function parsePeriod(actionType: ActionType, period: string): PeriodParse {
  if (!isActionType(actionType))
    return { ok: false, details: [{ field: 'action_type', message: `must be one of ${ACTION_TYPES.join(', ')}` }] }
  if (typeof period !== 'string' || period.length < 1 || period.length > 20) return fail('must be 1 to 20 characters')
  const m = /^(\d{4})-(?:T(\d+)|(A)|(\d{2}))$/.exec(period)
  if (!m || (actionType === 'a_melding' && !m[4])) return fail(`must be ${FORMS[actionType]} for ${actionType}`)
  const year = Number(m[1])
  if (year < MIN_PERIOD_YEAR || year > MAX_PERIOD_YEAR)
    return fail(`year must be ${MIN_PERIOD_YEAR} to ${MAX_PERIOD_YEAR}`)
  const base = { action_type: actionType, label: period, year }
  if (m[2] !== undefined) {
    if (!/^[1-6]$/.test(m[2])) return fail('two-month term must be T1 to T6')
    return { ok: true, period: { ...base, kind: 'bimonthly', deadline: fromRule(VAT_TERM, year, period) } }
  }
  if (m[3]) return { ok: true, period: { ...base, kind: 'annual', deadline: fromRule(VAT_ANNUAL, year, period) } }
  const month = Number(m[4])
  if (month < 1 || month > 12) return fail('month must be 01 to 12')
  const deadline = fromRule(actionType === 'a_melding' ? A_MELDING : VAT_MONTHLY, year, period)
  return { ok: true, period: { ...base, kind: 'monthly', deadline } }
}

/** The last day to file without being late (Oslo calendar), after any weekend/holiday shift. */
export function periodDeadline(p: ParsedPeriod): LocalDate {
  return p.deadline.due
}
