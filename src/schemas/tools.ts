/**
 * Request and result schemas of the keyless tools: the exchange rate (`/api/v1/tools/exchange-rate`,
 * MCP `get_exchange_rate`) and the portal migration lookup (`/api/v1/tools/portal-migration`).
 * The domain types are derived from these, so the OpenAPI document and the code cannot drift.
 */
import { Type, type Static } from '@sinclair/typebox'
import { SUPPORTED_CURRENCIES } from '../domain/tools/currencies.ts'

const LocalDate = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description })

// ── Exchange rate ─────────────────────────────────────────────────────────────

export const FALLBACK_REASONS = ['weekend', 'public_holiday', 'not_yet_published', 'no_publication'] as const
export type FallbackReason = (typeof FALLBACK_REASONS)[number]

/**
 * Deliberately loose: the shape and the currency list are checked by the domain so that a wrong
 * code answers INVALID_CURRENCY and a wrong date INVALID_DATE, not a generic VALIDATION_FAILED.
 */
export const ExchangeRateQuery = Type.Object(
  {
    currency: Type.String({
      minLength: 1,
      maxLength: 16,
      description: `ISO 4217 code, case-insensitive, of a currency Norges Bank quotes: ${SUPPORTED_CURRENCIES.join(', ')}. NOK itself is refused (NOK per NOK is 1 by definition; Norges Bank publishes no such series); the indices I44 and TWI are refused.`,
    }),
    date: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'YYYY-MM-DD, a real calendar date not after today in Europe/Oslo; default today (Oslo). Dates before 1900 are refused.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const ExchangeRatePairInput = Type.Object(
  {
    base: Type.String({
      minLength: 1,
      maxLength: 16,
      description:
        'three-letter code, case-insensitive; exactly one of base and quote must be NOK (either side); the answer is always base NOK, quote the other currency',
    }),
    quote: Type.String({
      minLength: 1,
      maxLength: 16,
      description:
        'three-letter code, case-insensitive; exactly one of base and quote must be NOK (either side); the answer is always base NOK, quote the other currency',
    }),
    date: Type.Optional(
      Type.String({ maxLength: 32, description: 'YYYY-MM-DD, not after today in Europe/Oslo; default today (Oslo)' }),
    ),
  },
  { additionalProperties: false },
)

export const ExchangeRateResult = Type.Object(
  {
    currency: Type.String({
      description: 'the foreign currency (ISO 4217, upper case) whose Norges Bank series was used',
    }),
    base: Type.Literal('NOK', {
      description: 'always `NOK`: the currency `rate` is expressed in (spec: the response is always base NOK)',
    }),
    quote: Type.String({
      description: 'the quoted currency, always equal to `currency`: `rate` prices one unit of it',
    }),
    rate: Type.Number({
      exclusiveMinimum: 0,
      description: 'NOK per ONE unit of the quoted currency (`quote`), already divided by `unit_multiplier`',
    }),
    nok_per_unit: Type.Number({
      exclusiveMinimum: 0,
      description:
        'NOK per ONE unit of `currency` = published_value / unit_multiplier, whatever the direction asked for',
    }),
    published_value: Type.String({
      description: 'the observation exactly as Norges Bank published it: NOK per `unit_multiplier` units of `currency`',
    }),
    unit_multiplier: Type.Integer({
      minimum: 1,
      description: '10^UNIT_MULT of the series: 1, or 100 for currencies quoted per hundred units (e.g. SEK, DKK, JPY)',
    }),
    date: LocalDate(
      'the publication day of the rate used (Europe/Oslo); earlier than `requested_date` when a fallback happened',
    ),
    requested_date: LocalDate('the date asked for, or today in Europe/Oslo when none was given'),
    fallback_reason: Type.Union(
      [
        Type.Literal('weekend', { description: 'the requested date is a Saturday or Sunday' }),
        Type.Literal('public_holiday', { description: 'the requested date is a Norwegian public holiday' }),
        Type.Literal('not_yet_published', {
          description:
            'the requested date is today and its rate is not published yet: before 16:00 Europe/Oslo, or Norges Bank is late',
        }),
        Type.Literal('no_publication', {
          description:
            'a working day on which Norges Bank published no rate for this currency, e.g. 24 December, or a day the quotation was not made',
        }),
        Type.Null(),
      ],
      {
        description:
          'null when a rate was published for `requested_date`; otherwise why not, and `date` is the most recent earlier publication. The search passes over weekends, public holidays, 24 December, today before publication and at most one other day without a rate; a longer gap (a suspended quotation) gives NO_RATE_AVAILABLE instead of a stale rate.',
      },
    ),
    fallback_detail: Type.Union([Type.String(), Type.Null()], {
      description: 'the same in words (English), e.g. "2026-04-06 is Easter Monday"; null when no fallback happened',
    }),
    source: Type.Literal('Norges Bank', {
      description: 'publisher; the rates are indicative mid-rates, not binding on any bank',
    }),
    series: Type.String({
      description:
        'the SDMX series used, e.g. `EXR/B.USD.NOK.SP`; Norges Bank’s key names the foreign currency its BASE_CUR and NOK its QUOTE_CUR, the reverse of `base`/`quote` here',
    }),
  },
  { description: 'A Norges Bank exchange rate against NOK, with the publication day actually used.' },
)
export type ExchangeRate = Static<typeof ExchangeRateResult>

// ── Portal migration ──────────────────────────────────────────────────────────

export const BASIS_CODES = ['S', 'R', 'D', 'N'] as const
export type BasisCode = (typeof BASIS_CODES)[number]

export const PORTAL2_PHASES = ['legacy_only', 'parallel_operation', 'submission_stopped', 'closed'] as const
export type Portal2Phase = (typeof PORTAL2_PHASES)[number]

export const PortalMigrationQuery = Type.Object(
  {
    portal2_code: Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'a legacy role code, case-insensitive: an Altinn 2 role (e.g. `A0239`, `HADM`, `UTINN`) or an ER role (e.g. `DAGL`, `REGN`, `FFØR`); `urn:altinn:rolecode:{code}` and `urn:altinn:external-role:ccr:{slug}` are accepted too. Numeric Altinn 2 service codes are not mapped (NOT_FOUND).',
    }),
  },
  { additionalProperties: false },
)

