import type { Sql } from './db.ts'

export interface IdempotencyRow {
  operation_id: string
  fingerprint: string
  state: 'in_progress' | 'done'
  response_status: number | null
  response_body: string | null
  created_at: Date
}

/**
 * Claims (scope, key) for a request. Returns null when this request now owns the key, or the
 * existing record otherwise. An in-progress claim older than `staleBefore` (its process died) is
 * taken over.
 */
export async function claim(
  sql: Sql,
  scope: string,
  key: string,
  operationId: string,
  fingerprint: string,
  now: Date,
  expiresAt: Date,
  staleBefore: Date,
): Promise<IdempotencyRow | null> {
  const [won] = await sql<{ scope: string }[]>`
    insert into idempotency_records (scope, idempotency_key, operation_id, fingerprint, state, created_at, expires_at)
    values (${scope}, ${key}, ${operationId}, ${fingerprint}, 'in_progress', ${now}, ${expiresAt})
    on conflict (scope, idempotency_key) do update
      set operation_id = excluded.operation_id, fingerprint = excluded.fingerprint, state = 'in_progress',
          response_status = null, response_body = null, created_at = excluded.created_at, expires_at = excluded.expires_at
      where idempotency_records.expires_at <= ${now}
         or (idempotency_records.state = 'in_progress' and idempotency_records.created_at < ${staleBefore}
             and idempotency_records.fingerprint = excluded.fingerprint)
    returning scope`
  if (won) return null
  const [row] = await sql<IdempotencyRow[]>`
    select operation_id, fingerprint, state, response_status, response_body, created_at
    from idempotency_records where scope = ${scope} and idempotency_key = ${key}`
  return row ?? null
}

export async function complete(sql: Sql, scope: string, key: string, status: number, body: string): Promise<void> {
  await sql`update idempotency_records set state = 'done', response_status = ${status}, response_body = ${body} where scope = ${scope} and idempotency_key = ${key}`
}

/** The request failed in a way a retry may fix: forget the key so the retry runs. */
export async function release(sql: Sql, scope: string, key: string): Promise<void> {
  await sql`delete from idempotency_records where scope = ${scope} and idempotency_key = ${key} and state = 'in_progress'`
}
