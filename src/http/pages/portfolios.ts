/**
 * The dashboard's portfolios page, for the person behind the keys (signed-in browser session):
 * each portfolio's clients in a table with the next deadline of each and their overdue ones
 * marked — from `portfolioDeadlines`, the function the API's merged deadlines come from — the CSV
 * download, and the calendar feeds: create one (its URL shown once, to copy), revoke one. Every
 * form carries the session's CSRF token (checked at admission).
 */
import { planAtLeast, type Principal } from '../../domain/access/types.ts'
import { portfolioDeadlines, type PortfolioCompany } from '../../domain/portfolios/deadlines.ts'
import {
  createFeed,
  FEED_MONTHS,
  FEED_PAST_DAYS,
  listFeeds,
  MAX_FEEDS,
  revokeFeed,
} from '../../domain/portfolios/feeds.ts'
import { listPortfolios, requirePortfolio } from '../../domain/portfolios/portfolios.ts'
import { addDays } from '../../lib/local-date.ts'
import { osloDate } from '../../lib/oslo-time.ts'
import { csvResponse, portfolioEnv } from '../../handlers/portfolios.ts'
import { sessionActor, sessionOf } from '../../pipeline/admission.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import type { CsrfForm } from '../../schemas/pages.ts'
import type { FeedParams, PortfolioParams } from '../../schemas/portfolios.ts'
import { AppError } from '../../errors/app-error.ts'
import { bi, esc, htmlResponse, osloTime, page, redirect, table } from '../html.ts'

type Session = Extract<Principal, { kind: 'session' }>

/** Portfolios need the Professional plan, on the page as through a key. */
function professional(s: Session): Session {
  if (!planAtLeast(s.plan, 'professional'))
    throw new AppError('PLAN_INSUFFICIENT', { extra: { required_tier: 'professional', tier: s.plan } })
  return s
}

const csrfField = (csrf: string) => `<input type="hidden" name="csrf_token" value="${esc(csrf)}">`

/** `10.04.2026` */
const shortDate = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`

const STATE_TEXT: Record<PortfolioCompany['state'], [string, string]> = {
  answered: ['oppdatert', 'up to date'],
  stale: ['eldre registerdata', 'older register data'],
  unavailable: ['utilgjengelig', 'unavailable'],
  pending: ['hentes', 'being fetched'],
}

/** One portfolio's section: its clients with the next deadline and the overdue ones, its CSV, its feeds. */
async function portfolioSection(deps: AppDeps, s: Session, p: { portfolio_id: string; name: string }, now: Date) {
  const today = osloDate(now)
  const r = await portfolioDeadlines(
    portfolioEnv(deps),
    s.consumerId,
    p.portfolio_id,
    { fromDate: today, horizonMonths: 12 },
    now,
  )
  const since = addDays(today, -FEED_PAST_DAYS)
  const rows = r.data.companies
    .map((c) => {
      const entity = c.legal_entity_org_number
      const mine = entity ? r.data.deadlines.filter((d) => d.org_number === entity && d.due_at) : []
      const next = mine.find((d) => d.due_at!.slice(0, 10) >= today)
      const overdue = mine.filter((d) => d.filing_status === 'overdue' && d.due_at!.slice(0, 10) >= since)
      const nextCell = next
        ? `${shortDate(next.due_at!.slice(0, 10))} · ${esc(next.obligation_name)}${next.period_label ? ` (${esc(next.period_label)})` : ''}`
        : '–'
      const overdueCell = overdue.length
        ? `<strong class="overdue-mark">${bi('Forfalt', 'Overdue')}: ${overdue
            .map((d) => `${shortDate(d.due_at!.slice(0, 10))} ${esc(d.obligation_name)}`)
            .join('; ')}</strong>`
        : ''
      const [nb, en] = STATE_TEXT[c.state]
      return `<tr class="client${overdue.length ? ' overdue' : ''}" data-org="${esc(c.org_number)}"><td><code>${esc(c.org_number)}</code></td><td>${esc(c.name ?? '')}</td><td>${nextCell}</td><td>${overdueCell}</td><td>${bi(nb, en)}</td></tr>`
    })
    .join('')
  const feeds = await listFeeds(deps.sql, s.consumerId, p.portfolio_id)
  const feedRows = feeds.feeds
    .map(
      (f) =>
        `<tr><td><code>${esc(f.feed_id)}</code></td><td>${osloTime(f.created_at)}</td><td><form method="post" action="/dashboard/portfolios/${esc(p.portfolio_id)}/feeds/${esc(f.feed_id)}/revoke">${csrfField(s.csrfToken)}<button class="secondary" type="submit">Trekk tilbake / Revoke</button></form></td></tr>`,
    )
    .join('')
  const id = esc(p.portfolio_id)
  return `<section class="portfolio" id="portfolio-${id}" aria-labelledby="h-${id}">
