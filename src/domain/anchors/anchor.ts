/**
 * Daily anchors (spec: Anchor): one Merkle root per UTC day over that day's snapshots, built once
 * the day is over (and ANCHOR_DELAY_MS more, so that an answer fetched at 23:59:59 and archived a
 * moment later is in its day's tree). Only hashes, dates and counts are published. With a time
 * stamping authority configured (TSA_URL), each root gets an RFC 3161 token; a root whose token
 * could not be had is stamped on a later run.
 *
 * Building streams the day in pages and keeps one block of leaves and the block roots in memory,
 * so a day of a million snapshots costs a few megabytes. Inclusion proofs read one block.
 */
import type { ProofCache } from './proof-cache.ts'
import { AppError } from '../../errors/app-error.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import {
  chunkLeaves,
  chunkRoots,
  dayLeaves,
  findAnchor,
  firstSnapshotDay,
  insertAnchor,
  insertTimestamp,
  lastAnchoredDay,
  listAnchors,
  snapshotLeaf,
  untimestampedAnchors,
  type AnchorRow,
  type ChunkRow,
  type LeafRow,
} from '../../store/anchors.ts'
import type { Sql } from '../../store/db.ts'
import type { TimestampAuthority } from '../../upstream/timestamp-authority/port.ts'
import { auditPath, CHUNK_LEAVES, leafData, leafHash, rootOf } from './merkle.ts'
import { addDays } from '../../lib/local-date.ts'

export const ANCHOR_DELAY_MS = 10 * 60_000
/** Days anchored per run at most: a long backlog (a first run over an old archive) is worked off over several runs. */
export const MAX_DAYS_PER_RUN = 31
/** Leaves read per query while building. */
const PAGE = 10_000
/** Pages read between two full garbage collections while building. */
const FULL_GC_PAGES = 2
const DAY_MS = 86_400_000

export interface AnchorDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  /** null: no TSA_URL, roots are not timestamped */
  tsa: TimestampAuthority | null
}

