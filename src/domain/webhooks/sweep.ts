/**
 * The delivery sweep (jobs/webhook-deliveries.ts runs it every second on every instance): claim
 * due deliveries in batches (store/webhooks.ts: FOR UPDATE SKIP LOCKED, with a lease), send each
 * batch at once, record each attempt. Delivery is at least once: a sweeper that dies after sending
 * and before recording leaves the delivery to be claimed again when its lease ends, and then sent
 * again with a higher attempt_number (receivers key their side effects on `change.id`).
 *
 * After an attempt: 2xx delivers; anything else schedules the next attempt (schedule.ts) or, after
 * the seventh, abandons the delivery. A 4xx other than 408 and 429 counts toward the
 * subscription's streak, which a 2xx resets; the sixth in a row deactivates it
 * (`consecutive_4xx`) and cancels its pending deliveries.
 */
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import type { Sql } from '../../store/db.ts'
import { cancelPendingDeliveries, claimDueDeliveries, recordAttempt, type AttemptRecord, type ClaimedDelivery } from '../../store/webhooks.ts'
import { changeView } from '../changes/archive.ts'
import { attemptDelivery, deliveryBody, type AttemptOutcome, type DeliveryEnv } from './delivery.ts'
import { nextAttemptAt } from './schedule.ts'
import { decryptSecret } from './secrets.ts'

/** How many 4xx answers in a row deactivate a subscription. */
export const MAX_CONSECUTIVE_4XX = 6
/** How long a claimed delivery is left to its sweeper: well above an attempt's 10 s. */
export const LEASE_MS = 60_000
export const CLAIM_BATCH = 50
/** A run ends after this much wall time, so that shutdown and the scheduler's next tick are not held up by a long queue. */
export const RUN_BUDGET_MS = 20_000

export interface SweepDeps extends DeliveryEnv {
  sql: Sql
  clock: Clock
  logger: Logger
  /** the key webhook secrets are encrypted under (server-secret `webhook-secrets`) */
  secretKey: Buffer
  /** jitter of the retry schedule; Math.random unless a test pins it */
  random?: () => number
  /** counts each claimed delivery's outcome (GET /metrics); absent in tests */
  metrics?: { webhookAttempt(outcome: WebhookAttemptOutcome): void }
}

/**
 * What became of one claimed delivery: sent and acknowledged; failed with attempts left; failed
 * its seventh attempt; dropped because its subscription went away first.
 */
export type WebhookAttemptOutcome = 'delivered' | 'retrying' | 'abandoned' | 'cancelled'

export interface SweepResult {
  delivered: number
  retrying: number
  abandoned: number
  cancelled: number
  deactivated: number
}

export async function sweepDeliveries(deps: SweepDeps): Promise<SweepResult> {
  const result: SweepResult = { delivered: 0, retrying: 0, abandoned: 0, cancelled: 0, deactivated: 0 }
  const started = performance.now()
  while (performance.now() - started < RUN_BUDGET_MS) {
    const now = deps.clock.now()
    const batch = await claimDueDeliveries(deps.sql, now, new Date(now.getTime() + LEASE_MS), CLAIM_BATCH)
    if (batch.length === 0) break
    await Promise.all(batch.map((d) => deliverClaimed(deps, d, result)))
    if (batch.length < CLAIM_BATCH) break
  }
  if (result.delivered + result.retrying + result.abandoned + result.cancelled > 0) deps.logger.info('webhook deliveries', { ...result })
  return result
}

async function deliverClaimed(deps: SweepDeps, d: ClaimedDelivery, result: SweepResult): Promise<void> {
  const correlationId = crypto.randomUUID()
  const at = deps.clock.now()
  if (!d.subscription_active || d.change === null) {
    // deleted or deactivated between queueing and this claim
    await cancelPendingDeliveries(deps.sql, d.subscription_id, at)
    result.cancelled++
    deps.metrics?.webhookAttempt('cancelled')
    return
  }
  let secret: string | null = null
  try {
    secret = decryptSecret(deps.secretKey, d.subscription_id, d.secret_ciphertext)
  } catch {
    secret = null
  }
  let outcome: AttemptOutcome
  if (secret === null) {
    outcome = { delivered: false, http_status: null, error_class: 'secret_unreadable', response_time_ms: 0, detail: 'the secret does not decrypt under this SERVER_SECRET' }
  } else {
    const body = deliveryBody({ subscriptionId: d.subscription_id, deliveredAt: at, attemptNumber: d.attempt_number, correlationId, change: changeView(d.change) })
    outcome = await attemptDelivery(deps, { webhookUrl: d.webhook_url, body, secret, at, eventType: d.event_type, deliveryId: d.delivery_id, correlationId })
  }
  const next = outcome.delivered ? null : nextAttemptAt(d.attempt_number, at, deps.random)
  const record: AttemptRecord = {
    deliveryId: d.delivery_id,
    subscriptionId: d.subscription_id,
    attemptNumber: d.attempt_number,
    correlationId,
    attemptedAt: at,
    httpStatus: outcome.http_status,
    errorClass: outcome.error_class,
    responseTimeMs: outcome.response_time_ms,
    status: outcome.delivered ? 'delivered' : next ? 'pending' : 'abandoned',
    nextAttemptAt: next,
    streak: streakOf(outcome),
    maxStreak: MAX_CONSECUTIVE_4XX,
  }
  const after = await recordAttempt(deps.sql, record)
  const settled: WebhookAttemptOutcome = outcome.delivered ? 'delivered' : next ? 'retrying' : 'abandoned'
  result[settled]++
  deps.metrics?.webhookAttempt(settled)
  if (!outcome.delivered || outcome.error_class) {
    deps.logger.warn(outcome.delivered ? 'webhook delivered; its answer was cut off' : 'webhook attempt failed', {
      delivery_id: d.delivery_id,
      subscription_id: d.subscription_id,
      attempt_number: d.attempt_number,
      http_status: outcome.http_status,
      error_class: outcome.error_class,
      detail: outcome.detail,
      next_attempt_at: next?.toISOString() ?? null,
    })
  }
  if (after.deactivated) {
    result.deactivated++
    await cancelPendingDeliveries(deps.sql, d.subscription_id, at)
    deps.logger.warn('webhook subscription deactivated', { subscription_id: d.subscription_id, deactivation_reason: 'consecutive_4xx' })
  }
}

function streakOf(o: AttemptOutcome): AttemptRecord['streak'] {
  if (o.delivered) return 'reset'
  const s = o.http_status
  if (s !== null && s >= 400 && s < 500 && s !== 408 && s !== 429) return 'count'
  return 'keep'
}
