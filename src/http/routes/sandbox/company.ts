/** Sandbox company reads: the production domain over the synthetic companies (DESIGN §8). */
import { accountsSnapshot } from '../../../domain/company/accounts.ts'
import { signingAuthority } from '../../../domain/company/authority.ts'
import { verifyCompany } from '../../../domain/company/verify.ts'
import { sandboxAudit } from '../../../domain/sandbox/audit.ts'
import { sandboxReads } from '../../../domain/sandbox/reads.ts'
import { sandboxContext, sandboxDeadlines, sandboxObligations, sandboxSummary } from '../../../domain/sandbox/views.ts'
import type * as S from '../../../schemas/sandbox.ts'
import type { Handler } from '../../context.ts'
import { sandboxResponse } from '../../sandbox.ts'
import { prelude, sandboxOrg } from './prelude.ts'

type OrgRoute<Q> = { params: typeof S.SandboxOrgParams; query: Q }

export const sandboxCompanyHandlers = {
  getSandboxContext: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    return sandboxResponse(ctx.deps.clock.now(), p.state, await sandboxContext(c))
  }) satisfies Handler<OrgRoute<typeof S.KnobsQuery>>,

  getSandboxObligations: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    return sandboxResponse(ctx.deps.clock.now(), p.state, sandboxObligations(c, p.date))
  }) satisfies Handler<OrgRoute<typeof S.TimeTravelQuery>>,

  getSandboxDeadlines: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    return sandboxResponse(ctx.deps.clock.now(), p.state, sandboxDeadlines(c, p.date))
  }) satisfies Handler<OrgRoute<typeof S.TimeTravelQuery>>,

  getSandboxSummary: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    return sandboxResponse(ctx.deps.clock.now(), p.state, sandboxSummary(c, p.date))
  }) satisfies Handler<OrgRoute<typeof S.TimeTravelQuery>>,

  getSandboxAudit: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    const entries = await sandboxAudit(ctx.deps.sql, p.namespace, c)
    // The sandbox audit never paginates: the limit is echoed as 50 whatever was asked (spec).
    return sandboxResponse(ctx.deps.clock.now(), p.state, { data: entries, pagination: { limit: 50, has_more: false } })
  }) satisfies Handler<OrgRoute<typeof S.AuditQuery>>,

  getSandboxVerification: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    return sandboxResponse(ctx.deps.clock.now(), p.state, (await verifyCompany(sandboxReads, c.org_number)).data)
  }) satisfies Handler<OrgRoute<typeof S.KnobsQuery>>,

  getSandboxAuthority: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    const { coded_authority: _absentInSandbox, ...data } = (await signingAuthority(sandboxReads, c.org_number)).data
    return sandboxResponse(ctx.deps.clock.now(), p.state, data)
  }) satisfies Handler<OrgRoute<typeof S.KnobsQuery>>,

  getSandboxAccounts: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(p, ctx.params.org)
    return sandboxResponse(ctx.deps.clock.now(), p.state, (await accountsSnapshot(sandboxReads, c.org_number)).data)
  }) satisfies Handler<OrgRoute<typeof S.KnobsQuery>>,
}
