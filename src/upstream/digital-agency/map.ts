/**
 * The system-user API's answers (reference/flows.md §2.2) → the port's shapes, which keep the API's
 * own field names. Pure functions; null means "not in the format we know" and the client reports it
 * as an unreadable answer.
 */
import { isRecord, tryParseJson } from '../../lib/json.ts'
import type { SystemUser, SystemUserRequest, SystemUserRequestStatus } from './port.ts'

const STATUSES: readonly SystemUserRequestStatus[] = ['New', 'Accepted', 'Rejected', 'Denied', 'Timedout']

const str = (v: unknown): v is string => typeof v === 'string'

/**
 * A system-user request. `redirectUrl` '' (as the API echoes an unset one) is null; `created` is
 * '' when the answer leaves it out, as the documentation's own examples do.
 */
export function mapSystemUserRequest(body: unknown): SystemUserRequest | null {
  if (!isRecord(body)) return null
  const { id, externalRef, systemId, partyOrgNo, status, confirmUrl, redirectUrl, created, accessPackages } = body
  if (!str(id) || !str(externalRef) || !str(systemId) || !str(partyOrgNo) || !str(confirmUrl)) return null
  if (!STATUSES.includes(status as SystemUserRequestStatus)) return null
  if (accessPackages !== undefined && accessPackages !== null && !Array.isArray(accessPackages)) return null
  const packages: { urn: string }[] = []
  for (const p of (accessPackages as unknown[] | null | undefined) ?? []) {
    if (!isRecord(p) || !str(p.urn)) return null
    packages.push({ urn: p.urn })
  }
  return {
    id,
    externalRef,
    systemId,
    partyOrgNo,
    accessPackages: packages,
    status: status as SystemUserRequestStatus,
    confirmUrl,
    redirectUrl: str(redirectUrl) && redirectUrl !== '' ? redirectUrl : null,
    created: str(created) ? created : '',
  }
}

export function mapSystemUser(body: unknown): SystemUser | null {
  if (!isRecord(body)) return null
  const { id, systemId, reporteeOrgNo, externalRef, isDeleted } = body
  if (!str(id) || !str(systemId) || !str(reporteeOrgNo) || !str(externalRef) || typeof isDeleted !== 'boolean')
    return null
  return { id, systemId, reporteeOrgNo, externalRef, isDeleted }
}

/** The error code of a problem-details answer (`AUTH-00007` …); null when it carries none. */
export function problemCode(text: string): string | null {
  const body = tryParseJson(text)
  return isRecord(body) && str(body.code) ? body.code : null
}
