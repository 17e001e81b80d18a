import { DEADLINE_SHIFT_BASIS } from '../domain/rulebook/rules.ts'
import { osloDate } from '../lib/oslo-time.ts'
import { publicDeadlines, publicObligations } from '../domain/rulebook/public.ts'
import type { PublicDeadlinesQuery, PublicObligationsQuery } from '../schemas/rulebook.ts'
import { RULEBOOK_VERSION } from '../domain/rulebook/version.ts'
import { CACHE } from '../operations/index.ts'
import type { Handler, ToolBinding } from '../pipeline/context.ts'
import { precompute } from '../pipeline/envelope.ts'

/** The basis of every weekend/holiday shift in the calendar. */

// The rulebook is fixed for the life of the process (one rulebook version): each answer is
// computed, serialised and hashed once per instance, on first request (deps.documents).

/** Whole seconds from `now` to the start of `year + 1` in Oslo (CET, UTC+1, at New Year), at most the rulebook policy's hour. */
function untilOsloNewYear(year: number, now: Date): number {
  const seconds = Math.floor((Date.UTC(year + 1, 0, 1) - 3_600_000 - now.getTime()) / 1000)
  return Math.max(0, Math.min(CACHE.rulebook.maxAge, seconds))
}

export const publicHandlers = {
  getPublicDeadlines: (({ query, now, deps }) => {
    const year = query.year ?? Number(osloDate(now).slice(0, 4))
    const type = query.entity_type ?? null
    const hit = deps.documents.get(`public-deadlines:${year}:${type ?? ''}`, () =>
      precompute({
        year,
        entity_type: type,
        timezone: 'Europe/Oslo',
        deadlines: publicDeadlines(year, type ?? undefined),
      }),
    )
    const meta = { served_from: 'static', data_freshness: deps.startedAt, legal_basis: DEADLINE_SHIFT_BASIS } as const
    // Without `year` the answer is this Oslo year's: a cache keeps it no longer than until New Year.
    return query.year === undefined
      ? { data: undefined, precomputed: hit, meta, maxAge: untilOsloNewYear(year, now) }
      : { data: undefined, precomputed: hit, meta }
  }) satisfies Handler<{ query: typeof PublicDeadlinesQuery }>,

  getPublicObligations: (({ query, deps }) => {
    const type = query.entity_type
    const hit = deps.documents.get(`public-obligations:${type}`, () =>
      precompute({ entity_type: type, obligations: publicObligations(type) }),
    )
    return { data: undefined, precomputed: hit, meta: { served_from: 'static', data_freshness: deps.startedAt } }
  }) satisfies Handler<{ query: typeof PublicObligationsQuery }>,
}

export const rulebookTools: Record<string, ToolBinding> = {
  getPublicObligations: {
    justification: (r) =>
      `Rulebook ${RULEBOOK_VERSION}: the obligations whose rules concern ${r.entity_type}, each with its legal reference.`,
  },
  getPublicDeadlines: {
    justification: (r) =>
      `Rulebook ${RULEBOOK_VERSION}: every statutory deadline falling in ${r.year} (Europe/Oslo), moved off weekends and public holidays where the law says so.`,
  },
}
