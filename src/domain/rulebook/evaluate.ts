/**
 * A company's obligations, deadlines and summary, computed from its facts. Pure functions: the
 * caller supplies the facts, the Oslo date and, where it has one, a lookup of recorded filings.
 */
import { addMonths, type LocalDate } from '../../lib/local-date.ts'
import { endOfOsloDay } from '../../lib/oslo-time.ts'
import { FACTS, type CompanyFacts, type EntityType, type FactName } from './facts.ts'
import { beneficialOwnersDue, RULES, type Category, type Frequency, type Result, type Rule } from './rules.ts'
import {
  instanceOf,
  instancesBetween,
  instanceUncertainties,
  keptNote,
  ruleUncertainties,
  shiftNote,
  skippedDays,
  withUncertainties,
  type DateNote,
  type DeadlineInstance,
  type UncertaintyView,
} from './schedule.ts'

export type DataTier = 'tier_1' | 'tier_2'

export interface ObligationEvaluation {
  rule_id: string
  obligation_name: string
  obligation_name_en: string
  evaluation_result: Result
  reason: string
  reason_en: string
  legal_reference: string
  frequency: Frequency
  category: Category
  data_tier_required: DataTier
  /** the Tier 2 facts whose absence left the verdict open */
  missing_facts: FactName[]
  description: string
  description_en: string
  /** the rule's open points; absent when there are none */
  uncertainties?: UncertaintyView[]
}

function rulesFor(type: EntityType): Rule[] {
  return RULES.filter((r) => r.entity_types.includes(type)).sort((a, b) => (a.id < b.id ? -1 : 1))
}

/** One evaluation per rule whose entity types match, ordered by rule id. */
export function evaluateObligations(facts: CompanyFacts): ObligationEvaluation[] {
  return rulesFor(facts.entity_type).map((rule) => {
    const v = rule.applies(facts)
    const needsTier2 = (rule.reads[facts.entity_type] ?? []).some((f) => FACTS[f].tier === 2)
    const evaluation: ObligationEvaluation = {
      rule_id: rule.id,
      obligation_name: rule.name_nb,
      obligation_name_en: rule.name_en,
      evaluation_result: v.result,
      reason: v.reason_nb,
      reason_en: v.reason_en,
      legal_reference: rule.legal_reference,
      frequency: rule.frequency,
      category: rule.category,
      data_tier_required: needsTier2 ? 'tier_2' : 'tier_1',
      missing_facts: v.missing,
      description: rule.description_nb,
      description_en: rule.description_en,
    }
    return withUncertainties(evaluation, ruleUncertainties(rule))
  })
}

export interface EvaluationCounts {
  rule_count: number
  applicable_count: number
  not_applicable_count: number
  insufficient_data_count: number
}

export function countResults(evaluations: { evaluation_result: Result }[]): EvaluationCounts {
  const n = (r: Result) => evaluations.filter((e) => e.evaluation_result === r).length
  return {
    rule_count: evaluations.length,
    applicable_count: n('applicable'),
    not_applicable_count: n('not_applicable'),
    insufficient_data_count: n('insufficient_data'),
  }
}

export type FilingStatus = 'upcoming' | 'overdue' | 'filed'

export interface DeadlineEntry {
  obligation_id: string
  deadline_id: string | null
  obligation_name: string
  obligation_name_en: string
  period_label: string | null
  due_at: string | null
  adjusted_for: { reason: DateNote; skipped: ReturnType<typeof skippedDays>; original_due_at: string } | null
  business_day_adjusted: boolean
  not_adjusted_reason: DateNote | null
  /** how the date is set when there is no single calendar date */
  due_rule: DateNote | null
  legal_reference: string
  recurring: boolean
  filing_status: FilingStatus
  /** open points that concern this period; absent when there are none */
  uncertainties?: UncertaintyView[]
}

/** Recorded filings, where the caller can see them (Tier 2): has this period been filed? */
export type FiledLookup = (ruleId: string, periodLabel: string) => boolean

export interface DeadlineOptions {
  fromDate: LocalDate
  horizonMonths: number
  filed?: FiledLookup
}

/**
 * Deadlines that passed in this many months before `from_date` stay in the list as `overdue`
 * (or `filed` where filings are visible), so an agent sees what may still be outstanding.
 */
export const OVERDUE_LOOKBACK_MONTHS = 3

export interface CompanyDeadlines {
  from_date: LocalDate
  to_date: LocalDate
  deadlines: DeadlineEntry[]
  /** rules that may apply but could not be decided: their deadlines are not in the list */
  undecided_rules: string[]
}

