/** Webhook subscriptions and the sandbox's test event. */
import { Type } from '@sinclair/typebox'
import { ACCOUNTS_FILTER } from '../domain/changes/vocabulary.ts'
import { SANDBOX_EVENT_TYPES } from '../domain/webhooks/sandbox-event.ts'
import { Uuid, Lit } from './common.ts'

export const SubscriptionFilter = Type.Object(
  {
    source: Type.Optional(Type.Literal(ACCOUNTS_FILTER.source, { description: 'the business register' })),
    change_type: Type.Optional(Type.Literal(ACCOUNTS_FILTER.change_type)),
    entity_type: Type.Optional(Type.Literal(ACCOUNTS_FILTER.entity_type)),
  },
  {
    additionalProperties: false,
    description:
      'selects the change rows delivered; v1 has one event, `accounts.updated`, and a member left out takes its value. Rows of the archive’s other sources and entity types (GET /api/v1/changes) are read there, never delivered: a filter naming them is refused',
  },
)

export const SubscriptionBody = Type.Object(
  {
    webhook_url: Type.String({
      minLength: 8,
      maxLength: 2048,
      description: 'https URL of your receiver (see the description for what is refused)',
    }),
    filter: Type.Optional(SubscriptionFilter),
  },
  { additionalProperties: false },
)

export const Subscription = Type.Object({
  id: Type.String({ format: 'uuid' }),
  webhook_url: Type.String(),
  filter: Type.Object({ source: Type.String(), change_type: Type.String(), entity_type: Type.String() }),
  active: Type.Boolean(),
  deactivation_reason: Type.Union([Lit(['deleted', 'consecutive_4xx'] as const), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  deactivated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})

export const CreatedSubscription = Type.Composite([
  Subscription,
  Type.Object({
    secret: Type.String({
      pattern: '^whsec_[0-9a-f]{64}$',
      description:
        'shown once: the HMAC key of X-Service-Signature (its UTF-8 bytes, prefix included); never returned again',
    }),
  }),
])

export const SubscriptionList = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  max_active: Type.Integer(),
  subscriptions: Type.Array(Subscription, { description: 'the active subscriptions, oldest first; never a secret' }),
})

export const SubscriptionParams = Type.Object({ id: Uuid('the subscription’s id') })

export const SandboxSubscriptionTestBody = Type.Object(
  { event_type: Lit(SANDBOX_EVENT_TYPES, 'the mock event to send') },
  { additionalProperties: false },
)

export const SandboxSubscriptionTest = Type.Object({
  event_type: Lit(SANDBOX_EVENT_TYPES),
  subscription_id: Type.String({ format: 'uuid' }),
  delivered: Type.Boolean({ description: 'the receiver answered 2xx' }),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  error_class: Type.Union([Type.String(), Type.Null()], {
    description:
      'e.g. `ssrf_blocked`, `redirect_blocked`, `body_too_large`, `timeout`, `connection_failed`, `tls_error`, `dns_failed`',
  }),
  response_time_ms: Type.Integer({ minimum: 0 }),
  signature_header: Type.String({ description: 'the X-Service-Signature value sent' }),
  webhook_delivery_id: Type.String({ format: 'uuid' }),
})
