/** Webhook subscriptions and the sandbox's test event: thin adapters to domain/webhooks, always for the caller's own account. */
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

export const webhooksHandlers = {
  createSubscription: (async ({ body, deps, principal, now }) => ({ data: await createSubscription(env(deps), owner(principal), body, now), status: 201 })) satisfies Handler<{
    body: typeof S.SubscriptionBody
  }>,

  listSubscriptions: (async ({ deps, principal }) => ({ data: await listSubscriptions(deps.sql, owner(principal)) })) satisfies Handler,

  deleteSubscription: (async ({ params, deps, principal, now }) => ({ data: await deleteSubscription(deps.sql, owner(principal), params.id, now) })) satisfies Handler<{
    params: typeof S.SubscriptionParams
  }>,

  testSandboxSubscription: (async ({ body, headers, deps, principal }) => {
    const key = headers.idempotencyKey
    if (key === null) throw new AppError('IDEMPOTENCY_KEY_REQUIRED')
    if (!UUID.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID_FORMAT')
    const consumerId = consumerOfSandboxNamespace(sandboxCaller(principal).namespace)
    return { data: await fireSandboxEvent(env(deps), consumerId, body.event_type, deps.clock.now()) }
  }) satisfies Handler<{ body: typeof S.SandboxSubscriptionTestBody }>,
}
