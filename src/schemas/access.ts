/** Request and response schemas of the account, billing and operator operations. */
import { Type } from '@sinclair/typebox'
import { AVAILABLE_SCOPES, PLANS } from '../domain/access/types.ts'
import { PRIVACY_REQUEST_TYPES } from '../domain/access/privacy.ts'
import { Email, Uuid } from './common.ts'

const Plan = Type.Union(PLANS.map((t) => Type.Literal(t)))
const Timestamp = Type.String({ format: 'date-time' })
const Scope = Type.String({
  minLength: 1,
  maxLength: 64,
  description: `read:* or one of ${AVAILABLE_SCOPES.join(', ')}; write:, act: and delegate: are reserved`,
})

export const IdParam = Type.Object({ id: Uuid() })

export const SignupBody = Type.Object(
  {
    email: Email,
    company_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'present for a sign-up; absent for a returning user' }),
    ),
    consent: Type.Optional(
      Type.Literal(true, {
        description: 'required with company_name: consent to the terms and the processing of the e-mail address',
      }),
    ),
  },
  { additionalProperties: false },
)
export const SignupResult = Type.Object({ ok: Type.Literal(true) })

export const RedeemBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256, description: 'an issuance token, `svc_issue_…`' }) },
  { additionalProperties: false },
)

export const KeyMetadata = Type.Object({
  id: Uuid(),
  label: Type.String(),
  display_prefix: Type.String({ description: 'the first characters of the key, for recognising it; never the key' }),
  scopes: Type.Array(Type.String()),
  source: Type.String(),
  test: Type.Boolean({ description: 'a test key (`svc_test_…`): synthetic answers only' }),
  created_at: Timestamp,
  is_revoked: Type.Boolean(),
  revoked_at: Type.Union([Timestamp, Type.Null()]),
})

export const PlaintextKey = Type.Object({
  plaintext_key: Type.String({ description: 'the key itself: shown this once, stored only as its SHA-256' }),
  scopes: Type.Array(Type.String()),
  key: KeyMetadata,
})

export const MintKeyBody = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 12, description: "default ['read:*']" })),
    test: Type.Optional(
      Type.Boolean({
        description:
          'true: a test key (`svc_test_…`): production routes answer it from the sandbox fixtures, never charged and never upstream; default false',
      }),
    ),
  },
  { additionalProperties: false },
)

export const KeyList = Type.Object({
  keys: Type.Array(KeyMetadata),
  active_count: Type.Integer(),
  max_active_keys: Type.Integer(),
})

export const RevokedKey = Type.Object({ key: KeyMetadata, already_revoked: Type.Boolean() })

export const Me = Type.Object({
  consumer: Type.Object({
    id: Uuid(),
    email: Type.String(),
    company_name: Type.Union([Type.String(), Type.Null()]),
    tier: Plan,
    active: Type.Boolean(),
    created_at: Timestamp,
  }),
  csrf_token: Type.String({ description: 'send as X-CSRF-Token on session-authenticated writes' }),
})

const Ceiling = Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' })
export const Usage = Type.Object({
  tier: Plan,
  ceilings: Type.Object({ per_minute: Ceiling, per_day: Ceiling }),
  keys: Type.Array(
    Type.Object({
      key_id: Uuid(),
      display_prefix: Type.String(),
      minute: Type.Object({ used: Type.Integer(), resets_at: Timestamp }),
      day: Type.Object({ used: Type.Integer(), resets_at: Timestamp, description: Type.String() }),
    }),
  ),
})

export const Balance = Type.Object({
  balance_ore: Type.Integer({ description: 'whole øre; 5000 = NOK 50.00' }),
  currency: Type.Literal('NOK'),
  updated_at: Type.Union([Timestamp, Type.Null()], { description: 'null until the first top-up (balance 0)' }),
  top_up_url: Type.String({ format: 'uri' }),
  test_key_note_nb: Type.Optional(Type.String({ description: 'to a test key only: what its balance means' })),
  test_key_note_en: Type.Optional(Type.String({ description: 'to a test key only: what its balance means' })),
})

export const TopupBody = Type.Object(
  {
    amount_ore: Type.Integer({
      description: 'whole øre, at least 1000 (NOK 10), at most the ceiling (100000 at launch)',
    }),
  },
  { additionalProperties: false },
)

export const Topup = Type.Object({
  id: Uuid(),
  amount_ore: Type.Integer(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('expired'),
    Type.Literal('checkout_started'),
  ]),
  created_at: Timestamp,
  expires_at: Timestamp,
  approval_url: Type.String({ format: 'uri', description: 'the page where the signed-in owner approves it' }),
})

