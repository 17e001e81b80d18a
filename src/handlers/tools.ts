/** The keyless tools: Norges Bank exchange rates (cached reads) and the Altinn 2 → 3 lookup. */
import { exchangeRate } from '../domain/tools/exchange-rate.ts'
import { portalMigration } from '../domain/tools/portal-migration.ts'
import type { Provenance } from '../domain/sources.ts'
import { osloDate } from '../lib/oslo-time.ts'
import type { ExchangeRateQuery, PortalMigrationQuery } from '../schemas/tools.ts'
import type { AppDeps } from '../pipeline/context.ts'
import { resolvePair } from '../domain/tools/exchange-rate.ts'
import { ExchangeRatePairInput } from '../schemas/tools.ts'
import type { Handler, ToolBinding } from '../pipeline/context.ts'
import { metaOf } from '../pipeline/provenance.ts'

/** The exchange rate and the upstream reads it was built from. */
export async function exchangeRateWithSources(deps: AppDeps, input: { currency?: unknown; date?: unknown }, now: Date) {
  const used: Provenance[] = []
  const today = osloDate(now)
  const data = await exchangeRate(input, now, async (currency, from, to) => {
    const r = await deps.reads.exchangeRates(currency, from, to, today)
    used.push(r.source)
    return r.value
  })
  return { data, meta: metaOf(used) }
}

export const toolHandlers = {
  getExchangeRate: (({ query, deps, now }) => exchangeRateWithSources(deps, query, now)) satisfies Handler<{
    query: typeof ExchangeRateQuery
  }>,

  getPortalMigration: (({ query, now, deps }) => ({
    data: portalMigration(query.portal2_code, now),
    meta: {
      served_from: 'static',
      data_freshness: deps.startedAt,
      data_source: 'Altinn (access-package seed data) and Digdir',
    },
  })) satisfies Handler<{ query: typeof PortalMigrationQuery }>,
}

export const toolTools: Record<string, ToolBinding> = {
  getExchangeRate: {
    input: ExchangeRatePairInput,
    // The answer is always NOK per one unit of the other currency, whichever side NOK is on.
    toInput: (a: { base: string; quote: string; date?: string }) => ({
      query: { currency: resolvePair(a.base, a.quote).currency, ...(a.date !== undefined ? { date: a.date } : {}) },
    }),
    justification: (r) =>
      `Norges Bank’s published rate for ${r.currency}, as NOK per one unit, for the date stated in the result.`,
  },
}
