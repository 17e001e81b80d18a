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

export async function auditFor(sql: Sql, consumerId: string, limit = 50): Promise<AuditRow[]> {
  return sql<AuditRow[]>`
    select id, occurred_at, consumer_id, actor, action, org_number, correlation_id, details from audit_log
    where consumer_id = ${consumerId} order by occurred_at desc, id limit ${limit}`
}
