/**
 * Who may sign for a company, classified from Fullmakttjenesten's signature and procuration rules.
 * The classification describes what the register shows; no legal citation is asserted.
 *
 * - `sole`: some combination is one person (someone may sign alone);
 * - `joint`: every combination needs two or more named people;
 * - `by_role`: a coded rule names an organ or role (e.g. the board) without resolvable people;
 * - `prokura_only`: no signature rule is registered, but procuration is;
 * - `no_authority`: the service covers the form and shows neither a signature rule nor procuration;
 * - `unknown`: the form is not covered, only free text is registered, or the lookup failed.
 *
 * When the signature lookup cannot be made, `kombinasjon_available` is false and the answer
 * degrades to the holders the roles register shows (signing role groups, if any) plus any
 * procuration fetched; when nothing at all can be read, UPSTREAM_UNAVAILABLE.
 */
import { AppError } from '../../errors/app-error.ts'
import type { AuthorityLookup, AuthorityPerson, RegisterUnit, Role } from '../../upstream/business-register/map.ts'
import { SYSTEM_NAMES } from '../../upstream/raw.ts'
import { requireUnit, subUnitOf, type LegalEntity, type SubUnitBlock } from './register.ts'
import { attempt, type CompanyReads, type Provenance } from '../sources.ts'

export type Classification = 'sole' | 'joint' | 'by_role' | 'prokura_only' | 'no_authority' | 'unknown'

export interface Holder {
  name: string
  role_code: string | null
  role_description: string | null
}

export interface Combination {
  kombinasjons_id: string
  /** the register's code for the combination: a rule id such as R0012, or a role-group code */
  code: string | null
  description: string | null
  role_codes: string[]
  signers: Holder[]
  sufficient_alone: boolean
}

/** Signing-role groups the roles register may carry (not observed in practice; read when present). */
const SOLE_SIGNING = new Set(['SIHV'])
const JOINT_SIGNING = new Set(['SIFE', 'SIGN'])
const PROCURATION = new Set(['PROK', 'POHV', 'POFE'])

function holderOf(p: AuthorityPerson): Holder {
  return { name: p.name, role_code: p.role?.code ?? null, role_description: p.role?.description ?? null }
}

function holderFromRole(r: Role): Holder {
  return { name: r.holder.name, role_code: r.role.code, role_description: r.role.description }
}

function combinationsOf(lookup: AuthorityLookup): Combination[] {
  return lookup.combinations.map((c) => ({
    kombinasjons_id: c.id,
    code: c.code,
    description: c.description,
    role_codes: [...new Set(c.persons.map((p) => p.role?.code).filter((x): x is string => Boolean(x)))],
    signers: c.persons.map(holderOf),
    sufficient_alone: c.persons.length === 1,
  }))
}

