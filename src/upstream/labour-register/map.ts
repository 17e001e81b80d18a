/**
 * Aa-registeret's GraphQL answer to `finnArbeidsforhold` (reference/flows.md §5) → the number of
 * employments it lists. An organisation the register does not know is an error entry with the code
 * `not_found`; a null `arbeidsforhold` list is an employer with none.
 */
import { isRecord, tryParseJson } from '../../lib/json.ts'

export type EmploymentsAnswer = { ok: true; count: number | null } | { ok: false; reason: string }

const NOT_FOUND = new Set(['not_found', 'NOT_FOUND'])

export function mapEmployments(text: string): EmploymentsAnswer {
  const body = tryParseJson(text)
  if (body === undefined) return { ok: false, reason: 'body is not JSON' }
  if (!isRecord(body)) return { ok: false, reason: 'body is not an object' }
  const errors = Array.isArray(body.errors) ? body.errors : []
  if (errors.length > 0) {
    const codes = errors.map((e) => (isRecord(e) && isRecord(e.extensions) ? e.extensions.code : undefined))
    if (codes.every((c) => typeof c === 'string' && NOT_FOUND.has(c))) return { ok: true, count: null }
    return { ok: false, reason: `GraphQL errors: ${codes.map((c) => (typeof c === 'string' ? c : '?')).join(', ')}` }
  }
  const data = isRecord(body.data) ? body.data : null
  const found = data ? data.finnArbeidsforhold : undefined
  if (found === null) return { ok: true, count: null }
  if (!isRecord(found)) return { ok: false, reason: 'no finnArbeidsforhold in data' }
  const list = found.arbeidsforhold
  if (list === null || list === undefined) return { ok: true, count: 0 }
  if (!Array.isArray(list) || !list.every(isRecord)) return { ok: false, reason: 'arbeidsforhold is not a list of objects' }
  return { ok: true, count: list.length }
}
