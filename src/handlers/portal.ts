/** The portal area: thin adapters to domain/delegation. */
import { actingCapacity, auditActingCapacity, sealFnr } from '../domain/delegation/acting-capacity.ts'
import { AppError } from '../errors/app-error.ts'
import type { Handler, ToolBinding } from '../pipeline/context.ts'
import { metaOf } from '../pipeline/provenance.ts'
import type * as P from '../schemas/portal.ts'
import { actorOf } from './account.ts'

export const portalHandlers = {
  listActingCapacity: (async ({ body, deps, principal, state }) => {
    // First: the number is checked and sealed; from here on only its HMAC and birth date exist.
    const fnr = sealFnr(body.fnr, deps.serverKeys.fnr)
    if (principal.kind !== 'key') throw new AppError('AUTH_MISSING')
    const r = await actingCapacity(deps.reads, body.org_number, fnr)
    await auditActingCapacity(
      deps.sql,
      { consumerId: principal.consumerId, actor: actorOf(principal), correlationId: state.correlationId },
      body.org_number,
      r.data,
    )
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<{ body: typeof P.ActingCapacityBody }>,
}

export const portalTools: Record<string, ToolBinding> = {
  listActingCapacity: {
    justification: (r: { matching: { persons_matched: number } }) =>
      `Role holders of the organisation whose birth date is the one the fnr encodes (${r.matching.persons_matched} matched), with what their roles and the registered signature rule let them do; the fnr itself is only ever its HMAC.`,
  },
}
