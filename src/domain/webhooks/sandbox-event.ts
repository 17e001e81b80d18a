/**
 * The sandbox's rehearsal event (spec: POST /api/v1/sandbox/subscriptions/test): one mock event
 * sent to the caller's most recently created active subscription through the same signing and SSRF
 * pipeline as a real delivery — one attempt, 10 s, no retries — answered whatever the receiver
 * said. The subject is a reserved sandbox organisation; the change it carries is not in the
 * archive. The attempt is recorded with the subscription's deliveries but never counts toward its
 * 4xx streak: a rehearsal must not deactivate a production subscription.
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import { newestActiveSubscription, recordOneOffDelivery } from '../../store/webhooks.ts'
import type { ChangeView } from '../changes/archive.ts'
import { attemptDelivery, deliveryBody, type DeliveryEnv } from './delivery.ts'
import { decryptSecret } from './secrets.ts'

export const SANDBOX_EVENT_TYPES = ['accounts_filed', 'capability_changed', 'deadline_elapsed'] as const
export type SandboxEventType = (typeof SANDBOX_EVENT_TYPES)[number]

/** The reserved sandbox organisation the rehearsal events are about. */
export const SANDBOX_EVENT_ORG = '999000002'

function mockChange(type: SandboxEventType, now: Date): ChangeView {
  const common = { id: crypto.randomUUID(), detected_at: now.toISOString(), source_snapshot_id: null }
  switch (type) {
    case 'accounts_filed':
      return {
        ...common,
        source: 'register',
        entity_type: 'annual_accounts',
        entity_id: SANDBOX_EVENT_ORG,
        change_type: 'updated',
        field_path: '/last_accounts_year',
        before_value: 2024,
        after_value: 2025,
        diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
      }
    case 'capability_changed':
      return {
        ...common,
        source: 'service',
        entity_type: 'capability',
        entity_id: 'actions.execute',
        change_type: 'updated',
        field_path: '/status',
        before_value: 'dry-run',
        after_value: 'live',
        diff: [{ op: 'replace', path: '/status', value: 'live' }],
      }
    case 'deadline_elapsed':
      return {
        ...common,
        source: 'rulebook',
        entity_type: 'deadline',
        entity_id: SANDBOX_EVENT_ORG,
        change_type: 'elapsed',
        field_path: '/filing_status',
        before_value: 'upcoming',
        after_value: 'overdue',
        diff: [{ op: 'replace', path: '/filing_status', value: 'overdue' }],
      }
  }
}

export interface SandboxEventEnv extends DeliveryEnv {
  sql: Sql
  secretKey: Buffer
}

export async function fireSandboxEvent(
  env: SandboxEventEnv,
  consumerId: string | null,
  type: SandboxEventType,
  now: Date,
) {
  const sub = consumerId === null ? null : await newestActiveSubscription(env.sql, consumerId)
  if (!sub) {
    throw new AppError('NOT_FOUND', {
      extra: {
        reason: 'no active webhook subscription for this caller',
        create_with: 'POST /api/v1/subscriptions',
        needs: 'a professional key with scope subscribe:webhooks, then the same key on this route',
      },
    })
  }
  const deliveryId = crypto.randomUUID()
  const correlationId = crypto.randomUUID()
  const eventType = `sandbox.${type}`
  const body = deliveryBody({
    subscriptionId: sub.id,
    deliveredAt: now,
    attemptNumber: 1,
    correlationId,
    change: mockChange(type, now),
  })
  let secret: string
  try {
    secret = decryptSecret(env.secretKey, sub.id, sub.secret_ciphertext)
  } catch (e) {
    throw new AppError('INTERNAL_ERROR', { cause: e })
  }
  const outcome = await attemptDelivery(env, {
    webhookUrl: sub.webhook_url,
    body,
    secret,
    at: now,
    eventType,
    deliveryId,
    correlationId,
  })
  await recordOneOffDelivery(env.sql, {
    deliveryId,
    subscriptionId: sub.id,
    eventType,
    delivered: outcome.delivered,
    correlationId,
    attemptedAt: now,
    httpStatus: outcome.http_status,
    errorClass: outcome.error_class,
    responseTimeMs: outcome.response_time_ms,
  })
  return {
    event_type: type,
    subscription_id: sub.id,
    delivered: outcome.delivered,
    http_status: outcome.http_status,
    error_class: outcome.error_class,
    response_time_ms: outcome.response_time_ms,
    signature_header: outcome.signature_header,
    webhook_delivery_id: deliveryId,
  }
}
