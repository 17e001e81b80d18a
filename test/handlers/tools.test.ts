/**
 * The keyless tools over real HTTP: `GET /api/v1/tools/exchange-rate` (Norges Bank through its
 * fixture server, cached) and `GET /api/v1/tools/portal-migration` (static table). The clock is
 * pinned to Saturday 2026-03-14 09:30Z (10:30 in Oslo). Expected rates come from the fixture's own
 * series (fixtures/data/rates.ts), not from the service.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { observations } from '../../fixtures/data/rates.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { freshIp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())
afterEach(async () => {
  await fetch(`${app.fixtures.centralBankUrl}/__control/faults`, { method: 'DELETE' })
})

async function rate(query: string) {
  const res = await app.get(`/api/v1/tools/exchange-rate?${query}`, { headers: freshIp() })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

async function migration(query: string) {
  const res = await app.get(`/api/v1/tools/portal-migration${query}`, { headers: freshIp() })
  return { status: res.status, body: (await res.json()) as any }
}

/** The value the fixture publishes for a currency on a day (NOK per 10^UNIT_MULT units). */
function published(code: string, day: string): string {
  const hit = observations(code)?.find(([d]) => d === day)
  if (!hit) throw new Error(`the fixture has no ${code} rate on ${day}`)
  return hit[1]
}

/**
 * The database is shared by every test file and, on PostgreSQL, by earlier runs: drop any cached
 * answer for windows ending on `day`, so the next read has to ask Norges Bank.
 */
async function forgetWindow(code: string, day: string) {
  await app.deps
    .sql`delete from upstream_cache where system = 'norges-bank' and resource_key like ${`exr:${code}:%:${day}`}`
}

async function norgesBankRequests(): Promise<{ path: string; query: string }[]> {
  return (await fetch(`${app.fixtures.centralBankUrl}/__control/requests`)).json() as Promise<
    { path: string; query: string }[]
  >
}

async function fault(spec: Record<string, unknown>) {
  const res = await fetch(`${app.fixtures.centralBankUrl}/__control/faults`, {
    method: 'POST',
    body: JSON.stringify(spec),
    headers: { 'content-type': 'application/json' },
  })
  expect(res.status).toBe(201)
}

