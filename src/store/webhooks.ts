/**
 * Webhook subscriptions, deliveries and attempts (sql/0019_webhooks.sql). Every statement about a
 * subscription a consumer asks about names the consumer, so another consumer's id is not found.
 *
 * A delivery is claimed with FOR UPDATE SKIP LOCKED in one statement that also counts the attempt
 * and moves `next_attempt_at` and `lease_until` to the end of a lease: any number of instances
 * sweep at once without sending one attempt twice, a sweeper that dies leaves the row due again
 * when the lease ends, and the leases in force bound what is in flight to one subscription.
 * An attempt's outcome is recorded in one statement too (the attempt row, the delivery's state,
 * the subscription's 4xx streak), by the claimant of that attempt only.
 */
import type { ChangeRow } from './changes.ts'
import type { Sql } from './db.ts'

export interface SubscriptionRow {
  id: string
  consumer_id: string
  webhook_url: string
  filter_source: string
  filter_entity_type: string
  filter_change_type: string
  active: boolean
  deactivation_reason: 'deleted' | 'consecutive_4xx' | null
  consecutive_4xx: number
  created_at: Date
  deactivated_at: Date | null
}

const SUBSCRIPTION_COLUMNS =
  'id, consumer_id, webhook_url, filter_source, filter_entity_type, filter_change_type, active, deactivation_reason, consecutive_4xx, created_at, deactivated_at'

