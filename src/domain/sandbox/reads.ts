/**
 * The sandbox's adapter behind the same read interface production uses (CompanyReads): the
 * companies of fixtures/sandbox and the synthetic ones of the valid series, in the shapes the register mappers produce, so
 * verification, authority, accounts and the rulebook run unchanged over them.
 */
import { AppError } from '../../errors/app-error.ts'
import type { AccountsLookup } from '../../upstream/accounts-register/map.ts'
import type {
  AuthorityLookup,
  AuthorityPerson,
  RegisterUnit,
  RolesLookup,
  SearchPage,
  SubUnitLookup,
  UnitLookup,
} from '../../upstream/business-register/map.ts'
import { SYSTEM_NAMES, type UpstreamSystem } from '../../upstream/raw.ts'
import { SANDBOX_COMPANIES, type SandboxCompany, type Signer } from '../../../fixtures/sandbox/companies.ts'
import { sandboxCompanyOf } from './orgs.ts'
import type { CompanyReads, Sourced } from '../sources.ts'

/** Every sandbox answer is "as of" this instant: the data never changes (spec: Sandbox `_meta`). */
const SANDBOX_DATA_AS_OF = new Date('2026-01-01T00:00:00+01:00')

const ORG_FORMS = { AS: 'Aksjeselskap', ENK: 'Enkeltpersonforetak' } as const
const ROLE_NAMES: Record<string, string> = {
  DAGL: 'Daglig leder',
  LEDE: 'Styrets leder',
  MEDL: 'Styremedlem',
  INNH: 'Innehaver',
  PROK: 'Prokura',
}
const GROUP_NAMES: Record<string, string> = { DAGL: 'Daglig leder/ adm.direktør', STYR: 'Styre', INNH: 'Innehaver' }

function sourced<T>(system: UpstreamSystem, value: T): Sourced<T> {
  return { value, source: { system, snapshotId: '', fetchedAt: SANDBOX_DATA_AS_OF, servedFrom: 'cache', stale: false } }
}

export function registerUnitOf(c: SandboxCompany): RegisterUnit {
  const a = c.address
  const address = {
    lines: [a.street],
    postal_code: a.postal_code,
    city: a.city,
    municipality_number: a.municipality_number,
    municipality: a.municipality,
    country_code: 'NO',
    country: 'Norge',
  }
  const at = (s: SandboxCompany['status']) => (c.status === s ? c.status_date : null)
  return {
    org_number: c.org_number,
    name: c.name,
    org_form: { code: c.entity_type, description: ORG_FORMS[c.entity_type] },
    status: c.status === 'deleted' ? 'deleted' : 'active',
    deleted_date: at('deleted'),
    registered_date: c.registered_date,
    founded_date: c.registered_date,
    business_address: address,
    postal_address: address,
    nace: c.nace.map(([code, description]) => ({ code, description })),
    sector:
      c.entity_type === 'AS'
        ? { code: '2100', description: 'Private aksjeselskaper mv.' }
        : { code: '8200', description: 'Personlig næringsdrivende' },
    employees: c.employees !== null && c.employees > 4 ? c.employees : null,
    has_registered_employees: c.employees !== null,
    bankrupt: c.status === 'bankrupt',
    bankrupt_date: at('bankrupt'),
    under_dissolution: c.status === 'under_dissolution',
    under_dissolution_date: at('under_dissolution'),
    under_forced_dissolution: c.status === 'forced_dissolution',
    forced_dissolution_date: at('forced_dissolution'),
    vat_registered: c.vat_registered_date !== null,
    vat_registered_date: c.vat_registered_date,
    voluntary_vat: [],
    in_enterprise_register: c.entity_type === 'AS',
    enterprise_registered_date: c.entity_type === 'AS' ? c.registered_date : null,
    last_accounts_year: c.accounts?.year ?? null,
    parent_org_number: null,
    home_country_registration: null,
    capital: c.entity_type === 'AS' ? { amount: 30_000, currency: 'NOK', type: 'Aksjekapital' } : null,
    website: null,
  }
}

function birthDateOf(c: SandboxCompany, name: string): string | null {
  return c.roles.find(([, , n]) => n === name)?.[3] ?? null
}

function person(c: SandboxCompany, [role, name]: Signer): AuthorityPerson {
  return { name, birth_date: birthDateOf(c, name), role: { code: role, description: ROLE_NAMES[role] ?? role } }
}

const NOT_FOUND: AuthorityLookup = {
  found: false,
  routine_status: null,
  routine_text: null,
  combination_status: null,
  rule_status: null,
  rule_id: null,
  basis_code: null,
  free_text: null,
  possible_holders: [],
  combinations: [],
}

