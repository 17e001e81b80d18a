import { AppError } from '../../../errors/app-error.ts'
import { LOW_BALANCE_ORE, topUpUrl } from '../../../domain/billing/metering.ts'
import { approvalUrl, MAX_PENDING_TOPUPS, requestTopup, TOPUP_MIN_ORE, TOPUP_TTL_MS } from '../../../domain/billing/topups.ts'
import { allOperations } from '../../../operations.ts'
import type { TopupRow } from '../../../store/credits.ts'
import type { TopupBody } from '../../../schemas/access.ts'
import type { Handler } from '../../context.ts'
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

export const billingHandlers = {
  createTopupRequest: (async ({ principal, body, deps, now, state }) => {
    if (principal.kind !== 'key') throw new AppError('AUTH_MISSING')
    const t = await requestTopup(deps.sql, { consumerId: principal.consumerId, keyId: principal.keyId, amountOre: body.amount_ore, ceilingOre: deps.config.topupCeilingOre }, now, {
      actor: actorOf(principal),
      correlationId: state.correlationId,
    })
    return { data: topupView(t, deps.config.baseUrl) }
  }) satisfies Handler<{ body: typeof TopupBody }>,

  getPricing: (({ deps }) => ({
    data: {
      currency: 'NOK',
      unit: 'øre',
      operations: allOperations
        .filter((o) => o.costOre > 0)
        .map((o) => ({ operation_id: o.id, method: o.method, path: o.path.replace(/:([A-Za-z_]+)/g, '{$1}'), cost_ore: o.costOre, mcp_tool: o.mcpTool })),
      top_up: {
        min_ore: TOPUP_MIN_ORE,
        ceiling_ore: deps.config.topupCeilingOre,
        max_pending_requests: MAX_PENDING_TOPUPS,
        request_expires_hours: TOPUP_TTL_MS / 3_600_000,
        request_endpoint: 'POST /api/v1/billing/topup-requests',
        top_up_url: topUpUrl(deps.config.baseUrl),
      },
      low_balance_warning: {
        below_ore: LOW_BALANCE_ORE,
        header: 'X-Credits-Low',
        description: 'A metered call that leaves less than NOK 10 answers with `X-Credits-Low: true`; every metered call reports `X-Credits-Balance-Ore`.',
      },
      insufficient_credits: {
        status: 402,
        error_code: 'INSUFFICIENT_CREDITS',
        retryable: false,
        body_fields: ['retryable', 'fix_hint', 'docs_url', 'top_up_url', 'balance_ore', 'cost_ore'],
        charged: false,
        description: 'Nothing is charged. Ask a person to approve a top-up (POST /api/v1/billing/topup-requests gives the approval_url), then call again.',
      },
    },
    meta: { served_from: 'static', data_freshness: deps.startedAt },
  })) satisfies Handler,
}
