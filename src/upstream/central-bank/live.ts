/**
 * Norges Bank's open-data API for exchange rates (EXR flow, business-day frequency, spot, against
 * NOK). One request per call, made through UpstreamClient (timeouts, retries, breaker); whatever
 * status the API answers comes back as a RawResponse for `map.ts` to judge (a 404 there means "no
 * records in the window").
 */
import type { Clock } from '../../lib/clock.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import type { UpstreamClient } from '../http.ts'
import type { RawResponse } from '../raw.ts'

export const CENTRAL_BANK_URL = 'https://data.norges-bank.no'

const CURRENCY = /^[A-Z0-9]{3}$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

export class CentralBankClient {
  private readonly baseUrl: string

  constructor(
    baseUrl: string,
    private readonly http: UpstreamClient,
    private readonly clock: Clock,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '')
  }

  /** The URL for `currencies` (joined with `+`, SDMX's OR) between two dates, both inclusive. */
  exchangeRatesUrl(currencies: string[], from: LocalDate, to: LocalDate): string {
    const list = [...new Set(currencies)]
    if (list.length === 0) throw new TypeError('CentralBankClient: no currency given')
    for (const c of list)
      if (!CURRENCY.test(c)) throw new TypeError(`CentralBankClient: not a currency code: ${JSON.stringify(c)}`)
    for (const d of [from, to])
      if (!DATE.test(d)) throw new TypeError(`CentralBankClient: not a YYYY-MM-DD date: ${JSON.stringify(d)}`)
    return `${this.baseUrl}/api/data/EXR/B.${list.join('+')}.NOK.SP?format=sdmx-json&startPeriod=${from}&endPeriod=${to}&locale=en`
  }

  async exchangeRates(currencies: string[], from: LocalDate, to: LocalDate): Promise<RawResponse> {
    const url = this.exchangeRatesUrl(currencies, from, to)
    const res = await this.http.request(url, {
      headers: { accept: 'application/vnd.sdmx.data+json, application/json;q=0.9' },
    })
    return {
      system: 'norges-bank',
      url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: res.text,
      fetchedAt: this.clock.now(),
    }
  }
}
