/** The change archive (GET /api/v1/changes) and the spec's Change row. */
import { Type } from '@sinclair/typebox'
import { CHANGE_TYPES, ENTITY_TYPES, SOURCES } from '../domain/changes/vocabulary.ts'
import { CHANGES_PAGE } from '../domain/changes/archive.ts'
import { Lit, Uuid } from './common.ts'

/** Each source's rows (domain/changes/observed.ts has the same table): the OpenAPI document's words. */
const SOURCE_DOC =
  'the upstream that changed: `register` = the business register (with the accounts register it publishes), `portal` = the filing ' +
  'portal, `directorate` = the digital agency, `centralbank` = the central bank, `labour_register` = the labour register, ' +
  '`tax_authority` = the tax authority (its VAT register)'
const ENTITY_DOC =
  'what changed, by source — register: `annual_accounts` (the filing status; webhooks deliver these as `accounts.updated`) and ' +
  '`company` (a unit the register’s update feed named); tax_authority: `vat_registration` (membership of the VAT register, as the ' +
  'business register publishes it); centralbank: `exchange_rate` (a series gained a new value); labour_register: `employees` ' +
  '(a delegated company’s employee count changed); portal: `filings` (a delegated company’s filings at the portal appeared or ' +
  'moved on); directorate: `delegation` (the agency decided a delegation request)'
const FIELD_DOC =
  '`/last_accounts_year` or `/has_filed_annual_accounts` (annual_accounts); null on company rows (the feed says only that the unit ' +
  'changed); `/mva_registered` (vat_registration, booleans); `/rate` (exchange_rate: the latest rate before and after, `diff` also ' +
  'gives the new `/date`); `/employee_count` (employees); `/filings` (filings); `/status` (delegation: `pending` before, `active`, ' +
  '`rejected` or `expired` after)'

export const Change = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'stable: a webhook re-sent for this change carries the same id; key side effects on it',
    }),
    source: Type.String({ enum: [...SOURCES], description: SOURCE_DOC }),
    entity_type: Type.String({ enum: [...ENTITY_TYPES], description: ENTITY_DOC }),
    entity_id: Type.String({
      description: 'the organisation number; for `exchange_rate` the currency (ISO 4217) quoted as NOK per one unit',
    }),
    change_type: Type.String({
      enum: [...CHANGE_TYPES],
      description:
        '`created`, `deleted` and `removed` only on `company` rows (the register feed’s own words); every other row is `updated`',
    }),
    field_path: Type.Union([Type.String(), Type.Null()], { description: FIELD_DOC }),
    before_value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
      description:
        'the value last observed; null on `company` rows and where the value is withheld (`employees`, `filings`: Tier 2 data, read through your own delegation)',
    }),
    after_value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
      description: 'the value observed now; null as for before_value',
    }),
    diff: Type.Array(Type.Object({ op: Type.String(), path: Type.String(), value: Type.Optional(Type.Unknown()) }), {
      description: 'RFC 6902-style operations on the entity',
    }),
    detected_at: Type.String({ format: 'date-time' }),
    source_snapshot_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description:
        'the archived upstream answer the change was read from; its inclusion proof: GET /api/v1/public/anchors/proofs/{id}',
    }),
  },
  { title: 'Change' },
)

export const ChangesQuery = Type.Object(
  {
    source: Type.Optional(Lit(SOURCES)),
    entity_type: Type.Optional(Lit(ENTITY_TYPES)),
    entity_id: Type.Optional(
      Type.String({
        pattern: '^([0-9]{9}|[A-Z]{3})$',
        maxLength: 9,
        description: 'an organisation number, or a currency code (`exchange_rate` rows)',
      }),
    ),
    change_type: Type.Optional(Lit(CHANGE_TYPES)),
    portfolio_id: Type.Optional(
      Uuid(
        'only changes of a portfolio’s companies (yours; another account’s is 404): the numbers it holds and, for a sub-unit, its legal entity',
      ),
    ),
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description: 'only changes detected at or after this instant',
      }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: '`next_cursor` of the previous page' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: CHANGES_PAGE.max, description: `default ${CHANGES_PAGE.default}` }),
    ),
  },
  { additionalProperties: false },
)

export const ChangesPage = Type.Object({
  changes: Type.Array(Change, { description: 'oldest first, in the order the archive recorded them' }),
  next_cursor: Type.String({
    description:
      'always present: ask again with it for the rows after this page, now or later (an empty page keeps the cursor where it was)',
  }),
  has_more: Type.Boolean({ description: 'true: more rows exist already; ask again at once' }),
})