function uniqueHolders(list: Holder[]): Holder[] {
  const seen = new Set<string>()
  return list.filter((h) => {
    const key = `${h.name}|${h.role_code}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function procurationHolders(lookup: AuthorityLookup | null): Holder[] {
  if (!lookup) return []
  return uniqueHolders([
    ...lookup.possible_holders.map(holderOf),
    ...lookup.combinations.flatMap((c) => c.persons.map(holderOf)),
  ])
}

export type RuleKind = 'coded' | 'free_text_only' | 'none' | 'not_supported' | 'unavailable'

/** The classification from a signature lookup that succeeded. */
export function classify(
  signature: AuthorityLookup,
  prokuraHolders: Holder[],
): { classification: Classification; rule: RuleKind } {
  if (!signature.found || signature.routine_status === 'NA') {
    return { classification: prokuraHolders.length > 0 ? 'prokura_only' : 'unknown', rule: 'not_supported' }
  }
  if (signature.rule_status === 'RI') return { classification: 'unknown', rule: 'free_text_only' }
  const combos = signature.combinations
  if (combos.length > 0 && signature.combination_status !== 'IK') {
    if (combos.some((c) => c.persons.length === 1)) return { classification: 'sole', rule: 'coded' }
    if (combos.every((c) => c.persons.length === 0)) return { classification: 'by_role', rule: 'coded' }
    return { classification: 'joint', rule: 'coded' }
  }
  if (signature.free_text) return { classification: 'unknown', rule: 'free_text_only' }
  // A rule the service found but cannot resolve into combinations is not the same as no rule.
  if (signature.rule_status === 'RF')
    return { classification: prokuraHolders.length > 0 ? 'prokura_only' : 'unknown', rule: 'coded' }
  return { classification: prokuraHolders.length > 0 ? 'prokura_only' : 'no_authority', rule: 'none' }
}

export interface AuthorityResult {
  data: ReturnType<typeof authorityData> & { sub_unit?: SubUnitBlock }
  sources: Provenance[]
  /** the signature rule as read, for verification */
  signature: AuthorityLookup | null
}

function authorityData(
  unit: RegisterUnit,
  c: { classification: Classification; rule: RuleKind },
  signature: AuthorityLookup | null,
  combinations: Combination[],
  signing: Holder[],
  prokura: Holder[],
  degraded: { reason: string; error_code: string } | null,
) {
  return {
    org_number: unit.org_number,
    name: unit.name,
    org_form: unit.org_form.code,
    classification: c.classification,
    rule: c.rule,
    combinations,
    signaturrett_holders: signing,
    prokura_holders: prokura,
    // Whether the signature lookup answered (spec: false only when it was unreachable): a lookup that
    // found no rule, or a form the service does not cover, still gives a known, empty set of combinations.
    kombinasjon_available: signature !== null,
    free_text: signature?.free_text ?? null,
    coded_authority: signature
      ? {
          routine_status: signature.routine_status,
          combination_status: signature.combination_status,
          rule_status: signature.rule_status,
          rule_id: signature.rule_id,
          basis_code: signature.basis_code,
          combination_codes: signature.combinations.map((k) => k.code).filter((x): x is string => x !== null),
        }
      : null,
    degraded,
    notice_nb:
      'Klassifiseringen gjengir det Brønnøysundregistrene viser, og er ingen juridisk vurdering av hvem som kan forplikte selskapet.',
    notice_en:
      'The classification restates what the Brønnøysund registers show; it is not a legal opinion on who may bind the company.',
  }
}

/**
 * The unit, for the authority answer. The spec's authority route fails with UPSTREAM_UNAVAILABLE,
 * so the register's outage (REGISTER_DOWN on the other company routes) is answered as that, with
 * the breaker's Retry-After; a stale cached unit within its limit is still served before this.
 */
async function authorityUnit(sources: CompanyReads, org: string): Promise<LegalEntity> {
  try {
    return await requireUnit(sources, org)
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'REGISTER_DOWN') throw e
    const { context, extra, headers } = e.options
    throw new AppError('UPSTREAM_UNAVAILABLE', {
      ...(context ? { context } : {}),
      ...(extra ? { extra } : {}),
      ...(headers ? { headers } : {}),
      cause: e,
    })
  }
}

export async function signingAuthority(sources: CompanyReads, org: string): Promise<AuthorityResult> {
  const unit = await authorityUnit(sources, org)
  const used: Provenance[] = [...unit.sources]
  // a sub-unit signs as its legal entity: the rules read are the entity's, the sub-unit is named
  const entity = unit.value.org_number
  const [sig, pro] = await Promise.all([
    attempt(() => sources.signature(entity), used),
    attempt(() => sources.prokura(entity), used),
  ])
  const prokura = procurationHolders(pro instanceof AppError ? null : pro)

  if (!(sig instanceof AppError)) {
    const c = classify(sig, prokura)
    const combinations = combinationsOf(sig)
    const signing = uniqueHolders([...combinations.flatMap((k) => k.signers), ...sig.possible_holders.map(holderOf)])
    return {
      data: { ...authorityData(unit.value, c, sig, combinations, signing, prokura, null), ...subUnitOf(unit) },
      sources: used,
      signature: sig,
    }
  }

  // Degraded: the roles register may still show signing and procuration role groups.
  const roles = await attempt(() => sources.roles(entity), used)
  if (roles instanceof AppError && pro instanceof AppError) {
    throw new AppError('UPSTREAM_UNAVAILABLE', {
      context: { upstream_system: SYSTEM_NAMES.fullmakt },
      extra: { upstream_system: SYSTEM_NAMES.fullmakt },
      cause: sig,
    })
  }
  const list = roles instanceof AppError ? [] : roles.roles
  const sole = list.filter((r) => SOLE_SIGNING.has(r.role.code) || SOLE_SIGNING.has(r.group.code))
  const joint = list.filter((r) => JOINT_SIGNING.has(r.role.code) || JOINT_SIGNING.has(r.group.code))
  const prokuraFromRoles = list
    .filter((r) => PROCURATION.has(r.role.code) || PROCURATION.has(r.group.code))
    .map(holderFromRole)
  const classification: Classification = sole.length > 0 ? 'sole' : joint.length > 0 ? 'joint' : 'unknown'
  return {
    data: {
      ...authorityData(
        unit.value,
        { classification, rule: 'unavailable' },
        null,
        [],
        uniqueHolders([...sole, ...joint].map(holderFromRole)),
        uniqueHolders([...prokura, ...prokuraFromRoles]),
        {
          reason: 'signature lookup unavailable; classification from the roles register and procuration only',
          error_code: sig.code,
        },
      ),
      ...subUnitOf(unit),
    },
    sources: used,
    signature: null,
  }
}
