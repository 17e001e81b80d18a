/**
 * Reading the change archive (GET /api/v1/changes). Pages follow the archive's order (`seq`,
 * oldest first) with an opaque cursor holding the last position read. Since rows are committed in
 * `seq` order (store/changes.ts), a client that keeps asking with `next_cursor` sees every row
 * exactly once, however many arrive meanwhile — including after an empty page, whose cursor
 * stays where it was.
 */
import { validationError } from '../../errors/app-error.ts'
import { listChanges, type ChangeFilter, type ChangeRow } from '../../store/changes.ts'
import type { Sql } from '../../store/db.ts'

export const CHANGES_PAGE = { default: 50, max: 200 } as const

/** The spec's Change row. */
export function changeView(r: ChangeRow) {
  return {
    id: r.id,
    source: r.source,
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    change_type: r.change_type,
    field_path: r.field_path,
    before_value: r.before_value,
    after_value: r.after_value,
    diff: r.diff,
    detected_at: r.detected_at.toISOString(),
    source_snapshot_id: r.source_snapshot_id,
  }
}

export type ChangeView = ReturnType<typeof changeView>

const CURSOR = /^c1\.(\d{1,19})$/
/** PostgreSQL's bigint maximum */
const MAX_SEQ = 9_223_372_036_854_775_807n

export function encodeCursor(seq: bigint): string {
  return Buffer.from(`c1.${seq}`, 'utf8').toString('base64url')
}

function decodeCursor(cursor: string): bigint {
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  const seq = m ? BigInt(m[1]!) : -1n
  // `seq` is a bigint column: a position past its range was never given (and would fail the query).
  if (seq < 0n || seq > MAX_SEQ)
    throw validationError([{ field: 'cursor', message: 'is not a cursor this route gave (use next_cursor as given)' }])
  return seq
}

export interface ChangesQuery extends Omit<ChangeFilter, 'since' | 'entity_ids'> {
  since?: string
  cursor?: string
  limit?: number
}

/** `entities`: only rows of these entities (a portfolio's companies, domain/portfolios/changes.ts). */
export async function readChanges(sql: Sql, q: ChangesQuery, entities?: string[]) {
  const after = q.cursor === undefined ? 0n : decodeCursor(q.cursor)
  const limit = q.limit ?? CHANGES_PAGE.default
  const { cursor: _c, limit: _l, since, ...filter } = q
  const rows = await listChanges(
    sql,
    {
      ...filter,
      ...(since !== undefined ? { since: new Date(since) } : {}),
      ...(entities !== undefined ? { entity_ids: entities } : {}),
    },
    after,
    limit + 1,
  )
  const page = rows.slice(0, limit)
  const last = page.length > 0 ? BigInt(page[page.length - 1]!.seq) : after
  return { changes: page.map(changeView), next_cursor: encodeCursor(last), has_more: rows.length > limit }
}