/** What Fullmakttjenesten would answer: the same fields the live mapper fills. */
function authority(c: SandboxCompany, kind: 'signature' | 'prokura'): AuthorityLookup {
  if (c.status === 'deleted') return NOT_FOUND
  const base = {
    found: true,
    routine_status: 'OK',
    routine_text: 'Oppslaget er utført',
    basis_code: kind === 'signature' ? 'SF' : 'PF',
  }
  const combos = (sets: Signer[][], code: string | null, description: string | null) =>
    sets.map((set, i) => ({ id: String(i + 1), code, description, persons: set.map((s) => person(c, s)) }))
  const holders = (sets: Signer[][]) => [...new Map(sets.flat().map((s) => [`${s[0]}|${s[1]}`, person(c, s)])).values()]
  const empty = {
    ...base,
    combination_status: 'IK',
    rule_status: null,
    rule_id: null,
    free_text: null,
    possible_holders: [],
    combinations: [],
  }
  if (kind === 'prokura') {
    if (c.prokura.length === 0) return empty
    return {
      ...base,
      combination_status: 'OK',
      rule_status: 'RF',
      rule_id: 'R0101',
      free_text: null,
      possible_holders: holders(c.prokura),
      combinations: combos(c.prokura, 'R0101', 'Prokura hver for seg.'),
    }
  }
  const s = c.signing
  switch (s.rule) {
    case 'coded':
      return {
        ...base,
        combination_status: 'OK',
        rule_status: 'RF',
        rule_id: 'R0001',
        free_text: null,
        possible_holders: holders(s.combinations),
        combinations: combos(s.combinations, 'R0001', s.text),
      }
    case 'free_text':
      return {
        ...base,
        combination_status: 'OK',
        rule_status: 'RI',
        rule_id: null,
        free_text: s.text,
        possible_holders: holders([s.fallback]),
        combinations: combos([s.fallback], 'STYR', 'Styret i fellesskap'),
      }
    case 'none':
    case 'unavailable':
      return empty
  }
}

function roles(c: SandboxCompany): RolesLookup {
  if (c.status === 'deleted') return { found: true, roles: [] }
  return {
    found: true,
    roles: c.roles.map(([group, role, name, birth], i) => ({
      group: { code: group, description: GROUP_NAMES[group] ?? group },
      role: { code: role, description: ROLE_NAMES[role] ?? role },
      holder: { kind: 'person' as const, name, birth_date: birth, deceased: false },
      liability_share: null,
      elected_by: null,
      order: i,
    })),
  }
}

function accounts(c: SandboxCompany): AccountsLookup {
  const a = c.accounts
  if (!a) return { kind: 'none' }
  const debt = a.assets - a.equity
  return {
    kind: 'found',
    record: {
      id: Number(c.org_number.slice(3)),
      accounts_type: 'SELSKAP',
      period_from: `${a.year}-01-01`,
      period_to: `${a.year}-12-31`,
      currency: a.currency,
      presentation_plan: 'smaa',
      accounting_rules: 'regnskapslovenAlminneligRegler',
      small_company: true,
      liquidation_accounts: false,
      audited: true,
      audit_opted_out: false,
      total_assets: a.assets,
      total_equity_and_liabilities: a.assets,
      total_equity: a.equity,
      total_liabilities: debt,
      operating_revenue: a.revenue,
      operating_result: a.operating_result,
      result_before_tax: Math.round(a.annual_result / 0.78),
      annual_result: a.annual_result,
    },
  }
}

export const sandboxReads: CompanyReads = {
  async unit(org): Promise<Sourced<UnitLookup>> {
    const c = sandboxCompanyOf(org)
    return sourced('enhetsregisteret', c ? { kind: 'found', unit: registerUnitOf(c) } : { kind: 'unknown' })
  },
  /** the synthetic companies have no sub-units */
  async subUnit(): Promise<Sourced<SubUnitLookup>> {
    return sourced('enhetsregisteret', { kind: 'unknown' })
  },
  async roles(org): Promise<Sourced<RolesLookup>> {
    const c = sandboxCompanyOf(org)
    return sourced('enhetsregisteret', c ? roles(c) : { found: false, roles: [] })
  },
  async signature(org): Promise<Sourced<AuthorityLookup>> {
    const c = sandboxCompanyOf(org)
    if (c?.signing.rule === 'unavailable') {
      throw new AppError('UPSTREAM_UNAVAILABLE', {
        context: { upstream_system: SYSTEM_NAMES.fullmakt },
        extra: { upstream_system: SYSTEM_NAMES.fullmakt },
      })
    }
    return sourced('fullmakt', c ? authority(c, 'signature') : NOT_FOUND)
  },
  async prokura(org): Promise<Sourced<AuthorityLookup>> {
    const c = sandboxCompanyOf(org)
    return sourced('fullmakt', c ? authority(c, 'prokura') : NOT_FOUND)
  },
  async accounts(org): Promise<Sourced<AccountsLookup>> {
    const c = sandboxCompanyOf(org)
    return sourced('regnskapsregisteret', c ? accounts(c) : { kind: 'none' })
  },
  async search(name): Promise<Sourced<SearchPage>> {
    const term = name.toLocaleLowerCase('nb')
    const units = SANDBOX_COMPANIES.filter(
      (c) => c.status !== 'deleted' && c.name.toLocaleLowerCase('nb').includes(term),
    ).map(registerUnitOf)
    return sourced('enhetsregisteret', { units: units.slice(0, 10), total: units.length })
  },
}
