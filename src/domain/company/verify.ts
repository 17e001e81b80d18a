/**
 * Verification: seven tri-state signals and a verdict. Only `is_active` and
 * `has_signing_authority_defined` decide the verdict; the other five are transparency signals and
 * never change it. `pass` = active and a signing rule visible; `fail` = not active; `unknown` =
 * status indeterminate, or active with no signing rule visible. `warn` is reserved and never
 * emitted. A signing rule the register does not show is unknown (null), never a claimed absence.
 */
import { AppError } from '../../errors/app-error.ts'
import type { AccountsLookup } from '../../upstream/accounts-register/map.ts'
import type { AuthorityLookup, RegisterUnit } from '../../upstream/business-register/map.ts'
import { accountsSnapshotOf } from './accounts.ts'
import { classify } from './authority.ts'
import { requireUnit, subUnitOf } from './register.ts'
import { attempt, type CompanyReads, type Provenance } from '../sources.ts'

export type Verdict = 'pass' | 'fail' | 'unknown'

export interface Signals {
  is_active: boolean | null
  has_signing_authority_defined: boolean | null
  not_bankrupt: boolean | null
  not_under_dissolution: boolean | null
  not_forcibly_dissolved: boolean | null
  mva_registered: boolean | null
  has_filed_annual_accounts: boolean | null
}

export const TRANSPARENCY_SIGNALS = [
  'not_bankrupt',
  'not_under_dissolution',
  'not_forcibly_dissolved',
  'mva_registered',
  'has_filed_annual_accounts',
] as const

const not = (v: boolean | null) => (v === null ? null : !v)

export function verdictOf(s: Pick<Signals, 'is_active' | 'has_signing_authority_defined'>): Verdict {
  if (s.is_active === false) return 'fail'
  if (s.is_active === true && s.has_signing_authority_defined === true) return 'pass'
  return 'unknown'
}

/** true when the register shows a signing rule (coded or in free text); otherwise unknown. */
export function signingDefined(signature: AuthorityLookup | null): boolean | null {
  if (!signature) return null
  const { rule } = classify(signature, [])
  if (rule === 'coded' || rule === 'free_text_only') return true
  return null
}

function signingSummary(signature: AuthorityLookup | null) {
  if (!signature || signingDefined(signature) !== true) return null
  const roles = new Map<string, string | null>()
  for (const c of signature.combinations)
    for (const p of c.persons) if (p.role) roles.set(p.role.code, p.role.description)
  const list = [...roles]
    .map(([code, description]) => ({ code, description }))
    .sort((a, b) => (a.code < b.code ? -1 : 1))
  const names = list.map((r) => r.description ?? r.code)
  return {
    roles: list,
    text_nb:
      list.length > 0
        ? `Signaturrett er registrert for roller: ${names.join(', ')}.`
        : 'Signaturregelen er registrert som fritekst.',
    text_en:
      list.length > 0
        ? `A signing rule is registered involving the roles: ${names.join(', ')}.`
        : 'The signing rule is registered as free text only.',
  }
}

function summaries(unit: RegisterUnit, verdict: Verdict, s: Signals): { nb: string; en: string } {
  if (unit.status === 'deleted')
    return { nb: `${unit.name} er slettet i Enhetsregisteret.`, en: `${unit.name} is deleted from the register.` }
  const distress: { nb: string; en: string }[] = []
  if (s.not_bankrupt === false) distress.push({ nb: 'er konkurs', en: 'is bankrupt' })
  if (s.not_under_dissolution === false) distress.push({ nb: 'er under avvikling', en: 'is being wound up' })
  if (s.not_forcibly_dissolved === false)
    distress.push({ nb: 'er under tvangsavvikling eller tvangsoppløsning', en: 'is under forced dissolution' })
  if (verdict === 'fail') {
    return {
      nb: `${unit.name} er ikke aktiv: selskapet ${distress.map((d) => d.nb).join(' og ')} ifølge Enhetsregisteret.`,
      en: `${unit.name} is not active: the company ${distress.map((d) => d.en).join(' and ')} according to the register.`,
    }
  }
  if (verdict === 'pass')
    return {
      nb: `${unit.name} er aktiv i Enhetsregisteret, og signaturrett er registrert.`,
      en: `${unit.name} is active in the register and a signing rule is registered.`,
    }
  return {
    nb: `${unit.name} er aktiv i Enhetsregisteret, men registrert signaturrett er ikke synlig.`,
    en: `${unit.name} is active in the register, but no registered signing rule is visible.`,
  }
}

/**
 * Active = in the register and in no distress: bankruptcy and (forced) dissolution make a unit
 * "not active" (spec: states, Verification status). The three distress signals still report the
 * raw flags each; the verdict reads only `is_active` and `has_signing_authority_defined`.
 */
export function isActive(unit: RegisterUnit): boolean {
  return (
    unit.status === 'active' &&
    unit.bankrupt !== true &&
    unit.under_dissolution !== true &&
    unit.under_forced_dissolution !== true
  )
}

export function verificationOf(
  unit: RegisterUnit,
  signature: AuthorityLookup | null,
  accounts: AccountsLookup | null,
  accountsRead: boolean,
) {
  const active = isActive(unit)
  const filed = accountsRead
    ? accountsSnapshotOf(unit.org_number, unit, accounts).has_filed_annual_accounts
    : unit.last_accounts_year !== null
      ? true
      : null
  const signals: Signals = {
    is_active: active,
    has_signing_authority_defined: unit.status === 'active' ? signingDefined(signature) : null,
    not_bankrupt: not(unit.bankrupt),
    not_under_dissolution: not(unit.under_dissolution),
    not_forcibly_dissolved: not(unit.under_forced_dissolution),
    mva_registered: unit.vat_registered,
    has_filed_annual_accounts: filed,
  }
  const verdict = verdictOf(signals)
  const summary = summaries(unit, verdict, signals)
  return {
    org_number: unit.org_number,
    name: unit.name,
    org_form: unit.org_form.code,
    registry_status: unit.status,
    verification_status: verdict,
    signals,
    decisive_signals: ['is_active', 'has_signing_authority_defined'],
    transparency_signals: [...TRANSPARENCY_SIGNALS],
    summary: summary.nb,
    summary_en: summary.en,
    signing_authority_summary: signingSummary(signature),
    last_accounts_year: unit.last_accounts_year,
  }
}

export type Verification = ReturnType<typeof verificationOf>

/** A sub-unit's number is verified as its legal entity, named in `sub_unit`. */
export async function verifyCompany(sources: CompanyReads, org: string) {
  const unit = await requireUnit(sources, org)
  const used: Provenance[] = [...unit.sources]
  const entity = unit.value.org_number
  if (unit.value.status !== 'active')
    return { data: { ...verificationOf(unit.value, null, null, false), ...subUnitOf(unit) }, sources: used }
  const [signature, accounts] = await Promise.all([
    attempt(() => sources.signature(entity), used),
    attempt(() => sources.accounts(entity), used),
  ])
  const readAccounts = !(accounts instanceof AppError)
  return {
    data: {
      ...verificationOf(
        unit.value,
        signature instanceof AppError ? null : signature,
        readAccounts ? accounts : null,
        readAccounts,
      ),
      ...subUnitOf(unit),
    },
    sources: used,
  }
}
