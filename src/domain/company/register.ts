/**
 * What the business register says about a unit, in our resources: the Tier 1 context, the company
 * profile, search candidates and the public status row. A unit removed from open data (410) is
 * treated as unknown: nothing about it may be shown.
 */
import { AppError } from '../../errors/app-error.ts'
import { hasValidCheckDigit, isOrgNumberShape } from '../../lib/org-number.ts'
import type { Address, Coded, RegisterSubUnit, RegisterUnit, Role } from '../../upstream/business-register/map.ts'
import { UPGRADE_PATH_NB } from '../rulebook/evaluate.ts'
import { ENTITY_TYPES, type EntityType } from '../rulebook/facts.ts'
import { attempt, type CompanyReads, type Provenance, type Sourced, type UnitReads } from '../sources.ts'

export const UPGRADE_PATH_EN =
  'Tier 2 data (employees, turnover, balance sheet) needs an active delegation from the company: ask the general manager or access manager to approve Plikt’s system user in Altinn.'

/**
 * What an answer says when the number asked about is a sub-unit's (an underenhet: a branch, shop or
 * site): the sub-unit, and the legal entity the answer is about instead. A sub-unit has no
 * obligations, deadlines, roles, signing rules, accounts or filings of its own; they are its
 * parent's. `parent_*` are null only for a deleted sub-unit whose register entry no longer names one.
 */
export interface SubUnitBlock {
  org_number: string
  name: string
  org_form: Coded
  status: 'active' | 'deleted'
  location_address: Address | null
  started_date: string | null
  closed_date: string | null
  deleted_date: string | null
  parent_org_number: string | null
  parent_name: string | null
  parent_status: 'active' | 'deleted' | null
  note_nb: string
  note_en: string
}

/** The legal entity an organisation number stands for, with every read the answer rests on. */
export interface LegalEntity extends Sourced<RegisterUnit> {
  /** the legal entity's read first, then the sub-unit's when the number was one */
  sources: Provenance[]
  /** set when the number asked about is a sub-unit's; the answer is then its legal entity's */
  subUnit: SubUnitBlock | null
}

export function subUnitBlock(sub: RegisterSubUnit, parent: RegisterUnit | null): SubUnitBlock {
  const nb: string[] = []
  const en: string[] = []
  if (parent) {
    nb.push(
      `${sub.org_number} (${sub.name}) er en underenhet av ${parent.org_number} (${parent.name}). Svaret gjelder ${parent.org_number}, den juridiske personen: en underenhet har ingen egne plikter, frister, roller, signaturregler, regnskap eller innsendinger.`,
    )
    en.push(
      `${sub.org_number} (${sub.name}) is a sub-unit of ${parent.org_number} (${parent.name}). The answer is about ${parent.org_number}, the legal entity: a sub-unit has no obligations, deadlines, roles, signing rules, accounts or filings of its own.`,
    )
    if (parent.status === 'deleted') {
      nb.push(
        `${parent.name} er slettet i Enhetsregisteret${parent.deleted_date ? ` (${parent.deleted_date})` : ''}, så underenheten har ingen aktiv juridisk person bak seg.`,
      )
      en.push(
        `${parent.name} is deleted from the register${parent.deleted_date ? ` (${parent.deleted_date})` : ''}, so the sub-unit has no active legal entity behind it.`,
      )
    }
  } else {
    nb.push(
      `${sub.org_number} (${sub.name}) er en slettet underenhet; registeret viser ikke lenger hvilken juridisk person den hørte til.`,
    )
    en.push(
      `${sub.org_number} (${sub.name}) is a deleted sub-unit; the register no longer shows which legal entity it belonged to.`,
    )
  }
  if (sub.status === 'deleted' && parent) {
    nb.push(`Underenheten er slettet${sub.deleted_date ? ` (${sub.deleted_date})` : ''}.`)
    en.push(`The sub-unit is deleted${sub.deleted_date ? ` (${sub.deleted_date})` : ''}.`)
  } else if (sub.closed_date) {
    nb.push(`Underenheten er nedlagt (${sub.closed_date}).`)
    en.push(`The sub-unit is closed down (${sub.closed_date}).`)
  }
  return {
    org_number: sub.org_number,
    name: sub.name,
    org_form: sub.org_form,
    status: sub.status,
    location_address: sub.location_address,
    started_date: sub.started_date,
    closed_date: sub.closed_date,
    deleted_date: sub.deleted_date,
    parent_org_number: parent?.org_number ?? sub.parent_org_number,
    parent_name: parent?.name ?? null,
    parent_status: parent?.status ?? null,
    note_nb: nb.join(' '),
    note_en: en.join(' '),
  }
}

/** The `sub_unit` member of an answer: present only when the number asked about was a sub-unit's. */
export const subUnitOf = (e: { subUnit: SubUnitBlock | null }) => (e.subUnit ? { sub_unit: e.subUnit } : {})

export type Resolution =
  | { kind: 'entity'; entity: LegalEntity }
  /** no legal entity to answer for: the error says why; `subUnit` when the number is a deleted sub-unit's; `sources` the reads that said so */
  | { kind: 'missing'; error: AppError; sources: Provenance[]; subUnit: SubUnitBlock | null }

const notFound = (org: string) =>
  new AppError('COMPANY_NOT_FOUND', { context: { org_number: org }, extra: { org_number: org } })

/**
 * The legal entity behind an organisation number. A unit is itself; a number the register does not
 * know as a unit (404 — a removed unit, 410, stays unknown) is asked about as a sub-unit, and a
 * sub-unit stands for its parent (deleted or not). A deleted sub-unit whose entry no longer names
 * its parent is SUB_UNIT_DELETED; a number that is neither is COMPANY_NOT_FOUND.
 */
