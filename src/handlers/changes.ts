/** The change archive: a thin adapter to domain/changes. */
import { readChanges } from '../domain/changes/archive.ts'
import type { Handler } from '../pipeline/context.ts'
import type * as S from '../schemas/changes.ts'

export const changesHandlers = {
  getChanges: (async ({ query, deps }) => ({ data: await readChanges(deps.sql, query) })) satisfies Handler<{
    query: typeof S.ChangesQuery
  }>,
}
