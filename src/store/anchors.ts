/**
 * Daily anchors over the snapshot archive (sql/0020_anchors.sql). A day's leaves are its snapshots
 * in (fetched_at, id) order, read in keyset pages so that a day of a million snapshots is never
 * held in memory. `fetched_at` travels as text with microseconds, and goes back as a text parameter
 * cast in SQL: a timestamptz parameter would pass through a JavaScript Date and lose its
 * microseconds, and a page would start again at its own last row. The order names the table's
 * columns: a bare `fetched_at` there is the text of the select list, which no index serves, and
 * every page sorted the rest of the day (a million-snapshot day took 37 s on PostgreSQL).
 */
import type { Sql } from './db.ts'

export interface LeafRow {
  id: string
  content_sha256: string
  /** UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`, as the leaf commits to it */
  fetched_at: string
}

const AT_TEXT = `to_char(fetched_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** The day (UTC, `YYYY-MM-DD`) of the oldest snapshot; null when the archive is empty. */
export async function firstSnapshotDay(sql: Sql): Promise<string | null> {
  const [row] = await sql<
    { day: string | null }[]
  >`select to_char(min(fetched_at) at time zone 'UTC', 'YYYY-MM-DD') as day from source_snapshots`
  return row?.day ?? null
}

export async function lastAnchoredDay(sql: Sql): Promise<string | null> {
  const [row] = await sql<{ day: string | null }[]>`select max(day)::text as day from anchors`
  return row?.day ?? null
}

/** Up to `limit` leaves of [from, to) after the leaf `after` (null: from the first). */
export async function dayLeaves(
  sql: Sql,
  from: Date,
  to: Date,
  after: LeafRow | null,
  limit: number,
): Promise<LeafRow[]> {
  const position = after
    ? sql`and (fetched_at, id) > (${after.fetched_at}::text::timestamptz, ${after.id}::uuid)`
    : sql``
  // A page must be read in index order from where the last one ended. Before the table's statistics
  // know a day's million rows (a fresh archive, a bulk load), the planner expects a few hundred and
  // picks a bitmap scan of the rest of the day and a sort, for every page: ruled out here.
  return sql.begin(async (tx) => {
    await tx`set local enable_bitmapscan = off`
    await tx`set local enable_sort = off`
    return tx<LeafRow[]>`
      select id, content_sha256, ${tx.unsafe(AT_TEXT)} as fetched_at from source_snapshots
      where fetched_at >= ${from} and fetched_at < ${to} ${position}
      order by source_snapshots.fetched_at, source_snapshots.id limit ${limit}`
  }) as Promise<LeafRow[]>
}

export interface ChunkRow {
  chunk_index: number
  first_fetched_at: string
  first_snapshot_id: string
  leaf_count: number
  root: string
}

export interface NewAnchor {
  day: string
  root: string
  leafCount: number
  chunkLeaves: number
  chunks: ChunkRow[]
}

/** Writes the anchor and its blocks once; false when the day was anchored already (by another instance). */
export async function insertAnchor(sql: Sql, a: NewAnchor, now: Date): Promise<boolean> {
  return sql.begin(async (tx) => {
    const inserted = await tx`
      insert into anchors (day, root, leaf_count, chunk_leaves, created_at) values (${a.day}::date, ${a.root}, ${a.leafCount}, ${a.chunkLeaves}, ${now})
      on conflict (day) do nothing returning 1`
    if (inserted.length === 0) return false
    if (a.chunks.length > 0) {
      await tx`
        insert into anchor_chunks (day, chunk_index, first_fetched_at, first_snapshot_id, leaf_count, root)
        select ${a.day}::date, c.chunk_index, c.first_fetched_at, c.first_snapshot_id, c.leaf_count, c.root
        from jsonb_to_recordset(${tx.json(a.chunks as never)}) as c(chunk_index integer, first_fetched_at timestamptz, first_snapshot_id uuid, leaf_count integer, root text)`
    }
    return true
  }) as Promise<boolean>
}

export interface AnchorRow {
  day: string
  root: string
  leaf_count: number
  chunk_leaves: number
  created_at: Date
  tsa_url: string | null
  token: string | null
  gen_time: Date | null
}

const ANCHOR_SELECT = `
  select a.day::text as day, a.root, a.leaf_count::int as leaf_count, a.chunk_leaves, a.created_at, t.tsa_url, t.token, t.gen_time
  from anchors a left join anchor_timestamps t on t.day = a.day`

/** The newest anchors first. */
export async function listAnchors(sql: Sql, limit: number): Promise<AnchorRow[]> {
  return sql<AnchorRow[]>`${sql.unsafe(ANCHOR_SELECT)} order by a.day desc limit ${limit}`
}

export async function findAnchor(sql: Sql, day: string): Promise<AnchorRow | null> {
  const [row] = await sql<AnchorRow[]>`${sql.unsafe(ANCHOR_SELECT)} where a.day = ${day}::date`
  return row ?? null
}

/** Anchors whose root has no timestamp yet, oldest first. */
export async function untimestampedAnchors(sql: Sql, limit: number): Promise<{ day: string; root: string }[]> {
  return sql<{ day: string; root: string }[]>`
    select a.day::text as day, a.root from anchors a
    where not exists (select 1 from anchor_timestamps t where t.day = a.day)
    order by a.day limit ${limit}`
}

export async function insertTimestamp(
  sql: Sql,
  day: string,
  tsaUrl: string,
  token: string,
  genTime: Date,
  now: Date,
): Promise<void> {
  await sql`
    insert into anchor_timestamps (day, tsa_url, token, gen_time, created_at) values (${day}::date, ${tsaUrl}, ${token}, ${genTime}, ${now})
    on conflict (day) do nothing`
}

/** A snapshot as its leaf commits to it, with its UTC day; null when there is none with this id. */
export async function snapshotLeaf(sql: Sql, id: string): Promise<(LeafRow & { day: string }) | null> {
  const [row] = await sql<(LeafRow & { day: string })[]>`
    select id, content_sha256, ${sql.unsafe(AT_TEXT)} as fetched_at, to_char(fetched_at at time zone 'UTC', 'YYYY-MM-DD') as day
    from source_snapshots where id = ${id}`
  return row ?? null
}

/** Every block root of the day, in order. */
export async function chunkRoots(sql: Sql, day: string): Promise<ChunkRow[]> {
  return sql<ChunkRow[]>`
    select chunk_index, to_char(first_fetched_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as first_fetched_at, first_snapshot_id, leaf_count, root
    from anchor_chunks where day = ${day}::date order by chunk_index`
}

/** The leaves of one block: `count` leaves from its first, inclusive. */
export async function chunkLeaves(
  sql: Sql,
  first: { fetched_at: string; id: string },
  count: number,
): Promise<LeafRow[]> {
  return sql<LeafRow[]>`
    select id, content_sha256, ${sql.unsafe(AT_TEXT)} as fetched_at from source_snapshots
    where (fetched_at, id) >= (${first.fetched_at}::text::timestamptz, ${first.id}::uuid)
    order by source_snapshots.fetched_at, source_snapshots.id limit ${count}`
}
