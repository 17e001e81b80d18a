/** Regnskapsregisteret over real HTTP (reference: upstreams.md §2). Same host as the business register. */
import type { Clock } from '../../lib/clock.ts'
import type { UpstreamClient } from '../http.ts'
import type { RawResponse } from '../raw.ts'
import type { AccountsRegister } from './port.ts'

export class LiveAccountsRegister implements AccountsRegister {
  constructor(
    private readonly baseUrl: string,
    private readonly http: UpstreamClient,
    private readonly clock: Clock,
  ) {}

  async accounts(orgNumber: string): Promise<RawResponse> {
    const url = `${this.baseUrl}/regnskapsregisteret/regnskap/${orgNumber}`
    const res = await this.http.request(url, { headers: { accept: 'application/json' } })
    return {
      system: 'regnskapsregisteret',
      url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: res.text,
      fetchedAt: this.clock.now(),
    }
  }
}
