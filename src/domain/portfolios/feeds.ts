/**
 * A portfolio's calendar feeds (issue 30, item 4): a secret URL a calendar program (Google
 * Calendar, Outlook, Apple Calendar) subscribes to and polls without a key. The URL carries a token
 * of 190 random bits, shown once at creation and kept as its SHA-256 only, as API keys are
 * (lib/tokens.ts); a read finds the feed by that hash (store/portfolio-feeds.ts), so a revoked feed
 * and a token that never existed are the same miss: 404 NOT_FOUND. At most `MAX_FEEDS` a portfolio.
 *
 * The calendar (`feedCalendar`) is the portfolio's merged deadlines — domain/portfolios/deadlines.ts
 * `portfolioDeadlines`, the function the JSON and CSV answers come from, never a second reckoning —
 * for today (Europe/Oslo) and the default horizon, trimmed to the feed's window: the last
 * `FEED_PAST_DAYS` days and the next `FEED_MONTHS` months. One all-day VEVENT per dated deadline.
 */
import { AppError, validationError } from '../../errors/app-error.ts'
import { sha256Hex } from '../../lib/hash.ts'
import { contentLines, escapeText, icalDate, icalUtc, property } from '../../lib/icalendar.ts'
import { addDays, addMonths } from '../../lib/local-date.ts'
import { osloDate, osloOffset } from '../../lib/oslo-time.ts'
import { hashSecret, newSecret } from '../../lib/tokens.ts'
import { lockConsumer } from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import type { Sql } from '../../store/db.ts'
import * as store from '../../store/portfolio-feeds.ts'
import { portfolioDeadlines, type MergedDeadline, type PortfolioDeadlinesEnv } from './deadlines.ts'
import { requirePortfolio } from './portfolios.ts'

export const MAX_FEEDS = 5
/** The feed's window: deadlines due from this many days ago … */
export const FEED_PAST_DAYS = 30
/** … to this many months ahead (Europe/Oslo dates, both ends included). */
export const FEED_MONTHS = 12
/** What a token looks like: the prefix names it, 32 base62 characters carry 190 random bits. */
export const FEED_TOKEN_PREFIX = 'pf_'
/** How long a calendar program's own copy may be used without asking (Cache-Control max-age). */
export const FEED_MAX_AGE_S = 300

export const feedPath = (token: string) => `/api/v1/feeds/${token}`

export interface FeedActor {
  actor: string
  correlationId: string | null
}

/** Creates a feed of the consumer's portfolio (404 when it is not theirs); the URL is shown here once. */
export async function createFeed(
  sql: Sql,
  consumerId: string,
  portfolioId: string,
  baseUrl: string,
  now: Date,
  by: FeedActor,
) {
  const token = newSecret(FEED_TOKEN_PREFIX)
  const row = (await sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    await lockConsumer(t, consumerId)
    await requirePortfolio(t, consumerId, portfolioId)
    if ((await store.countFeeds(t, portfolioId)) >= MAX_FEEDS) {
      throw validationError([
        { field: 'feeds', message: `at most ${MAX_FEEDS} calendar feeds per portfolio; revoke one first` },
      ])
    }
    const feed = await store.insertFeed(t, consumerId, portfolioId, hashSecret(token), now)
    await appendAudit(t, {
      consumerId,
      actor: by.actor,
      action: 'portfolio_feed_created',
      correlationId: by.correlationId,
      details: { feed_id: feed.id, portfolio_id: portfolioId },
    })
    return feed
  })) as store.FeedRow
  return {
    feed_id: row.id,
    portfolio_id: portfolioId,
    feed_url: `${baseUrl}${feedPath(token)}`,
    created_at: row.created_at.toISOString(),
  }
}

/** The portfolio's feeds, without their URLs (only the token's hash is kept). */
export async function listFeeds(sql: Sql, consumerId: string, portfolioId: string) {
  await requirePortfolio(sql, consumerId, portfolioId)
  const rows = await store.listFeeds(sql, consumerId, portfolioId)
  return {
    portfolio_id: portfolioId,
    max_feeds: MAX_FEEDS,
    feeds: rows.map((r) => ({ feed_id: r.id, created_at: r.created_at.toISOString() })),
  }
}

