/**
 * Who may approve a system-user request for an organisation, read from the business register:
 * the mock world's stand-in for the check the digital agency makes on the person who logs in.
 *
 * In Altinn a request is approved by one person with the access-manager right, which the register
 * roles of the people who lead the organisation carry by default (DAGL, LEDE, INNH, DTPR, DTSO,
 * KOMP, BEST, and KNUF for a foreign company's Norwegian branch). The mock also admits anyone the coded signing rule lets sign alone. Someone
 * who may sign only jointly with others is not enough on their own, and procuration is not a right
 * to delegate. Deceased holders and organisations holding a role are left out: neither can log in.
 */
import { AppError } from '../../errors/app-error.ts'
import { signingAuthority } from './authority.ts'
import { attempt, type CompanyReads } from '../sources.ts'

/** The register roles that carry Altinn's access-manager right by default. */
const MANAGING_ROLES = new Set(['DAGL', 'LEDE', 'INNH', 'DTPR', 'DTSO', 'KOMP', 'BEST', 'KNUF'])

export type ApproverGround =
  | { kind: 'role'; code: string; description: string | null }
  /** the coded signing rule lets this person sign alone */
  | { kind: 'signature'; code: string | null; description: string | null }

export interface Approver {
  name: string
  grounds: ApproverGround[]
}

export interface DelegationApprovers {
  org_number: string
  name: string
  /** the signing rule as the register words it (each sufficient combination's text), or its free text */
  signature_rule: string[]
  approvers: Approver[]
}

/** How a ground is recorded with a decision: `role:DAGL`, `signature:R0001`. */
export function groundCode(g: ApproverGround): string {
  return `${g.kind}:${g.code ?? '-'}`
}

export async function delegationApprovers(sources: CompanyReads, org: string): Promise<DelegationApprovers> {
  const authority = await signingAuthority(sources, org)
  const roles = await attempt(() => sources.roles(org), [])
  const byName = new Map<string, Approver>()
  const add = (name: string, ground: ApproverGround) => {
    const a = byName.get(name) ?? { name, grounds: [] }
    if (!a.grounds.some((g) => groundCode(g) === groundCode(ground))) a.grounds.push(ground)
    byName.set(name, a)
  }
  for (const r of roles instanceof AppError ? [] : roles.roles) {
    if (MANAGING_ROLES.has(r.role.code) && r.holder.kind === 'person' && r.holder.deceased !== true)
      add(r.holder.name, { kind: 'role', code: r.role.code, description: r.role.description })
  }
  const d = authority.data
  if (d.rule === 'coded') {
    for (const c of d.combinations) {
      if (c.sufficient_alone) add(c.signers[0]!.name, { kind: 'signature', code: c.code, description: c.description })
    }
  }
  const ruleTexts = [...new Set(d.combinations.map((c) => c.description).filter((t): t is string => t !== null))]
  return {
    org_number: d.org_number,
    name: d.name,
    signature_rule: d.free_text ? [d.free_text] : ruleTexts,
    approvers: [...byName.values()],
  }
}
