/**
 * What an organisation has filed in the portal, newest first, paired best effort with the
 * caller's own audit trail: `filed_via_service` is true when the caller submitted that instance
 * through Plikt. False does not prove a direct filing; a failed audit read sets every flag false
 * and never fails the call. Pages are keyset cursors (opaque, bound to the organisation); the
 * deprecated `offset` still works.
 */
import { validationError } from '../../errors/app-error.ts'
import { osloTimestamp } from '../../lib/oslo-time.ts'
import type { FilingPortal, PortalInstance } from '../../upstream/filing-portal/port.ts'

export interface AuditMatch {
  audit_log_id: string
  correlation_id: string | null
}

export interface HistoryQuery {
  limit: number
  cursor?: string
  offset?: number
}

const AGENCIES: Record<string, string> = { skd: 'Skatteetaten', brg: 'Brønnøysundregistrene', nav: 'NAV' }

interface CursorState {
  org: string
  at: string
  id: string
}

export function encodeCursor(c: CursorState): string {
  return Buffer.from(JSON.stringify([1, c.org, c.at, c.id])).toString('base64url')
}

function decodeCursor(cursor: string, org: string): CursorState {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (Array.isArray(v) && v[0] === 1 && v[1] === org && typeof v[2] === 'string' && typeof v[3] === 'string')
      return { org, at: v[2], id: v[3] }
  } catch {
    // falls through to the validation error
  }
  throw validationError([
    {
      field: 'cursor',
      message: 'is not a cursor from this organisation’s filing history (use pagination.next_cursor as given)',
    },
  ])
}

/** Newest first: by submission time, then by id, both descending. */
function isAfter(i: PortalInstance, c: CursorState): boolean {
  return i.lastChanged < c.at || (i.lastChanged === c.at && i.id < c.id)
}

function entryOf(i: PortalInstance, match: AuditMatch | undefined) {
  const [app = i.appId] = i.appId.split('/').slice(1)
  return {
    instance_id: i.id,
    form_code: app,
    app_id: i.appId,
    title: i.title.nb,
    title_en: i.title.en,
    receiving_agency: AGENCIES[i.org] ?? i.org,
    submitted_at: osloTimestamp(new Date(i.lastChanged)),
    status: i.status.isSoftDeleted ? 'deleted' : i.process.ended ? 'submitted' : 'in_progress',
    filed_via_service: match !== undefined,
    service_record: match ?? null,
  }
}

export async function filingHistory(
  portal: FilingPortal,
  org: string,
  q: HistoryQuery,
  now: Date,
  submissions: (instanceIds: string[]) => Promise<Map<string, AuditMatch>>,
) {
  if (q.cursor !== undefined && q.offset !== undefined) {
    throw validationError([{ field: 'offset', message: 'cannot be combined with cursor; use cursor alone' }])
  }
  // Nothing submitted after the moment of the question is part of the answer (a pinned clock, a
  // replayed request, a portal clock ahead of ours).
  const all = (await portal.instances(org)).filter((i) => new Date(i.lastChanged).getTime() <= now.getTime())
  let rest = all
  if (q.cursor !== undefined) {
    const c = decodeCursor(q.cursor, org)
    rest = all.filter((i) => isAfter(i, c))
  } else if (q.offset !== undefined) {
    rest = all.slice(q.offset)
  }
  const page = rest.slice(0, q.limit)
  const hasMore = rest.length > page.length
  let matches = new Map<string, AuditMatch>()
  let pairing: 'ok' | 'unavailable' = 'ok'
  try {
    matches = page.length > 0 ? await submissions(page.map((i) => i.id)) : matches
  } catch {
    pairing = 'unavailable'
    matches = new Map()
  }
  const last = page[page.length - 1]
  return {
    org_number: org,
    filings: page.map((i) => entryOf(i, matches.get(i.id))),
    pagination: {
      limit: q.limit,
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor({ org, at: last.lastChanged, id: last.id }) : null,
      ...(q.offset !== undefined ? { offset: q.offset, next_offset: hasMore ? q.offset + page.length : null } : {}),
    },
    total: all.length,
    audit_pairing: pairing,
  }
}
