/**
 * The annual-accounts snapshot from Regnskapsregisteret: the newest approved accounts only.
 * `has_filed_annual_accounts` is tri-state: true = the register has a record; false = it
 * authoritatively has none for a unit whose form must file; null = unknown, or a form that need
 * not file (the register then says nothing either way). An unknown org number is 200 with nulls.
 */
import type { AccountsLookup } from '../../upstream/accounts-register/map.ts'
import type { RegisterUnit } from '../../upstream/business-register/map.ts'
import type { CompanyReads, Provenance } from '../sources.ts'
import { resolveOrg, subUnitOf, type SubUnitBlock } from './register.ts'

/**
 * Forms that always file annual accounts with Regnskapsregisteret (regnskapsloven § 1-2 with
 * § 8-2): limited companies, branches of foreign enterprises, cooperatives, foundations,
 * housing cooperatives and the public-owned forms. ENK, ANS and DA file only above thresholds or
 * with limited-liability partners, so the register's silence says nothing about them.
 */
const MUST_FILE = new Set(['AS', 'ASA', 'NUF', 'SA', 'STI', 'BRL', 'SF', 'IKS', 'SE', 'KF', 'BBL'])

export function mustFile(unit: RegisterUnit): boolean {
  return mustFileForm(unit.org_form.code)
}

export function mustFileForm(orgFormCode: string): boolean {
  return MUST_FILE.has(orgFormCode)
}

/**
 * The two fields a filing changes, as the snapshot shows them; the accounts diff
 * (domain/changes/accounts-diff.ts) compares exactly these. `covered`: whether the form must file
 * (null when the unit is unknown).
 */
export function filingStatusOf(
  covered: boolean | null,
  lookup: AccountsLookup | null,
): { has_filed_annual_accounts: boolean | null; last_accounts_year: number | null } {
  const record = lookup?.kind === 'found' ? lookup.record : null
  return {
    has_filed_annual_accounts: record ? true : lookup?.kind === 'none' && covered ? false : null,
    last_accounts_year: record ? Number(record.period_to.slice(0, 4)) : null,
  }
}

export function accountsSnapshotOf(org: string, unit: RegisterUnit | null, lookup: AccountsLookup | null) {
  const covered = unit ? mustFile(unit) : null
  const record = lookup?.kind === 'found' ? lookup.record : null
  return {
    org_number: org,
    ...filingStatusOf(covered, lookup),
    key_figures: record
      ? {
          currency: record.currency,
          period_from: record.period_from,
          period_to: record.period_to,
          accounts_type: record.accounts_type,
          presentation_basis: record.presentation_plan,
          accounting_rules: record.accounting_rules,
          small_company: record.small_company,
          audited: record.audited,
          total_assets: record.total_assets,
          total_equity_and_liabilities: record.total_equity_and_liabilities,
          total_equity: record.total_equity,
          total_liabilities: record.total_liabilities,
          operating_revenue: record.operating_revenue,
          operating_result: record.operating_result,
          result_before_tax: record.result_before_tax,
          annual_result: record.annual_result,
        }
      : null,
    filing_obligation_known: covered,
    coverage_note_nb:
      'Regnskapsregisteret viser bare siste godkjente årsregnskap fra 2018 og senere, ikke banker, forsikringsselskaper eller konsernregnskap.',
    coverage_note_en:
      'Regnskapsregisteret shows only the latest approved annual accounts from 2018 on; no banks, insurers or group accounts.',
  }
}

export type AccountsSnapshot = ReturnType<typeof accountsSnapshotOf>

/**
 * A number the register knows neither as a unit nor as a sub-unit answers nulls; a sub-unit's
 * number answers its legal entity's accounts (a sub-unit files none of its own), named in `sub_unit`;
 * a deleted sub-unit that names no parent is SUB_UNIT_DELETED.
 */
export async function accountsSnapshot(
  sources: CompanyReads,
  org: string,
): Promise<{ data: AccountsSnapshot & { sub_unit?: SubUnitBlock }; sources: Provenance[] }> {
  const r = await resolveOrg(sources, org)
  if (r.kind === 'missing') {
    if (r.error.code !== 'COMPANY_NOT_FOUND' || r.subUnit) throw r.error
    return { data: accountsSnapshotOf(org, null, null), sources: r.sources }
  }
  const entity = r.entity.value.org_number
  const accounts = await sources.accounts(entity)
  return {
    data: { ...accountsSnapshotOf(entity, r.entity.value, accounts.value), ...subUnitOf(r.entity) },
    sources: [accounts.source, ...r.entity.sources],
  }
}
