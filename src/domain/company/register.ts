/**
 * What the business register says about a unit, in our resources: the Tier 1 context, the company
 * profile, search candidates and the public status row. A unit removed from open data (410) is
 * treated as unknown: nothing about it may be shown.
 */
import { AppError } from '../../errors/app-error.ts'
import { hasValidCheckDigit, isOrgNumberShape } from '../../lib/org-number.ts'
import type { RegisterUnit, Role } from '../../upstream/business-register/map.ts'
import { UPGRADE_PATH_NB } from '../rulebook/evaluate.ts'
import { ENTITY_TYPES, type EntityType } from '../rulebook/facts.ts'
import { attempt, type CompanyReads, type Provenance, type Sourced } from '../sources.ts'

export const UPGRADE_PATH_EN =
  'Tier 2 data (employees, turnover, balance sheet) needs an active delegation from the company: ask the general manager or access manager to approve Plikt’s system user in Altinn.'

/** The unit, or 404 COMPANY_NOT_FOUND when the register does not know it or removed it. */
export async function requireUnit(sources: CompanyReads, org: string): Promise<Sourced<RegisterUnit>> {
  const { value, source } = await sources.unit(org)
  if (value.kind !== 'found') {
    throw new AppError('COMPANY_NOT_FOUND', { context: { org_number: org }, extra: { org_number: org } })
  }
  return { value: value.unit, source }
}

/** The rulebook's entity type, when the organisation form is one it covers. */
export function entityTypeOf(unit: RegisterUnit): EntityType | null {
  return (ENTITY_TYPES as readonly string[]).includes(unit.org_form.code) ? (unit.org_form.code as EntityType) : null
}

const distress = (u: RegisterUnit) => ({
  bankrupt: u.bankrupt,
  bankrupt_date: u.bankrupt_date,
  under_dissolution: u.under_dissolution,
  under_dissolution_date: u.under_dissolution_date,
  under_forced_dissolution: u.under_forced_dissolution,
  forced_dissolution_date: u.forced_dissolution_date,
})

const mva = (u: RegisterUnit) => ({ registered: u.vat_registered, registered_date: u.vat_registered_date, voluntary_registrations: u.voluntary_vat })

/** Tier 1: the open register's fields. Tier 2 needs a delegation, which no consumer has yet. */
export function companyContext(unit: RegisterUnit) {
  return {
    org_number: unit.org_number,
    name: unit.name,
    org_form: unit.org_form,
    entity_type: entityTypeOf(unit),
    status: unit.status,
    deleted_date: unit.deleted_date,
    registered_date: unit.registered_date,
    founded_date: unit.founded_date,
    enterprise_register: { registered: unit.in_enterprise_register, registered_date: unit.enterprise_registered_date },
    business_address: unit.business_address,
    postal_address: unit.postal_address,
    nace_codes: unit.nace,
    institutional_sector: unit.sector,
    mva: mva(unit),
    distress: distress(unit),
    share_capital: unit.capital,
    last_accounts_year: unit.last_accounts_year,
    parent_org_number: unit.parent_org_number,
    home_country_registration: unit.home_country_registration,
    website: unit.website,
    data_tier: 'tier_1' as const,
    tier_2: null,
    upgrade_path: UPGRADE_PATH_NB,
    upgrade_path_en: UPGRADE_PATH_EN,
  }
}

/**
 * The profile: identity, form, activity, addresses, dates, status and the role codes the register
 * shows (codes only — never who holds them). Role codes are null when the roles lookup failed.
 */
export async function companyProfile(sources: CompanyReads, org: string): Promise<{ data: ReturnType<typeof profileOf>; sources: Provenance[] }> {
  const unit = await requireUnit(sources, org)
  const used = [unit.source]
  let roles: Role[] | null = []
  if (unit.value.status === 'active') {
    const r = await attempt(() => sources.roles(org), used)
    roles = r instanceof AppError ? null : r.roles
  }
  return { data: profileOf(unit.value, roles), sources: used }
}

