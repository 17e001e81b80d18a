/** The price list: every metered operation's cost, the top-up bounds and the 402 recovery contract. */
import { LOW_BALANCE_ORE, topUpUrl } from './metering.ts'
import { MAX_PENDING_TOPUPS, TOPUP_MIN_ORE, TOPUP_TTL_MS } from './topups.ts'

export interface Priced {
  id: string
  method: string
  path: string
  costOre: number
  mcpTool: string | null
  priceNote?: string
}

export function priceList(operations: readonly Priced[], baseUrl: string, ceilingOre: number) {
  return {
    currency: 'NOK' as const,
    unit: 'øre' as const,
    operations: operations
      .filter((o) => o.costOre > 0)
      .map((o) => ({
        operation_id: o.id,
        method: o.method,
        path: o.path.replace(/:([A-Za-z_]+)/g, '{$1}'),
        cost_ore: o.costOre,
        mcp_tool: o.mcpTool,
        ...(o.priceNote ? { price_note: o.priceNote } : {}),
      })),
    top_up: {
      min_ore: TOPUP_MIN_ORE,
      ceiling_ore: ceilingOre,
      max_pending_requests: MAX_PENDING_TOPUPS,
      request_expires_hours: TOPUP_TTL_MS / 3_600_000,
      request_endpoint: 'POST /api/v1/billing/topup-requests',
      top_up_url: topUpUrl(baseUrl),
    },
    low_balance_warning: {
      below_ore: LOW_BALANCE_ORE,
      header: 'X-Credits-Low',
      description:
        'A metered call that leaves less than NOK 10 answers with `X-Credits-Low: true`; every metered call reports `X-Credits-Balance-Ore`.',
    },
    caching: {
      cache_control: 'private, no-store' as const,
      etag: false as const,
      not_modified: false as const,
      description:
        'A metered answer is for its caller only: `Cache-Control: private, no-store`, no `ETag`, and never `304 Not Modified`, so a conditional request ' +
        'neither saves nor hides a charge — every successful metered call is a fresh answer, charged once. The free public answers (deadlines, obligations, ' +
        'this price list, the discovery documents) carry an `ETag` and answer 304 to `If-None-Match`; a 304 costs nothing, like the 200. ' +
        'One metered answer is made for a calendar program, not its caller alone: a portfolio’s calendar feed (`GET /api/v1/feeds/{feed_token}`) ' +
        'carries an `ETag` and `Cache-Control: private, max-age=300`, and its 304 costs nothing (see its `price_note`).',
    },
    insufficient_credits: {
      status: 402 as const,
      error_code: 'INSUFFICIENT_CREDITS' as const,
      retryable: false as const,
      body_fields: ['retryable', 'fix_hint', 'docs_url', 'top_up_url', 'balance_ore', 'cost_ore'],
      charged: false as const,
      description:
        'Nothing is charged. Ask a person to approve a top-up (POST /api/v1/billing/topup-requests gives the approval_url), then call again.',
    },
  }
}