<h2 id="h-${id}">${esc(p.name)}</h2>
<p class="note">${r.data.company_count} ${bi('klienter', 'clients')} · <a href="/dashboard/portfolios/${id}/deadlines.csv" class="csv" download>${bi('Last ned alle frister som CSV', 'Download every deadline as CSV')}</a></p>
${table(`<th>${bi('Org.nr.', 'Org. no.')}</th><th>${bi('Navn', 'Name')}</th><th>${bi('Neste frist', 'Next deadline')}</th><th>${bi(`Forfalt siste ${FEED_PAST_DAYS} dager`, `Overdue, last ${FEED_PAST_DAYS} days`)}</th><th>${bi('Registerdata', 'Register data')}</th>`, rows, 'Ingen klienter ennå: legg dem til med PUT /api/v1/portfolios/{id}/companies.', 'No clients yet: add them with PUT /api/v1/portfolios/{id}/companies.', 5)}
<h3>${bi('Kalenderstrømmer', 'Calendar feeds')}</h3>
<p class="note">${bi(`En hemmelig adresse som kalenderprogrammet (Google Kalender, Outlook, Apple Kalender) abonnerer på: fristene fra ${FEED_PAST_DAYS} dager tilbake til ${FEED_MONTHS} måneder fram. Adressen vises bare når den lages. Høyst ${MAX_FEEDS} per portefølje. Første henting hver dag koster 50 øre; resten av dagen er gratis.`, `A secret URL your calendar program (Google Calendar, Outlook, Apple Calendar) subscribes to: the deadlines from ${FEED_PAST_DAYS} days ago to ${FEED_MONTHS} months ahead. The URL is shown only when it is made. At most ${MAX_FEEDS} per portfolio. The first fetch each day costs 50 øre; the rest of the day is free.`)}</p>
${table(`<th>${bi('Strøm', 'Feed')}</th><th>${bi('Laget', 'Created')}</th><th><span class="visually-hidden">${bi('Handling', 'Action')}</span></th>`, feedRows, 'Ingen kalenderstrømmer.', 'No calendar feeds.', 3)}
<form method="post" action="/dashboard/portfolios/${id}/feeds">${csrfField(s.csrfToken)}<button type="submit">${bi('Lag kalenderstrøm', 'Create a calendar feed')}</button></form>
</section>`
}

async function portfoliosPage(deps: AppDeps, s: Session, now: Date, flash = ''): Promise<string> {
  if (!planAtLeast(s.plan, 'professional')) {
    return page(
      'Porteføljer',
      `<h1>${bi('Porteføljer', 'Portfolios')}</h1>
<p>${bi('Porteføljer (alle klienters frister i ett svar, CSV og kalenderstrøm) krever Professional-planen.', 'Portfolios (every client’s deadlines in one answer, CSV and a calendar feed) need the Professional plan.')}</p>`,
      { signedIn: { csrf: s.csrfToken } },
    )
  }
  const list = await listPortfolios(deps.sql, s.consumerId)
  const sections: string[] = []
  for (const p of list.portfolios) sections.push(await portfolioSection(deps, s, p, now))
  return page(
    'Porteføljer',
    `<h1>${bi('Porteføljer', 'Portfolios')}</h1>${flash}
<p class="note">${bi('Klientenes neste frist, og frister som har passert uten at vi ser at de er levert. Lag porteføljer og legg til klienter med API-et (POST /api/v1/portfolios).', 'Each client’s next deadline, and deadlines passed without a filing we can see. Create portfolios and add clients through the API (POST /api/v1/portfolios).')}</p>
${sections.join('\n') || `<p class="empty">${bi('Ingen porteføljer ennå.', 'No portfolios yet.')}</p>`}`,
    { signedIn: { csrf: s.csrfToken } },
  )
}

/** The feed's URL, shown once: selectable text to copy (the pages run no script). */
function feedUrlBlock(url: string): string {
  return `<section class="flash" role="status" aria-labelledby="feed-heading"><h2 id="feed-heading">${bi('Ny kalenderstrøm: kopier adressen', 'New calendar feed: copy the URL')}</h2>
<label for="feed-url">${bi('Adressen kalenderprogrammet abonnerer på', 'The URL your calendar program subscribes to')}</label>
<input id="feed-url" type="text" readonly value="${esc(url)}">
<output class="secret" id="secret">${esc(url)}</output>
<p class="note">${bi('Kopier den nå: den vises ikke igjen, og vi lagrer den bare som en hash. Alle som har adressen, kan lese kalenderen; hentingene belastes kontoen din.', 'Copy it now: it is not shown again, and we store only its hash. Anyone holding the URL can read the calendar; the fetches are charged to your account.')}</p></section>`
}

export const portfolioPageHandlers = {
  dashboardPortfolios: (async ({ principal, deps, now }) =>
    htmlResponse(await portfoliosPage(deps, sessionOf(principal), now))) satisfies Handler,

  dashboardPortfolioCsv: (async ({ principal, params, deps, now }) => {
    const s = professional(sessionOf(principal))
    const r = await portfolioDeadlines(
      portfolioEnv(deps),
      s.consumerId,
      params.portfolio_id,
      { fromDate: osloDate(now), horizonMonths: 12 },
      now,
    )
    return csvResponse(r.data)
  }) satisfies Handler<{ params: typeof PortfolioParams }>,

  dashboardCreateFeed: (async ({ principal, params, deps, now, state }) => {
    const s = professional(sessionOf(principal))
    const feed = await createFeed(
      deps.sql,
      s.consumerId,
      params.portfolio_id,
      deps.config.baseUrl,
      now,
      sessionActor(s, state),
    )
    return htmlResponse(await portfoliosPage(deps, s, now, feedUrlBlock(feed.feed_url)))
  }) satisfies Handler<{ params: typeof PortfolioParams; body: typeof CsrfForm }>,

  dashboardRevokeFeed: (async ({ principal, params, deps, state }) => {
    const s = sessionOf(principal)
    await requirePortfolio(deps.sql, s.consumerId, params.portfolio_id)
    await revokeFeed(deps.sql, s.consumerId, params.portfolio_id, params.feed_id, sessionActor(s, state))
    return redirect(`/dashboard/portfolios#portfolio-${params.portfolio_id}`)
  }) satisfies Handler<{ params: typeof FeedParams; body: typeof CsrfForm }>,
}