/** Revokes the feed at once: its URL then answers 404 as a made-up one does. Another consumer's is 404. */
export async function revokeFeed(sql: Sql, consumerId: string, portfolioId: string, feedId: string, by: FeedActor) {
  const done = await sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    if (!(await store.deleteFeed(t, consumerId, portfolioId, feedId))) return false
    await appendAudit(t, {
      consumerId,
      actor: by.actor,
      action: 'portfolio_feed_revoked',
      correlationId: by.correlationId,
      details: { feed_id: feedId, portfolio_id: portfolioId },
    })
    return true
  })
  if (!done) throw new AppError('NOT_FOUND')
  return { feed_id: feedId, portfolio_id: portfolioId, revoked: true as const }
}

/** The feed a token opens, with its owner and the owner's plan; null for a revoked or made-up token. */
export function feedOfToken(sql: Sql, token: string): Promise<store.FeedOwnerRow | null> {
  return store.feedByTokenHash(sql, hashSecret(token))
}

/**
 * Whether this read is the feed's first charged one of the Oslo day: exactly one concurrent read
 * of a day wins. The day's other reads are free (the price note of the feed read says so).
 */
export function firstReadOfDay(sql: Sql, feedId: string, now: Date): Promise<boolean> {
  return store.markChargedDay(sql, feedId, osloDate(now))
}

/** The Oslo day's first instant: the calendar's DTSTAMP, so a calendar is the same all day unless its deadlines change. */
function startOfOsloDay(day: string): Date {
  // Oslo's offset at 00:00 UTC of the day is the one in force at its local midnight: summer time changes at 01:00 UTC.
  return new Date(`${day}T00:00:00${osloOffset(new Date(`${day}T00:00:00Z`))}`)
}

const WEEKDAY_DATE = new Intl.DateTimeFormat('nb-NO', { day: 'numeric', month: 'long', year: 'numeric' })

/** `10. mars 2026`: a date as a Norwegian reads it. */
function norwegianDate(day: string): string {
  return WEEKDAY_DATE.format(new Date(`${day}T12:00:00Z`))
}

function summaryOf(d: MergedDeadline): string {
  const period = d.period_label ? ` (${d.period_label})` : ''
  return `${d.company_name || d.org_number}: ${d.obligation_name}${period}`
}

function descriptionOf(d: MergedDeadline, day: string, companyUrl: string): string {
  const lines = [
    `${d.obligation_name}${d.period_label ? `, ${d.period_label}` : ''} for ${d.company_name || 'selskapet'} (org.nr. ${d.org_number}).`,
    `Frist: ${norwegianDate(day)}.`,
  ]
  if (d.adjusted_for) {
    lines.push(
      `Lovens frist er ${norwegianDate(d.adjusted_for.original_due_at.slice(0, 10))}; flyttet: ${d.adjusted_for.reason.nb}`,
    )
  }
  lines.push(`Hjemmel: ${d.legal_reference}`, `Selskapets frister: ${companyUrl}`)
  return lines.join('\n')
}

const eventText = new WeakMap<MergedDeadline, { made: string; text: string }>()

/** One deadline's VEVENT, as content lines. */
function eventOf(d: MergedDeadline, day: string, host: string, stamp: string, baseUrl: string): string {
  const companyUrl = `${baseUrl}/api/v1/company/${d.org_number}/deadlines`
  return contentLines([
    'BEGIN:VEVENT',
    property('UID', `${d.org_number}-${d.deadline_id}@${host}`),
    property('DTSTAMP', stamp),
    property('DTSTART', icalDate(day), { VALUE: 'DATE' }),
    property('DTEND', icalDate(addDays(day, 1)), { VALUE: 'DATE' }),
    property('SUMMARY', escapeText(summaryOf(d)), { LANGUAGE: 'nb' }),
    property('DESCRIPTION', escapeText(descriptionOf(d, day, companyUrl)), { LANGUAGE: 'nb' }),
    property('URL', companyUrl, { VALUE: 'URI' }),
    'TRANSP:TRANSPARENT',
    'CLASS:PRIVATE',
    'END:VEVENT',
  ])
}

