/** The portal area: what a person may do for an organisation, from the register's roles. */
import * as P from '../schemas/portal.ts'
import { op, type Operation } from './define.ts'

export const portalOperations = [
  op({
    id: 'listActingCapacity',
    method: 'POST',
    path: '/api/v1/portal/list-acting-capacity',
    category: 'B',
    format: 'envelope',
    tag: 'Delegation and actions',
    summary: 'A person’s roles in an organisation and what they may do',
    description:
      'The `fnr` (11 digits, both control digits checked) is HMAC-SHA-256’d with a server key on arrival and never ' +
      'stored, logged or returned; only `actor.fnr_hmac` echoes it. The open register shows role holders’ birth ' +
      'dates and names, not identity numbers, so a holder matches when their birth date is the one the number ' +
      'encodes (D-numbers and synthetic test numbers included); when several holders share it, all are returned ' +
      'with `matching.ambiguous` true. `roles` is the raw role list in the register’s codes (DAGL, LEDE, NEST, MEDL, INNH, REGN, REVI …: the deputy chair is `NEST` ' +
      'here as on every route, not the NESTL of the spec’s role list); ' +
      '`actions` are the derived action tokens, each with its `legal_reference`, from the roles and the registered ' +
      'signature rule (which degrades to `signing_rule.available: false` when unreachable). A bad `fnr` is 400 ' +
      '`VALIDATION_FAILED` naming the field, never echoing it. Not metered. Nothing is written but an audit row ' +
      'holding the HMAC. POST only because the number travels in the body.',
    request: { body: P.ActingCapacityBody },
    response: P.ActingCapacity,
    scope: 'read:portal',
    safe: true,
    mcpTool: 'list_acting_capacity',
    errors: [
      'ORG_NUMBER_INVALID_CHECKSUM',
      'COMPANY_NOT_FOUND',
      'SUB_UNIT_DELETED',
      'REGISTER_DOWN',
      'COMPANY_LOOKUP_FAILED',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_TIMEOUT',
      'GOVERNMENT_API_ERROR',
      'GOVERNMENT_RATE_LIMITED',
    ],
    capability: {
      name_en: 'Acting capacity',
      name_nb: 'Handlingsrom for en person',
      description_en: 'A person’s registered roles in an organisation and what each lets them do, with the law.',
      description_nb: 'En persons registrerte roller i en virksomhet og hva hver av dem gir rett til, med lovhjemmel.',
      data_sources: ['enhetsregisteret', 'fullmakt'],
      freshness: 'cached',
      status: 'live',
    },
  }),
] as const satisfies readonly Operation[]
