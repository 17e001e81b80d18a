/** Portfolios: thin adapters to domain/portfolios, always for the key's own account. */
import type { Principal } from '../domain/access/types.ts'
import {
  createPortfolio,
  deletePortfolio,
  getPortfolio,
  listPortfolios,
  setCompanies,
} from '../domain/portfolios/portfolios.ts'
import { deadlineWindow } from '../domain/company/deadlines.ts'
import { deadlinesCsv, portfolioDeadlines, type PortfolioDeadlinesEnv } from '../domain/portfolios/deadlines.ts'
import { DEADLINE_SHIFT_BASIS } from '../domain/rulebook/rules.ts'
import { AppError } from '../errors/app-error.ts'
import { CATALOGUE } from '../errors/catalogue/index.ts'
import { explain } from '../errors/explain.ts'
import type { AppDeps, Handler, ToolBinding } from '../pipeline/context.ts'
import { precomputeCanonical } from '../pipeline/envelope.ts'
import { metaOf } from '../pipeline/provenance.ts'
import type * as S from '../schemas/portfolios.ts'
import { deadlinesEnv } from './company.ts'

function owner(p: Principal): string {
  if (p.kind !== 'key') throw new AppError('AUTH_MISSING')
  return p.consumerId
}

type ById = { params: typeof S.PortfolioParams }

/** What a portfolio's merged deadlines need: the company route's environment, and the register from the cache alone. */
export const portfolioEnv = (deps: AppDeps): PortfolioDeadlinesEnv => ({
  ...deadlinesEnv(deps),
  sql: deps.sql,
  reads: deps.reads.cachedOnly(),
  describe: (e) => {
    const x = explain(e.code, e.options.context)
    return { error_code: e.code, retryable: CATALOGUE[e.code].retryable, message: x.summary, message_en: x.summary_en }
  },
})

/** Whether the caller prefers CSV: `text/csv` named before `application/json` (or without it), q-values aside. */
export function wantsCsv(accept: string | null): boolean {
  if (!accept) return false
  const types = accept.split(',').map((p) => p.split(';')[0]!.trim().toLowerCase())
  const csv = types.indexOf('text/csv')
  const json = types.indexOf('application/json')
  return csv !== -1 && (json === -1 || csv < json)
}

export const portfoliosHandlers = {
  createPortfolio: (async ({ body, deps, principal, now }) => ({
    data: await createPortfolio(deps.sql, owner(principal), body.name, now),
  })) satisfies Handler<{ body: typeof S.PortfolioBody }>,

  listPortfolios: (async ({ deps, principal }) => ({
    data: await listPortfolios(deps.sql, owner(principal)),
  })) satisfies Handler,

  getPortfolio: (async ({ params, deps, principal }) => ({
    data: await getPortfolio(deps.sql, owner(principal), params.portfolio_id),
  })) satisfies Handler<ById>,

  setPortfolioCompanies: (async ({ params, body, deps, principal, now }) => ({
    data: await setCompanies(deps.sql, owner(principal), params.portfolio_id, body.org_numbers, now),
  })) satisfies Handler<ById & { body: typeof S.CompaniesBody }>,

  deletePortfolio: (async ({ params, deps, principal }) => ({
    data: await deletePortfolio(deps.sql, owner(principal), params.portfolio_id),
  })) satisfies Handler<ById>,

  getPortfolioDeadlines: (async ({ params, query, deps, principal, now, headers, state }) => {
    const window = deadlineWindow(query, now)
    const r = await portfolioDeadlines(portfolioEnv(deps), owner(principal), params.portfolio_id, window, now)
    // Never more than the same company reads one by one: with no client answered, those would have cost nothing.
    if (r.data.states.answered + r.data.states.stale === 0) state.refundReason = 'no client answered'
    if (wantsCsv(headers.accept)) {
      return new Response(deadlinesCsv(r.data.deadlines), {
        headers: {
          'content-type': 'text/csv; charset=utf-8; header=present',
          'content-disposition': `attachment; filename="portfolio-${r.data.portfolio_id}-deadlines.csv"`,
          'cache-control': 'private, no-store',
        },
      })
    }
    return {
      data: r.data,
      precomputed: precomputeCanonical(r.data, r.canonical),
      meta: { ...metaOf(r.sources), legal_basis: DEADLINE_SHIFT_BASIS },
    }
  }) satisfies Handler<ById & { query: typeof S.DeadlinesQuery }>,
}

/** How the portfolio operations are offered as MCP tools (their registry entries name the tools). */
export const portfoliosTools: Record<string, ToolBinding> = {
  listPortfolios: { justification: () => 'The account’s portfolios, as kept by Plikt.' },
  setPortfolioCompanies: {
    justification: () =>
      'The list replaced whole; a sub-unit’s number stands for its legal entity; new clients are fetched from the register in the background.',
  },
  getPortfolioDeadlines: {
    justification: () =>
      'Each client’s deadlines as the company deadlines route gives them for the same window, merged by due date; each client’s state says whether its register data was answered, stale, unavailable or still pending.',
  },
}
