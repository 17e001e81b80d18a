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
import {
  createFeed,
  FEED_MAX_AGE_S,
  FEED_MONTHS,
  FEED_PAST_DAYS,
  feedCalendar,
  firstReadOfDay,
  listFeeds,
  MAX_FEEDS,
  revokeFeed,
  KeptCalendars,
} from '../domain/portfolios/feeds.ts'
import { DEADLINE_SHIFT_BASIS } from '../domain/rulebook/rules.ts'
import { ifNoneMatch, notModified, perInstance } from '../pipeline/caching.ts'
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

const actorOf = (p: Principal, correlationId: string) => ({
  actor: p.kind === 'key' ? `key:${p.keyId}` : p.kind === 'session' ? `session:${p.sessionId}` : 'anonymous',
  correlationId,
})

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

/** The merged deadlines as a CSV download (the API's `Accept: text/csv`, and the dashboard's link). */
export function csvResponse(data: { portfolio_id: string; deadlines: Parameters<typeof deadlinesCsv>[0] }): Response {
  return new Response(deadlinesCsv(data.deadlines), {
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="portfolio-${data.portfolio_id}-deadlines.csv"`,
      'cache-control': 'private, no-store',
    },
  })
}

/** Whether the caller prefers CSV: `text/csv` named before `application/json` (or without it), q-values aside. */
export function wantsCsv(accept: string | null): boolean {
  if (!accept) return false
  const types = accept.split(',').map((p) => p.split(';')[0]!.trim().toLowerCase())
  const csv = types.indexOf('text/csv')
  const json = types.indexOf('application/json')
  return csv !== -1 && (json === -1 || csv < json)
}

/** The feed calendars this instance made last (domain/portfolios/feeds.ts). */
const keptCalendars = perInstance('portfolio-feed-calendars', () => new KeptCalendars())

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
    if (wantsCsv(headers.accept)) return csvResponse(r.data)
    return {
      data: r.data,
      precomputed: precomputeCanonical(r.data, r.canonical),
      meta: { ...metaOf(r.sources), legal_basis: DEADLINE_SHIFT_BASIS },
    }
  }) satisfies Handler<ById & { query: typeof S.DeadlinesQuery }>,
}

/** The calendar feeds of a portfolio: created and revoked with a key, read by a calendar program with the feed's token. */
export const portfolioFeedHandlers = {
  createPortfolioFeed: (async ({ params, deps, principal, now, state }) => {
    const feed = await createFeed(
      deps.sql,
      owner(principal),
      params.portfolio_id,
      deps.config.baseUrl,
      now,
      actorOf(principal, state.correlationId),
    )
    return {
      data: {
        ...feed,
        window: { past_days: FEED_PAST_DAYS, months_ahead: FEED_MONTHS, time_zone: 'Europe/Oslo' as const },
        max_feeds: MAX_FEEDS,
      },
    }
  }) satisfies Handler<ById>,

  listPortfolioFeeds: (async ({ params, deps, principal }) => ({
    data: await listFeeds(deps.sql, owner(principal), params.portfolio_id),
  })) satisfies Handler<ById>,

  deletePortfolioFeed: (async ({ params, deps, principal, state }) => ({
    data: await revokeFeed(
      deps.sql,
      owner(principal),
      params.portfolio_id,
      params.feed_id,
      actorOf(principal, state.correlationId),
    ),
  })) satisfies Handler<{ params: typeof S.FeedParams }>,

  /**
   * The calendar, charged to the feed's owner by the metering step; free when it answers 304, when
   * no client was answered, or when the feed's calendar was already charged this Oslo day
   * (`state.refundReason`: the charge is given back).
   */
  getPortfolioFeed: (async ({ deps, principal, now, headers, state }) => {
    if (principal.kind !== 'feed') throw new AppError('NOT_FOUND')
    const cal = await feedCalendar(
      portfolioEnv(deps),
      principal.consumerId,
      principal.portfolioId,
      deps.config.baseUrl,
      now,
      keptCalendars(deps),
    )
    const validators = { etag: cal.etag, 'cache-control': `private, max-age=${FEED_MAX_AGE_S}` }
    if (ifNoneMatch(headers.ifNoneMatch, cal.etag)) {
      state.refundReason = 'not modified'
      return notModified(validators)
    }
    if (cal.answered === 0) state.refundReason = 'no client answered'
    else if (!(await firstReadOfDay(deps.sql, principal.feedId, now))) state.refundReason = 'feed already charged today'
    return new Response(cal.body, { headers: { 'content-type': 'text/calendar; charset=utf-8', ...validators } })
  }) satisfies Handler<{ params: typeof S.FeedTokenParams }>,
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
