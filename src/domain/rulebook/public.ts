/** The public calendar and the public obligation list: the rulebook without any company facts. */
import { ymd } from '../../lib/local-date.ts'
import { endOfOsloDay } from '../../lib/oslo-time.ts'
import { FACTS, type EntityType } from './facts.ts'
import { RULES, type Category, type Rule } from './rules.ts'
import {
  instancesBetween,
  instanceUncertainties,
  keptNote,
  ruleUncertainties,
  shiftNote,
  skippedDays,
  withUncertainties,
  type DateNote,
  type UncertaintyView,
} from './schedule.ts'

export interface UniversalDeadline {
  obligation_id: string
  rule_id: string
  name_nb: string
  name_en: string
  category: Category
  period: string
  deadline: string
  submission_window_closes: string
  adjusted_from: string | null
  business_day_adjusted: boolean
  adjustment: { reason: DateNote; skipped: ReturnType<typeof skippedDays> } | null
  not_adjusted_reason: DateNote | null
  legal_reference: string
  applies_to_entity_types: EntityType[]
  /** open points that concern this period; absent when there are none */
  uncertainties?: UncertaintyView[]
}

/** Every deadline that falls in calendar year `year` (Oslo), in date order; optionally for one company type. */
export function publicDeadlines(
  year: number,
  entityType?: EntityType,
  rules: readonly Rule[] = RULES,
): UniversalDeadline[] {
  const from = ymd(year, 1, 1)
  const to = ymd(year, 12, 31)
  return rules
    .filter((rule) => !entityType || rule.entity_types.includes(entityType))
    .flatMap((rule) => instancesBetween(rule, from, to))
    .sort((a, b) => (a.due === b.due ? (a.id < b.id ? -1 : 1) : a.due < b.due ? -1 : 1))
    .map((inst) => {
      const deadline = endOfOsloDay(inst.due)
      const reason = shiftNote(inst)
      const entry: UniversalDeadline = {
        obligation_id: inst.id,
        rule_id: inst.rule.id,
        name_nb: inst.rule.name_nb,
        name_en: inst.rule.name_en,
        category: inst.rule.category,
        period: inst.period.label,
        deadline,
        submission_window_closes: deadline,
        adjusted_from: inst.shifted ? endOfOsloDay(inst.legal_due) : null,
        business_day_adjusted: inst.shifted,
        adjustment: reason ? { reason, skipped: skippedDays(inst) } : null,
        not_adjusted_reason: keptNote(inst),
        legal_reference: inst.legal_reference,
        applies_to_entity_types: [...inst.rule.entity_types],
      }
      return withUncertainties(entry, instanceUncertainties(inst))
    })
}

export type UniversalObligation = Pick<
  Rule,
  | 'name_nb'
  | 'name_en'
  | 'description_nb'
  | 'description_en'
  | 'category'
  | 'frequency'
  | 'condition_nb'
  | 'condition_en'
  | 'due_rule_nb'
  | 'due_rule_en'
  | 'legal_reference'
> & {
  obligation_id: string
  tier_2_required: boolean
  /** the Tier 2 facts the rule needs to decide for a specific company of this type */
  tier_2_facts: string[]
  moves_to_next_business_day: boolean
  /** the rule's open points; absent when there are none */
  uncertainties?: UncertaintyView[]
}

/** The obligations a company of this type may have, ordered by id. */
export function publicObligations(entityType: EntityType): UniversalObligation[] {
  return RULES.filter((r) => r.entity_types.includes(entityType))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((r) => {
      const tier2 = (r.reads[entityType] ?? []).filter((f) => FACTS[f].tier === 2)
      const obligation: UniversalObligation = {
        obligation_id: r.id,
        name_nb: r.name_nb,
        name_en: r.name_en,
        description_nb: r.description_nb,
        description_en: r.description_en,
        category: r.category,
        frequency: r.frequency,
        condition_nb: r.condition_nb,
        condition_en: r.condition_en,
        tier_2_required: tier2.length > 0,
        tier_2_facts: tier2,
        due_rule_nb: r.due_rule_nb,
        due_rule_en: r.due_rule_en,
        moves_to_next_business_day: r.shift.policy === 'next_business_day',
        legal_reference: r.legal_reference,
      }
      return withUncertainties(obligation, ruleUncertainties(r))
    })
}