export interface AnchorRunResult {
  anchored: { day: string; leaf_count: number; root: string }[]
  timestamped: string[]
  timestamp_failures: number
}

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`)

/** Anchors every complete day after the last anchored one (from the archive's first day), then timestamps roots that lack one. */
export async function runAnchors(deps: AnchorDeps): Promise<AnchorRunResult> {
  const result: AnchorRunResult = { anchored: [], timestamped: [], timestamp_failures: 0 }
  const last = await lastAnchoredDay(deps.sql)
  let day = last ? addDays(last, 1) : await firstSnapshotDay(deps.sql)
  while (
    day !== null &&
    result.anchored.length < MAX_DAYS_PER_RUN &&
    dayStart(day).getTime() + DAY_MS + ANCHOR_DELAY_MS <= deps.clock.now().getTime()
  ) {
    const built = await buildAnchor(deps.sql, day)
    if (await insertAnchor(deps.sql, { ...built, day }, deps.clock.now()))
      result.anchored.push({ day, leaf_count: built.leafCount, root: built.root })
    day = addDays(day, 1)
  }
  if (deps.tsa) {
    for (const a of await untimestampedAnchors(deps.sql, MAX_DAYS_PER_RUN)) {
      try {
        const stamp = await deps.tsa.timestamp(Buffer.from(a.root, 'hex'))
        await insertTimestamp(
          deps.sql,
          a.day,
          deps.tsa.url,
          stamp.token.toString('base64'),
          stamp.genTime,
          deps.clock.now(),
        )
        result.timestamped.push(a.day)
      } catch (e) {
        result.timestamp_failures++
        deps.logger.warn('anchor root not timestamped; tried again next run', {
          day: a.day,
          tsa_url: deps.tsa.url,
          error: e instanceof Error ? e.message : String(e),
        })
        break
      }
    }
  }
  if (result.anchored.length + result.timestamped.length > 0)
    deps.logger.info('anchors', { anchored: result.anchored.map((a) => a.day), timestamped: result.timestamped })
  return result
}

/** The day's tree: its root, leaf count and block roots. */
export async function buildAnchor(
  sql: Sql,
  day: string,
): Promise<{ root: string; leafCount: number; chunkLeaves: number; chunks: ChunkRow[] }> {
  const from = dayStart(day)
  const to = new Date(from.getTime() + DAY_MS)
  const chunks: ChunkRow[] = []
  const roots: Buffer[] = []
  let block: Buffer[] = []
  let first: LeafRow | null = null
  let after: LeafRow | null = null
  let count = 0
  let pages = 0
  const close = () => {
    const root = rootOf(block)
    roots.push(root)
    chunks.push({
      chunk_index: chunks.length,
      first_fetched_at: first!.fetched_at,
      first_snapshot_id: first!.id,
      leaf_count: block.length,
      root: root.toString('hex'),
    })
    block = []
    first = null
  }
  for (;;) {
    const page = await dayLeaves(sql, from, to, after, PAGE)
    for (const leaf of page) {
      if (block.length === 0) first = leaf
      block.push(leafHash(leafData(leaf)))
      if (block.length === CHUNK_LEAVES) close()
    }
    count += page.length
    // A page's rows are garbage once hashed, but they outlive a young collection (they wait across
    // the next query), so only a full one frees them: one every few pages keeps the service flat
    // (embedded, a million leaves: service RSS peak 676 MB before, 258 MB now, for ~6 % more time).
    if (++pages % FULL_GC_PAGES === 0) Bun.gc(true)
    if (page.length < PAGE) break
    after = page[page.length - 1]!
  }
  if (block.length > 0) close()
  return { root: rootOf(roots).toString('hex'), leafCount: count, chunkLeaves: CHUNK_LEAVES, chunks }
}

export function anchorView(a: AnchorRow) {
  return {
    day: a.day,
    root: a.root,
    leaf_count: a.leaf_count,
    tree: 'rfc6962-sha256',
    created_at: a.created_at.toISOString(),
    timestamp: a.token
      ? { format: 'rfc3161', tsa_url: a.tsa_url, gen_time: a.gen_time!.toISOString(), token_base64: a.token }
      : null,
  }
}

export async function publicAnchors(sql: Sql, limit: number) {
  return { anchors: (await listAnchors(sql, limit)).map(anchorView) }
}

/**
 * A snapshot's inclusion proof in its day's anchor; NOT_FOUND for an unknown snapshot or a day not
 * anchored yet. Once computed it is kept in `cache` (it never changes); the anchor's view is read
 * afresh each time.
 */
export async function inclusionProof(sql: Sql, snapshotId: string, recipeUrl: string, cache?: ProofCache) {
  const kept = cache?.get(snapshotId)
  if (kept) {
    const anchor = await findAnchor(sql, kept.day)
    if (anchor) return { ...kept.proof, anchor: anchorView(anchor), recipe_url: recipeUrl }
  }
  const leaf = await snapshotLeaf(sql, snapshotId)
  if (!leaf) throw new AppError('NOT_FOUND', { extra: { reason: 'no snapshot with this id' } })
  const anchor = await findAnchor(sql, leaf.day)
  if (!anchor) {
    const due = new Date(dayStart(leaf.day).getTime() + DAY_MS + ANCHOR_DELAY_MS)
    throw new AppError('NOT_FOUND', {
      extra: { reason: 'the snapshot’s day is not anchored yet', day: leaf.day, anchored_after: due.toISOString() },
    })
  }
  const chunks = await chunkRoots(sql, leaf.day)
  const key = (c: { fetched_at: string; id: string }) => `${c.fetched_at}|${c.id}`
  const mine = `${leaf.fetched_at}|${leaf.id}`
  // the last block that starts at or before the leaf
  let chunk: ChunkRow | null = null
  for (const c of chunks) if (key({ fetched_at: c.first_fetched_at, id: c.first_snapshot_id }) <= mine) chunk = c
  const leaves = chunk
    ? await chunkLeaves(sql, { fetched_at: chunk.first_fetched_at, id: chunk.first_snapshot_id }, chunk.leaf_count)
    : []
  const index = leaves.findIndex((l) => l.id === leaf.id)
  if (!chunk || index < 0)
    throw new AppError('NOT_FOUND', {
      extra: { reason: 'the snapshot was archived after its day was anchored, so no anchor covers it', day: leaf.day },
    })
  const hashes = leaves.map((l) => leafHash(leafData(l)))
  if (rootOf(hashes).toString('hex') !== chunk.root)
    throw new AppError('INTERNAL_ERROR', {
      cause: new Error(`anchor ${leaf.day}: block ${chunk.chunk_index} no longer matches its root`),
    })
  const path = [
    ...auditPath(index, hashes),
    ...auditPath(
      chunk.chunk_index,
      chunks.map((c) => Buffer.from(c.root, 'hex')),
    ),
  ]
  const proof = {
    snapshot_id: leaf.id,
    content_sha256: leaf.content_sha256,
    fetched_at: leaf.fetched_at,
    leaf_data: leafData(leaf),
    leaf_hash: hashes[index]!.toString('hex'),
    leaf_index: chunk.chunk_index * anchor.chunk_leaves + index,
    tree_size: anchor.leaf_count,
    audit_path: path.map((p) => p.toString('hex')),
  }
  cache?.set(snapshotId, { day: leaf.day, proof })
  return { ...proof, anchor: anchorView(anchor), recipe_url: recipeUrl }
}
