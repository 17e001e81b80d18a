import type { Sql } from './db.ts'

/**
 * `automatic`: a sandbox token, usable as minted; `awaiting`: a production token no person has
 * confirmed yet; `confirmed` / `declined`: the account's owner decided (sql/0028).
 */
export type ApprovalConfirmation = 'automatic' | 'awaiting' | 'confirmed' | 'declined'

/** What a person confirms: the four fields whose digest is the action id. */
export interface ApprovalActionContent {
  org_number: string
  action_type: string
  period: string
  payload: unknown
}

export interface ApprovalTokenRow {
  id: string
  namespace: string
  org_number: string
  action_id: string
  created_at: Date
  expires_at: Date
  consumed_at: Date | null
  confirmation: ApprovalConfirmation
  action: ApprovalActionContent | null
  decided_at: Date | null
  decided_by: string | null
}

export interface NewApprovalToken {
  namespace: string
  tokenHash: string
  orgNumber: string
  actionId: string
  createdAt: Date
  expiresAt: Date
  confirmation: 'automatic' | 'awaiting'
  action: ApprovalActionContent | null
}

const COLUMNS: string[] = [
  'id',
  'namespace',
  'org_number',
  'action_id',
  'created_at',
  'expires_at',
  'consumed_at',
  'confirmation',
  'action',
  'decided_at',
  'decided_by',
]

export async function insertApprovalToken(sql: Sql, t: NewApprovalToken): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into approval_tokens (namespace, token_hash, org_number, action_id, created_at, expires_at, confirmation, action)
    values (${t.namespace}, ${t.tokenHash}, ${t.orgNumber}, ${t.actionId}, ${t.createdAt}, ${t.expiresAt}, ${t.confirmation}, ${t.action === null ? null : sql.json(t.action as unknown as Parameters<typeof sql.json>[0])})
    returning id`
  return row!.id
}

/** The token with this hash in this namespace; a token of another namespace is not found. */
export async function findApprovalToken(
  sql: Sql,
  namespace: string,
  tokenHash: string,
): Promise<ApprovalTokenRow | null> {
  const [row] = await sql<ApprovalTokenRow[]>`
    select ${sql(COLUMNS)} from approval_tokens where namespace = ${namespace} and token_hash = ${tokenHash}`
  return row ?? null
}

/** The token a confirmation page shows, by its row id, only within this namespace. */
export async function findApprovalTokenById(sql: Sql, namespace: string, id: string): Promise<ApprovalTokenRow | null> {
  const [row] = await sql<ApprovalTokenRow[]>`
    select ${sql(COLUMNS)} from approval_tokens where namespace = ${namespace} and id = ${id}`
  return row ?? null
}

/**
 * Marks the token consumed if it is still unconsumed and unexpired — and, when `confirmedOnly`,
 * confirmed by a person: a decline that lands between the check and the spend wins. One
 * statement, so concurrent callers serialise on the row lock and exactly one sees its row back.
 */
export async function markApprovalTokenConsumed(
  sql: Sql,
  id: string,
  now: Date,
  confirmedOnly = false,
): Promise<boolean> {
  const rows = await sql`
    update approval_tokens set consumed_at = ${now}
    where id = ${id} and consumed_at is null and expires_at > ${now}
      ${confirmedOnly ? sql`and confirmation = 'confirmed'` : sql``}
    returning id`
  return rows.length === 1
}

/**
 * Records a person's decision on a token that awaits one and is still open (unconsumed,
 * unexpired). One conditional statement: of two decisions racing, the first wins; the row is
 * returned only to the one that changed it.
 */
export async function decideApprovalToken(
  sql: Sql,
  d: { namespace: string; id: string; decision: 'confirmed' | 'declined'; by: string; now: Date },
): Promise<ApprovalTokenRow | null> {
  const [row] = await sql<ApprovalTokenRow[]>`
    update approval_tokens set confirmation = ${d.decision}, decided_at = ${d.now}, decided_by = ${d.by}
    where namespace = ${d.namespace} and id = ${d.id} and confirmation = 'awaiting'
      and consumed_at is null and expires_at > ${d.now}
    returning ${sql(COLUMNS)}`
  return row ?? null
}

/** The tokens of a namespace still waiting for a person (unexpired, unconsumed), newest first. */
export async function awaitingApprovalTokens(
  sql: Sql,
  namespace: string,
  now: Date,
  limit = 20,
): Promise<ApprovalTokenRow[]> {
  return sql<ApprovalTokenRow[]>`
    select ${sql(COLUMNS)} from approval_tokens
    where namespace = ${namespace} and confirmation = 'awaiting' and consumed_at is null and expires_at > ${now}
    order by created_at desc, id limit ${limit}`
}
