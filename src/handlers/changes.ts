/** The change archive: a thin adapter to domain/changes (and domain/portfolios for `portfolio_id`). */
import { readChanges } from '../domain/changes/archive.ts'
import { portfolioEntities } from '../domain/portfolios/changes.ts'
import { AppError } from '../errors/app-error.ts'
import type { Handler } from '../pipeline/context.ts'
import type * as S from '../schemas/changes.ts'

export const changesHandlers = {
  getChanges: (async ({ query, deps, principal }) => {
    const { portfolio_id, ...q } = query
    if (portfolio_id === undefined) return { data: await readChanges(deps.sql, q) }
    if (principal.kind !== 'key') throw new AppError('AUTH_MISSING')
    const entities = await portfolioEntities(deps.sql, deps.reads.cachedOnly(), principal.consumerId, portfolio_id)
    return { data: await readChanges(deps.sql, q, entities) }
  }) satisfies Handler<{
    query: typeof S.ChangesQuery
  }>,
}
