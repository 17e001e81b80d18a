import type { Sql } from './db.ts'

export interface ApprovalTokenRow {
  id: string
  namespace: string
  org_number: string
  action_id: string
  created_at: Date
  expires_at: Date
  consumed_at: Date | null
}

export interface NewApprovalToken {
  namespace: string
  tokenHash: string
  orgNumber: string
  actionId: string
  createdAt: Date
  expiresAt: Date
}

export async function insertApprovalToken(sql: Sql, t: NewApprovalToken): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into approval_tokens (namespace, token_hash, org_number, action_id, created_at, expires_at)
    values (${t.namespace}, ${t.tokenHash}, ${t.orgNumber}, ${t.actionId}, ${t.createdAt}, ${t.expiresAt})
    returning id`
  return row!.id
}

/** The token with this hash in this namespace; a token of another namespace is not found. */
export async function findApprovalToken(sql: Sql, namespace: string, tokenHash: string): Promise<ApprovalTokenRow | null> {
  const [row] = await sql<ApprovalTokenRow[]>`
    select id, namespace, org_number, action_id, created_at, expires_at, consumed_at
    from approval_tokens where namespace = ${namespace} and token_hash = ${tokenHash}`
  return row ?? null
}

/**
 * Marks the token consumed if it is still unconsumed and unexpired. One statement, so concurrent
 * callers serialise on the row lock and exactly one sees its row come back.
 */
export async function markApprovalTokenConsumed(sql: Sql, id: string, now: Date): Promise<boolean> {
  const rows = await sql`
    update approval_tokens set consumed_at = ${now}
    where id = ${id} and consumed_at is null and expires_at > ${now}
    returning id`
  return rows.length === 1
}