function entryFor(inst: DeadlineInstance, opts: DeadlineOptions): DeadlineEntry {
  const reason = shiftNote(inst)
  const filed = opts.filed?.(inst.rule.id, inst.period.label) ?? false
  const entry: DeadlineEntry = {
    obligation_id: inst.rule.id,
    deadline_id: inst.id,
    obligation_name: inst.rule.name_nb,
    obligation_name_en: inst.rule.name_en,
    period_label: inst.period.label,
    due_at: endOfOsloDay(inst.due),
    adjusted_for: reason ? { reason, skipped: skippedDays(inst), original_due_at: endOfOsloDay(inst.legal_due) } : null,
    business_day_adjusted: inst.shifted,
    not_adjusted_reason: keptNote(inst),
    due_rule: null,
    legal_reference: inst.legal_reference,
    recurring: inst.rule.recurring,
    filing_status: filed ? 'filed' : inst.due < opts.fromDate ? 'overdue' : 'upcoming',
  }
  return withUncertainties(entry, instanceUncertainties(inst))
}

/** The deadlines of the company's applicable obligations in [from_date − lookback, from_date + horizon]. */
export function companyDeadlines(facts: CompanyFacts, opts: DeadlineOptions): CompanyDeadlines {
  const windowStart = addMonths(opts.fromDate, -OVERDUE_LOOKBACK_MONTHS)
  const windowEnd = addMonths(opts.fromDate, opts.horizonMonths)
  const entries: DeadlineEntry[] = []
  const undecided: string[] = []
  for (const rule of rulesFor(facts.entity_type)) {
    const verdict = rule.applies(facts)
    if (verdict.result === 'insufficient_data') undecided.push(rule.id)
    if (verdict.result !== 'applicable') continue
    let instances: DeadlineInstance[]
    if (rule.id === 'reelle-rettighetshavere') {
      const due = beneficialOwnersDue(facts.registration_date)
      const inst = instanceOf(rule, { key: due.slice(0, 4), label: due.slice(0, 4), end: due, legal_due: due })
      instances = inst.due >= windowStart && inst.due <= windowEnd ? [inst] : []
    } else {
      // Periods that ended before the company existed are not its obligations.
      instances = instancesBetween(rule, windowStart, windowEnd).filter(
        (i) => !facts.registration_date || i.period.end >= facts.registration_date,
      )
    }
    entries.push(...instances.map((i) => entryFor(i, opts)))
    if (rule.undated?.(facts, windowEnd)) {
      entries.push({
        obligation_id: rule.id,
        deadline_id: null,
        obligation_name: rule.name_nb,
        obligation_name_en: rule.name_en,
        period_label: null,
        due_at: null,
        adjusted_for: null,
        business_day_adjusted: false,
        not_adjusted_reason: null,
        due_rule: { nb: rule.due_rule_nb, en: rule.due_rule_en },
        legal_reference: rule.legal_reference,
        recurring: rule.recurring,
        filing_status: 'upcoming',
      })
    }
  }
  // By due date, undated last; ties by id so the order is deterministic.
  entries.sort((a, b) => {
    if (a.due_at === b.due_at) return (a.deadline_id ?? a.obligation_id) < (b.deadline_id ?? b.obligation_id) ? -1 : 1
    if (a.due_at === null) return 1
    if (b.due_at === null) return -1
    return a.due_at.slice(0, 10) < b.due_at.slice(0, 10) ? -1 : 1
  })
  return { from_date: opts.fromDate, to_date: windowEnd, deadlines: entries, undecided_rules: undecided }
}

export interface CompanySummary {
  org_number: string
  entity_type: EntityType
  nace_codes: string[]
  mva_registered: boolean | null
  data_tier: DataTier
  obligations: ObligationEvaluation[]
  deadlines: DeadlineEntry[]
  undecided_rules: string[]
  upgrade_path: string | null
}

export const UPGRADE_PATH_NB =
  'Tier 2-data (ansatte, omsetning, balanse) krever en aktiv delegering fra virksomheten: be daglig leder eller tilgangsstyrer godkjenne Plikts systembruker i Altinn.'

/** Obligations and deadlines together, without name, status or roles. */
export function companySummary(facts: CompanyFacts, tier: DataTier, opts: DeadlineOptions): CompanySummary {
  const obligations = evaluateObligations(facts)
  const { deadlines, undecided_rules } = companyDeadlines(
    facts,
    tier === 'tier_2' ? opts : { ...opts, filed: undefined },
  )
  return {
    org_number: facts.org_number,
    entity_type: facts.entity_type,
    nace_codes: facts.nace_codes,
    mva_registered: facts.mva_registered,
    data_tier: tier,
    obligations,
    deadlines,
    undecided_rules,
    upgrade_path: tier === 'tier_1' ? UPGRADE_PATH_NB : null,
  }
}
