/**
 * Webhook subscriptions (spec: /api/v1/subscriptions; Events) and the sandbox's rehearsal of a
 * delivery (POST /api/v1/sandbox/subscriptions/test). The rehearsal has no public-mirror twin: it
 * needs the caller's own subscription, which only a real key has.
 */
import * as S from '../schemas/webhooks.ts'
import { op, type Operation } from './define.ts'
import { SANDBOX_WRITE_LIMITS } from './sandbox.ts'

const HARDENING =
  'The URL must be https, without userinfo or fragment; its host must not be under `.local`, `.internal`, `.localhost`, ' +
  '`.test`, `.example` or `.invalid`, nor a cloud metadata host, and every address it resolves to must be public — ' +
  'private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback, link-local (169.254/16, fe80::/10), shared, reserved and ' +
  'documentation ranges are refused, also written as IPv4-mapped IPv6. The same checks run before every delivery ' +
  'attempt, which then connects to the checked address only. Refusals are 400 `VALIDATION_FAILED` naming `webhook_url`.'

const SHARED = { category: 'B', format: 'envelope', tag: 'Webhooks', planMinimum: 'professional' } as const

export const webhooksOperations = [
  op({
    ...SHARED,
    id: 'createSubscription',
    method: 'POST',
    path: '/api/v1/subscriptions',
    scope: 'subscribe:webhooks',
    summary: 'Subscribe a receiver to accounts.updated; the signing secret is in the answer, once',
    description:
      `201 with the subscription and \`data.secret\` (\`whsec_…\`), shown only here and kept encrypted. ${HARDENING} At most ` +
      '10 active subscriptions per account: the 11th is 400 `VALIDATION_FAILED` naming `subscriptions`. Each delivery is a ' +
      'POST of `{subscription_id, delivered_at, attempt_number, correlation_id, change}` with ' +
      '`X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">` (recipe: /docs/webhook-signature); attempts ' +
      'at once, then after ~1 min, 5 min, 15 min, 1 h, 6 h, 24 h (±10 %), 7 in all; 10 s timeout; redirects are not followed; ' +
      'six 4xx answers in a row (408 and 429 aside) deactivate the subscription (`consecutive_4xx`).',
    request: { body: S.SubscriptionBody },
    response: S.CreatedSubscription,
    successStatus: 201,
    capability: {
      name_en: 'Signed webhooks',
      name_nb: 'Signerte webhooks',
      description_en: 'accounts.updated delivered at least once to your HTTPS receiver, signed Stripe-style.',
      description_nb: 'accounts.updated levert minst én gang til din HTTPS-mottaker, signert som hos Stripe.',
      data_sources: ['regnskapsregisteret'],
      freshness: 'live',
      status: 'live',
    },
  }),
  op({
    ...SHARED,
    id: 'listSubscriptions',
    summaryNb: 'Kontoens aktive abonnementer (bare metadata, aldri en hemmelighet)',
    method: 'GET',
    path: '/api/v1/subscriptions',
    summary: 'The account’s active subscriptions (metadata only, never a secret)',
    response: S.SubscriptionList,
  }),
  op({
    ...SHARED,
    id: 'deleteSubscription',
    summaryNb: 'Deaktiver et abonnement (myk sletting, idempotent)',
    method: 'DELETE',
    path: '/api/v1/subscriptions/:id',
    summary: 'Deactivate a subscription (soft delete, idempotent)',
    description:
      'Pending deliveries are cancelled. Deleting it again answers the same; another account’s id is 404 `NOT_FOUND`.',
    request: { params: S.SubscriptionParams },
    response: S.Subscription,
  }),
  op({
    id: 'testSandboxSubscription',
    summaryNb: 'Send én testhendelse til ditt nyeste aktive abonnement, signert og gjennom SSRF-kontrollene',
    method: 'POST',
    path: '/api/v1/sandbox/subscriptions/test',
    category: 'sandbox',
    format: 'sandbox',
    tag: 'Sandbox',
    summary: 'Send one mock event to your newest active subscription, signed, through the SSRF checks',
    description:
      '`Idempotency-Key` (a UUID) is required and never deduplicated: each call sends. The event (`accounts_filed` mirrors ' +
      '`accounts.updated`; `capability_changed`; `deadline_elapsed`) is about reserved sandbox org 999000002 and goes to the ' +
      'most recently created active subscription of the key’s account: one attempt, 10 s, no retries, and 200 whatever the ' +
      'receiver answered (see `delivered`, `http_status`, `error_class`). A synthetic bearer has no subscriptions: use the ' +
      'professional key you subscribed with. Without an active subscription: 404 `NOT_FOUND` naming `POST /api/v1/subscriptions`. ' +
      'Counts against the sandbox write budget per client address. A key must be a production key (a test key is 403 ' +
      '`TEST_KEY_PRODUCTION_ONLY`) with `subscribe:webhooks` (else 403 `SCOPE_INSUFFICIENT`): the event goes to a production subscription, signed with its secret.',
    request: { body: S.SandboxSubscriptionTestBody },
    response: S.SandboxSubscriptionTest,
    limits: SANDBOX_WRITE_LIMITS,
    errors: [
      'IDEMPOTENCY_KEY_REQUIRED',
      'IDEMPOTENCY_KEY_INVALID_FORMAT',
      'SCOPE_INSUFFICIENT',
      'TEST_KEY_PRODUCTION_ONLY',
    ],
  }),
] as const satisfies readonly Operation[]
