/**
 * Aa-registeret's GraphQL answer to `finnArbeidsforhold` (contracts/nav-aareg/) → the number of
 * people the employer employs. NAV's own guidance is that one person may hold several employments
 * with the same employer, so people are counted by their identity (`arbeidstaker.ident`), not by
 * the employments listed. The identities are compared in memory and dropped: nothing but the count
 * leaves this function, and the answer's text is never kept or logged.
 *
 * An employer with no employments is an empty (or null) list; the register has no "unknown
 * organisation" answer. Its errors carry their codes in `extensions.errormessages[].code` (`AA-000`
 * internal, `AA-001` invalid query, `AA-2xx` invalid variables; a single object rather than a list
 * for `AA-000`) beside graphql-java's `extensions.classification`.
 */
import { isRecord, tryParseJson } from '../../lib/json.ts'

export type EmploymentsAnswer = { ok: true; count: number } | { ok: false; reason: string }

/** `AA-207 (ValidationError)`: what an error entry says about itself. */
function describeError(e: unknown): string {
  if (!isRecord(e)) return '?'
  const ext = isRecord(e.extensions) ? e.extensions : {}
  const messages = Array.isArray(ext.errormessages)
    ? ext.errormessages
    : isRecord(ext.errormessages)
      ? [ext.errormessages]
      : []
  const codes = messages.flatMap((m) => (isRecord(m) && typeof m.code === 'string' ? [m.code] : []))
  const classification = typeof ext.classification === 'string' ? ext.classification : null
  const code = codes.length > 0 ? codes.join('+') : typeof e.message === 'string' ? `"${e.message.slice(0, 80)}"` : '?'
  return classification ? `${code} (${classification})` : code
}

export function mapEmployments(text: string): EmploymentsAnswer {
  const body = tryParseJson(text)
  if (body === undefined) return { ok: false, reason: 'body is not JSON' }
  if (!isRecord(body)) return { ok: false, reason: 'body is not an object' }
  const errors = Array.isArray(body.errors) ? body.errors : []
  if (errors.length > 0) return { ok: false, reason: `GraphQL errors: ${errors.map(describeError).join(', ')}` }
  const data = isRecord(body.data) ? body.data : null
  const found = data ? data.finnArbeidsforhold : undefined
  if (!isRecord(found)) return { ok: false, reason: 'no finnArbeidsforhold in data' }
  const list = found.arbeidsforhold
  if (list === null || list === undefined) return { ok: true, count: 0 }
  if (!Array.isArray(list)) return { ok: false, reason: 'arbeidsforhold is not a list' }
  const people = new Set<string>()
  for (const a of list) {
    const ident = isRecord(a) && isRecord(a.arbeidstaker) ? a.arbeidstaker.ident : undefined
    if (typeof ident !== 'string' || ident === '')
      return { ok: false, reason: 'an employment without arbeidstaker.ident' }
    people.add(ident)
  }
  return { ok: true, count: people.size }
}