export interface FeedCalendar {
  body: string
  etag: string
  /** clients answered (fresh or stale): none means the read is free, as the portfolio read is */
  answered: number
  events: number
}

/**
 * The portfolio's calendar for the Oslo day of `now`. UIDs are built from facts that do not depend
 * on the feed or the portfolio — the organisation number, the obligation's period id (rule id and
 * period) — at the service's host, so a calendar keeps each event across fetches and feeds.
 */
export async function feedCalendar(
  env: PortfolioDeadlinesEnv,
  consumerId: string,
  portfolioId: string,
  baseUrl: string,
  now: Date,
  kept?: KeptCalendars,
): Promise<FeedCalendar> {
  const today = osloDate(now)
  const first = addDays(today, -FEED_PAST_DAYS)
  const last = addMonths(today, FEED_MONTHS)
  const r = await portfolioDeadlines(env, consumerId, portfolioId, { fromDate: today, horizonMonths: FEED_MONTHS }, now)
  const host = new URL(baseUrl).hostname
  const stamp = icalUtc(startOfOsloDay(today))
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Plikt//Portfolio deadlines//NB',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    property('X-WR-CALNAME', escapeText(`Frister – ${r.data.name}`)),
    property('X-WR-CALDESC', escapeText(`Fristene til klientene i porteføljen «${r.data.name}», fra Plikt.`)),
    'X-WR-TIMEZONE:Europe/Oslo',
    property('REFRESH-INTERVAL', 'PT1H', { VALUE: 'DURATION' }),
    'X-PUBLISHED-TTL:PT1H',
  ]
  const made = `${stamp} ${baseUrl}`
  const inWindow = r.data.deadlines.filter((d) => {
    const day = d.due_at?.slice(0, 10)
    return day !== undefined && d.deadline_id !== null && day >= first && day <= last
  })
  const answered = r.data.states.answered + r.data.states.stale
  // The same entries (the same objects, kept per cached company answer) on the same day under the
  // same name make the same calendar: it is neither written out nor hashed again.
  const key = `${portfolioId} ${made} ${r.data.name}`
  const hit = kept?.get(key)
  if (hit && hit.answered === answered && sameEntries(hit.entries, inWindow)) return hit.calendar
  const parts = [contentLines(lines)]
  for (const d of inWindow) {
    const day = d.due_at!.slice(0, 10)
    // The entries are the ones kept per cached company answer (domain/portfolios/deadlines.ts), so
    // an event's text is written once a day, not once per poll of every feed that holds the client.
    let kept = eventText.get(d)
    if (kept?.made !== made) {
      kept = { made, text: eventOf(d, day, host, stamp, baseUrl) }
      eventText.set(d, kept)
    }
    parts.push(kept.text)
  }
  parts.push(contentLines(['END:VCALENDAR']))
  const body = parts.join('')
  const calendar = { body, etag: `"${sha256Hex(body)}"`, answered, events: inWindow.length }
  kept?.set(key, { entries: inWindow, answered, calendar })
  return calendar
}

function sameEntries(a: readonly MergedDeadline[], b: readonly MergedDeadline[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i])
}

/**
 * The calendars an instance made last, by portfolio, day and name, with the entries they were made
 * from; at most `maxBytes` of calendar text, the oldest going first. One per instance (the handler
 * holds it in `deps.documents`).
 */
export class KeptCalendars {
  private readonly made = new Map<string, { entries: MergedDeadline[]; answered: number; calendar: FeedCalendar }>()
  private bytes = 0

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string) {
    return this.made.get(key)
  }

  set(key: string, value: { entries: MergedDeadline[]; answered: number; calendar: FeedCalendar }): void {
    this.delete(key)
    if (value.calendar.body.length > this.maxBytes) return
    this.made.set(key, value)
    this.bytes += value.calendar.body.length
    for (const oldest of this.made.keys()) {
      if (this.bytes <= this.maxBytes) break
      this.delete(oldest)
    }
  }

  private delete(key: string): void {
    const old = this.made.get(key)
    if (!old) return
    this.bytes -= old.calendar.body.length
    this.made.delete(key)
  }
}
