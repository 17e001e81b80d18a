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
  /** the e-mail the newest token of a pending subject claimed (kept once active), or null */
  token_email: string | null
  /** whether that token said the authorization server verified the e-mail (`email_verified: true`) */
  token_email_verified: boolean
  /** the client the token was issued to (`client_id`, else `azp`), or null */
  token_client_id: string | null
}

/** What an access token says about its holder, as stored on the connection. */
export interface TokenHolder {
  email: string | null
  emailVerified: boolean
  clientId: string | null
}

const cols =
  'id, issuer, subject, status, consumer_id, key_id, created_at, approved_at, token_email, token_email_verified, token_client_id'

/** The live (pending or active) connection of a subject. */
export async function liveConnection(sql: Sql, issuer: string, subject: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<
    OAuthConnectionRow[]
  >`select ${sql.unsafe(cols)} from oauth_connections where issuer = ${issuer} and subject = ${subject} and status in ('pending', 'active')`
  return row ?? null
}

/**
 * The live connection of a subject that presented a valid token but has no usable mapping: a new
 * pending one, or the existing one — a pending one refreshed with what this newer token says about
 * its holder, an active one left as it is.
 */
export async function ensurePending(
  sql: Sql,
  issuer: string,
  subject: string,
  holder: TokenHolder,
): Promise<OAuthConnectionRow> {
  await sql`insert into oauth_connections (issuer, subject, status, token_email, token_email_verified, token_client_id)
            values (${issuer}, ${subject}, 'pending', ${holder.email}, ${holder.emailVerified}, ${holder.clientId})
            on conflict (issuer, subject) where status in ('pending', 'active') do update
              set token_email = excluded.token_email, token_email_verified = excluded.token_email_verified, token_client_id = excluded.token_client_id
              where oauth_connections.status = 'pending'`
  return (await liveConnection(sql, issuer, subject))!
}

export async function findConnection(sql: Sql, id: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<OAuthConnectionRow[]>`select ${sql.unsafe(cols)} from oauth_connections where id = ${id}`
  return row ?? null
}

export async function lockConnection(sql: Sql, id: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<
    OAuthConnectionRow[]
  >`select ${sql.unsafe(cols)} from oauth_connections where id = ${id} for update`
  return row ?? null
}

/** The active connection whose dedicated key this is, locked (connection before key, as disconnect locks them). */
export async function lockActiveConnectionOfKey(sql: Sql, keyId: string): Promise<OAuthConnectionRow | null> {
  const [row] = await sql<
    OAuthConnectionRow[]
  >`select ${sql.unsafe(cols)} from oauth_connections where key_id = ${keyId} and status = 'active' for update`
  return row ?? null
}

export async function activate(sql: Sql, id: string, consumerId: string, keyId: string): Promise<void> {
  await sql`update oauth_connections set status = 'active', consumer_id = ${consumerId}, key_id = ${keyId}, approved_at = now() where id = ${id}`
}

export async function revokeConnection(sql: Sql, id: string): Promise<void> {
  await sql`update oauth_connections set status = 'revoked', revoked_at = now() where id = ${id}`
}

export async function activeConnectionsOf(sql: Sql, consumerId: string): Promise<OAuthConnectionRow[]> {
  return sql<
    OAuthConnectionRow[]
  >`select ${sql.unsafe(cols)} from oauth_connections where consumer_id = ${consumerId} and status = 'active' order by approved_at, id`
}
