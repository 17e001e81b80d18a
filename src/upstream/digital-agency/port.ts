/**
 * The digital agency's system-user API (Altinn Authentication, reference/flows.md §2.2): Plikt, a
 * registered system, asks an organisation to create a system user for it with some rights; a
 * person with the right to delegate in that organisation approves at `confirmUrl`; the request
 * then reads `Accepted` and a system user exists. Field names are the API's own.
 */
export type SystemUserRequestStatus = 'New' | 'Accepted' | 'Rejected' | 'Denied' | 'Timedout'

export interface SystemUserRequest {
  /** the request's id (uuid) */
  id: string
  /** ours: one per (consumer, agent principal, organisation), so a retried request finds the first */
  externalRef: string
  systemId: string
  partyOrgNo: string
  /** the rights asked for, as access-package URNs */
  accessPackages: { urn: string }[]
  status: SystemUserRequestStatus
  /** where the organisation's administrator approves (the delegation_url we hand the agent) */
  confirmUrl: string
  redirectUrl: string | null
  created: string
}

export interface SystemUser {
  /** the system user's id (uuid): what the principal is bound to, once */
  id: string
  systemId: string
  reporteeOrgNo: string
  externalRef: string
  isDeleted: boolean
}

export interface NewSystemUserRequest {
  partyOrgNo: string
  externalRef: string
  accessPackages: string[]
  redirectUrl?: string
}

export interface DigitalAgency {
  readonly mock: boolean
  /**
   * Creates the request, or — when one with this externalRef exists already (an open request, or
   * the system user an accepted one made) — returns that one: a retry never makes a second request.
   */
  requestSystemUser(req: NewSystemUserRequest): Promise<SystemUserRequest>
  /** the request as it stands; null when the agency does not know it (AUTH-00010) */
  requestStatus(id: string): Promise<SystemUserRequest | null>
  /** the system user an accepted request created; null before acceptance or after deletion */
  systemUser(partyOrgNo: string, externalRef: string): Promise<SystemUser | null>
  /**
   * Ends the delegation: deletes the pending request or the system user. `not_found` when there
   * was nothing to delete (already gone); `unconfirmed` when a system user exists that only the
   * organisation can delete (the live agency has no vendor route for it). Throws on an upstream
   * failure. On either of the last two the caller records the revocation locally anyway and warns
   * `upstream_revoke_unconfirmed`.
   */
  revoke(partyOrgNo: string, externalRef: string): Promise<'revoked' | 'not_found' | 'unconfirmed'>
}
