/** Sandbox write side: plan, approval token and execute — rehearsals that submit nothing anywhere. */
import { AppError } from '../../errors/app-error.ts'
import { actionIdOf } from '../../domain/actions/action-id.ts'
import { SANDBOX_MARKER } from '../../domain/actions/receipt.ts'
import { mintSandboxApproval, sandboxDryRun, sandboxExecute, sandboxPlan } from '../../domain/sandbox/actions.ts'
import type * as S from '../../schemas/sandbox.ts'
import type { Handler } from '../../pipeline/context.ts'
import { PUBLIC_PREFIX, SANDBOX_PREFIX, sandboxResponse } from '../../pipeline/sandbox.ts'
import { prelude } from './prelude.ts'
import { sandboxOrg } from '../../domain/sandbox/orgs.ts'

export const sandboxActionHandlers = {
  planSandboxAction: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.body.org_number, p.state)
    const base = p.state.public ? PUBLIC_PREFIX : SANDBOX_PREFIX
    return sandboxResponse(ctx.deps.clock.now(), p.state, sandboxPlan(c, ctx.body, p.date, base))
  }) satisfies Handler<{ query: typeof S.KnobsQuery; body: typeof S.ActionBody }>,

  createSandboxApprovalToken: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.body.org_number, p.state)
    const data = await mintSandboxApproval(ctx.deps.sql, p.namespace, c.org_number, ctx.body.action_id, ctx.deps.clock.now(), p.date)
    return sandboxResponse(ctx.deps.clock.now(), p.state, data, { status: 201 })
  }) satisfies Handler<{ query: typeof S.KnobsQuery; body: typeof S.ApprovalTokenBody }>,

  executeSandboxAction: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.body.org_number, p.state)
    if (ctx.query.dry_run === 'true') return sandboxResponse(ctx.deps.clock.now(), p.state, sandboxDryRun(c, ctx.body, p.date))
    const idempotencyKey = ctx.headers.idempotencyKey
    if (idempotencyKey === null) throw new AppError('IDEMPOTENCY_KEY_REQUIRED', { extra: { action_id: actionIdOf(ctx.body) } })
    const data = await sandboxExecute(ctx.deps.sql, c, {
      namespace: p.namespace,
      idempotencyKey: idempotencyKey.toLowerCase(),
      approvalToken: ctx.headers.approvalToken,
      input: ctx.body,
      date: p.date,
      now: ctx.deps.clock.now(),
      onConsumed: () => {
        p.state.tokenConsumed = true
        ctx.state.failureIsFinal = true
      },
    })
    return sandboxResponse(ctx.deps.clock.now(), p.state, data, { top: { _sandbox_marker: SANDBOX_MARKER } })
  }) satisfies Handler<{ query: typeof S.ExecuteQuery; body: typeof S.ActionBody }>,
}
