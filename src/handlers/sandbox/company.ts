/** Sandbox company reads: the production domain over the synthetic companies (ARCHITECTURE.md, the sandbox). */
import { ANSWER_BY_OPERATION, sandboxAnswer, type SandboxAnswer } from '../../domain/sandbox/answers.ts'
import { sandboxAudit } from '../../domain/sandbox/audit.ts'
import * as S from '../../schemas/sandbox.ts'
import type { Handler } from '../../pipeline/context.ts'
import { prelude } from './prelude.ts'
import { sandboxOrg } from '../../domain/sandbox/orgs.ts'

type OrgRoute = { params: typeof S.SandboxOrgParams }

/** Knobs and org checks first (prelude), then the answer on the effective date. */
function answer(kind: SandboxAnswer) {
  return (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.params.org, p.state)
    return { data: await sandboxAnswer(kind, c, p.date) }
  }) satisfies Handler<OrgRoute>
}

type AnswerOperation = keyof typeof ANSWER_BY_OPERATION

export const sandboxCompanyHandlers = {
  ...(Object.fromEntries(Object.entries(ANSWER_BY_OPERATION).map(([id, kind]) => [id, answer(kind)])) as Record<
    AnswerOperation,
    ReturnType<typeof answer>
  >),

  getSandboxAudit: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.params.org, p.state)
    const entries = await sandboxAudit(ctx.deps.sql, p.namespace, c, ctx.query.limit ?? S.SANDBOX_AUDIT_LIMIT.default)
    // The sandbox audit never paginates: the limit is echoed as 50 whatever was asked (spec).
    return { data: { data: entries, pagination: { limit: 50, has_more: false } } }
  }) satisfies Handler<OrgRoute & { query: typeof S.AuditQuery }>,
}
