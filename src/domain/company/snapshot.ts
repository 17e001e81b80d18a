/**
 * The unified snapshot: verification, roles, VAT, employer and risk in one answer. The register
 * unit is required (404 unknown, the register's outage without a cached copy fails the call); any
 * other section that cannot be composed degrades to `{status: 'degraded', error}` and the call
 * stays 200.
 */
import { AppError } from '../../errors/app-error.ts'
import type { RegisterUnit, Role } from '../../upstream/business-register/map.ts'
import { requireUnit, subUnitOf } from './register.ts'
import { attempt, type CompanyReads, type Provenance } from '../sources.ts'
import { verificationOf, type Verification } from './verify.ts'

export interface SectionError {
  error_code: string
  retryable: boolean
  message: string
  message_en: string
}

export type Degraded = { status: 'degraded'; error: SectionError }

/** The scope the labour register (Aa-registeret) needs for an employer's employment relationships. */
export const LABOUR_REGISTER_SCOPE = 'nav:aareg/v1/arbeidsforhold/arbeidsgiver'

export type RiskLevel = 'clear' | 'elevated' | 'unknown'

export function riskOf(unit: RegisterUnit) {
  const factors: { signal: string; value: boolean | null; note_nb: string; note_en: string }[] = [
    {
      signal: 'deleted',
      value: unit.status === 'deleted',
      note_nb: 'Slettet i Enhetsregisteret',
      note_en: 'Deleted from the register',
    },
    { signal: 'konkurs', value: unit.bankrupt, note_nb: 'Konkurs', note_en: 'Bankrupt' },
    { signal: 'under_avvikling', value: unit.under_dissolution, note_nb: 'Under avvikling', note_en: 'Being wound up' },
    {
      signal: 'under_tvangsavvikling',
      value: unit.under_forced_dissolution,
      note_nb: 'Under tvangsavvikling eller tvangsoppløsning',
      note_en: 'Under forced dissolution',
    },
  ]
  const level: RiskLevel = factors.some((f) => f.value === true)
    ? 'elevated'
    : factors.every((f) => f.value === false)
      ? 'clear'
      : 'unknown'
  return {
    status: 'ok' as const,
    level,
    factors,
    disclaimer_nb: 'Åpenhet om registerflagg, ikke en kredittvurdering.',
    disclaimer_en: 'Transparency about register flags, not a credit score.',
  }
}

function rolesSection(roles: Role[]) {
  return {
    status: 'ok' as const,
    roles: roles.map((r) => ({
      group: r.group.code,
      group_description: r.group.description,
      role: r.role.code,
      role_description: r.role.description,
      holder:
        r.holder.kind === 'person'
          ? { kind: 'person' as const, name: r.holder.name, org_number: null }
          : { kind: 'entity' as const, name: r.holder.name, org_number: r.holder.org_number },
      liability_share: r.liability_share,
    })),
  }
}

export async function companySnapshot(sources: CompanyReads, org: string, describe: (e: AppError) => SectionError) {
  const unit = await requireUnit(sources, org)
  const used: Provenance[] = [...unit.sources]
  const u = unit.value
  const entity = u.org_number
  const active = u.status === 'active'
  const [signature, accounts, roles] = active
    ? await Promise.all([
        attempt(() => sources.signature(entity), used),
        attempt(() => sources.accounts(entity), used),
        attempt(() => sources.roles(entity), used),
      ])
    : [null, null, null]
  const verification = verificationOf(
    u,
    signature instanceof AppError ? null : signature,
    accounts instanceof AppError ? null : accounts,
    accounts !== null && !(accounts instanceof AppError),
  )
  const degrade = (e: AppError): Degraded => ({ status: 'degraded', error: describe(e) })
  return {
    data: {
      ...snapshotOf(
        u,
        { status: 'ok', ...verification },
        roles instanceof AppError ? degrade(roles) : rolesSection(roles?.roles ?? []),
      ),
      ...subUnitOf(unit),
    },
    sources: used,
  }
}

function snapshotOf(
  u: RegisterUnit,
  verify: { status: 'ok' } & Verification,
  roles: ReturnType<typeof rolesSection> | Degraded,
) {
  return {
    org_number: u.org_number,
    name: u.name,
    sections: {
      verify,
      roles,
      vat: {
        status: 'ok' as const,
        mva_registered: u.vat_registered,
        registered_date: u.vat_registered_date,
        voluntary_registrations: u.voluntary_vat,
      },
      employer: {
        status: 'ok' as const,
        available: false,
        reason: 'DELEGATION_MISSING' as const,
        scope: LABOUR_REGISTER_SCOPE,
        explanation_nb: 'Arbeidsforhold fra Aa-registeret krever en aktiv delegering fra virksomheten.',
        explanation_en: 'Employment data from the labour register needs an active delegation from the company.',
      },
      risk: riskOf(u),
    },
  }
}