function profileOf(unit: RegisterUnit, roles: Role[] | null) {
  return {
    org_number: unit.org_number,
    display_name: unit.name,
    org_form: unit.org_form,
    nace_codes: unit.nace,
    registered_address: unit.postal_address,
    business_address: unit.business_address,
    registration_date: unit.registered_date,
    founded_date: unit.founded_date,
    dissolution_date: unit.deleted_date,
    status: unit.status === 'active' ? ('active' as const) : ('dissolved' as const),
    mva_registered: unit.vat_registered,
    role_codes: roles === null ? null : [...new Set(roles.map((r) => r.role.code))].sort(),
    roles_available: roles !== null,
  }
}

export type CandidateStatus = 'active' | 'bankrupt' | 'under_dissolution' | 'under_forced_dissolution' | 'deleted'

export function candidateStatus(u: RegisterUnit): CandidateStatus {
  if (u.status === 'deleted') return 'deleted'
  if (u.bankrupt) return 'bankrupt'
  if (u.under_forced_dissolution) return 'under_forced_dissolution'
  if (u.under_dissolution) return 'under_dissolution'
  return 'active'
}

/** Up to 10 candidates by name; zero hits is NOT_FOUND. `name` arrives trimmed and 2–100 chars. */
export async function searchCompanies(sources: CompanyReads, name: string) {
  const { value, source } = await sources.search(name, 10)
  if (value.units.length === 0) throw new AppError('NOT_FOUND', { extra: { query: name } })
  const candidates = value.units.slice(0, 10).map((u) => ({
    name: u.name,
    org_number: u.org_number,
    org_form: u.org_form.code,
    org_form_description: u.org_form.description,
    municipality: (u.business_address ?? u.postal_address)?.municipality ?? null,
    status: candidateStatus(u),
  }))
  return { data: { query: name, count: candidates.length, total_matches: value.total, candidates }, sources: [source] }
}

/** One row of the public bulk status: Tier 1, non-personal fields only. */
export function statusRow(unit: RegisterUnit) {
  return {
    org_number: unit.org_number,
    found: true,
    name: unit.name,
    registry_status: unit.status,
    entity_type: unit.org_form.code,
    mva_registered: unit.vat_registered,
    konkurs: unit.bankrupt,
    under_avvikling: unit.under_dissolution,
    under_tvangsavvikling: unit.under_forced_dissolution,
    annual_accounts: { last_submitted_year: unit.last_accounts_year, has_submitted: unit.status === 'deleted' ? null : unit.last_accounts_year !== null ? true : null },
    error: null,
  }
}


/** How many units one bulk call looks up at a time: kind to the register, quick enough for 100. */
const BULK_CONCURRENCY = 8

type StatusRow = ReturnType<typeof statusRow> | { org_number: string; found: false; registry_status: 'not_found' | 'error'; error: { error_code: string; message: string; message_en: string; retryable: boolean } | null }

/**
 * One row per organisation number, in the order given (duplicates once). A row that fails —
 * invalid number, unknown unit, an upstream fault — is reported in its row and never fails the call.
 */
export async function companyStatuses(
  sources: CompanyReads,
  orgNumbers: string[],
  rowError: (e: AppError) => { error_code: string; message: string; message_en: string; retryable: boolean },
): Promise<{ rows: StatusRow[]; sources: Provenance[] }> {
  const unique = [...new Set(orgNumbers)]
  const rows: StatusRow[] = new Array(unique.length)
  const used: Provenance[] = []
  let next = 0
  const worker = async () => {
    for (let i = next++; i < unique.length; i = next++) {
      const org = unique[i]!
      try {
        if (!isOrgNumberShape(org) || !hasValidCheckDigit(org)) {
          throw isOrgNumberShape(org)
            ? new AppError('ORG_NUMBER_INVALID_CHECKSUM', { context: { org_number: org } })
            : new AppError('VALIDATION_FAILED', { context: { field: 'org_numbers' } })
        }
        const unit = await requireUnit(sources, org)
        used.push(unit.source)
        rows[i] = statusRow(unit.value)
      } catch (e) {
        const err = e instanceof AppError ? e : new AppError('INTERNAL_ERROR', { cause: e })
        rows[i] = { org_number: org, found: false, registry_status: err.code === 'COMPANY_NOT_FOUND' ? 'not_found' : 'error', error: err.code === 'COMPANY_NOT_FOUND' ? null : rowError(err) }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, unique.length) }, worker))
  return { rows, sources: used }
}
