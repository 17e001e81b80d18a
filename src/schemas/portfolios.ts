/** Portfolios: an accounting firm's clients, their merged deadlines and their states. */
import { Type } from '@sinclair/typebox'
import { Lit, Uuid } from './common.ts'
import { SubUnit } from './company.ts'
export { DeadlinesQuery } from './company.ts'
import { CompanyDeadlineEntry } from './rulebook.ts'

const Name = Type.String({
  minLength: 1,
  maxLength: 80,
  description: '1 to 80 characters, not blank',
  examples: ['Klienter Bergen'],
})

export const PortfolioBody = Type.Object({ name: Name }, { additionalProperties: false })

export const PortfolioParams = Type.Object({
  portfolio_id: Uuid('the portfolio’s id, as its creation answered it'),
})

export const CompaniesBody = Type.Object(
  {
    org_numbers: Type.Array(
      Type.String({ maxLength: 32, description: 'nine digits with a valid MOD-11 check digit' }),
      {
        maxItems: 2000,
        description:
          'the whole new list (it replaces the old one); duplicates collapse, at most 1 000 distinct numbers; a sub-unit’s number stands for its legal entity',
        examples: [['984661185', '923609016']],
      },
    ),
  },
  { additionalProperties: false },
)

const SubUnitNote = Type.Object(
  { note_nb: Type.String(), note_en: Type.String() },
  { description: 'how a sub-unit’s number is read: it stands for its legal entity' },
)

export const Portfolio = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  company_count: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})

export const PortfolioDetail = Type.Object({
  ...Portfolio.properties,
  companies: Type.Array(Type.Object({ org_number: Type.String(), added_at: Type.String({ format: 'date-time' }) }), {
    description: 'the organisation numbers as given, ascending',
  }),
  sub_units: SubUnitNote,
})

export const PortfolioList = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  max_portfolios: Type.Integer({ description: 'how many portfolios an account may keep' }),
  max_companies: Type.Integer({ description: 'how many distinct organisation numbers a portfolio may hold' }),
  portfolios: Type.Array(Portfolio, { description: 'every portfolio of the account, oldest first; never paged' }),
})

export const CompaniesSet = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  company_count: Type.Integer({ minimum: 0 }),
  duplicates_removed: Type.Integer({ minimum: 0, description: 'how many numbers of the list were repeats' }),
  org_numbers: Type.Array(Type.String(), { description: 'the portfolio’s numbers now, distinct, ascending' }),
  sub_units: SubUnitNote,
})

export const DeletedPortfolio = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  deleted: Type.Literal(true),
})

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()])

export const MergedDeadline = Type.Object({
  org_number: Type.String({ description: 'the legal entity the deadline is about (a sub-unit’s parent)' }),
  company_name: Type.String({ description: 'its name in the register' }),
  ...CompanyDeadlineEntry.properties,
})

const CompanyError = Type.Object({
  error_code: Type.String(),
  retryable: Type.Boolean(),
  message: Type.String({ description: 'bokmål' }),
  message_en: Type.String(),
})

export const PortfolioCompanyState = Type.Object({
  org_number: Type.String({ description: 'the number as the portfolio holds it' }),
  state: Lit(
    ['answered', 'stale', 'unavailable', 'pending'] as const,
    '`answered`: fresh register data; `stale`: a cached answer older than its freshness (a new one is being fetched); `unavailable`: no answer (`error` says why); `pending`: not fetched yet',
  ),
  legal_entity_org_number: Nullable(Type.String({ description: 'the number itself, or a sub-unit’s legal entity' })),
  name: Nullable(Type.String()),
  org_form: Nullable(Type.String()),
  data_tier: Type.Union([Lit(['tier_1', 'tier_2'] as const), Type.Null()]),
  covered: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'false: a form the rulebook does not cover, or a deleted unit: no deadlines',
  }),
  deadline_count: Type.Integer({
    minimum: 0,
    description: 'its entries in `deadlines` (a legal entity held twice: listed once)',
  }),
  freshness: Type.Union([
    Type.Object(
      {
        data_freshness: Type.String({ format: 'date-time', description: 'when the register answer was fetched (UTC)' }),
        served_from: Lit(['cache', 'live'] as const),
        stale: Type.Boolean(),
        source_snapshot_id: Nullable(Type.String()),
      },
      { description: 'as `_meta` would say it of a company read' },
    ),
    Type.Null(),
  ]),
  error: Type.Union([CompanyError, Type.Null()], { description: 'set when `unavailable`' }),
  sub_unit: Type.Optional(SubUnit),
})

