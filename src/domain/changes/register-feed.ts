/**
 * The register's update feed in the change archive: each update of a unit becomes a `company`
 * change, citing the archived feed page as its snapshot. The feed's own update id is the change's
 * `source_ref`, so a page read again (a run that died before moving the cursor) adds nothing.
 * The feed says which unit changed, not what: `field_path` is null and `diff` empty.
 */
import { appendChanges, type NewChange } from '../../store/changes.ts'
import type { Sql } from '../../store/db.ts'
import type { UnitUpdate } from '../../upstream/business-register/map.ts'
import { CHANGE_SOURCE, FEED_CHANGE_TYPES } from './vocabulary.ts'

export async function recordFeedChanges(
  sql: Sql,
  updates: UnitUpdate[],
  snapshotId: string,
  now: Date,
): Promise<number> {
  const changes: NewChange[] = updates.map((u) => ({
    source: CHANGE_SOURCE.register,
    entity_type: 'company',
    entity_id: u.org_number,
    change_type: FEED_CHANGE_TYPES[u.change] ?? 'updated',
    field_path: null,
    before_value: null,
    after_value: null,
    diff: [],
    detected_at: now,
    source_snapshot_id: snapshotId,
    source_ref: `enhetsregisteret:oppdatering:${u.id}`,
    event_type: null,
  }))
  const appended = await sql.begin((tx) => appendChanges(tx as unknown as Sql, changes, now))
  return appended.appended.length
}
