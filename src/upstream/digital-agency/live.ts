/**
 * The digital agency's system-user API over real HTTP (Altinn Authentication, reference/flows.md
 * §2.2), as the registered system `systemId`, with a token-service token of the request scopes.
 *
 * Idempotent by `externalRef`, as the agency's own controller answers a repeated request
 * (contracts/altinn-authentication/SOURCES.md): a request still open (not timed out) comes back as
 * 200 with that request, whatever its status; when the system user it made exists, the answer is
 * 400 `AUTH-00004` and the accepted request is looked up by externalRef. The older answers
 * (AUTH-00006 accepted, AUTH-00007 pending, AUTH-00008/-00009 denied or rejected) are read the same
 * way. So a retried request never makes a second one, and one a company refused is never quietly
 * renewed.
 *
 * A vendor can delete a pending request (`DELETE request/vendor/{id}`), but the API has no vendor
 * route that deletes a system user: only the organisation's administrator can, in Altinn. Revoking
 * an accepted delegation therefore stops Plikt from using it (no token is asked for it again) and
 * answers `unconfirmed`, which the caller reports as `upstream_revoke_unconfirmed`.
 */
import { AppError } from '../../errors/app-error.ts'
import { tryParseJson } from '../../lib/json.ts'
import type { UpstreamClient, UpstreamResponse } from '../http.ts'
import type { TokenService } from '../token-service/port.ts'
import { mapSystemUser, mapSystemUserRequest, problemCode } from './map.ts'
import type { DigitalAgency, NewSystemUserRequest, SystemUser, SystemUserRequest } from './port.ts'

export const DIGITAL_AGENCY_NAME = 'Altinn'

/** The token-service scopes of the system-user API. The system-user lookup needs the write scope (an API quirk). */
export const SYSTEM_USER_SCOPES = {
  write: 'altinn:authentication/systemuser.request.write',
  read: 'altinn:authentication/systemuser.request.read',
} as const

export interface DigitalAgencyConfig {
  /** e.g. https://platform.altinn.no, no trailing slash */
  platformUrl: string
  /** our system's id in the system register, `<vendor orgno>_<name>` */
  systemId: string
}

/**
 * The answers that say something with this externalRef exists already: AUTH-00004 the system user
 * an accepted request made; AUTH-00006 … -00009 a request in each state.
 */
const EXISTS = new Set(['AUTH-00004', 'AUTH-00006', 'AUTH-00007', 'AUTH-00008', 'AUTH-00009'])

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const context = { upstream_system: DIGITAL_AGENCY_NAME }

function unreadable(): AppError {
  return new AppError('GOVERNMENT_API_ERROR', {
    context,
    extra: { upstream_system: DIGITAL_AGENCY_NAME, reason: 'unreadable answer' },
  })
}

function refused(res: UpstreamResponse): AppError {
  return new AppError('GOVERNMENT_API_ERROR', {
    context,
    extra: { upstream_system: DIGITAL_AGENCY_NAME, upstream_status: res.status, upstream_code: problemCode(res.text) },
  })
}

export class LiveDigitalAgency implements DigitalAgency {
  readonly mock = false
  private readonly base: string

  constructor(
    private readonly config: DigitalAgencyConfig,
    private readonly tokens: TokenService,
    private readonly client: UpstreamClient,
  ) {
    this.base = `${config.platformUrl}/authentication/api/v1/systemuser`
  }

  private async call(method: string, path: string, scope: string, body?: unknown): Promise<UpstreamResponse> {
    const { access_token } = await this.tokens.token({ scope })
    const headers: Record<string, string> = { authorization: `Bearer ${access_token}`, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    return this.client.request(`${this.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  }

  private request(res: UpstreamResponse): SystemUserRequest {
    const mapped = mapSystemUserRequest(tryParseJson(res.text))
    if (!mapped) throw unreadable()
    return mapped
  }

  async requestSystemUser(req: NewSystemUserRequest): Promise<SystemUserRequest> {
    const body = {
      externalRef: req.externalRef,
      systemId: this.config.systemId,
      partyOrgNo: req.partyOrgNo,
      accessPackages: req.accessPackages.map((urn) => ({ urn })),
      ...(req.redirectUrl === undefined ? {} : { redirectUrl: req.redirectUrl }),
    }
    const res = await this.call('POST', '/request/vendor', SYSTEM_USER_SCOPES.write, body)
    if (res.status === 200 || res.status === 201) return this.request(res)
    if (res.status === 400 && EXISTS.has(problemCode(res.text) ?? '')) {
      const existing = await this.byExternalRef(req.partyOrgNo, req.externalRef)
      // Said to exist, then not found: deleted in between. Not ours to recreate behind the caller's back.
      if (!existing) throw refused(res)
      return existing
    }
    throw refused(res)
  }

  async requestStatus(id: string): Promise<SystemUserRequest | null> {
    // The API answers 400 to an id that is not a uuid: it cannot know such a request either.
    if (!UUID.test(id)) return null
    const res = await this.call('GET', `/request/vendor/${id}`, SYSTEM_USER_SCOPES.read)
    if (res.status === 200) return this.request(res)
    if (res.status === 404) return null
    throw refused(res)
  }

  private async byExternalRef(partyOrgNo: string, externalRef: string): Promise<SystemUserRequest | null> {
    const path = `/request/vendor/byexternalref/${encodeURIComponent(this.config.systemId)}/${encodeURIComponent(partyOrgNo)}/${encodeURIComponent(externalRef)}`
    const res = await this.call('GET', path, SYSTEM_USER_SCOPES.read)
    if (res.status === 200) return this.request(res)
    if (res.status === 404) return null
    throw refused(res)
  }

  async systemUser(partyOrgNo: string, externalRef: string): Promise<SystemUser | null> {
    const q = new URLSearchParams({ 'system-id': this.config.systemId, orgno: partyOrgNo, 'external-ref': externalRef })
    const res = await this.call('GET', `/vendor/byquery?${q}`, SYSTEM_USER_SCOPES.write)
    if (res.status === 404) return null
    if (res.status !== 200) throw refused(res)
    const user = mapSystemUser(tryParseJson(res.text))
    if (!user) throw unreadable()
    return user.isDeleted ? null : user
  }

  /**
   * A pending request is deleted. An accepted one made a system user the vendor cannot delete
   * (see the header): `unconfirmed`. A refused, denied or timed-out request delegated nothing:
   * there is nothing to end.
   */
  async revoke(partyOrgNo: string, externalRef: string): Promise<'revoked' | 'not_found' | 'unconfirmed'> {
    const request = await this.byExternalRef(partyOrgNo, externalRef)
    if (request?.status === 'New') return this.delete(`/request/vendor/${request.id}`)
    if (request && request.status !== 'Accepted') return 'not_found'
    const user = await this.systemUser(partyOrgNo, externalRef)
    return user ? 'unconfirmed' : 'not_found'
  }

  private async delete(path: string): Promise<'revoked' | 'not_found'> {
    const res = await this.call('DELETE', path, SYSTEM_USER_SCOPES.write)
    if (res.status === 200 || res.status === 202 || res.status === 204) return 'revoked'
    if (res.status === 404) return 'not_found'
    throw refused(res)
  }
}
