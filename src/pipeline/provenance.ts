/**
 * `_meta` for answers built from upstream reads: the oldest data used sets `data_freshness`; the
 * answer is `cache` only when every read came from the cache; `stale` when any did under an
 * outage. The primary read (the first) names `source_snapshot_id`; every snapshot used is listed (a
 * "not found" answer has none: it is cached, not archived).
 */
import type { MetaInput } from './envelope.ts'
import { DATA_SOURCES } from '../upstream/raw.ts'
import type { Provenance } from '../domain/sources.ts'

export function metaOf(sources: Provenance[]): MetaInput {
  if (sources.length === 0) return {}
  const oldest = sources.reduce((a, b) => (b.fetchedAt < a.fetchedAt ? b : a))
  const systems = [...new Set(sources.map((s) => DATA_SOURCES[s.system]))]
  const stale = sources.some((s) => s.stale)
  return {
    data_freshness: oldest.fetchedAt,
    last_verified: oldest.fetchedAt,
    data_source: systems.join('; '),
    served_from: sources.every((s) => s.servedFrom === 'cache') ? 'cache' : 'live',
    ...(stale ? { stale: true } : {}),
    ...(sources[0]!.snapshotId ? { source_snapshot_id: sources[0]!.snapshotId } : {}),
    ...(sources.length > 1
      ? { source_snapshot_ids: [...new Set(sources.flatMap((s) => (s.snapshotId ? [s.snapshotId] : [])))] }
      : {}),
  }
}
