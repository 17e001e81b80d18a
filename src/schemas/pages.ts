/** Bodies of the HTML forms (application/x-www-form-urlencoded: every value is a string). */
import { Type } from '@sinclair/typebox'
import { Uuid } from './common.ts'

/**
 * The sign-in form. `email` is bounded here and checked by the page itself (`EMAIL_PATTERN`), so a
 * person who mistyped it gets the form back with the problem beside the field, not an error page.
 */
export const LoginForm = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      description:
        'an e-mail address (checked by the page, which answers a malformed one with the form and the problem named)',
    }),
    company_name: Type.Optional(Type.String({ maxLength: 200 })),
    consent: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
)
export const MagicQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
)
export const TokenForm = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
)
export const CsrfForm = Type.Object({ csrf_token: Type.String({ maxLength: 128 }) }, { additionalProperties: false })
export const KeyForm = Type.Object(
  {
    csrf_token: Type.String({ maxLength: 128 }),
    label: Type.Optional(Type.String({ maxLength: 80 })),
    test: Type.Optional(Type.Literal('true', { description: 'the checkbox: mint a test key (svc_test_…)' })),
  },
  { additionalProperties: false },
)
export const ConnectionQuery = Type.Object({ connection: Uuid() }, { additionalProperties: false })
export const ConnectionForm = Type.Object(
  { connection: Uuid(), csrf_token: Type.String({ maxLength: 128 }) },
  { additionalProperties: false },
)
/** A mock system-user request's id: any short text, so that a malformed id is a 404 page like an unknown one. */
export const AgencyRequestParam = Type.Object({ id: Type.String({ maxLength: 100 }) })
export const AgencyDecisionForm = Type.Object(
  {
    csrf_token: Type.String({ maxLength: 128 }),
    /** the approver's name as the page lists it; absent when no one was chosen */
    approver: Type.Optional(Type.String({ maxLength: 200 })),
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
  },
  { additionalProperties: false },
)

/** A person's decision on a production approval token (the confirmation page's form). */
export const ApprovalDecisionForm = Type.Object(
  {
    csrf_token: Type.String({ maxLength: 128 }),
    decision: Type.Union([Type.Literal('confirm'), Type.Literal('decline')]),
  },
  { additionalProperties: false },
)
