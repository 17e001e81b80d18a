/** The change archive (GET /api/v1/changes) and the spec's Change row. */
import { Type } from '@sinclair/typebox'
import { CHANGE_TYPES, ENTITY_TYPES, SOURCES } from '../domain/changes/vocabulary.ts'
import { CHANGES_PAGE } from '../domain/changes/archive.ts'
import { Lit } from './common.ts'


const Json = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])

export const Change = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'stable: a webhook re-sent for this change carries the same id; key side effects on it' }),
    source: Type.String({ description: '`register` = the business register' }),
    entity_type: Type.String({ description: '`annual_accounts` (the filing status) or `company` (a unit the register changed)' }),
    entity_id: Type.String({ description: 'the organisation number' }),
    change_type: Type.String({ description: '`updated`, `created`, `deleted` or `removed`' }),
    field_path: Type.Union([Type.String(), Type.Null()], { description: '`/last_accounts_year` or `/has_filed_annual_accounts` for annual_accounts; null when the register says only that the unit changed' }),
    before_value: Json,
    after_value: Json,
    diff: Type.Array(Type.Object({ op: Type.String(), path: Type.String(), value: Type.Optional(Type.Unknown()) }), { description: 'RFC 6902-style operations on the entity' }),
    detected_at: Type.String({ format: 'date-time' }),
    source_snapshot_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'the archived upstream answer the change was read from; its inclusion proof: GET /api/v1/public/anchors/proofs/{id}' }),
  },
  { title: 'Change' },
)

export const ChangesQuery = Type.Object(
  {
    source: Type.Optional(Lit(SOURCES)),
    entity_type: Type.Optional(Lit(ENTITY_TYPES)),
    entity_id: Type.Optional(Type.String({ pattern: '^[0-9]{9}$', maxLength: 9, description: 'an organisation number' })),
    change_type: Type.Optional(Lit(CHANGE_TYPES)),
    since: Type.Optional(Type.String({ format: 'date-time', maxLength: 40, description: 'only changes detected at or after this instant' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: '`next_cursor` of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CHANGES_PAGE.max, description: `default ${CHANGES_PAGE.default}` })),
  },
  { additionalProperties: false },
)

export const ChangesPage = Type.Object({
  changes: Type.Array(Change, { description: 'oldest first, in the order the archive recorded them' }),
  next_cursor: Type.String({ description: 'always present: ask again with it for the rows after this page, now or later (an empty page keeps the cursor where it was)' }),
  has_more: Type.Boolean({ description: 'true: more rows exist already; ask again at once' }),
})