export const Portal3Package = Type.Object({
  urn: Type.String({ description: 'the access package, `urn:altinn:accesspackage:{package}`' }),
  package: Type.String({
    description:
      "the package code as spelt in Altinn's code (PackageConstants), e.g. `revisorattesterer`, `maskinporten-scopes`",
  }),
  condition: Type.Union([Type.String(), Type.Null()], {
    description:
      'when the package applies only to some organisations (e.g. organisation forms BRL and ESEK); null when always',
  }),
})

export const PortalMigrationResult = Type.Object(
  {
    portal2_code: Type.String({ description: 'the legacy code, normalised to upper case (e.g. `A0239`, `FFØR`)' }),
    kind: Type.Union([Type.Literal('altinn2_role'), Type.Literal('er_role')], {
      description: '`altinn2_role`: a role defined in Altinn 2; `er_role`: a role registered in Enhetsregisteret',
    }),
    portal2_name: Type.Union([Type.String(), Type.Null()], {
      description: "the role's bokmål name, null when our sources do not give it",
    }),
    er_role_urn: Type.Union([Type.String(), Type.Null()], {
      description:
        'for an ER role: its Altinn 3 identifier, `urn:altinn:external-role:ccr:{slug}`; null for Altinn 2 roles',
    }),
    portal3: Type.Array(Portal3Package, {
      description:
        'the Altinn 3 access packages the legacy role corresponds to (for an ER role: the packages its holders receive). Empty when there is no 1:1 package (general Altinn 2 roles) or the role gives none (e.g. MEDL).',
    }),
    verified: Type.Boolean({
      description:
        "true only when backed by Altinn's own seed data or Digdir statements (basis S, R or D). Act on `portal3` only when true; a name match (N) is a hint to check, not a fact.",
    }),
    basis: Type.Array(Type.Union(BASIS_CODES.map((c) => Type.Literal(c))), {
      description: 'what the mapping rests on; see `basis_explained`',
    }),
    basis_explained: Type.Array(
      Type.Object({
        code: Type.Union(BASIS_CODES.map((c) => Type.Literal(c))),
        en: Type.String(),
        nb: Type.String(),
      }),
      { description: 'each letter of `basis` in English and bokmål' },
    ),
    explanation: Type.Object(
      { en: Type.String(), nb: Type.String() },
      { description: 'what the mapping means for an agent, in English and bokmål' },
    ),
    notes: Type.Array(Type.String(), {
      description:
        "qualifications (English): who holds the package, delegability, spelling drift in Digdir's documentation",
    }),
    portal2_status: Type.Object(
      {
        phase: Type.Union(
          PORTAL2_PHASES.map((p) => Type.Literal(p)),
          {
            description:
              '`legacy_only` before 1 Dec 2025; `parallel_operation` from 1 Dec 2025 (access packages delegable) until submission stops; `submission_stopped` from 31 May 2026 (no Altinn II submission or messaging); `closed` from 19 Jun 2026 (Altinn II shut down; Altinn 2 roles grant nothing)',
          },
        ),
        as_of: LocalDate('the Europe/Oslo date the phase was computed for'),
        packages_available_from: LocalDate('businesses can delegate access packages from this date'),
        submission_stops_on: LocalDate('Altinn II submission and messaging stop on this date'),
        closes_on: LocalDate('Altinn II closes on this date'),
        days_until_close: Type.Integer({
          minimum: 0,
          description: 'calendar days from `as_of` to `closes_on`; 0 once closed',
        }),
      },
      { description: 'where the Altinn II shutdown stands (Digdir timeline)' },
    ),
  },
  { description: 'The Altinn 3 equivalent of a legacy Altinn 2 or Enhetsregisteret role.' },
)
export type PortalMigration = Static<typeof PortalMigrationResult>
