/** What the webhook tests share: an app whose webhook transport resolves names from a table, and a subscriber's key. */
import type { ResolvedAddress } from '../../src/domain/webhooks/target.ts'
import { liveWebhookTransport } from '../../src/upstream/webhooks/live.ts'
import { bearer, createConsumer, createKey, freshIp } from './access.ts'
import { startApp, type TestApp } from './app.ts'
import type { Database } from '../../src/store/db.ts'

/** Names the tests use: a public receiver host and one that points inside. Anything else does not resolve. */
export const DNS: Record<string, string[]> = {
  'hooks.plikt-test.no': ['93.184.216.34'],
  'inside.plikt-test.no': ['10.0.0.5'],
  'mapped.plikt-test.no': ['::ffff:192.168.1.20'],
}

export async function tableResolve(host: string): Promise<ResolvedAddress[]> {
  const list = DNS[host]
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

/** The app with WEBHOOK_ALLOW_LOOPBACK=true (local receivers) and the resolver above. */
export function webhookApp(
  opts: { db?: Database; env?: Record<string, string>; ca?: string[] } = {},
): Promise<TestApp> {
  return startApp({
    env: { WEBHOOK_ALLOW_LOOPBACK: 'true', ...opts.env },
    ...(opts.db ? { db: opts.db } : {}),
    overrides: {
      webhooks: {
        transport: liveWebhookTransport({ resolve: tableResolve, ...(opts.ca ? { ca: opts.ca } : {}) }),
        policy: { allowLoopback: true },
      },
    },
  })
}

export interface Subscriber {
  consumerId: string
  key: string
  send(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; text: string }>
}

/** Every subscriber made here, so that a file can deactivate its subscriptions when it ends. */
const made: string[] = []

/** Deactivates the subscriptions of every subscriber this file made: later files' sweeps must not deliver to receivers that are gone. */
export async function retireSubscribers(app: TestApp): Promise<void> {
  await app.deps.sql`update webhook_deliveries set status = 'cancelled', next_attempt_at = null
    where status = 'pending' and subscription_id in (select id from webhook_subscriptions where consumer_id = any(${made}))`
  await app.deps
    .sql`update webhook_subscriptions set active = false, deactivation_reason = 'deleted', deactivated_at = now() where active and consumer_id = any(${made})`
}

export async function subscriber(
  app: TestApp,
  tier: 'professional' | 'enterprise' | 'free' = 'professional',
  scopes: string[] = ['read:*', 'subscribe:webhooks'],
): Promise<Subscriber> {
  const c = await createConsumer(app, tier)
  const key = (await createKey(app, c.id, scopes)).key
  made.push(c.id)
  return {
    consumerId: c.id,
    key,
    async send(method, path, body, headers = {}) {
      const res = await app.send(method, path, body, { ...bearer(key), ...freshIp(), ...headers })
      const text = await res.text()
      return { status: res.status, text, body: JSON.parse(text) }
    },
  }
}

/** Subscribes and returns the subscription with its secret; throws unless 201. */
export async function subscribe(s: Subscriber, webhookUrl: string): Promise<{ id: string; secret: string }> {
  const r = await s.send('POST', '/api/v1/subscriptions', {
    webhook_url: webhookUrl,
    filter: { source: 'register', entity_type: 'annual_accounts' },
  })
  if (r.status !== 201) throw new Error(`subscribe: ${r.status} ${r.text}`)
  return { id: r.body.data.id, secret: r.body.data.secret }
}
