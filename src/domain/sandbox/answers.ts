/**
 * Every per-company sandbox answer except the audit trail, by route name: what the sandbox routes
 * and the MCP tools under the synthetic bearer both serve, computed by the production domain.
 */
import type { LocalDate } from '../../lib/local-date.ts'
import { accountsSnapshot } from '../company/accounts.ts'
import { signingAuthority } from '../company/authority.ts'
import { verifyCompany } from '../company/verify.ts'
import type { SandboxCompany } from '../../../fixtures/sandbox/companies.ts'
import { sandboxReads } from './reads.ts'
import { sandboxContext, sandboxDeadlines, sandboxObligations, sandboxSummary } from './views.ts'

export const SANDBOX_ANSWERS = {
  context: (c: SandboxCompany) => sandboxContext(c),
  obligations: (c: SandboxCompany, date: LocalDate) => sandboxObligations(c, date),
  deadlines: (c: SandboxCompany, date: LocalDate) => sandboxDeadlines(c, date),
  summary: (c: SandboxCompany, date: LocalDate) => sandboxSummary(c, date),
  verify: async (c: SandboxCompany) => (await verifyCompany(sandboxReads, c.org_number)).data,
  authority: async (c: SandboxCompany) => {
    // The sandbox has no coded clauses or stamps (spec: Signing authority).
    const { coded_authority: _absentInSandbox, ...data } = (await signingAuthority(sandboxReads, c.org_number)).data
    return data
  },
  accounts: async (c: SandboxCompany) => (await accountsSnapshot(sandboxReads, c.org_number)).data,
} as const

export type SandboxAnswer = keyof typeof SANDBOX_ANSWERS

export function sandboxAnswer(kind: SandboxAnswer, c: SandboxCompany, date: LocalDate): Promise<unknown> {
  return Promise.resolve(SANDBOX_ANSWERS[kind](c, date))
}

/** Which answer each sandbox company operation serves (also what a production operation naming it as its `sandboxMirror` serves under the sandbox bearer: pipeline/rehearsal.ts). */
export const ANSWER_BY_OPERATION = {
  getSandboxContext: 'context',
  getSandboxObligations: 'obligations',
  getSandboxDeadlines: 'deadlines',
  getSandboxSummary: 'summary',
  getSandboxVerification: 'verify',
  getSandboxAuthority: 'authority',
  getSandboxAccounts: 'accounts',
} as const satisfies Record<string, SandboxAnswer>
