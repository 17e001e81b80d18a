import type { Sql } from './db.ts'

export interface OAuthConnectionRow {
  id: string
  issuer: string
  subject: string
  status: 'pending' | 'active' | 'revoked'
  consumer_id: string | null
  key_id: string | null
  created_at: Date
  approved_at: Date | null
}

const cols = 'id, issuer, subject, status, consumer_id, key_id, created_at, approved_at'

/** The live (pending or active) connection of a subject. */
export async function liveConnection(sql: Sql, issuer: string, subject: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<OAuthConnectionRow[]>`select ${sql.unsafe(cols)} from oauth_connections where issuer = ${issuer} and subject = ${subject} and status in ('pending', 'active')`
  return row ?? null
}

/** A pending connection for a subject that presented a valid token but has no mapping yet. */
export async function ensurePending(sql: Sql, issuer: string, subject: string): Promise<OAuthConnectionRow> {
  await sql`insert into oauth_connections (issuer, subject, status) values (${issuer}, ${subject}, 'pending')
            on conflict (issuer, subject) where status in ('pending', 'active') do nothing`
  return (await liveConnection(sql, issuer, subject))!
}

export async function findConnection(sql: Sql, id: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<OAuthConnectionRow[]>`select ${sql.unsafe(cols)} from oauth_connections where id = ${id}`
  return row ?? null
}

export async function lockConnection(sql: Sql, id: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<OAuthConnectionRow[]>`select ${sql.unsafe(cols)} from oauth_connections where id = ${id} for update`
  return row ?? null
}

export async function activate(sql: Sql, id: string, consumerId: string, keyId: string): Promise<void> {
  await sql`update oauth_connections set status = 'active', consumer_id = ${consumerId}, key_id = ${keyId}, approved_at = now() where id = ${id}`
}

export async function revokeConnection(sql: Sql, id: string): Promise<void> {
  await sql`update oauth_connections set status = 'revoked', revoked_at = now() where id = ${id}`
}

export async function activeConnectionsOf(sql: Sql, consumerId: string): Promise<OAuthConnectionRow[]> {
  return sql<OAuthConnectionRow[]>`select ${sql.unsafe(cols)} from oauth_connections where consumer_id = ${consumerId} and status = 'active' order by approved_at, id`
}
