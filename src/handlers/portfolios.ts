/** Portfolios: thin adapters to domain/portfolios, always for the key's own account. */
import type { Principal } from '../domain/access/types.ts'
import {
  createPortfolio,
  deletePortfolio,
  getPortfolio,
  listPortfolios,
  setCompanies,
} from '../domain/portfolios/portfolios.ts'
import { AppError } from '../errors/app-error.ts'
import type { Handler, ToolBinding } from '../pipeline/context.ts'
import type * as S from '../schemas/portfolios.ts'

function owner(p: Principal): string {
  if (p.kind !== 'key') throw new AppError('AUTH_MISSING')
  return p.consumerId
}

type ById = { params: typeof S.PortfolioParams }

export const portfoliosHandlers = {
  createPortfolio: (async ({ body, deps, principal, now }) => ({
    data: await createPortfolio(deps.sql, owner(principal), body.name, now),
  })) satisfies Handler<{ body: typeof S.PortfolioBody }>,

  listPortfolios: (async ({ deps, principal }) => ({
    data: await listPortfolios(deps.sql, owner(principal)),
  })) satisfies Handler,

  getPortfolio: (async ({ params, deps, principal }) => ({
    data: await getPortfolio(deps.sql, owner(principal), params.id),
  })) satisfies Handler<ById>,

  setPortfolioCompanies: (async ({ params, body, deps, principal, now }) => ({
    data: await setCompanies(deps.sql, owner(principal), params.id, body.org_numbers, now),
  })) satisfies Handler<ById & { body: typeof S.CompaniesBody }>,

  deletePortfolio: (async ({ params, deps, principal }) => ({
    data: await deletePortfolio(deps.sql, owner(principal), params.id),
  })) satisfies Handler<ById>,
}

/** How the portfolio operations are offered as MCP tools (their registry entries name the tools). */
export const portfoliosTools: Record<string, ToolBinding> = {}