export const Pricing = Type.Object({
  currency: Type.Literal('NOK'),
  unit: Type.Literal('øre'),
  operations: Type.Array(
    Type.Object({
      operation_id: Type.String(),
      method: Type.String(),
      path: Type.String(),
      cost_ore: Type.Integer(),
      mcp_tool: Type.Union([Type.String(), Type.Null()]),
      price_note: Type.Optional(
        Type.String({
          description: 'how the price applies when a call is more than one read (a portfolio’s deadlines)',
        }),
      ),
    }),
    { description: 'every metered operation' },
  ),
  top_up: Type.Object({
    min_ore: Type.Integer(),
    ceiling_ore: Type.Integer(),
    max_pending_requests: Type.Integer(),
    request_expires_hours: Type.Integer(),
    request_endpoint: Type.String(),
    top_up_url: Type.String({ format: 'uri' }),
  }),
  low_balance_warning: Type.Object({ below_ore: Type.Integer(), header: Type.String(), description: Type.String() }),
  caching: Type.Object(
    {
      cache_control: Type.Literal('private, no-store'),
      etag: Type.Literal(false),
      not_modified: Type.Literal(false),
      description: Type.String(),
    },
    {
      description:
        'how metered answers are cached (they are not) and whether a conditional request is charged (there is none)',
    },
  ),
  insufficient_credits: Type.Object({
    status: Type.Literal(402),
    error_code: Type.Literal('INSUFFICIENT_CREDITS'),
    retryable: Type.Literal(false),
    body_fields: Type.Array(Type.String()),
    charged: Type.Literal(false),
    description: Type.String(),
  }),
})

export const AdminMintKeyBody = Type.Object(
  {
    consumer_id: Uuid(),
    scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 12 })),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    test: Type.Optional(
      Type.Boolean({
        description:
          'true: a test key (`svc_test_…`): production routes answer it from the sandbox fixtures, never charged and never upstream; default false',
      }),
    ),
  },
  { additionalProperties: false },
)
export const AdminKeysQuery = Type.Object({ consumer_id: Uuid() }, { additionalProperties: false })
export const AdminKeyList = Type.Object({ keys: Type.Array(KeyMetadata) })
export const AdminRevoked = Type.Object({
  id: Uuid(),
  is_revoked: Type.Literal(true),
  revoked_at: Timestamp,
  already_revoked: Type.Boolean(),
})

export const AdminConsumerBody = Type.Object(
  { email: Email, company_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), tier: Plan },
  { additionalProperties: false },
)
export const AdminConsumerPatch = Type.Object(
  { tier: Type.Optional(Plan), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
)
export const AdminConsumer = Type.Object({
  consumer_id: Uuid(),
  created: Type.Boolean({ description: 'false when the e-mail already had an account (returned unchanged)' }),
  consumer: Me.properties.consumer,
})

export const AdminCreditsBody = Type.Object(
  {
    consumer_id: Uuid(),
    amount_ore: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
    reason: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
)
export const AdminCredits = Type.Object({ consumer_id: Uuid(), balance_ore: Type.Integer() })

export const OutboxQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
)
export const Outbox = Type.Object({
  emails: Type.Array(
    Type.Object({ id: Uuid(), to: Type.String(), subject: Type.String(), body: Type.String(), created_at: Timestamp }),
  ),
})

export const ApprovedTopup = Type.Object({ topup: Topup, balance_ore: Type.Integer() })

export const PrivacyRequestBody = Type.Object(
  {
    email: Email,
    request_type: Type.Union(
      PRIVACY_REQUEST_TYPES.map((t) => Type.Literal(t)),
      { description: 'the right exercised (GDPR arts. 15–21)' },
    ),
    details: Type.Optional(
      Type.String({ maxLength: 2000, description: 'what the request concerns, in the requester’s words' }),
    ),
  },
  { additionalProperties: false },
)

export const PrivacyRequestReceipt = Type.Object({
  reference: Uuid('quote it in any follow-up'),
  request_type: Type.String(),
  status: Type.Literal('received'),
  received_at: Timestamp,
  respond_by: Timestamp,
  message_nb: Type.String(),
  message_en: Type.String(),
})

export const PrivacyRequestsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
)
export const PrivacyRequests = Type.Object({
  requests: Type.Array(
    Type.Object({
      id: Uuid(),
      email: Type.String(),
      request_type: Type.String(),
      details: Type.Union([Type.String(), Type.Null()]),
      status: Type.String(),
      received_at: Timestamp,
      respond_by: Timestamp,
    }),
  ),
})
