/** The sandbox's audit rows, always read and written within one caller's namespace. */
import type { Sql } from './db.ts'

export type AuditValue = string | number | boolean | null

export interface SandboxAuditRow {
  id: string
  org_number: string
  occurred_at: Date
  action: string
  initiated_by: string
  details: Record<string, AuditValue>
}

/** Idempotent by id: a retried write (same deterministic id) records nothing twice. */
export async function appendSandboxAudit(sql: Sql, namespace: string, row: SandboxAuditRow): Promise<void> {
  await sql`
    insert into sandbox_audit (id, namespace, org_number, occurred_at, action, initiated_by, details)
    values (${row.id}, ${namespace}, ${row.org_number}, ${row.occurred_at}, ${row.action}, ${row.initiated_by}, ${sql.json(row.details)})
    on conflict (id) do nothing`
}

/** The namespace's newest `limit` rows about an organisation, newest first. */
export async function sandboxAuditFor(
  sql: Sql,
  namespace: string,
  org: string,
  limit: number,
): Promise<SandboxAuditRow[]> {
  return sql<SandboxAuditRow[]>`
    select id, org_number, occurred_at, action, initiated_by, details from sandbox_audit
    where namespace = ${namespace} and org_number = ${org}
    order by occurred_at desc, created_at desc, id
    limit ${limit}`
}
