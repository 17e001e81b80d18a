/**
 * Portfolios (issue 30; beyond the spec, in its style): an accounting firm's clients as named lists
 * of organisation numbers, and their deadlines in one answer. Keyed, tier `professional` (the
 * entry's `planMinimum`), scope `read:register` — the spec's scope list is closed, and a
 * portfolio exists to read the register's companies. Portfolios belong to the account: every key
 * of it sees the same ones; another account's id is 404, never 403.
 */
import * as S from '../schemas/portfolios.ts'
import { op, type Def, type Operation } from './define.ts'

const SHARED = {
  category: 'B',
  format: 'envelope',
  tag: 'Portfolios',
  scope: 'read:register',
  planMinimum: 'professional',
} as const satisfies Partial<Def>

/** How a portfolio read is priced: never more than the same company reads one by one. */
const PORTFOLIO_PRICE =
  '50 øre per call whatever the number of clients — the price of one company read (50 øre each), so a portfolio read ' +
  'never costs more than the same company reads made one by one. Refunded when it fails or answers no client (all ' +
  'pending or unavailable, or no clients), as those reads would have cost nothing. Charged once per call. Managing ' +
  'portfolios (create, list, read, set companies, delete) and the changes by portfolio cost nothing.'

const NOT_FOUND = 'Another account’s portfolio is 404 `NOT_FOUND`, exactly as one that does not exist.'

/** How a calendar feed's reads are priced (domain/portfolios/feeds.ts): predictable for a calendar that polls. */
export const FEED_PRICE =
  `A calendar feed's read costs ${50} øre for its first calendar of each Oslo day and nothing for the rest of the day: ` +
  'a calendar program polling hourly (24 reads a day) pays 50 øre a day per feed — about NOK 15 a month — whatever it ' +
  'polls, never more than one company read a day. A `304 Not Modified` and any failure are free, as is a calendar with no ' +
  'client answered. The price is charged to the portfolio’s owner: taken before the answer is made and given back when ' +
  'the answer is free, so an owner with less than 50 øre is answered 402 `INSUFFICIENT_CREDITS` until topped up (the ' +
  'calendar program keeps showing the calendar it last fetched).'

