import type { Sql } from './db.ts'

export interface WindowHit {
  window_start: Date
  hits: number
}

/**
 * Counts one hit in each fixed window in one round trip and returns the counts after it. The
 * windows live in PostgreSQL, so a limit holds across every instance that shares the database.
 */
export async function hit(sql: Sql, windows: { bucket: string; start: Date; expires: Date }[]): Promise<number[]> {
  const buckets = windows.map((w) => w.bucket)
  const starts = windows.map((w) => w.start.toISOString())
  const expires = windows.map((w) => w.expires.toISOString())
  const rows = await sql<{ bucket: string; hits: number }[]>`
    insert into rate_limit_windows (bucket, window_start, hits, expires_at)
    select * from unnest(${buckets}::text[], ${starts}::timestamptz[], array_fill(1, array[${windows.length}::int]), ${expires}::timestamptz[])
    on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
    returning bucket, hits`
  const byBucket = new Map(rows.map((r) => [r.bucket, r.hits]))
  return buckets.map((b) => byBucket.get(b) ?? 0)
}

export async function windowHits(sql: Sql, bucket: string, start: Date): Promise<number> {
  const [row] = await sql<{ hits: number }[]>`select hits from rate_limit_windows where bucket = ${bucket} and window_start = ${start}`
  return row?.hits ?? 0
}
