/**
 * The sandbox's answers, in the sandbox shapes of the spec (Sandbox resources), computed by the
 * production domain: the rulebook evaluates the synthetic companies' facts, the calendar dates
 * their deadlines, and signing authority is classified from their signature data.
 */
import type { LocalDate } from '../../lib/local-date.ts'
import {
  companyDeadlines,
  evaluateObligations,
  UPGRADE_PATH_NB,
  type DeadlineEntry,
  type ObligationEvaluation,
} from '../rulebook/evaluate.ts'
import type { CompanyFacts } from '../rulebook/facts.ts'
import { RULES, type Frequency } from '../rulebook/rules.ts'
import { factsOf } from '../company/obligations.ts'
import { signingAuthority } from '../company/authority.ts'
import type { SandboxCompany } from '../../../fixtures/sandbox/companies.ts'
import { registerUnitOf, sandboxReads } from './reads.ts'

/** The sandbox has no horizon knob: deadlines cover twelve months after the effective date. */
const HORIZON_MONTHS = 12

type SandboxTier = 'tier_1' | 'tier_1_2'

export const tierOf = (c: SandboxCompany): SandboxTier => (c.tier_2 ? 'tier_1_2' : 'tier_1')

export const SANDBOX_UPGRADE_PATH =
  'Tier 2-data krever en aktiv delegering: i produksjon godkjenner daglig leder Plikts systembruker i Altinn. I sandkassen har selskapene med data_tier tier_1_2 allerede en delegering.'

/** Register facts, plus the Tier 2 figures a delegation gives. Null for a deleted unit. */
export function sandboxFacts(c: SandboxCompany): CompanyFacts | null {
  const facts = factsOf(registerUnitOf(c))
  if (!facts || !c.tier_2) return facts
  const t = c.tier_2
  return {
    ...facts,
    employee_count: t.employee_count,
    annual_turnover_nok: t.annual_turnover_nok,
    total_assets_nok: t.total_assets_nok,
    has_payroll: t.has_payroll,
    mva_annual_term: t.mva_annual_term,
    advance_tax_assessed: t.advance_tax_assessed,
    mva_monthly_term: t.mva_monthly_term,
    mva_primary_industry_term: t.mva_primary_industry_term,
    reverse_charge_purchases: t.reverse_charge_purchases,
    expects_residual_tax: t.expects_residual_tax,
    transparency_act_size_met: t.transparency_act_size_met,
  }
}

const CATEGORY = new Map(RULES.map((r) => [r.id, r.category]))

/** The sandbox frequency enum has no per-pay-run: a-melding is reported monthly. */
const frequency = (f: Frequency): Exclude<Frequency, 'per_pay_run'> => (f === 'per_pay_run' ? 'monthly' : f)

const REQUIRED = { applicable: 'always', insufficient_data: 'conditionally', not_applicable: 'never' } as const

function sandboxDeadline(d: DeadlineEntry) {
  return {
    deadline_id: d.deadline_id ?? `${d.obligation_id}-${d.period_label ?? 'løpende'}`,
    obligation_id: d.obligation_id,
    title: d.obligation_name,
    deadline_at: d.due_at,
    status: d.filing_status,
    category: CATEGORY.get(d.obligation_id)!,
    legal_reference: d.legal_reference,
  }
}

function sandboxObligation(o: ObligationEvaluation, next: Map<string, string | null>) {
  return {
    obligation_id: o.rule_id,
    title: o.obligation_name,
    category: o.category,
    status: o.evaluation_result,
    required: REQUIRED[o.evaluation_result],
    frequency: frequency(o.frequency),
    legal_reference: o.legal_reference,
    deadline_at: next.get(o.rule_id) ?? null,
  }
}

function evaluate(c: SandboxCompany, date: LocalDate) {
  const facts = sandboxFacts(c)
  if (!facts) return { obligations: [], deadlines: [] }
  // Filings are visible with Tier 2 only, as in production (companySummary): a tier_1 company's
  // deadlines never say `filed`.
  const filed = new Set(c.tier_2 ? c.filed.map(([rule, period]) => `${rule}|${period}`) : [])
  const { deadlines } = companyDeadlines(facts, {
    fromDate: date,
    horizonMonths: HORIZON_MONTHS,
    filed: (rule, period) => filed.has(`${rule}|${period}`),
  })
  // The next deadline of each obligation still to meet on or after the date: what `deadline_at`
  // answers. A period already filed is not the next deadline, even when its due day is still ahead.
  const next = new Map<string, string | null>()
  for (const d of deadlines)
    if (d.due_at && d.filing_status === 'upcoming' && d.due_at.slice(0, 10) >= date && !next.has(d.obligation_id))
      next.set(d.obligation_id, d.due_at)
  return {
    obligations: evaluateObligations(facts).map((o) => sandboxObligation(o, next)),
    deadlines: deadlines.map(sandboxDeadline),
  }
}

function head(c: SandboxCompany) {
  return { org_number: c.org_number, entity_type: c.entity_type, data_tier: tierOf(c) }
}

export function sandboxObligations(c: SandboxCompany, date: LocalDate) {
  return { ...head(c), obligations: evaluate(c, date).obligations, upgrade_path: SANDBOX_UPGRADE_PATH }
}

export function sandboxDeadlines(c: SandboxCompany, date: LocalDate) {
  return { ...head(c), deadlines: evaluate(c, date).deadlines, upgrade_path: SANDBOX_UPGRADE_PATH }
}

export function sandboxSummary(c: SandboxCompany, date: LocalDate) {
  const e = evaluate(c, date)
  return { ...head(c), obligations: e.obligations, deadlines: e.deadlines, upgrade_path: SANDBOX_UPGRADE_PATH }
}

export async function sandboxContext(c: SandboxCompany) {
  const authority = await signingAuthority(sandboxReads, c.org_number)
  const t = c.tier_2
  const person = (h: { name: string; role_code: string | null }) => ({ role: h.role_code, name: h.name })
  return {
    org_number: c.org_number,
    name: c.name,
    entity_type: c.entity_type,
    nace_codes: c.nace.map(([code]) => code),
    status: c.status === 'active' ? ('ACTIVE' as const) : ('INACTIVE' as const),
    municipality: c.address.municipality,
    registration_date: c.registered_date,
    signaturrett: authority.data.signaturrett_holders.map(person),
    prokura: authority.data.prokura_holders.map(person),
    data_tier: tierOf(c),
    tier_2: t
      ? {
          employee_count: t.employee_count,
          annual_turnover: t.annual_turnover_nok,
          total_assets: t.total_assets_nok,
          mva_registered: c.vat_registered_date !== null,
          mva_registration_date: c.vat_registered_date,
        }
      : null,
    tier_2_note: t
      ? 'Tier 2-tallene er syntetiske og kommer fra sandkassens delegering.'
      : 'Tier 2-data vises bare med en aktiv delegering; dette selskapet har ingen i sandkassen.',
    upgrade_path: t ? null : UPGRADE_PATH_NB,
    labour_register: {
      available: false,
      reason: 'DELEGATION_MISSING_LABOUR_REGISTER',
      note: 'Aa-registeret krever en egen delegering fra arbeidsgiveren; sandkassen viser ingen arbeidsforhold.',
    },
    tax_authority: {
      mva_register: null,
      mva_meldinger: { available: false, reason: 'DELEGATION_MISSING', scope: 'tax_authority:mva-melding-list-read' },
      skatteoppgjor: { available: false, reason: 'DELEGATION_MISSING', scope: 'tax_authority:skatteoppgjor-read' },
    },
  }
}
