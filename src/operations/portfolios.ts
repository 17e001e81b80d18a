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
    alternateTypes: {
      'text/csv':
        'to `Accept: text/csv`: the same rows as RFC 4180 CSV (UTF-8, CRLF, quoted where needed) with a header row naming the fields',
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
] as const satisfies readonly Operation[]
