/** The portal area: a person's acting capacity in an organisation. */
import { Type, type TSchema } from '@sinclair/typebox'
import { OrgNumber, SubUnit } from './company.ts'

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

/**
 * Eleven digits; both control digits are checked by the handler, which refuses a bad number as
 * VALIDATION_FAILED naming `fnr` without ever echoing it. A string only: a number would lose a
 * leading zero (schemas/formats.ts `digitString`).
 */
export const Fnr = Type.String({
  minLength: 11,
  maxLength: 11,
  pattern: '^[0-9]{11}$',
  description:
    'fødselsnummer or D-number (11 digits, both control digits valid); HMAC-SHA-256\u2019d on arrival, never stored, logged or returned',
})

export const ActingCapacityBody = Type.Object({ fnr: Fnr, org_number: OrgNumber }, { additionalProperties: false })

const RoleEntry = Type.Object({
  code: Type.String({
    description:
      'the register’s role code (DAGL, LEDE, NEST, MEDL, INNH, REGN, REVI, or another the register uses). The deputy chair (nestleder) is `NEST`, as in ' +
      'authority, verify and profile answers; the spec’s role list writes NESTL for it, a code the register does not have',
  }),
  register_code: Type.String({ description: 'the code as the register gives it; equals `code`' }),
  description: Nullable(Type.String()),
  group_code: Type.String({ description: 'the register’s role group, e.g. STYR' }),
  holder_name: Type.String({ description: 'the matched role holder’s name as registered' }),
  elected_by: Nullable(Type.String({ description: 'e.g. AREP: elected by the employees' })),
})

const ActionEntry = Type.Object({
  token: Type.String({
    description:
      'act_in_daily_management, sign_with_the_whole_board, act_as_owner, prepare_filings_on_assignment, audit_annual_accounts, sign_alone or sign_jointly',
  }),
  holder_name: Type.String(),
  basis: Type.Union([
    Type.Object({ kind: Type.Literal('role'), role_code: Type.String() }),
    Type.Object({
      kind: Type.Literal('signature_rule'),
      combinations: Type.Integer({ description: 'registered signer combinations that include the person' }),
      co_signers_required: Type.Integer({ description: 'the fewest others who must sign with the person (0: alone)' }),
    }),
  ]),
  description: Type.String({ description: 'bokmål' }),
  description_en: Type.String(),
  legal_reference: Type.String(),
})

export const ActingCapacity = Type.Object({
  org_number: Type.String(),
  name: Type.String(),
  org_form: Type.String(),
  actor: Type.Object({
    fnr_hmac: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'HMAC-SHA-256 of the fnr under this deployment’s key: the same person gives the same value here, and the number cannot be read back',
    }),
    fnr_hmac_algorithm: Type.Literal('HMAC-SHA256'),
  }),
  matching: Type.Object({
    basis: Type.Literal('birth_date', {
      description: 'the open register shows role holders’ birth dates, not identity numbers',
    }),
    persons_matched: Type.Integer({ minimum: 0 }),
    ambiguous: Type.Boolean({ description: 'more than one role holder has the birth date: all are returned' }),
    note: Type.String({ description: 'bokmål' }),
    note_en: Type.String(),
  }),
  roles: Type.Array(RoleEntry, { description: 'the matched holders’ current roles, raw from the register' }),
  actions: Type.Array(ActionEntry, {
    description: 'what the roles and the registered signature rule let each matched holder do',
  }),
  signing_rule: Type.Object({
    available: Type.Boolean({ description: 'false when the signature lookup was unreachable' }),
    covered: Nullable(Type.Boolean({ description: 'the signature service covers the organisation form' })),
    descriptions: Type.Array(Type.String()),
    free_text: Nullable(Type.String()),
    error_code: Nullable(Type.String()),
  }),
  notice: Type.String(),
  notice_en: Type.String(),
  sub_unit: Type.Optional(SubUnit),
})
