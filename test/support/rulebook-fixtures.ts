/** Company facts for rulebook tests, until the register adapters supply real ones. */
import { tier1Facts, type CompanyFacts } from '../../src/domain/rulebook/facts.ts'

/** An AS as the open registers show it: VAT registered, nothing else known. */
export const AS_TIER1: CompanyFacts = tier1Facts({
  org_number: '984661185',
  entity_type: 'AS',
  nace_codes: ['53.100'],
  mva_registered: true,
  registration_date: '1996-11-01',
})

/** A small AS with every figure known, below every audit threshold. */
export const AS_SMALL_TIER2: CompanyFacts = {
  ...AS_TIER1,
  org_number: '999777666',
  has_payroll: true,
  employee_count: 3,
  annual_turnover_nok: 4_000_000,
  total_assets_nok: 2_000_000,
  mva_annual_term: false,
  advance_tax_assessed: true,
}

export const ENK_SMALL_TIER2: CompanyFacts = {
  ...tier1Facts({
    org_number: '999888777',
    entity_type: 'ENK',
    nace_codes: ['62.010'],
    mva_registered: false,
    registration_date: '2019-03-01',
  }),
  has_payroll: false,
  employee_count: 0,
  annual_turnover_nok: 300_000,
  total_assets_nok: 100_000,
  advance_tax_assessed: true,
}

export const ANS_MANY_PARTNERS: CompanyFacts = {
  ...tier1Facts({
    org_number: '999666555',
    entity_type: 'ANS',
    nace_codes: ['69.100'],
    mva_registered: true,
    registration_date: '2010-01-04',
  }),
  has_payroll: true,
  employee_count: 2,
  annual_turnover_nok: 3_000_000,
  total_assets_nok: 1_000_000,
  partner_count: 6,
  has_limited_liability_partner: false,
}

export const NUF_TIER1: CompanyFacts = tier1Facts({
  org_number: '999555444',
  entity_type: 'NUF',
  mva_registered: false,
  registration_date: '2015-05-05',
})
