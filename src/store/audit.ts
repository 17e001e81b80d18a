import type { Sql } from './db.ts'

export interface AuditEntry {
  consumerId: string | null
  /** `consumer:<id>`, `key:<id>`, `session:<id>`, `admin`, `anonymous` or `system` */
  actor: string
  action: string
  orgNumber?: string | null
  correlationId: string | null
  details?: Record<string, string | number | boolean | null>
}

export interface AuditRow {
  id: string
  occurred_at: Date
  consumer_id: string | null
  actor: string
  action: string
  org_number: string | null
  correlation_id: string | null
  details: Record<string, string | number | boolean | null>
}

/** Appends one row; the table refuses UPDATE, DELETE and TRUNCATE (see sql/0001_accounts.sql). */
export async function appendAudit(sql: Sql, e: AuditEntry): Promise<void> {
  await sql`
    insert into audit_log (consumer_id, actor, action, org_number, correlation_id, details)
    values (${e.consumerId}, ${e.actor}, ${e.action}, ${e.orgNumber ?? null}, ${e.correlationId}, ${sql.json(e.details ?? {})})`
}

/** Appends one row with the id and instant the caller chose (a receipt names its audit row). */
export async function appendAuditAt(sql: Sql, e: AuditEntry & { id: string; occurredAt: Date }): Promise<void> {
  await sql`
    insert into audit_log (id, occurred_at, consumer_id, actor, action, org_number, correlation_id, details)
    values (${e.id}, ${e.occurredAt}, ${e.consumerId}, ${e.actor}, ${e.action}, ${e.orgNumber ?? null}, ${e.correlationId}, ${sql.json(e.details ?? {})})
    on conflict (id) do nothing`
}

export async function auditFor(sql: Sql, consumerId: string, limit = 50): Promise<AuditRow[]> {
  return sql<AuditRow[]>`
    select id, occurred_at, consumer_id, actor, action, org_number, correlation_id, details from audit_log
    where consumer_id = ${consumerId} order by occurred_at desc, id limit ${limit}`
}

/**
 * The caller's own portal submissions among the given instances: audit rows with action
 * `submit_mva` (a live execute) carry the portal's instance id in `details.portal_instance_id`.
 */
export async function submissionsByInstance(
  sql: Sql,
  consumerId: string,
  orgNumber: string,
  instanceIds: string[],
): Promise<Map<string, { audit_log_id: string; correlation_id: string | null }>> {
  const rows = await sql<{ id: string; correlation_id: string | null; instance_id: string }[]>`
    select id, correlation_id, details->>'portal_instance_id' as instance_id from audit_log
    where consumer_id = ${consumerId} and org_number = ${orgNumber} and action = 'submit_mva'
      and details->>'portal_instance_id' = any(${instanceIds})
    order by occurred_at`
  return new Map(rows.map((r) => [r.instance_id, { audit_log_id: r.id, correlation_id: r.correlation_id }]))
}
