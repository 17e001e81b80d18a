/**
 * A registered company's obligations, deadlines and summary: the register unit becomes Tier 1
 * facts and the rulebook decides. Forms the rulebook does not cover (ASA, SA, foundations …) and
 * deleted units get no evaluations, with the reason — never a guess from a neighbouring form.
 */
import type { RegisterUnit } from '../../upstream/business-register/map.ts'
import {
  companyDeadlines,
  companySummary,
  countResults,
  evaluateObligations,
  UPGRADE_PATH_NB,
  type DataTier,
  type DeadlineOptions,
} from '../rulebook/evaluate.ts'
import { tier1Facts, type CompanyFacts } from '../rulebook/facts.ts'
import { entityTypeOf, requireUnit, subUnitOf, type SubUnitBlock } from './register.ts'
import type { Provenance, UnitReads } from '../sources.ts'

export interface Coverage {
  covered: boolean
  org_form: string
  reason_nb: string | null
  reason_en: string | null
}

/** Tier 1 facts from the register; every Tier 2 fact stays unknown until a delegation exists. */
export function factsOf(unit: RegisterUnit): CompanyFacts | null {
  const entity_type = entityTypeOf(unit)
  if (!entity_type || unit.status !== 'active') return null
  return tier1Facts({
    org_number: unit.org_number,
    entity_type,
    nace_codes: unit.nace.map((n) => n.code),
    registration_date: unit.registered_date,
    mva_registered: unit.vat_registered,
  })
}

export function coverageOf(unit: RegisterUnit): Coverage {
  if (unit.status !== 'active') {
    return {
      covered: false,
      org_form: unit.org_form.code,
      reason_nb: 'Enheten er slettet i Enhetsregisteret og har ingen løpende plikter.',
      reason_en: 'The unit is deleted from the register and has no ongoing obligations.',
    }
  }
  if (!entityTypeOf(unit)) {
    return {
      covered: false,
      org_form: unit.org_form.code,
      reason_nb: `Regelverket dekker AS, ENK, ANS, DA og NUF; organisasjonsformen ${unit.org_form.code} er ikke dekket ennå.`,
      reason_en: `The rulebook covers AS, ENK, ANS, DA and NUF; the organisation form ${unit.org_form.code} is not covered yet.`,
    }
  }
  return { covered: true, org_form: unit.org_form.code, reason_nb: null, reason_en: null }
}

export interface UnitFacts {
  /** the legal entity the evaluations are about */
  unit: RegisterUnit
  facts: CompanyFacts | null
  coverage: Coverage
  /** the legal entity's read first, then the sub-unit's when the number asked about was one */
  sources: Provenance[]
  /** set when the number asked about is a sub-unit's: the evaluations are its legal entity's */
  subUnit: SubUnitBlock | null
}

/**
 * The register unit as rulebook facts: the one upstream read the evaluations need (two or three
 * when the number is a sub-unit's, whose legal entity is then evaluated).
 */
export async function unitFacts(sources: UnitReads, org: string): Promise<UnitFacts> {
  const unit = await requireUnit(sources, org)
  return {
    unit: unit.value,
    facts: factsOf(unit.value),
    coverage: coverageOf(unit.value),
    sources: unit.sources,
    subUnit: unit.subUnit,
  }
}

/** What a memoised answer of these facts is known by: every snapshot it was made from. */
export function snapshotKey(u: UnitFacts): string {
  return u.sources.map((s) => s.snapshotId).join('+')
}

/**
 * `tier`: `tier_2` when the facts carry the consumer's Tier 2 figures (its delegation), as the
 * summary's do, so one consumer sees one verdict on every route (summary, obligations, deadlines).
 */
export function obligationsOf(u: UnitFacts, tier: DataTier = 'tier_1') {
  const { unit, facts, coverage } = u
  const obligations = facts ? evaluateObligations(facts) : []
  return {
    data: {
      org_number: unit.org_number,
      entity_type: facts?.entity_type ?? null,
      org_form: unit.org_form.code,
      data_tier: tier,
      coverage,
      obligations,
      ...subUnitOf(u),
    },
    counts: countResults(obligations),
  }
}

/** As `obligationsOf`; at Tier 2 the consumer's filed periods (`opts.filed`) mark what is filed, as the summary does. */
export function deadlinesOf(u: UnitFacts, opts: DeadlineOptions, tier: DataTier = 'tier_1') {
  const { unit, facts, coverage } = u
  const result = facts
    ? companyDeadlines(facts, { ...opts, filed: tier === 'tier_2' ? opts.filed : undefined })
    : { from_date: opts.fromDate, to_date: opts.fromDate, deadlines: [], undecided_rules: [] }
  return {
    org_number: unit.org_number,
    entity_type: facts?.entity_type ?? null,
    org_form: unit.org_form.code,
    data_tier: tier,
    coverage,
    horizon_months: opts.horizonMonths,
    ...result,
    ...subUnitOf(u),
  }
}

export function summaryOf(u: UnitFacts, opts: DeadlineOptions, tier: DataTier = 'tier_1') {
  const { unit, facts, coverage } = u
  if (!facts) {
    return {
      data: {
        org_number: unit.org_number,
        entity_type: null,
        org_form: unit.org_form.code,
        nace_codes: unit.nace.map((n) => n.code),
        mva_registered: unit.vat_registered,
        data_tier: 'tier_1' as const,
        coverage,
        obligations: [],
        deadlines: [],
        undecided_rules: [],
        upgrade_path: UPGRADE_PATH_NB,
        ...subUnitOf(u),
      },
      counts: countResults([]),
    }
  }
  const summary = companySummary(facts, tier, opts)
  return {
    data: { ...summary, org_form: unit.org_form.code, coverage, ...subUnitOf(u) },
    counts: countResults(summary.obligations),
  }
}
