/**
 * The digital agency as a mock: system-user requests and system users kept in PostgreSQL
 * (store/mock-agency.ts), approved or rejected on our own page (http/pages/delegation-approval.ts)
 * by a person the business register shows as able to approve. It speaks the port's shapes and
 * statuses; nothing leaves the process.
 *
 * A request lives REQUEST_LIFETIME_MS: Altinn times requests out if nobody answers, and the mock
 * does the same after ten days (our choice; the reference gives no number), judged by the clock
 * it is given, so tests move time instead of waiting.
 */
import type { Clock } from '../../lib/clock.ts'
import type { Sql } from '../../store/db.ts'
import * as store from '../../store/mock-agency.ts'
import type { DigitalAgency, NewSystemUserRequest, SystemUser, SystemUserRequest } from './port.ts'

export const REQUEST_LIFETIME_MS = 10 * 24 * 60 * 60 * 1000

/** The system the mock says is asking (Altinn ids are `<vendor org number>_<name>`; the mock has no vendor). */
export const MOCK_SYSTEM_ID = 'plikt_mock'

/** Where the approval page of a request is served (src/operations/pages.ts names the same path). */
export const approvalPath = (id: string) => `/mock/digital-agency/requests/${id}`

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A request as the approval page shows it: the port's view, and who decided when. */
export interface MockRequest extends SystemUserRequest {
  expires: string
  decision: { by: string; basis: string; at: string } | null
}

export class MockDigitalAgency implements DigitalAgency {
  readonly mock = true

  constructor(
    private readonly sql: Sql,
    private readonly baseUrl: string,
    private readonly clock: Clock,
  ) {}

  async requestSystemUser(req: NewSystemUserRequest): Promise<SystemUserRequest> {
    const now = this.clock.now()
    const row = await store.claimMockRequest(this.sql, {
      externalRef: req.externalRef,
      systemId: MOCK_SYSTEM_ID,
      partyOrgNo: req.partyOrgNo,
      accessPackages: req.accessPackages,
      redirectUrl: req.redirectUrl ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + REQUEST_LIFETIME_MS),
    })
    return this.portView(this.view(row))
  }

  async requestStatus(id: string): Promise<SystemUserRequest | null> {
    const r = await this.find(id)
    return r && this.portView(r)
  }

  async systemUser(partyOrgNo: string, externalRef: string): Promise<SystemUser | null> {
    const row = await store.findMockSystemUser(this.sql, partyOrgNo, externalRef)
    if (!row) return null
    return {
      id: row.system_user_id!,
      systemId: row.system_id,
      reporteeOrgNo: row.party_org_no,
      externalRef: row.external_ref,
      isDeleted: false,
    }
  }

  async revoke(partyOrgNo: string, externalRef: string): Promise<'revoked' | 'not_found'> {
    return (await store.endMockDelegation(this.sql, partyOrgNo, externalRef, this.clock.now()))
      ? 'revoked'
      : 'not_found'
  }

  /** The request with its decision; null for an id that is unknown or not a uuid. */
  async find(id: string): Promise<MockRequest | null> {
    if (!UUID.test(id)) return null
    const row = await store.findMockRequest(this.sql, id)
    return row && this.view(row)
  }

  /**
   * New → Accepted (a system user is created) or New → Rejected, recording who decided and when.
   * `changed: false` when the request was no longer New (decided, or timed out): nothing changed,
   * and `request` is how it stands. Null when there is no such request.
   */
  async decide(
    id: string,
    status: 'Accepted' | 'Rejected',
    by: { name: string; basis: string },
  ): Promise<{ changed: boolean; request: MockRequest } | null> {
    if (!UUID.test(id)) return null
    const row = await store.decideMockRequest(this.sql, id, {
      status,
      byName: by.name,
      byBasis: by.basis,
      at: this.clock.now(),
    })
    if (row) return { changed: true, request: this.view(row) }
    const current = await this.find(id)
    return current && { changed: false, request: current }
  }

  private view(row: store.MockRequestRow): MockRequest {
    const timedOut = row.status === 'New' && row.expires_at.getTime() <= this.clock.now().getTime()
    return {
      id: row.id,
      externalRef: row.external_ref,
      systemId: row.system_id,
      partyOrgNo: row.party_org_no,
      accessPackages: row.access_packages.map((urn) => ({ urn })),
      status: timedOut ? 'Timedout' : row.status,
      confirmUrl: `${this.baseUrl}${approvalPath(row.id)}`,
      redirectUrl: row.redirect_url,
      created: row.created_at.toISOString(),
      expires: row.expires_at.toISOString(),
      decision: row.decided_at
        ? { by: row.decided_by_name!, basis: row.decided_by_basis!, at: row.decided_at.toISOString() }
        : null,
    }
  }

  private portView(r: MockRequest): SystemUserRequest {
    const { expires: _expires, decision: _decision, ...request } = r
    return request
  }
}