export const portfoliosOperations = [
  op({
    ...SHARED,
    id: 'createPortfolio',
    summaryNb: 'Opprett en portefølje: et navngitt utvalg klienter',
    method: 'POST',
    path: '/api/v1/portfolios',
    summary: 'Create a portfolio: a named list of client companies',
    description:
      '201 with `portfolio_id`, `name` and `company_count` (0); add its companies with `PUT …/companies`. At most 20 ' +
      'portfolios an account: the 21st is 400 `VALIDATION_FAILED` naming `portfolios`. Supports `Idempotency-Key`.',
    request: { body: S.PortfolioBody },
    response: S.Portfolio,
    successStatus: 201,
    idempotency: 'optional',
  }),
  op({
    ...SHARED,
    id: 'listPortfolios',
    summaryNb: 'Kontoens porteføljer',
    method: 'GET',
    path: '/api/v1/portfolios',
    summary: 'The account’s portfolios',
    description: 'Every portfolio of the account, oldest first, with its company count. At most 20 exist: no pages.',
    response: S.PortfolioList,
    mcpTool: 'list_portfolios',
  }),
  op({
    ...SHARED,
    id: 'getPortfolio',
    summaryNb: 'Én portefølje med organisasjonsnumrene',
    method: 'GET',
    path: '/api/v1/portfolios/:portfolio_id',
    summary: 'One portfolio with its organisation numbers',
    description: `The portfolio and its companies (\`companies[]\`, the numbers as given, ascending). ${NOT_FOUND}`,
    request: { params: S.PortfolioParams },
    response: S.PortfolioDetail,
  }),
  op({
    ...SHARED,
    id: 'setPortfolioCompanies',
    summaryNb: 'Erstatt porteføljens klientliste',
    method: 'PUT',
    path: '/api/v1/portfolios/:portfolio_id/companies',
    summary: 'Replace the portfolio’s companies',
    description:
      '`org_numbers` replaces the list whole; duplicates collapse; at most 1 000 distinct numbers. One number that is not ' +
      'nine digits or fails the MOD-11 check refuses the whole request with 400 `VALIDATION_FAILED` naming it ' +
      '(`org_numbers.<index>`), and nothing changes. A sub-unit’s number (underenhet) is accepted and stands for its ' +
      'legal entity: the deadlines read are that entity’s, and the sub-unit is named in the company’s state. Nothing ' +
      `is read from the register here: new companies are fetched in the background, within the register’s limits. ${NOT_FOUND}`,
    request: { params: S.PortfolioParams, body: S.CompaniesBody },
    response: S.CompaniesSet,
    mcpTool: 'set_portfolio_companies',
  }),
  op({
    ...SHARED,
    id: 'deletePortfolio',
    summaryNb: 'Slett en portefølje',
    method: 'DELETE',
    path: '/api/v1/portfolios/:portfolio_id',
    summary: 'Delete a portfolio',
    description: `Deleted for good, with its companies; afterwards the id is 404. ${NOT_FOUND}`,
    request: { params: S.PortfolioParams },
    response: S.DeletedPortfolio,
  }),
  op({
    ...SHARED,
    id: 'getPortfolioDeadlines',
    method: 'GET',
    path: '/api/v1/portfolios/:portfolio_id/deadlines',
    summary: 'Every client’s deadlines in one answer, merged, with each client’s state',
    description:
      '`from_date` (default today, Europe/Oslo) and `horizon_months` (1 to 60, default 12) as on the company deadlines ' +
      'route. `deadlines[]`: each client’s entries exactly as `GET /api/v1/company/{org}/deadlines` gives them for the ' +
      'same window, with `org_number` and `company_name` (a sub-unit’s: its legal entity’s, listed once), sorted by ' +
      '`due_at`, then organisation number, undated last. `companies[]`: each client’s `state` — `answered`, `stale` (a ' +
      'cached register answer older than its freshness, with its `freshness`), `unavailable` (with the `error` a company ' +
      'read would answer: one client’s failure never fails the call) or `pending` (just added; its register data is ' +
      'fetched in the background, within the register’s limits, so the answer never waits for it). `Accept: text/csv` ' +
      'answers the same rows as RFC 4180 CSV (UTF-8, CRLF, a header row: `' +
      'org_number,company_name,obligation_id,deadline_id,obligation_name,period_label,due_at,original_due_at,business_day_adjusted,filing_status,legal_reference`' +
      '). Metered: 50 øre per call whatever the portfolio’s size — the price of one company read, so it never costs more ' +
      'than the same company reads one by one — and nothing when it fails or answers no client (every client pending or ' +
      `unavailable, or no clients): the charge is then refunded. ${NOT_FOUND}`,
    request: { params: S.PortfolioParams, query: S.DeadlinesQuery },
    response: S.PortfolioDeadlines,
    costOre: 50,
    priceNote: PORTFOLIO_PRICE,
    mcpTool: 'get_portfolio_deadlines',
    mcpResource: {
      uri: 'plikt://portfolio/{portfolio_id}/deadlines{?from_date,horizon_months}',
      name: 'portfolio-deadlines',
    },
    alternateTypes: {
      'text/csv':
        'to `Accept: text/csv`: the same rows as RFC 4180 CSV (UTF-8, CRLF, quoted where needed) with a header row naming the fields; a cell a spreadsheet would run as a formula (starting with = + - @) begins with an apostrophe',
    },
    capability: {
      name_en: 'Portfolio deadlines',
      name_nb: 'Frister for en portefølje',
      description_en: 'Every client’s deadlines in one answer, as JSON or CSV, with each client’s state.',
      description_nb: 'Alle klienters frister i ett svar, som JSON eller CSV, med hver klients tilstand.',
      data_sources: ['enhetsregisteret', 'rulebook'],
      freshness: 'cached',
      status: 'live',
    },
  }),
  op({
    ...SHARED,
    id: 'createPortfolioFeed',
    summaryNb: 'Opprett en kalenderstrøm (iCalendar) for porteføljens frister',
    method: 'POST',
    path: '/api/v1/portfolios/:portfolio_id/feeds',
    summary: 'Create a calendar feed of the portfolio’s deadlines (iCalendar, for a calendar program)',
    description:
      '201 with `feed_id` and `feed_url`: the absolute URL a calendar program (Google Calendar, Outlook, Apple Calendar) ' +
      'subscribes to and polls, without a key. The URL carries a secret token of 190 random bits; it is shown this once ' +
      '(only its hash is kept), and anyone holding it reads the calendar, charged to this account. The calendar holds ' +
      'one all-day event per deadline due from 30 days ago to 12 months ahead (Europe/Oslo). At most 5 feeds a portfolio: ' +
      `the 6th is 400 \`VALIDATION_FAILED\` naming \`feeds\`. Free to create. ${FEED_PRICE} ${NOT_FOUND}`,
    request: { params: S.PortfolioParams },
    response: S.CreatedFeed,
    successStatus: 201,
    idempotency: 'optional',
    priceNote: FEED_PRICE,
    capability: {
      name_en: 'Portfolio calendar feed',
      name_nb: 'Kalenderstrøm for en portefølje',
      description_en:
        'A secret iCalendar URL of every client’s deadlines, for the firm’s calendar program to subscribe to; revoke it at once.',
      description_nb:
        'En hemmelig iCalendar-adresse med alle klientenes frister, som firmaets kalenderprogram abonnerer på; kan trekkes tilbake straks.',
      data_sources: ['enhetsregisteret', 'rulebook'],
      freshness: 'cached',
      status: 'live',
    },
  }),
  op({
    ...SHARED,
    id: 'listPortfolioFeeds',
    summaryNb: 'Porteføljens kalenderstrømmer',
    method: 'GET',
    path: '/api/v1/portfolios/:portfolio_id/feeds',
    summary: 'The portfolio’s calendar feeds (their ids, never their URLs)',
    description: `Each feed’s id and creation time, oldest first; a URL is shown only when its feed is created. ${NOT_FOUND}`,
    request: { params: S.PortfolioParams },
    response: S.FeedList,
  }),
  op({
    ...SHARED,
    id: 'deletePortfolioFeed',
    summaryNb: 'Trekk tilbake en kalenderstrøm',
    method: 'DELETE',
    path: '/api/v1/portfolios/:portfolio_id/feeds/:feed_id',
    summary: 'Revoke a calendar feed',
    description:
      'Revoked at once: the feed’s URL then answers 404 `NOT_FOUND`, exactly as a made-up one does (a calendar program ' +
      'may keep showing its own copy for up to 5 minutes, its `max-age`). Another account’s feed, or a feed of another ' +
      'portfolio, is 404.',
    request: { params: S.FeedParams },
    response: S.RevokedFeed,
  }),
  op({
    id: 'getPortfolioFeed',
    category: 'A',
    auth: 'feed',
    format: 'json',
    tag: 'Portfolios',
    planMinimum: 'professional',
    summaryNb: 'Kalenderstrømmen: porteføljens frister som iCalendar',
    method: 'GET',
    path: '/api/v1/feeds/:feed_token',
    summary: 'A portfolio’s calendar feed (iCalendar, RFC 5545), read by a calendar program without a key',
    description:
      'The URL `createPortfolioFeed` answered; no key — the secret token in the path stands for the portfolio’s owner, ' +
      'who is charged. A made-up or revoked token is 404 `NOT_FOUND`, the same answer either way. `text/calendar`: one ' +
      'all-day VEVENT per deadline of the portfolio’s merged deadlines (the entries of `GET …/portfolios/{id}/deadlines` ' +
      'for today) due from 30 days ago to 12 months ahead, by its Europe/Oslo date; undated obligations are left out. ' +
      '`UID` is the organisation number and the obligation’s period id at the service’s host, the same in every fetch ' +
      'and every feed; `SUMMARY` is “company: obligation (period)” in bokmål; `DESCRIPTION` gives the due date, a moved ' +
      'date’s reason, the legal reference and the company’s deadlines route. Every answer has a strong `ETag`; ' +
      '`If-None-Match` with it answers 304 with no body, free. `Cache-Control: private, max-age=300`: the URL is a ' +
      'secret, so no shared cache may keep it, and a calendar program’s own copy is good for five minutes — ' +
      'a revoked feed is gone from the program’s next fetch after that. The calendar changes at most once a day unless ' +
      'a client’s register data or the rulebook changes (its `DTSTAMP` is the start of the Oslo day). At most 60 reads an ' +
      `hour per feed (429 \`FEED_RATE_LIMITED\`, 304s included). ${FEED_PRICE} An owner whose plan is below ` +
      'Professional is answered 403 `PLAN_INSUFFICIENT`. Errors are the JSON error envelope.',
    request: { params: S.FeedTokenParams },
    response: S.FeedCalendarBody,
    responseType: 'text/calendar; charset=utf-8',
    responseHeaders: {
      ETag: 'a strong tag over the calendar; send it back as `If-None-Match` for a free 304',
      'Cache-Control': '`private, max-age=300`',
    },
    notModified: true,
    costOre: 50,
    priceNote: FEED_PRICE,
    limits: [{ per: 'feed', max: 60, window: 'hour', code: 'FEED_RATE_LIMITED' }],
  }),
] as const satisfies readonly Operation[]
