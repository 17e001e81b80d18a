/**
 * Webhook subscriptions (spec: Webhook resources; States: Subscription). Creating one checks the
 * URL as every attempt will (target.ts, and the addresses its host resolves to now), then stores
 * the secret encrypted and shows it once. At most 10 active per consumer, counted under the
 * consumer's row lock so that concurrent creations cannot pass the cap together. Deleting is soft
 * and idempotent; another consumer's id is not found.
 */
import { AppError, validationError } from '../../errors/app-error.ts'
import { lockConsumer } from '../../store/accounts.ts'
import type { Sql } from '../../store/db.ts'
import * as store from '../../store/webhooks.ts'
import { ACCOUNTS_FILTER } from '../changes/vocabulary.ts'
import { admittedAddress, type DeliveryEnv } from './delivery.ts'
import { encryptSecret, newWebhookSecret } from './secrets.ts'

export const MAX_ACTIVE_SUBSCRIPTIONS = 10

export interface SubscriptionInput {
  webhook_url: string
  filter?: { source?: string; entity_type?: string; change_type?: string }
}

export interface SubscriptionEnv extends DeliveryEnv {
  sql: Sql
  secretKey: Buffer
}

export function subscriptionView(s: store.SubscriptionRow) {
  return {
    id: s.id,
    webhook_url: s.webhook_url,
    filter: { source: s.filter_source, change_type: s.filter_change_type, entity_type: s.filter_entity_type },
    active: s.active,
    deactivation_reason: s.deactivation_reason,
    created_at: s.created_at.toISOString(),
    deactivated_at: s.deactivated_at?.toISOString() ?? null,
  }
}

export async function createSubscription(
  env: SubscriptionEnv,
  consumerId: string,
  input: SubscriptionInput,
  now: Date,
) {
  const admitted = await admittedAddress(env, input.webhook_url)
  if (!admitted.ok) throw validationError([{ field: 'webhook_url', message: admitted.detail }])
  const filter = { ...ACCOUNTS_FILTER, ...input.filter }
  const secret = newWebhookSecret()
  const id = crypto.randomUUID()
  const row = await env.sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    await lockConsumer(t, consumerId)
    if ((await store.countActiveSubscriptions(t, consumerId)) >= MAX_ACTIVE_SUBSCRIPTIONS) {
      throw validationError([
        {
          field: 'subscriptions',
          message: `at most ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions per account; delete one first`,
        },
      ])
    }
    return store.insertSubscription(
      t,
      {
        id,
        consumerId,
        webhookUrl: input.webhook_url,
        filter,
        secretCiphertext: encryptSecret(env.secretKey, id, secret),
      },
      now,
    )
  })
  return { ...subscriptionView(row as store.SubscriptionRow), secret }
}

export async function listSubscriptions(sql: Sql, consumerId: string) {
  const rows = await store.listActiveSubscriptions(sql, consumerId)
  return { count: rows.length, max_active: MAX_ACTIVE_SUBSCRIPTIONS, subscriptions: rows.map(subscriptionView) }
}

export async function deleteSubscription(sql: Sql, consumerId: string, id: string, now: Date) {
  const row = await store.deactivateSubscription(sql, consumerId, id, now)
  if (!row) throw new AppError('NOT_FOUND')
  return subscriptionView(row)
}