export const PortfolioDeadlines = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  from_date: Type.String({ format: 'date' }),
  to_date: Type.String({ format: 'date' }),
  horizon_months: Type.Integer(),
  company_count: Type.Integer({ minimum: 0 }),
  states: Type.Object(
    {
      answered: Type.Integer({ minimum: 0 }),
      stale: Type.Integer({ minimum: 0 }),
      unavailable: Type.Integer({ minimum: 0 }),
      pending: Type.Integer({ minimum: 0 }),
    },
    { description: 'how many clients are in each state' },
  ),
  deadlines: Type.Array(MergedDeadline, {
    description:
      'every client’s deadlines exactly as `GET /api/v1/company/{org}/deadlines` gives them for the same window, with `org_number` and `company_name`; by due date, then organisation number, undated last',
  }),
  companies: Type.Array(PortfolioCompanyState, { description: 'one per number the portfolio holds, ascending' }),
})

export const FeedParams = Type.Object({
  portfolio_id: Uuid('the portfolio’s id, as its creation answered it'),
  feed_id: Uuid('the feed’s id, as its creation answered it'),
})

export const FeedTokenParams = Type.Object({
  feed_token: Type.String({
    maxLength: 64,
    description: 'the secret token of the feed’s URL, as its creation answered it (`pf_` and 32 letters and digits)',
    examples: ['pf_3kTz9QbVw2XyL8mN4pR7sD1fG6hJ0aKc'],
  }),
})

const FeedWindow = Type.Object(
  {
    past_days: Type.Integer({ description: 'deadlines due this many days ago are still in the calendar' }),
    months_ahead: Type.Integer({ description: 'and those due up to this many months ahead' }),
    time_zone: Type.Literal('Europe/Oslo'),
  },
  { description: 'which deadlines the calendar holds: one all-day event each, by the Oslo date it falls due' },
)

export const CreatedFeed = Type.Object({
  feed_id: Type.String({ format: 'uuid' }),
  portfolio_id: Type.String({ format: 'uuid' }),
  feed_url: Type.String({
    format: 'uri',
    description:
      'the URL a calendar program subscribes to, with its secret token: shown this once (only its hash is kept); anyone holding it reads the calendar, charged to you',
  }),
  created_at: Type.String({ format: 'date-time' }),
  window: FeedWindow,
  max_feeds: Type.Integer({ description: 'how many feeds a portfolio may have' }),
})

export const FeedList = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  max_feeds: Type.Integer(),
  feeds: Type.Array(
    Type.Object({ feed_id: Type.String({ format: 'uuid' }), created_at: Type.String({ format: 'date-time' }) }),
    { description: 'oldest first; never their URLs (only the token’s hash is kept)' },
  ),
})

export const RevokedFeed = Type.Object({
  feed_id: Type.String({ format: 'uuid' }),
  portfolio_id: Type.String({ format: 'uuid' }),
  revoked: Type.Literal(true),
})

export const FeedCalendarBody = Type.String({
  description:
    'an iCalendar stream (RFC 5545): VERSION, PRODID, CALSCALE, X-WR-CALNAME; one all-day VEVENT per dated deadline in the window, with a UID stable across fetches, SUMMARY (company: obligation, bokmål), DESCRIPTION (the legal reference and the company’s deadlines route), DTSTAMP; CRLF lines folded at 75 octets',
})