export async function countActiveSubscriptions(sql: Sql, consumerId: string): Promise<number> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from webhook_subscriptions where consumer_id = ${consumerId} and active`
  return row!.n
}

export interface NewSubscription {
  id: string
  consumerId: string
  webhookUrl: string
  filter: { source: string; entity_type: string; change_type: string }
  secretCiphertext: string
}

export async function insertSubscription(sql: Sql, s: NewSubscription, now: Date): Promise<SubscriptionRow> {
  const [row] = await sql<SubscriptionRow[]>`
    insert into webhook_subscriptions (id, consumer_id, webhook_url, filter_source, filter_entity_type, filter_change_type, secret_ciphertext, created_at)
    values (${s.id}, ${s.consumerId}, ${s.webhookUrl}, ${s.filter.source}, ${s.filter.entity_type}, ${s.filter.change_type}, ${s.secretCiphertext}, ${now})
    returning ${sql.unsafe(SUBSCRIPTION_COLUMNS)}`
  return row!
}

/** The consumer's active subscriptions, oldest first. */
export async function listActiveSubscriptions(sql: Sql, consumerId: string): Promise<SubscriptionRow[]> {
  return sql<SubscriptionRow[]>`
    select ${sql.unsafe(SUBSCRIPTION_COLUMNS)} from webhook_subscriptions
    where consumer_id = ${consumerId} and active order by seq`
}

/** The consumer's newest active subscription with its secret's ciphertext (the sandbox's test target). */
export async function newestActiveSubscription(
  sql: Sql,
  consumerId: string,
): Promise<(SubscriptionRow & { secret_ciphertext: string }) | null> {
  const [row] = await sql<(SubscriptionRow & { secret_ciphertext: string })[]>`
    select ${sql.unsafe(SUBSCRIPTION_COLUMNS)}, secret_ciphertext from webhook_subscriptions
    where consumer_id = ${consumerId} and active order by seq desc limit 1`
  return row ?? null
}

/**
 * Soft delete: inactive with reason `deleted`, its pending deliveries cancelled. A subscription
 * already inactive is returned as it is; null when the consumer has none with this id.
 */
export async function deactivateSubscription(
  sql: Sql,
  consumerId: string,
  id: string,
  now: Date,
): Promise<SubscriptionRow | null> {
  return sql.begin(async (tx) => {
    const [done] = await tx<SubscriptionRow[]>`
      update webhook_subscriptions set active = false, deactivation_reason = 'deleted', deactivated_at = ${now}
      where id = ${id} and consumer_id = ${consumerId} and active
      returning ${tx.unsafe(SUBSCRIPTION_COLUMNS)}`
    if (done) {
      await cancelPendingDeliveries(tx as unknown as Sql, id, now)
      return done
    }
    const [existing] = await tx<
      SubscriptionRow[]
    >`select ${tx.unsafe(SUBSCRIPTION_COLUMNS)} from webhook_subscriptions where id = ${id} and consumer_id = ${consumerId}`
    return existing ?? null
  }) as Promise<SubscriptionRow | null>
}

export async function cancelPendingDeliveries(sql: Sql, subscriptionId: string, now: Date): Promise<number> {
  const rows = await sql`
    update webhook_deliveries set status = 'cancelled', next_attempt_at = null, finished_at = ${now}
    where subscription_id = ${subscriptionId} and status = 'pending' returning 1`
  return rows.length
}

export interface ClaimedDelivery {
  delivery_id: string
  subscription_id: string
  event_type: string
  /** this claim's attempt: the count of claims so far */
  attempt_number: number
  webhook_url: string
  secret_ciphertext: string
  subscription_active: boolean
  change: ChangeRow | null
}

/** The claim query's row: the delivery, and its change's columns prefixed `c_` (null when the change is gone). */
interface ClaimedRow extends Omit<ClaimedDelivery, 'change'> {
  c_seq: string | null
  c_id: string | null
  c_source: string
  c_entity_type: string
  c_entity_id: string
  c_change_type: string
  c_field_path: string | null
  c_before_value: ChangeRow['before_value']
  c_after_value: ChangeRow['after_value']
  c_diff: ChangeRow['diff']
  c_detected_at: Date
  c_source_snapshot_id: string | null
}

/**
 * Claims up to `limit` due deliveries, oldest due first, leasing each until `leaseUntil`, and never
 * more than `perTarget` in flight to one subscription across every instance.
 *
 * In one transaction: (1) the subscriptions with due deliveries that are not at their bound, oldest
 * due first; (2) a transaction-scoped advisory lock on each, in id order, so claimers of one
 * subscription take turns (for milliseconds: a claim, not an attempt) and none sees a count another
 * is about to change; (3) after the locks, a fresh count of each one's deliveries in flight
 * (pending, `lease_until` ahead) and the claim of its oldest due ones up to the bound, each row with
 * FOR UPDATE SKIP LOCKED. Since claimers of one subscription are serialised, a skipped row is one
 * another kind of writer holds (a cancellation, or code from before the lease column), never a
 * reason for a sweeper to find nothing while deliveries are due to a subscription below its bound.
 */
export async function claimDueDeliveries(
  sql: Sql,
  now: Date,
  leaseUntil: Date,
  limit: number,
  perTarget: number,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return []
  return sql
    .begin(async (tx) => {
      const targets = await tx<{ subscription_id: string }[]>`
      with due as (
        select subscription_id, min(next_attempt_at) as due_at from webhook_deliveries
        where status = 'pending' and next_attempt_at <= ${now}
        group by subscription_id
      ), busy as (
        select subscription_id, count(*)::int as n from webhook_deliveries
        where status = 'pending' and lease_until > ${now} and subscription_id in (select subscription_id from due)
        group by subscription_id
      )
      select due.subscription_id from due left join busy on busy.subscription_id = due.subscription_id
      where coalesce(busy.n, 0) < ${perTarget}
      order by due.due_at, due.subscription_id
      limit ${limit}`
      if (targets.length === 0) return []
      const ids = targets.map((t) => t.subscription_id).sort()
      for (const id of ids) await tx`select pg_advisory_xact_lock(hashtextextended(${`webhook-target:${id}`}, 0))`
      return tx<ClaimedRow[]>`
      with busy as (
        select subscription_id, count(*)::int as n from webhook_deliveries
        where subscription_id = any(${ids}::uuid[]) and status = 'pending' and lease_until > ${now}
        group by subscription_id
      ), ranked as (
        select d.id, d.next_attempt_at, row_number() over (partition by d.subscription_id order by d.next_attempt_at, d.id) + coalesce(b.n, 0) as slot
        from webhook_deliveries d left join busy b on b.subscription_id = d.subscription_id
        where d.subscription_id = any(${ids}::uuid[]) and d.status = 'pending' and d.next_attempt_at <= ${now}
      ), chosen as (
        select id from ranked where slot <= ${perTarget} order by next_attempt_at, id limit ${limit}
      ), claimed as (
        update webhook_deliveries d set attempts = d.attempts + 1, next_attempt_at = ${leaseUntil}, lease_until = ${leaseUntil}
        from (
          select w.id from webhook_deliveries w join chosen c on c.id = w.id
          where w.status = 'pending' and w.next_attempt_at <= ${now}
          for update of w skip locked
        ) due
        where d.id = due.id
        returning d.id, d.subscription_id, d.change_id, d.event_type, d.attempts
      )
      select cl.id as delivery_id, cl.subscription_id, cl.event_type, cl.attempts as attempt_number,
        s.webhook_url, s.secret_ciphertext, s.active as subscription_active,
        c.seq::text as c_seq, c.id as c_id, c.source as c_source, c.entity_type as c_entity_type, c.entity_id as c_entity_id,
        c.change_type as c_change_type, c.field_path as c_field_path, c.before_value as c_before_value, c.after_value as c_after_value,
        c.diff as c_diff, c.detected_at as c_detected_at, c.source_snapshot_id as c_source_snapshot_id
      from claimed cl
      join webhook_subscriptions s on s.id = cl.subscription_id
      left join changes c on c.id = cl.change_id`
    })
    .then((rows) => claimedOf(rows as ClaimedRow[]))
}

function claimedOf(rows: ClaimedRow[]): ClaimedDelivery[] {
  return rows.map((r) => ({
    delivery_id: r.delivery_id,
    subscription_id: r.subscription_id,
    event_type: r.event_type,
    attempt_number: r.attempt_number,
    webhook_url: r.webhook_url,
    secret_ciphertext: r.secret_ciphertext,
    subscription_active: r.subscription_active,
    change:
      r.c_id === null
        ? null
        : {
            seq: r.c_seq!,
            id: r.c_id,
            source: r.c_source,
            entity_type: r.c_entity_type,
            entity_id: r.c_entity_id,
            change_type: r.c_change_type,
            field_path: r.c_field_path,
            before_value: r.c_before_value,
            after_value: r.c_after_value,
            diff: r.c_diff,
            detected_at: r.c_detected_at,
            source_snapshot_id: r.c_source_snapshot_id,
          },
  }))
}

export interface AttemptRecord {
  deliveryId: string
  subscriptionId: string
  attemptNumber: number
  correlationId: string
  attemptedAt: Date
  httpStatus: number | null
  errorClass: string | null
  responseTimeMs: number
  /** what the delivery becomes: delivered, abandoned, or pending again at `nextAttemptAt` */
  status: 'pending' | 'delivered' | 'abandoned' | 'cancelled'
  nextAttemptAt: Date | null
  /** how the answer moves the subscription's 4xx streak */
  streak: 'reset' | 'count' | 'keep'
  /** the streak length that deactivates */
  maxStreak: number
}

/** Records one attempt; whether the subscription is still active after it. */
export async function recordAttempt(sql: Sql, a: AttemptRecord): Promise<{ deactivated: boolean }> {
  const finished = a.status === 'pending' ? null : a.attemptedAt
  const reset = a.streak === 'reset'
  const count = a.streak === 'count'
  // The subscription's row is written only when its streak moves: a 2xx on a clean streak (nearly
  // every attempt) leaves it alone, so instances delivering to one receiver do not queue on its lock.
  const [row] = await sql<{ deactivated: boolean }[]>`
    with attempt as (
      insert into webhook_attempts (delivery_id, attempt_number, correlation_id, attempted_at, http_status, error_class, response_time_ms)
      values (${a.deliveryId}, ${a.attemptNumber}, ${a.correlationId}, ${a.attemptedAt}, ${a.httpStatus}, ${a.errorClass}, ${a.responseTimeMs})
    ), delivery as (
      update webhook_deliveries set status = ${a.status}, next_attempt_at = ${a.nextAttemptAt}, finished_at = ${finished}, lease_until = null
      where id = ${a.deliveryId} and status = 'pending' and attempts = ${a.attemptNumber}
    )
    update webhook_subscriptions set
      consecutive_4xx = case when ${reset}::boolean then 0 when ${count}::boolean then consecutive_4xx + 1 else consecutive_4xx end,
      active = active and not (${count}::boolean and consecutive_4xx + 1 >= ${a.maxStreak}),
      deactivation_reason = case when active and ${count}::boolean and consecutive_4xx + 1 >= ${a.maxStreak} then 'consecutive_4xx' else deactivation_reason end,
      deactivated_at = case when active and ${count}::boolean and consecutive_4xx + 1 >= ${a.maxStreak} then ${a.attemptedAt}::timestamptz else deactivated_at end
    where id = ${a.subscriptionId} and (${count}::boolean or (${reset}::boolean and consecutive_4xx <> 0))
    returning (active is false and deactivation_reason = 'consecutive_4xx' and deactivated_at = ${a.attemptedAt}::timestamptz) as deactivated`
  return row ?? { deactivated: false }
}

export interface OneOffDelivery {
  deliveryId: string
  subscriptionId: string
  eventType: string
  delivered: boolean
  correlationId: string
  attemptedAt: Date
  httpStatus: number | null
  errorClass: string | null
  responseTimeMs: number
}

/** A single attempt made outside the sweep (the sandbox's test event): recorded finished, and never counted in the 4xx streak. */
export async function recordOneOffDelivery(sql: Sql, d: OneOffDelivery): Promise<void> {
  await sql`
    with delivery as (
      insert into webhook_deliveries (id, subscription_id, change_id, event_type, status, attempts, next_attempt_at, created_at, finished_at)
      values (${d.deliveryId}, ${d.subscriptionId}, null, ${d.eventType}, ${d.delivered ? 'delivered' : 'abandoned'}, 1, null, ${d.attemptedAt}, ${d.attemptedAt})
      returning id
    )
    insert into webhook_attempts (delivery_id, attempt_number, correlation_id, attempted_at, http_status, error_class, response_time_ms)
    select id, 1, ${d.correlationId}, ${d.attemptedAt}, ${d.httpStatus}, ${d.errorClass}, ${d.responseTimeMs} from delivery`
}
