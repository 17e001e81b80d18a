/**
 * A sandbox company's audit trail: the synthetic history it starts with (its delegation and the
 * filings on record, the same for everyone) followed by what the caller's own namespace did to
 * it. Anonymous callers see the history only: their writes land in a shared namespace, and
 * showing it would make one stranger's rehearsal appear in another's answer.
 */
import { ANONYMOUS_SANDBOX_NAMESPACE } from './namespaces.ts'
import { uuidV5 } from '../../lib/uuid-v5.ts'
import { osloTimestamp } from '../../lib/oslo-time.ts'
import { SANDBOX_AUDIT_NAMESPACE } from '../actions/receipt.ts'
import { sandboxAuditFor, type AuditValue } from '../../store/sandbox-audit.ts'
import type { Sql } from '../../store/db.ts'
import type { SandboxCompany } from '../../../fixtures/sandbox/companies.ts'

export interface SandboxAuditEntry {
  id: string
  timestamp: string
  org_number: string
  action: string
  initiated_by: string
  details: Record<string, AuditValue>
}

const FILING_ACTION: Record<string, string> = {
  'mva-termin': 'submit_mva',
  'mva-arstermin': 'submit_mva',
  'a-melding': 'submit_a_melding',
}

/** The history every caller sees, newest first. */
export function fixtureHistory(c: SandboxCompany): SandboxAuditEntry[] {
  const out: SandboxAuditEntry[] = []
  if (c.delegation.system_user) {
    out.push({
      id: uuidV5(`${c.org_number}|delegation.granted`, SANDBOX_AUDIT_NAMESPACE),
      timestamp: '2025-06-02T09:00:00.000+02:00',
      org_number: c.org_number,
      action: 'delegation.granted',
      initiated_by: 'sandbox_fixture',
      details: { system_user: true, scopes: c.delegation.scopes.join(' ') },
    })
  }
  for (const [rule, period, at] of c.filed) {
    out.push({
      id: uuidV5(`${c.org_number}|${rule}|${period}`, SANDBOX_AUDIT_NAMESPACE),
      timestamp: osloTimestamp(new Date(at)),
      org_number: c.org_number,
      action: FILING_ACTION[rule] ?? 'submit',
      initiated_by: 'sandbox_fixture',
      details: { rule_id: rule, period, outcome: 'ACCEPTED' },
    })
  }
  return out.sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1))
}

/**
 * The newest `limit` entries: the namespace's own rows (newest first), then the fixture history.
 * Only that many rows are read, however many the namespace has written.
 */
export async function sandboxAudit(
  sql: Sql,
  namespace: string,
  c: SandboxCompany,
  limit: number,
): Promise<SandboxAuditEntry[]> {
  const own =
    namespace === ANONYMOUS_SANDBOX_NAMESPACE
      ? []
      : (await sandboxAuditFor(sql, namespace, c.org_number, limit)).map((r) => ({
          id: r.id,
          timestamp: osloTimestamp(r.occurred_at),
          org_number: r.org_number,
          action: r.action,
          initiated_by: r.initiated_by,
          details: r.details,
        }))
  return [...own, ...fixtureHistory(c)].slice(0, limit)
}
