/** Sandbox write side: plan, approval token and execute — rehearsals that submit nothing anywhere. */
import { AppError } from '../../errors/app-error.ts'
import { actionIdOf } from '../../domain/actions/action-id.ts'
import { SANDBOX_MARKER } from '../../domain/actions/receipt.ts'
import { mintSandboxApproval, sandboxDryRun, sandboxExecute, sandboxPlan } from '../../domain/sandbox/actions.ts'
import { Type } from '@sinclair/typebox'
import * as S from '../../schemas/sandbox.ts'
import type { Handler, HandlerInput, ToolBinding } from '../../pipeline/context.ts'
import { PUBLIC_PREFIX, SANDBOX_PREFIX } from '../../pipeline/sandbox.ts'
import { prelude } from './prelude.ts'
import { sandboxOrg } from '../../domain/sandbox/orgs.ts'

export const sandboxActionHandlers = {
  planSandboxAction: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.body.org_number, p.state)
    const base = p.state.public ? PUBLIC_PREFIX : SANDBOX_PREFIX
    return { data: sandboxPlan(c, ctx.body, p.date, base) }
  }) satisfies Handler<{ query: typeof S.KnobsQuery; body: typeof S.ActionBody }>,

  createSandboxApprovalToken: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.body.org_number, p.state)
    const data = await mintSandboxApproval(
      ctx.deps.sql,
      p.namespace,
      c.org_number,
      ctx.body.action_id,
      ctx.deps.clock.now(),
      p.date,
    )
    return { data, status: 201 }
  }) satisfies Handler<{ query: typeof S.KnobsQuery; body: typeof S.ApprovalTokenBody }>,

  executeSandboxAction: (async (ctx) => {
    const p = await prelude(ctx)
    const c = sandboxOrg(ctx.body.org_number, p.state)
    if (ctx.query.dry_run === 'true') return { data: sandboxDryRun(c, ctx.body, p.date) }
    const idempotencyKey = ctx.headers.idempotencyKey
    if (idempotencyKey === null)
      throw new AppError('IDEMPOTENCY_KEY_REQUIRED', { extra: { action_id: actionIdOf(ctx.body) } })
    const data = await sandboxExecute(ctx.deps.sql, c, {
      namespace: p.namespace,
      idempotencyKey: idempotencyKey.toLowerCase(),
      approval: ctx.approval!,
      input: ctx.body,
      date: p.date,
    })
    return { data, top: { _sandbox_marker: SANDBOX_MARKER } }
  }) satisfies Handler<{ query: typeof S.ExecuteQuery; body: typeof S.ActionBody }>,
}

const { dry_run: _dryRun, ...knobs } = S.ExecuteQuery.properties

/**
 * `submit_vat_return` (sandbox bearer only): the sandbox execute for a VAT return. Without an
 * approval token it is a dry run unless `dry_run: false` says otherwise, so an agent that has not
 * been given a person's confirmation can only rehearse the checks.
 */
export const sandboxActionTools: Record<string, ToolBinding> = {
  executeSandboxAction: {
    input: Type.Object(
      {
        org_number: S.ActionBody.properties.org_number,
        period: S.ActionBody.properties.period,
        payload: S.ActionBody.properties.payload,
        dry_run: Type.Optional(
          Type.Boolean({
            description:
              'true: run the five checks and submit nothing; default: true without approval_token, false with it',
          }),
        ),
        ...knobs,
      },
      { additionalProperties: false },
    ),
    toInput: ({
      org_number,
      period,
      payload,
      dry_run,
      approval_token,
      idempotency_key: _key,
      ...knobs
    }: Record<string, unknown>): HandlerInput => {
      const dry = typeof dry_run === 'boolean' ? dry_run : approval_token === undefined
      return {
        body: { org_number, action_type: 'mva_melding', period, payload },
        query: { ...knobs, ...(dry ? { dry_run: 'true' } : {}) },
      }
    },
    justification: (r: { dry_run: boolean }) =>
      r.dry_run
        ? 'Sandbox dry run: the five checks of a VAT return on synthetic data; nothing was submitted.'
        : 'Sandbox rehearsal of a live VAT return: the approval token was spent and a receipt signed with the public sandbox key; nothing reached a government system.',
  },
}
