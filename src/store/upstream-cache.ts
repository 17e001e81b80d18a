/**
 * The upstream cache and the snapshot archive (sql/0004_upstream_cache.sql). Archiving an answer
 * and making it the cached one is one statement, so a crash can never leave a cache row pointing
 * at a snapshot that does not exist.
 */
import { sha256Hex } from '../lib/hash.ts'
import type { RawResponse, UpstreamSystem } from '../upstream/raw.ts'
import type { Sql } from './db.ts'

export interface CachedAnswer {
  raw: RawResponse
  /** null: a "not found" answer, cached but never archived */
  snapshotId: string | null
  /** the body was left out (raw.body is empty): the reader said it holds this snapshot already */
  bodyOmitted: boolean
}

interface CacheRow {
  snapshot_id: string | null
  url: string
  http_status: number
  content_type: string | null
  body: string | null
  fetched_at: Date
}

export async function readCached(
  sql: Sql,
  system: UpstreamSystem,
  key: string,
): Promise<Pick<CachedAnswer, 'raw' | 'snapshotId'> | null> {
  const found = (await readCachedMany(sql, [{ system, key }])).get(cacheId(system, key))
  return found ? { raw: found.raw, snapshotId: found.snapshotId } : null
}

/** How readCachedMany names an answer in its result. */
export const cacheId = (system: UpstreamSystem, key: string) => `${system}\u0000${key}`

/**
 * The cached answers of several resources in one statement (the request path batches its reads).
 * `held`: a snapshot the reader already holds the body of; when the row still points at it, the
 * body is left out (a snapshot's body never changes).
 */
export async function readCachedMany(
  sql: Sql,
  wanted: { system: UpstreamSystem; key: string; held?: string | null }[],
): Promise<Map<string, CachedAnswer>> {
  const rows = await sql<(CacheRow & { system: UpstreamSystem; resource_key: string })[]>`
    select c.system, c.resource_key, c.snapshot_id, c.url, c.http_status, c.content_type,
      case when c.snapshot_id = w.held then null else c.body end as body, c.fetched_at
    from unnest(${wanted.map((w) => w.system)}::text[], ${wanted.map((w) => w.key)}::text[], ${wanted.map((w) => w.held ?? null)}::uuid[]) as w(system, resource_key, held)
    join upstream_cache c on c.system = w.system and c.resource_key = w.resource_key`
  const out = new Map<string, CachedAnswer>()
  for (const row of rows) {
    out.set(cacheId(row.system, row.resource_key), {
      snapshotId: row.snapshot_id,
      raw: {
        system: row.system,
        url: row.url,
        status: row.http_status,
        contentType: row.content_type,
        body: row.body ?? '',
        fetchedAt: row.fetched_at,
      },
      bodyOmitted: row.body === null,
    })
  }
  return out
}

/**
 * Appends the answer to the archive and, when `cache` is set, makes it the cached answer for the
 * key (an older answer never replaces a newer one). Returns the snapshot id.
 */
export async function archiveAnswer(
  sql: Sql,
  raw: RawResponse,
  key: string,
  orgNumber: string | null,
  cache: boolean,
): Promise<string> {
  const hash = sha256Hex(raw.body)
  const [row] = await sql<{ id: string }[]>`
    with s as (
      insert into source_snapshots (system, resource_key, org_number, url, http_status, content_sha256, fetched_at)
      values (${raw.system}, ${key}, ${orgNumber}, ${raw.url}, ${raw.status}, ${hash}, ${raw.fetchedAt})
      returning id
    ), b as (
      insert into source_snapshot_bodies (snapshot_id, content_type, body) select id, ${raw.contentType}, ${raw.body} from s
    ), c as (
      insert into upstream_cache (system, resource_key, snapshot_id, org_number, url, http_status, content_type, body, fetched_at)
      select ${raw.system}, ${key}, id, ${orgNumber}, ${raw.url}, ${raw.status}, ${raw.contentType}, ${raw.body}, ${raw.fetchedAt} from s where ${cache}
      on conflict (system, resource_key) do update set
        snapshot_id = excluded.snapshot_id, org_number = excluded.org_number, url = excluded.url, http_status = excluded.http_status,
        content_type = excluded.content_type, body = excluded.body, fetched_at = excluded.fetched_at
      where upstream_cache.fetched_at <= excluded.fetched_at
    )
    select id from s`
  return row!.id
}

/**
 * Makes the answer the cached one for the key without archiving it: for "not found" answers,
 * which back no response, so the append-only archive does not grow with every unknown number
 * asked about (sql/0013). An older answer never replaces a newer one.
 */
export async function cacheUnarchived(
  sql: Sql,
  raw: RawResponse,
  key: string,
  orgNumber: string | null,
): Promise<void> {
  await sql`
    insert into upstream_cache (system, resource_key, snapshot_id, org_number, url, http_status, content_type, body, fetched_at)
    values (${raw.system}, ${key}, null, ${orgNumber}, ${raw.url}, ${raw.status}, ${raw.contentType}, ${raw.body}, ${raw.fetchedAt})
    on conflict (system, resource_key) do update set
      snapshot_id = null, org_number = excluded.org_number, url = excluded.url, http_status = excluded.http_status,
      content_type = excluded.content_type, body = excluded.body, fetched_at = excluded.fetched_at
    where upstream_cache.fetched_at <= excluded.fetched_at`
}

/**
 * The register removed the unit from open data (HTTP 410, or `Fjernet` in the update feed): every
 * cached copy and every archived body about it goes; the archive keeps only hashes and dates.
 */
export async function purgeOrganisation(sql: Sql, orgNumber: string): Promise<number> {
  return sql.begin(async (tx) => {
    const cached = await tx`delete from upstream_cache where org_number = ${orgNumber}`
    // cached search pages naming the unit go too
    await tx`delete from upstream_cache where resource_key like 'search:%' and strpos(body, ${orgNumber}) > 0`
    await tx`delete from source_snapshot_bodies where snapshot_id in (select id from source_snapshots where org_number = ${orgNumber})`
    await tx`delete from source_snapshot_bodies b using source_snapshots s
      where s.id = b.snapshot_id and s.resource_key like 'search:%' and strpos(b.body, ${orgNumber}) > 0`
    return cached.count
  }) as Promise<number>
}

/** The register changed the unit: its cached answers are no longer fresh. */
export async function invalidateOrganisations(sql: Sql, orgNumbers: string[]): Promise<number> {
  if (orgNumbers.length === 0) return 0
  const res = await sql`delete from upstream_cache where org_number = any(${orgNumbers})`
  return res.count
}

export async function readFeedCursor(sql: Sql, feed: string): Promise<number | null> {
  const [row] = await sql<{ last_id: string }[]>`select last_id::text from upstream_feed_cursors where feed = ${feed}`
  return row ? Number(row.last_id) : null
}

export async function writeFeedCursor(sql: Sql, feed: string, lastId: number, now: Date): Promise<void> {
  await sql`
    insert into upstream_feed_cursors (feed, last_id, updated_at) values (${feed}, ${lastId}, ${now})
    on conflict (feed) do update set last_id = greatest(upstream_feed_cursors.last_id, excluded.last_id), updated_at = excluded.updated_at`
}
