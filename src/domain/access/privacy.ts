/**
 * Data-subject requests: the transparency surface of the spec's Category A. A request is recorded,
 * acknowledged with a reference and the answer deadline (GDPR art. 12 (3): one month), and shown to
 * the operator. The answer itself goes out by e-mail from a person; nothing is deleted automatically.
 */
import { addMonths } from '../../lib/local-date.ts'
import { endOfOsloDay, osloDate } from '../../lib/oslo-time.ts'
import type { Sql } from '../../store/db.ts'
import { appendAudit } from '../../store/audit.ts'
import { insertPrivacyRequest, type PrivacyRequestRow } from '../../store/privacy.ts'
import { normaliseEmail } from './signin.ts'

export const PRIVACY_REQUEST_TYPES = [
  'access',
  'rectification',
  'erasure',
  'restriction',
  'portability',
  'objection',
] as const

export async function receivePrivacyRequest(
  sql: Sql,
  r: { email: string; requestType: (typeof PRIVACY_REQUEST_TYPES)[number]; details: string | null },
  now: Date,
  correlationId: string,
): Promise<PrivacyRequestRow> {
  const respondBy = new Date(endOfOsloDay(addMonths(osloDate(now), 1)))
  const row = await insertPrivacyRequest(sql, {
    email: normaliseEmail(r.email),
    requestType: r.requestType,
    details: r.details,
    receivedAt: now,
    respondBy,
  })
  await appendAudit(sql, {
    consumerId: null,
    actor: 'anonymous',
    action: 'privacy_request_received',
    correlationId,
    details: { request_id: row.id, request_type: r.requestType },
  })
  return row
}