describe('exchange rate', () => {
  test('USD on the pinned Saturday falls back to Friday 2026-03-13 with fallback_reason weekend', async () => {
    const r = await rate('currency=USD')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      currency: 'USD',
      requested_date: '2026-03-14',
      date: '2026-03-13',
      fallback_reason: 'weekend',
      published_value: published('USD', '2026-03-13'),
      unit_multiplier: 1,
    })
    expect(r.body.data.rate).toBe(Number(published('USD', '2026-03-13')))
    expect(r.body.data.fallback_detail).toContain('2026-03-14')
  })

  test('an explicit business date is answered with that day’s rate and no fallback', async () => {
    const r = await rate('currency=EUR&date=2026-03-10')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      currency: 'EUR',
      requested_date: '2026-03-10',
      date: '2026-03-10',
      fallback_reason: null,
      fallback_detail: null,
    })
    expect(r.body.data.rate).toBe(Number(published('EUR', '2026-03-10')))
  })

  test('is labelled base NOK, quote the currency: rate is NOK per one unit of the quoted currency', async () => {
    const r = await rate('currency=eur&date=2026-03-10')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      base: 'NOK',
      quote: 'EUR',
      currency: 'EUR',
      rate: Number(published('EUR', '2026-03-10')),
    })
    // NOK per euro is around 11 (Norges Bank EXR, UNIT_MULT 0): not its inverse, euro per NOK.
    expect(r.body.data.rate).toBeWithin(10, 13)
  })

  for (const code of ['SEK', 'JPY']) {
    test(`${code} (UNIT_MULT 2, published per 100) is given as NOK per ONE unit: rate = published / 100`, async () => {
      const value = published(code, '2026-03-10')
      const r = await rate(`currency=${code}&date=2026-03-10`)
      expect(r.status).toBe(200)
      expect(r.body.data.published_value).toBe(value)
      expect(r.body.data.unit_multiplier).toBe(100)
      expect(r.body.data.rate).toBeCloseTo(Number(value) / 100, 10)
      expect(r.body.data.nok_per_unit).toBeCloseTo(Number(value) / 100, 10)
    })
  }

  test('a public holiday falls back to the previous publication with fallback_reason public_holiday', async () => {
    // 1 January is a holiday and Norges Bank publishes nothing on 31 December: the rate is 30 December's
    const r = await rate('currency=USD&date=2026-01-01')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      requested_date: '2026-01-01',
      date: '2025-12-30',
      fallback_reason: 'public_holiday',
    })
    expect(r.body.data.rate).toBe(Number(published('USD', '2025-12-30')))
  })

  test('today before 16:00 Oslo falls back to the previous business day (not_yet_published), even if the upstream has today’s rate', async () => {
    // Friday 2026-03-13, 11:00 in Oslo: the fixture already serves the 13th, but it is not published yet
    const early = await startApp({ clock: fixedClock('2026-03-13T10:00:00.000Z') })
    try {
      const res = await early.get('/api/v1/tools/exchange-rate?currency=USD', { headers: freshIp() })
      expect(res.status).toBe(200)
      const data = (await res.json()).data
      expect(data).toMatchObject({
        requested_date: '2026-03-13',
        date: '2026-03-12',
        fallback_reason: 'not_yet_published',
      })
      expect(data.rate).toBe(Number(published('USD', '2026-03-12')))
    } finally {
      await early.stop()
    }
  })

  test('a lower-case currency code is accepted', async () => {
    const r = await rate('currency=usd&date=2026-03-10')
    expect(r.status).toBe(200)
    expect(r.body.data.currency).toBe('USD')
    expect(r.body.data.rate).toBe(Number(published('USD', '2026-03-10')))
  })

  test('an unknown currency is 400 INVALID_CURRENCY', async () => {
    const r = await rate('currency=XYZ')
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('INVALID_CURRENCY')
  })

  for (const [date, why] of [
    ['2026-02-30', 'a date that does not exist'],
    ['2026-03-15', 'a future date'],
  ] as const) {
    test(`${why} (${date}) is 400 INVALID_DATE`, async () => {
      const r = await rate(`currency=USD&date=${date}`)
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('INVALID_DATE')
    })
  }

  test('no key is needed', async () => {
    const res = await fetch(`${app.url}/api/v1/tools/exchange-rate?currency=GBP&date=2026-03-10`, {
      headers: freshIp(),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).success).toBe(true)
  })

  test('_meta.data_source is Norges Bank; served_from is live, then cache on a repeat with no second upstream request', async () => {
    const day = '2025-06-18'
    await forgetWindow('CHF', day)
    await fetch(`${app.fixtures.centralBankUrl}/__control/requests`, { method: 'DELETE' })
    const first = await rate(`currency=CHF&date=${day}`)
    expect(first.status).toBe(200)
    expect(first.body._meta).toMatchObject({ data_source: 'Norges Bank', served_from: 'live' })
    expect(first.body._meta.source_snapshot_id).toBeTruthy()
    const second = await rate(`currency=CHF&date=${day}`)
    expect(second.status).toBe(200)
    expect(second.body._meta).toMatchObject({ data_source: 'Norges Bank', served_from: 'cache' })
    expect(second.body.data).toEqual(first.body.data)
    const calls = (await norgesBankRequests()).filter((q) => q.path.startsWith('/api/data/EXR'))
    expect(calls.length).toBe(1)
    expect(calls[0]!.path).toContain('CHF')
  })

  test('Norges Bank down (503) with nothing cached for the window is 503 UPSTREAM_UNAVAILABLE', async () => {
    const day = '2025-09-17'
    await forgetWindow('GBP', day)
    await fault({ match: '/api/data/EXR', mode: 'status', status: 503 })
    const r = await rate(`currency=GBP&date=${day}`)
    expect(r.status).toBe(503)
    expect(r.body).toMatchObject({ error_code: 'UPSTREAM_UNAVAILABLE', retryable: true })
  })

  test('Norges Bank answering garbage is 502 GOVERNMENT_API_ERROR, and the garbage is not cached', async () => {
    const day = '2025-10-15'
    await forgetWindow('AUD', day)
    await fault({ match: '/api/data/EXR', mode: 'malformed', times: 1 })
    const r = await rate(`currency=AUD&date=${day}`)
    expect(r.status).toBe(502)
    expect(r.body.error_code).toBe('GOVERNMENT_API_ERROR')
    const again = await rate(`currency=AUD&date=${day}`)
    expect(again.status).toBe(200)
    expect(again.body._meta.served_from).toBe('live')
    expect(again.body.data.rate).toBe(Number(published('AUD', day)))
  })
})

describe('portal migration', () => {
  test('A0239 is verified and maps to regnskapsforer-med-signeringsrettighet', async () => {
    const r = await migration('?portal2_code=A0239')
    expect(r.status).toBe(200)
    expect(r.body.data.portal2_code).toBe('A0239')
    expect(r.body.data.verified).toBe(true)
    expect(r.body.data.portal3.map((p: { package: string }) => p.package)).toEqual([
      'regnskapsforer-med-signeringsrettighet',
    ])
    expect(r.body.data.portal3[0].urn).toBe('urn:altinn:accesspackage:regnskapsforer-med-signeringsrettighet')
  })

  test('a row backed only by a name match (basis N) is not verified', async () => {
    const r = await migration('?portal2_code=A0298')
    expect(r.status).toBe(200)
    expect(r.body.data.basis).toEqual(['N'])
    expect(r.body.data.verified).toBe(false)
  })

  test('no key is needed', async () => {
    const res = await fetch(`${app.url}/api/v1/tools/portal-migration?portal2_code=dagl`, { headers: freshIp() })
    expect(res.status).toBe(200)
    expect((await res.json()).data.portal2_code).toBe('DAGL')
  })

  test('an unknown code is 404 NOT_FOUND', async () => {
    const r = await migration('?portal2_code=ZZZZ9')
    expect(r.status).toBe(404)
    expect(r.body.error_code).toBe('NOT_FOUND')
  })

  test('a missing portal2_code is 400 VALIDATION_FAILED', async () => {
    const r = await migration('')
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('VALIDATION_FAILED')
  })
})
