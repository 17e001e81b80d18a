/**
 * The delivery sweep (jobs/webhook-deliveries.ts runs it every second on every instance): claim
 * due deliveries (store/webhooks.ts: FOR UPDATE SKIP LOCKED, with a lease), keep up to CONCURRENCY
 * attempts in flight — at most PER_TARGET to one subscription, counted across every instance by
 * the leases in force — and claim again as slots free, so a receiver that takes its full 10 s
 * delays only its own deliveries; record each attempt. Delivery is at least once: a sweeper that dies after sending
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
import {
  cancelPendingDeliveries,
  claimDueDeliveries,
  recordAttempt,
  type AttemptRecord,
  type ClaimedDelivery,
} from '../../store/webhooks.ts'
import { changeView } from '../changes/archive.ts'
import { attemptDelivery, deliveryBody, type AttemptOutcome, type DeliveryEnv } from './delivery.ts'
import { nextAttemptAt } from './schedule.ts'
import { decryptSecret } from './secrets.ts'

/** How many 4xx answers in a row deactivate a subscription. */
export const MAX_CONSECUTIVE_4XX = 6
/** How long a claimed delivery is left to its sweeper: well above an attempt's 10 s. */
export const LEASE_MS = 60_000
/** Attempts one sweeper keeps in flight at once (the old sweep's whole batch). */
export const CONCURRENCY = 50
/**
 * A sweeper with attempts in flight claims again once this many slots are free (or when its idle
 * wait ends): claims come in handfuls, not one statement per settled attempt.
 */
export const CLAIM_AT_LEAST = 10
/** …of which at most this many to one subscription, across every instance: a slow receiver holds up no other. */
export const PER_TARGET = 4
/** A run ends after this much wall time, so that shutdown and the scheduler's next tick are not held up by a long queue. */
export const RUN_BUDGET_MS = 20_000
/**
 * While attempts are in flight and nothing more could be claimed, the sweeper looks again after
 * this long (the job's own period) as well as whenever an attempt settles: a delivery that falls
 * due while a slow receiver is being waited on is not held up by it.
 */
export const IDLE_CLAIM_MS = 1_000

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

/** Resolves after `ms`, or at once when `cancel` is called: the idle wait must not outlive the run. */
function idle(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  let wake: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    wake = resolve
    timer = setTimeout(resolve, ms)
  })
  return { done, cancel: () => (clearTimeout(timer), wake()) }
}

/**
 * Delivers concurrently: claims as many as it has free slots (the claim holds each subscription to
 * PER_TARGET in flight), starts each attempt, and claims again once CLAIM_AT_LEAST slots are free,
 * or after IDLE_CLAIM_MS with nothing settled. New claims stop after RUN_BUDGET_MS; the run returns
 * once what it claimed is settled. An attempt that fails to settle (its record could not be
 * written) is left to its lease.
 */
export async function sweepDeliveries(deps: SweepDeps): Promise<SweepResult> {
  const result: SweepResult = { delivered: 0, retrying: 0, abandoned: 0, cancelled: 0, deactivated: 0 }
  const started = performance.now()
  const running = new Set<Promise<void>>()
  let idled = false
  for (;;) {
    const claiming = performance.now() - started < RUN_BUDGET_MS
    const free = CONCURRENCY - running.size
    if (claiming && free > 0 && (free >= CLAIM_AT_LEAST || running.size === 0 || idled)) {
      const inFlight = running.size
      const now = deps.clock.now()
      const claimed = await claimDueDeliveries(deps.sql, now, new Date(now.getTime() + LEASE_MS), free, PER_TARGET)
      for (const d of claimed) {
        const p: Promise<void> = deliverClaimed(deps, d, result)
          .catch((e: unknown) =>
            deps.logger.error('webhook delivery failed to settle; its lease will bring it back', {
              delivery_id: d.delivery_id,
              error: String(e),
            }),
          )
          .finally(() => running.delete(p))
        running.add(p)
      }
      idled = false
      if (claimed.length > 0) continue
      // Nothing claimed may mean only that this sweeper's own attempts held their subscriptions'
      // bound; if they settled meanwhile, ask again before concluding there is nothing left.
      if (running.size === 0 && inFlight > 0) continue
    }
    if (running.size === 0) break
    const wait = idle(claiming ? IDLE_CLAIM_MS : RUN_BUDGET_MS)
    idled = await Promise.race([...[...running].map((p) => p.then(() => false)), wait.done.then(() => true)])
    wait.cancel()
  }
  if (result.delivered + result.retrying + result.abandoned + result.cancelled > 0)
    deps.logger.info('webhook deliveries', { ...result })
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
    outcome = {
      delivered: false,
      http_status: null,
      error_class: 'secret_unreadable',
      response_time_ms: 0,
      detail: 'the secret does not decrypt under this SERVER_SECRET',
    }
  } else {
    const body = deliveryBody({
      subscriptionId: d.subscription_id,
      deliveredAt: at,
      attemptNumber: d.attempt_number,
      correlationId,
      change: changeView(d.change),
    })
    outcome = await attemptDelivery(deps, {
      webhookUrl: d.webhook_url,
      body,
      secret,
      at,
      eventType: d.event_type,
      deliveryId: d.delivery_id,
      correlationId,
    })
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
    deps.logger.warn('webhook subscription deactivated', {
      subscription_id: d.subscription_id,
      deactivation_reason: 'consecutive_4xx',
    })
  }
}

function streakOf(o: AttemptOutcome): AttemptRecord['streak'] {
  if (o.delivered) return 'reset'
  const s = o.http_status
  if (s !== null && s >= 400 && s < 500 && s !== 408 && s !== 429) return 'count'
  return 'keep'
}
