import type { Sql } from './db.ts'

export interface WindowHit {
  window_start: Date
  hits: number
}

/** A key whose liveness the count must confirm: counted only while it is unrevoked, its consumer active and of this plan. */
export interface LiveKey {
  keyId: string
  consumerId: string
  plan: string
}

/**
 * Counts one hit in each fixed window in one round trip and returns the counts after it — or null,
 * counting nothing, when `key` is given and is no longer live. The windows live in PostgreSQL, so
 * a limit holds across every instance that shares the database.
 */
export async function hit(
  sql: Sql,
  windows: { bucket: string; start: Date; expires: Date }[],
  key: LiveKey | null = null,
): Promise<number[] | null> {
  const buckets = windows.map((w) => w.bucket)
  const starts = windows.map((w) => w.start.toISOString())
  const expires = windows.map((w) => w.expires.toISOString())
  const live = key ? sql`key_is_live(${key.keyId}, ${key.consumerId}, ${key.plan})` : sql`true`
  const rows = await sql<{ live: boolean; bucket: string | null; hits: number | null }[]>`
    with live as (select ${live} as ok), up as (
      insert into rate_limit_windows (bucket, window_start, hits, expires_at)
      select * from unnest(${buckets}::text[], ${starts}::timestamptz[], array_fill(1, array[${windows.length}::int]), ${expires}::timestamptz[])
      where (select ok from live)
      on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
      returning bucket, hits
    )
    select live.ok as live, up.bucket, up.hits from live left join up on true`
  if (!rows[0]!.live) return null
  const byBucket = new Map(rows.map((r) => [r.bucket, r.hits!]))
  return buckets.map((b) => byBucket.get(b) ?? 0)
}

export async function windowHits(sql: Sql, bucket: string, start: Date): Promise<number> {
  const [row] = await sql<
    { hits: number }[]
  >`select hits from rate_limit_windows where bucket = ${bucket} and window_start = ${start}`
  return row?.hits ?? 0
}
