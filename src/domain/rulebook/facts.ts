/**
 * What the rulebook knows about a company. Tier 1 comes from the open registers; Tier 2 are the
 * company-specific figures the registers do not give reliably (only with an active delegation).
 * `null` always means unknown — never zero or false.
 */
import type { LocalDate } from '../../lib/local-date.ts'

export const ENTITY_TYPES = ['AS', 'ENK', 'ANS', 'DA', 'NUF'] as const
export type EntityType = (typeof ENTITY_TYPES)[number]

export interface CompanyFacts {
  org_number: string
  entity_type: EntityType
  nace_codes: string[]
  /** Tier 1: registration date in Enhetsregisteret */
  registration_date: LocalDate | null
  /** Tier 1: registered in Merverdiavgiftsregisteret */
  mva_registered: boolean | null
  /** Tier 2: the company pays salary or has employment relationships */
  has_payroll: boolean | null
  /** Tier 2: average full-time equivalents (årsverk) */
  employee_count: number | null
  /** Tier 2: operating revenue (driftsinntekter / salgsinntekt) in NOK, last year */
  annual_turnover_nok: number | null
  /** Tier 2: balance-sheet total in NOK, last year */
  total_assets_nok: number | null
  /** Tier 2: approved for the annual VAT term */
  mva_annual_term: boolean | null
  /** Tier 2 (NUF): carries on business in Norway and is taxable here */
  norwegian_tax_liability: boolean | null
  /** Tier 2: advance tax (forskuddsskatt) has been assessed */
  advance_tax_assessed: boolean | null
  /** Tier 2 (ANS/DA): number of partners */
  partner_count: number | null
  /** Tier 2 (ANS/DA): a partner is a legal person with limited liability */
  has_limited_liability_partner: boolean | null
  /** Tier 2: the tax office has imposed a one-month VAT period (skatteforvaltningsforskriften § 8-3-2) */
  mva_monthly_term: boolean | null
  /** Tier 2: files VAT for the calendar year as a primary industry (skatteforvaltningsforskriften § 8-3-7) */
  mva_primary_industry_term: boolean | null
  /** Tier 2: buys reverse-charge services or goods over NOK 2,000 in a quarter (merverdiavgiftsloven § 11-3) */
  reverse_charge_purchases: boolean | null
  /** Tier 2: the income year's tax is expected to exceed the advance tax paid (restskatt) */
  expects_residual_tax: boolean | null
  /** Tier 2: a "større virksomhet" under åpenhetsloven § 3 (size test two years running, group level, or public-interest entity) */
  transparency_act_size_met: boolean | null
}

export type FactName = Exclude<keyof CompanyFacts, 'org_number' | 'entity_type' | 'nace_codes'>

export const FACTS: Record<FactName, { tier: 1 | 2; name_nb: string; name_en: string }> = {
  registration_date: { tier: 1, name_nb: 'registreringsdato', name_en: 'registration date' },
  mva_registered: { tier: 1, name_nb: 'registrering i Merverdiavgiftsregisteret', name_en: 'VAT registration' },
  has_payroll: { tier: 2, name_nb: 'lønnsutbetalinger', name_en: 'payroll' },
  employee_count: { tier: 2, name_nb: 'antall årsverk', name_en: 'full-time equivalents' },
  annual_turnover_nok: { tier: 2, name_nb: 'driftsinntekter', name_en: 'operating revenue' },
  total_assets_nok: { tier: 2, name_nb: 'balansesum', name_en: 'balance-sheet total' },
  mva_annual_term: { tier: 2, name_nb: 'godkjent årstermin for mva', name_en: 'approved annual VAT term' },
  norwegian_tax_liability: { tier: 2, name_nb: 'skatteplikt til Norge', name_en: 'Norwegian tax liability' },
  advance_tax_assessed: { tier: 2, name_nb: 'utskrevet forskuddsskatt', name_en: 'assessed advance tax' },
  partner_count: { tier: 2, name_nb: 'antall deltakere', name_en: 'number of partners' },
  has_limited_liability_partner: {
    tier: 2,
    name_nb: 'deltaker med begrenset ansvar',
    name_en: 'partner with limited liability',
  },
  mva_monthly_term: {
    tier: 2,
    name_nb: 'pålagt månedlig skattleggingsperiode for mva',
    name_en: 'imposed monthly VAT period',
  },
  mva_primary_industry_term: {
    tier: 2,
    name_nb: 'årlig mva-periode for primærnæring',
    name_en: 'annual VAT period for primary industries',
  },
  reverse_charge_purchases: {
    tier: 2,
    name_nb: 'kjøp med omvendt avgiftsplikt over 2 000 kr i kvartalet',
    name_en: 'reverse-charge purchases over NOK 2,000 in a quarter',
  },
  expects_residual_tax: { tier: 2, name_nb: 'forventet restskatt', name_en: 'expected residual tax' },
  transparency_act_size_met: {
    tier: 2,
    name_nb: 'større virksomhet etter åpenhetsloven § 3',
    name_en: 'larger enterprise under the Transparency Act section 3',
  },
}

/** Facts with every Tier 2 field unknown: what the open registers alone give. */
export function tier1Facts(
  base: Pick<CompanyFacts, 'org_number' | 'entity_type'> & Partial<CompanyFacts>,
): CompanyFacts {
  return {
    nace_codes: [],
    registration_date: null,
    mva_registered: null,
    has_payroll: null,
    employee_count: null,
    annual_turnover_nok: null,
    total_assets_nok: null,
    mva_annual_term: null,
    norwegian_tax_liability: null,
    advance_tax_assessed: null,
    partner_count: null,
    has_limited_liability_partner: null,
    mva_monthly_term: null,
    mva_primary_industry_term: null,
    reverse_charge_purchases: null,
    expects_residual_tax: null,
    transparency_act_size_met: null,
    ...base,
  }
}
