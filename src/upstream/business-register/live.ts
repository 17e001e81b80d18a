/** The business register over real HTTP, in the open API's own formats (reference: upstreams.md §1). */
import type { Clock } from '../../lib/clock.ts'
import type { UpstreamClient } from '../http.ts'
import type { RawResponse, UpstreamSystem } from '../raw.ts'
import type { BusinessRegister } from './port.ts'

/** data.brreg.no serves Enhetsregisteret, Fullmakttjenesten and Regnskapsregisteret under one host. */
export const BUSINESS_REGISTER_URL = 'https://data.brreg.no'

const UNIT_TYPE = 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8'
const SUB_UNIT_TYPE = 'application/vnd.brreg.enhetsregisteret.underenhet.v2+json;charset=UTF-8'
const ROLES_TYPE = 'application/vnd.brreg.enhetsregisteret.rolle.v1+json;charset=UTF-8'
const FEED_TYPE = 'application/vnd.brreg.enhetsregisteret.oppdatering.enhet.v1+json;charset=UTF-8'
const SUB_UNIT_FEED_TYPE = 'application/vnd.brreg.enhetsregisteret.oppdatering.underenhet.v1+json;charset=UTF-8'

export class LiveBusinessRegister implements BusinessRegister {
  constructor(
    private readonly baseUrl: string,
    private readonly register: UpstreamClient,
    private readonly fullmakt: UpstreamClient,
    private readonly clock: Clock,
  ) {}

  private async get(
    client: UpstreamClient,
    system: UpstreamSystem,
    path: string,
    accept: string,
  ): Promise<RawResponse> {
    const url = `${this.baseUrl}${path}`
    const res = await client.request(url, { headers: { accept } })
    return {
      system,
      url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: res.text,
      fetchedAt: this.clock.now(),
    }
  }

  unit(orgNumber: string) {
    return this.get(this.register, 'enhetsregisteret', `/enhetsregisteret/api/enheter/${orgNumber}`, UNIT_TYPE)
  }

  subUnit(orgNumber: string) {
    return this.get(this.register, 'enhetsregisteret', `/enhetsregisteret/api/underenheter/${orgNumber}`, SUB_UNIT_TYPE)
  }

  roles(orgNumber: string) {
    return this.get(this.register, 'enhetsregisteret', `/enhetsregisteret/api/enheter/${orgNumber}/roller`, ROLES_TYPE)
  }

  signature(orgNumber: string) {
    return this.get(this.fullmakt, 'fullmakt', `/fullmakt/enheter/${orgNumber}/signatur`, 'application/json')
  }

  prokura(orgNumber: string) {
    return this.get(this.fullmakt, 'fullmakt', `/fullmakt/enheter/${orgNumber}/prokura`, 'application/json')
  }

  search(name: string, size: number) {
    const q = new URLSearchParams({ navn: name, size: String(size), page: '0' })
    return this.get(this.register, 'enhetsregisteret', `/enhetsregisteret/api/enheter?${q}`, 'application/json')
  }

  updates(fromId: number, size: number) {
    const q = new URLSearchParams({ oppdateringsid: String(fromId), size: String(size) })
    return this.get(this.register, 'enhetsregisteret', `/enhetsregisteret/api/oppdateringer/enheter?${q}`, FEED_TYPE)
  }

  updatesSince(since: Date, size: number) {
    const q = new URLSearchParams({ dato: since.toISOString(), size: String(size) })
    return this.get(this.register, 'enhetsregisteret', `/enhetsregisteret/api/oppdateringer/enheter?${q}`, FEED_TYPE)
  }

  subUnitUpdates(fromId: number, size: number) {
    const q = new URLSearchParams({ oppdateringsid: String(fromId), size: String(size) })
    return this.get(
      this.register,
      'enhetsregisteret',
      `/enhetsregisteret/api/oppdateringer/underenheter?${q}`,
      SUB_UNIT_FEED_TYPE,
    )
  }

  subUnitUpdatesSince(since: Date, size: number) {
    const q = new URLSearchParams({ dato: since.toISOString(), size: String(size) })
    return this.get(
      this.register,
      'enhetsregisteret',
      `/enhetsregisteret/api/oppdateringer/underenheter?${q}`,
      SUB_UNIT_FEED_TYPE,
    )
  }
}
