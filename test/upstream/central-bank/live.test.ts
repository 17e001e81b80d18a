/**
 * The live adapter against a stub of Norges Bank's API: the URL it builds and the RawResponse it
 * hands back, whatever the status.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fixedClock, systemClock } from '../../../src/lib/clock.ts'
import { READ_POLICY, UpstreamClient } from '../../../src/upstream/http.ts'
import { mapExchangeRates } from '../../../src/upstream/central-bank/map.ts'
import { CENTRAL_BANK_URL, CentralBankClient } from '../../../src/upstream/central-bank/live.ts'

const single = await Bun.file(`${import.meta.dir}/fixtures/single-usd.json`).text()
const requests: string[] = []
let server: ReturnType<typeof Bun.serve>
let base: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      requests.push(req.url)
      const path = new URL(req.url).pathname
      if (path === '/api/data/EXR/B.USD.NOK.SP')
        return new Response(single, {
          headers: { 'content-type': 'application/vnd.sdmx.data+json; charset=utf-8; version=1.0' },
        })
      if (path === '/api/data/EXR/B.BAD.NOK.SP') return new Response('Bad Request', { status: 400 })
      return new Response('NoRecordsFound', { status: 404, headers: { 'content-type': 'text/plain' } })
    },
  })
  base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))

const clock = fixedClock('2026-03-04T15:30:00Z')
const client = () =>
  new CentralBankClient(`${base}/`, new UpstreamClient('Norges Bank', READ_POLICY, systemClock), clock)

describe('request', () => {
  test('the production base URL is data.norges-bank.no', () => {
    expect(CENTRAL_BANK_URL).toBe('https://data.norges-bank.no')
  })

  test('asks for business-day spot rates against NOK in SDMX-JSON for the window', async () => {
    requests.length = 0
    await client().exchangeRates(['USD'], '2026-02-18', '2026-03-04')
    const url = new URL(requests[0]!)
    expect(url.pathname).toBe('/api/data/EXR/B.USD.NOK.SP')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'sdmx-json',
      startPeriod: '2026-02-18',
      endPeriod: '2026-03-04',
      locale: 'en',
    })
  })

  test('several currencies are joined with a literal +, duplicates dropped', async () => {
    requests.length = 0
    await client().exchangeRates(['USD', 'EUR', 'USD', 'SEK'], '2026-03-02', '2026-03-04')
    expect(requests[0]).toContain('/api/data/EXR/B.USD+EUR+SEK.NOK.SP?')
  })

  test('a code that is not three upper-case characters is refused before any request', () => {
    requests.length = 0
    expect(() => client().exchangeRatesUrl(['usd/../x'], '2026-03-02', '2026-03-04')).toThrow(TypeError)
    expect(() => client().exchangeRatesUrl(['USD'], '2026-3-2', '2026-03-04')).toThrow(TypeError)
    expect(requests).toHaveLength(0)
  })
})

describe('response', () => {
  test('a 200 comes back as the raw answer of system norges-bank', async () => {
    const r = await client().exchangeRates(['USD'], '2026-03-02', '2026-03-04')
    expect(r).toMatchObject({ system: 'norges-bank', status: 200, body: single, fetchedAt: clock.now() })
    expect(r.url).toBe(
      `${base}/api/data/EXR/B.USD.NOK.SP?format=sdmx-json&startPeriod=2026-03-02&endPeriod=2026-03-04&locale=en`,
    )
    expect(r.contentType).toContain('application/vnd.sdmx.data+json')
  })

  test('a 404 (no records) comes back as a RawResponse, not an error, and maps to nothing', async () => {
    const r = await client().exchangeRates(['EUR'], '2026-03-07', '2026-03-08')
    expect(r).toMatchObject({ system: 'norges-bank', status: 404, body: 'NoRecordsFound' })
    expect(mapExchangeRates(r).size).toBe(0)
  })

  test('another 4xx comes back as a RawResponse too (map.ts judges it)', async () => {
    const r = await client().exchangeRates(['BAD'], '2026-03-02', '2026-03-04')
    expect(r.status).toBe(400)
  })
})
