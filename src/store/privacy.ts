import type { Sql } from './db.ts'

export interface PrivacyRequestRow {
  id: string
  email: string
  request_type: string
  details: string | null
  status: string
  received_at: Date
  respond_by: Date
}

export async function insertPrivacyRequest(
  sql: Sql,
  r: { email: string; requestType: string; details: string | null; receivedAt: Date; respondBy: Date },
): Promise<PrivacyRequestRow> {
  const [row] = await sql<PrivacyRequestRow[]>`
    insert into privacy_requests (email, request_type, details, received_at, respond_by)
    values (${r.email}, ${r.requestType}, ${r.details}, ${r.receivedAt}, ${r.respondBy})
    returning id, email, request_type, details, status, received_at, respond_by`
  return row!
}

export async function openPrivacyRequests(sql: Sql, limit: number): Promise<PrivacyRequestRow[]> {
  return sql<PrivacyRequestRow[]>`
    select id, email, request_type, details, status, received_at, respond_by from privacy_requests
    where status in ('received', 'in_progress') order by respond_by, id limit ${limit}`
}
