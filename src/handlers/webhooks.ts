/** Webhook subscriptions and the sandbox's test event: thin adapters to domain/webhooks, always for the caller's own account. */
import { scopeGranted } from '../domain/access/types.ts'
import { consumerOfSandboxNamespace } from '../domain/sandbox/namespaces.ts'
import { fireSandboxEvent } from '../domain/webhooks/sandbox-event.ts'
import { createSubscription, deleteSubscription, listSubscriptions } from '../domain/webhooks/subscriptions.ts'
import type { Principal } from '../domain/access/types.ts'
import { AppError } from '../errors/app-error.ts'
import type { AppDeps, Handler } from '../pipeline/context.ts'
import { sandboxCaller } from '../pipeline/sandbox.ts'
import type * as S from '../schemas/webhooks.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function owner(p: Principal): string {
  if (p.kind !== 'key') throw new AppError('AUTH_MISSING')
  return p.consumerId
}

const env = (deps: AppDeps) => ({ sql: deps.sql, ...deps.webhooks, secretKey: deps.serverKeys.webhookSecrets })

/** what creating a subscription needs, and so sending to one */
const SUBSCRIBE_SCOPE = 'subscribe:webhooks'

export const webhooksHandlers = {
  createSubscription: (async ({ body, deps, principal, now }) => ({
    data: await createSubscription(env(deps), owner(principal), body, now),
    status: 201,
  })) satisfies Handler<{
    body: typeof S.SubscriptionBody
  }>,

  listSubscriptions: (async ({ deps, principal }) => ({
    data: await listSubscriptions(deps.sql, owner(principal)),
  })) satisfies Handler,

  deleteSubscription: (async ({ params, deps, principal, now }) => ({
    data: await deleteSubscription(deps.sql, owner(principal), params.id, now),
  })) satisfies Handler<{
    params: typeof S.SubscriptionParams
  }>,

  testSandboxSubscription: (async ({ body, headers, deps, principal }) => {
    // It sends to a production subscription, signed with its secret: only a production key that may subscribe.
    const caller = sandboxCaller(principal)
    if (caller.key?.test)
      throw new AppError('TEST_KEY_PRODUCTION_ONLY', {
        extra: {
          reason: 'a test delivery goes to your production subscription: use the production key you subscribed with',
        },
      })
    if (caller.key && !scopeGranted(caller.key.scopes, SUBSCRIBE_SCOPE)) {
      throw new AppError('SCOPE_INSUFFICIENT', {
        context: { scope: SUBSCRIBE_SCOPE },
        extra: { required_scope: SUBSCRIBE_SCOPE },
      })
    }
    const key = headers.idempotencyKey
    if (key === null) throw new AppError('IDEMPOTENCY_KEY_REQUIRED')
    if (!UUID.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID_FORMAT')
    const consumerId = consumerOfSandboxNamespace(caller.namespace)
    return { data: await fireSandboxEvent(env(deps), consumerId, body.event_type, deps.clock.now()) }
  }) satisfies Handler<{ body: typeof S.SandboxSubscriptionTestBody }>,
}
