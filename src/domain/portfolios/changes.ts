/**
 * The entities a portfolio's changes are about (GET /api/v1/changes?portfolio_id=): the numbers it
 * holds and, for a sub-unit, the legal entity it stands for — as the register cache knows it now
 * (a sub-unit not fetched yet adds its parent once the background warm-up has read it).
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import { portfolioCompanies } from '../../store/portfolios.ts'
import { resolveOrg } from '../company/register.ts'
import { NotCached, type UnitReads } from '../sources.ts'
import { requirePortfolio } from './portfolios.ts'

/** 404 when the portfolio is not the consumer's. */
export async function portfolioEntities(
  sql: Sql,
  reads: UnitReads,
  consumerId: string,
  portfolioId: string,
): Promise<string[]> {
  const p = await requirePortfolio(sql, consumerId, portfolioId)
  const orgs = (await portfolioCompanies(sql, p.id)).map((c) => c.org_number)
  const ids = new Set(orgs)
  await Promise.all(
    orgs.map(async (org) => {
      try {
        const r = await resolveOrg(reads, org)
        if (r.kind === 'entity') ids.add(r.entity.value.org_number)
      } catch (e) {
        // not fetched yet, or the register failed: the number itself still counts
        if (!(e instanceof NotCached) && !(e instanceof AppError)) throw e
      }
    }),
  )
  return [...ids].sort()
}