export async function resolveOrg(sources: UnitReads, org: string): Promise<Resolution> {
  const unit = await sources.unit(org)
  if (unit.value.kind === 'found')
    return {
      kind: 'entity',
      entity: { value: unit.value.unit, source: unit.source, sources: [unit.source], subUnit: null },
    }
  if (unit.value.kind === 'removed')
    return { kind: 'missing', error: notFound(org), sources: [unit.source], subUnit: null }
  const sub = await sources.subUnit(org)
  if (sub.value.kind !== 'found')
    return { kind: 'missing', error: notFound(org), sources: [unit.source, sub.source], subUnit: null }
  const s = sub.value.sub_unit
  if (s.parent_org_number === null) {
    const block = subUnitBlock(s, null)
    const error = new AppError('SUB_UNIT_DELETED', {
      context: { org_number: org },
      extra: { org_number: org, sub_unit: block },
    })
    return { kind: 'missing', error, sources: [unit.source, sub.source], subUnit: block }
  }
  const parent = await sources.unit(s.parent_org_number)
  if (parent.value.kind !== 'found') {
    // The register names a parent it does not show (removed, or not yet in the open data).
    const error = new AppError('COMPANY_NOT_FOUND', {
      context: { org_number: s.parent_org_number },
      extra: { org_number: s.parent_org_number, sub_unit_org_number: org },
    })
    return { kind: 'missing', error, sources: [unit.source, sub.source], subUnit: null }
  }
  const p = parent.value.unit
  return {
    kind: 'entity',
    entity: { value: p, source: parent.source, sources: [parent.source, sub.source], subUnit: subUnitBlock(s, p) },
  }
}

/**
 * The legal entity, or 404: COMPANY_NOT_FOUND when the register knows the number neither as a unit
 * nor as a sub-unit (or removed it), SUB_UNIT_DELETED for a deleted sub-unit that names no parent.
 */
export async function requireUnit(sources: UnitReads, org: string): Promise<LegalEntity> {
  const r = await resolveOrg(sources, org)
  if (r.kind === 'missing') throw r.error
  return r.entity
}

/**
 * For what only a legal entity can be party to (a delegation, a filing): the unit, or 422
 * ORG_NUMBER_IS_SUB_UNIT naming the parent to use instead when the number is a sub-unit's.
 */
export async function requireLegalEntity(sources: CompanyReads, org: string): Promise<LegalEntity> {
  const e = await requireUnit(sources, org)
  if (e.subUnit) throw subUnitRefusal(e.subUnit)
  return e
}

export function subUnitRefusal(sub: SubUnitBlock): AppError {
  const parent = sub.parent_org_number ?? ''
  return new AppError('ORG_NUMBER_IS_SUB_UNIT', {
    context: { org_number: sub.org_number, parent_org_number: parent },
    extra: { org_number: sub.org_number, parent_org_number: sub.parent_org_number, sub_unit: sub },
  })
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

const mva = (u: RegisterUnit) => ({
  registered: u.vat_registered,
  registered_date: u.vat_registered_date,
  voluntary_registrations: u.voluntary_vat,
})

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
export async function companyProfile(
  sources: CompanyReads,
  org: string,
): Promise<{ data: ReturnType<typeof profileOf>; sources: Provenance[] }> {
  const unit = await requireUnit(sources, org)
  const used = [...unit.sources]
  let roles: Role[] | null = []
  if (unit.value.status === 'active') {
    const r = await attempt(() => sources.roles(unit.value.org_number), used)
    roles = r instanceof AppError ? null : r.roles
  }
  return { data: { ...profileOf(unit.value, roles), ...subUnitOf(unit) }, sources: used }
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
    annual_accounts: {
      last_submitted_year: unit.last_accounts_year,
      has_submitted: unit.status === 'deleted' ? null : unit.last_accounts_year !== null ? true : null,
    },
    error: null,
  }
}

/** How many units one bulk call looks up at a time: kind to the register, quick enough for 100. */
const BULK_CONCURRENCY = 8

type StatusRow =
  | ReturnType<typeof statusRow>
  | (ReturnType<typeof statusRow> & { sub_unit: SubUnitBlock })
  | {
      org_number: string
      found: true
      name: string
      registry_status: 'deleted'
      entity_type: string
      sub_unit: SubUnitBlock
      error: null
    }
  | {
      org_number: string
      found: false
      registry_status: 'not_found' | 'error'
      error: { error_code: string; message: string; message_en: string; retryable: boolean } | null
    }

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
        const r = await resolveOrg(sources, org)
        if (r.kind === 'entity') {
          used.push(...r.entity.sources)
          // a sub-unit's row: the number as given, its legal entity's status, and the sub-unit named
          rows[i] = r.entity.subUnit
            ? { ...statusRow(r.entity.value), org_number: org, sub_unit: r.entity.subUnit }
            : statusRow(r.entity.value)
        } else if (r.subUnit) {
          used.push(...r.sources)
          rows[i] = {
            org_number: org,
            found: true,
            name: r.subUnit.name,
            registry_status: 'deleted',
            entity_type: r.subUnit.org_form.code,
            sub_unit: r.subUnit,
            error: null,
          }
        } else {
          throw r.error
        }
      } catch (e) {
        const err = e instanceof AppError ? e : new AppError('INTERNAL_ERROR', { cause: e })
        rows[i] = {
          org_number: org,
          found: false,
          registry_status: err.code === 'COMPANY_NOT_FOUND' ? 'not_found' : 'error',
          error: err.code === 'COMPANY_NOT_FOUND' ? null : rowError(err),
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, unique.length) }, worker))
  return { rows, sources: used }
}
