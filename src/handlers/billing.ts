import { AppError } from '../errors/app-error.ts'
import { priceList } from '../domain/billing/pricing.ts'
import { approvalUrl, requestTopup } from '../domain/billing/topups.ts'
import { allOperations } from '../operations/index.ts'
import type { TopupRow } from '../store/credits.ts'
import type { TopupBody } from '../schemas/access.ts'
import type { AppDeps, Handler, ToolBinding } from '../pipeline/context.ts'
import { perInstance } from '../pipeline/caching.ts'
import { precompute } from '../pipeline/envelope.ts'
import { actorOf } from './account.ts'

export function topupView(t: TopupRow, baseUrl: string) {
  return {
    id: t.id,
    amount_ore: t.amount_ore,
    status: t.status,
    created_at: t.created_at.toISOString(),
    expires_at: t.expires_at.toISOString(),
    approval_url: approvalUrl(baseUrl, t.id),
  }
}

/** The price list is a function of the registry and the configuration: made, serialised and hashed once per instance. */
const prices = perInstance('prices', (deps: AppDeps) =>
  precompute(priceList(allOperations, deps.config.baseUrl, deps.config.topupCeilingOre)),
)

export const billingHandlers = {
  createTopupRequest: (async ({ principal, body, deps, now, state }) => {
    if (principal.kind !== 'key') throw new AppError('AUTH_MISSING')
    const t = await requestTopup(
      deps.sql,
      {
        consumerId: principal.consumerId,
        keyId: principal.keyId,
        amountOre: body.amount_ore,
        ceilingOre: deps.config.topupCeilingOre,
      },
      now,
      {
        actor: actorOf(principal),
        correlationId: state.correlationId,
      },
    )
    return { data: topupView(t, deps.config.baseUrl) }
  }) satisfies Handler<{ body: typeof TopupBody }>,

  getPricing: (({ deps }) => ({
    data: undefined,
    precomputed: prices(deps),
    meta: { served_from: 'static', data_freshness: deps.startedAt },
  })) satisfies Handler,
}

export const billingTools: Record<string, ToolBinding> = {
  getPricing: { justification: () => 'The current price list of this deployment.' },
}
