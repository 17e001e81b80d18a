/**
 * The change archive (sql/0018_change_archive.sql). Appending takes one transaction-scoped advisory
 * lock first, so changes are committed in the order of their `seq` and a cursor over `seq` never
 * skips a row that commits late. Appending also queues, in the same transaction, a delivery for
 * every active subscription whose filter the change matches: a change is never archived without
 * its webhooks, nor the reverse.
 */
import type { Sql } from './db.ts'

/** Any constant both sides agree on: only change appends take it. */
const CHANGES_LOCK = 7_114_001

export type JsonValue = string | number | boolean | null

/** What every change row says, as written and as read. */
interface ChangeFields {
  source: string
  entity_type: string
  entity_id: string
  change_type: string
  field_path: string | null
  before_value: JsonValue
  after_value: JsonValue
  diff: { op: string; path: string; value?: unknown }[]
  detected_at: Date
  source_snapshot_id: string | null
}

export interface NewChange extends ChangeFields {
  /** the upstream's own id of the change, when it has one: appending it twice adds nothing */
  source_ref?: string | null
  /** the webhook event this change is delivered as; null: archived only */
  event_type: string | null
}

export interface ChangeRow extends ChangeFields {
  /** bigint as text */
  seq: string
  id: string
}

const COLUMNS =
  'seq::text as seq, id, source, entity_type, entity_id, change_type, field_path, before_value, after_value, diff, detected_at, source_snapshot_id'

/**
 * Appends the changes in order and queues their deliveries. `tx` must be a transaction: the lock
 * is held until it commits. Returns the rows appended (a repeated `source_ref` is not) and how many
 * deliveries were queued.
 */
export async function appendChanges(
  tx: Sql,
  changes: NewChange[],
  now: Date,
): Promise<{ appended: ChangeRow[]; deliveries: number }> {
  if (changes.length === 0) return { appended: [], deliveries: 0 }
  await tx`select pg_advisory_xact_lock(${CHANGES_LOCK})`
  // Ids are made here so that the rows a repeated source_ref kept out are known by id.
  const rows = changes.map((c, n) => ({
    ...c,
    id: crypto.randomUUID(),
    detected_at: c.detected_at.toISOString(),
    source_ref: c.source_ref ?? null,
    n,
  }))
  const appended = await tx<ChangeRow[]>`
    insert into changes (id, source, entity_type, entity_id, change_type, field_path, before_value, after_value, diff, detected_at, source_snapshot_id, source_ref)
    select r.id, r.source, r.entity_type, r.entity_id, r.change_type, r.field_path, r.before_value, r.after_value, r.diff, r.detected_at, r.source_snapshot_id, r.source_ref
    from jsonb_to_recordset(${tx.json(rows as never)}) as r(
      id uuid, source text, entity_type text, entity_id text, change_type text, field_path text, before_value jsonb, after_value jsonb,
      diff jsonb, detected_at timestamptz, source_snapshot_id uuid, source_ref text, n integer)
    order by r.n
    on conflict (source_ref) do nothing
    returning ${tx.unsafe(COLUMNS)}`
  const kept = new Set(appended.map((r) => r.id))
  const eventful = rows
    .filter((r) => r.event_type !== null && kept.has(r.id))
    .map((r) => ({ id: r.id, event_type: r.event_type }))
  if (eventful.length === 0) return { appended, deliveries: 0 }
  const queued = await tx`
    insert into webhook_deliveries (subscription_id, change_id, event_type, status, next_attempt_at, created_at)
    select s.id, c.id, e.event_type, 'pending', ${now}, ${now}
    from jsonb_to_recordset(${tx.json(eventful as never)}) as e(id uuid, event_type text)
    join changes c on c.id = e.id
    join webhook_subscriptions s on s.active and s.filter_source = c.source and s.filter_entity_type = c.entity_type and s.filter_change_type = c.change_type
    on conflict (subscription_id, change_id) do nothing
    returning 1`
  return { appended, deliveries: queued.length }
}

export interface ChangeFilter {
  source?: string
  entity_type?: string
  entity_id?: string
  /** any of these entities (a portfolio's companies) */
  entity_ids?: string[]
  change_type?: string
  since?: Date
}

/** Rows after `afterSeq` in archive order, at most `limit`. */
export async function listChanges(
  sql: Sql,
  filter: ChangeFilter,
  afterSeq: bigint,
  limit: number,
): Promise<ChangeRow[]> {
  const where = [
    sql`seq > ${afterSeq.toString()}::bigint`,
    ...(filter.source !== undefined ? [sql`source = ${filter.source}`] : []),
    ...(filter.entity_type !== undefined ? [sql`entity_type = ${filter.entity_type}`] : []),
    ...(filter.entity_id !== undefined ? [sql`entity_id = ${filter.entity_id}`] : []),
    ...(filter.entity_ids !== undefined ? [sql`entity_id = any(${filter.entity_ids}::text[])`] : []),
    ...(filter.change_type !== undefined ? [sql`change_type = ${filter.change_type}`] : []),
    ...(filter.since !== undefined ? [sql`detected_at >= ${filter.since}`] : []),
  ]
  const clause = where.reduce((acc, w) => sql`${acc} and ${w}`)
  return sql<
    ChangeRow[]
  >`select ${sql.unsafe(COLUMNS)} from changes where ${clause} order by changes.seq limit ${limit}`
}
