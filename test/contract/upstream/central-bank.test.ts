/**
 * The SDMX-JSON 1.0 data-message schema (contracts/norges-bank/, SOURCES.md: the version Norges Bank
 * serves) judges the fixture server's EXR answers and the recorded answers (issue 26, item 2). Norges
 * Bank publishes no example answer of its own; the SDMX working group's EXR sample is in the ECB's
 * structure, and the adapter must refuse it rather than misread it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { CURRENCIES } from '../../../fixtures/data/rates.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { READ_POLICY, UpstreamClient } from '../../../src/upstream/http.ts'
import { CentralBankClient } from '../../../src/upstream/central-bank/live.ts'
import { mapExchangeRates } from '../../../src/upstream/central-bank/map.ts'
import { MalformedUpstream } from '../../../src/upstream/raw.ts'
import { jsonSchema, loadContract, loadExample } from '../../helpers.ts'

const sdmx = jsonSchema(
  'SDMX-JSON 1.0 data message',
  await loadContract('norges-bank/sdmx-json-data-schema-1.0.json'),
  { isoDateTime: true },
)
const recorded = `${import.meta.dir}/../../upstream/central-bank/fixtures`
const single = (await Bun.file(`${recorded}/single-usd.json`).json()) as Record<string, any>

let servers: FixtureServers
let bank: CentralBankClient

beforeAll(async () => {
  servers = await startFixtureServers()
  bank = new CentralBankClient(
    servers.centralBankUrl,
    new UpstreamClient('Norges Bank', READ_POLICY, fixedClock('2026-03-04T16:00:00Z')),
    fixedClock('2026-03-04T16:00:00Z'),
  )
})
afterAll(() => servers.stop())

describe('the contract itself', () => {
  test('the recorded one-currency answer passes', () => {
    expect(sdmx.errors(single)).toEqual([])
  })

  test('a message whose meta names no sender fails', () => {
    const { sender: _sender, ...meta } = single.meta
    expect(sdmx.errors({ ...single, meta })).not.toEqual([])
  })

  test('a series key that is not colon-separated indices fails', () => {
    const ds = single.data.dataSets[0]
    const broken = {
      ...single,
      data: { ...single.data, dataSets: [{ ...ds, series: { 'USD:NOK': ds.series['0:0:0:0'] } }] },
    }
    expect(sdmx.errors(broken)).not.toEqual([])
  })

  test('a data set action outside Information/Append/Replace/Delete fails', () => {
    const broken = { ...single, data: { ...single.data, dataSets: [{ ...single.data.dataSets[0], action: 'Upsert' }] } }
    expect(sdmx.errors(broken)).not.toEqual([])
  })

  test('a preparation time that is not an ISO 8601 date-time fails, with or without an offset allowed', () => {
    expect(sdmx.errors({ ...single, meta: { ...single.meta, prepared: '04.03.2026 16:02' } })).not.toEqual([])
  })

  test('a series attribute that is not an index fails', () => {
    const ds = single.data.dataSets[0]
    const broken = {
      ...single,
      data: {
        ...single.data,
        dataSets: [{ ...ds, series: { '0:0:0:0': { ...ds.series['0:0:0:0'], attributes: ['4', 0, 0, 0] } } }],
      },
    }
    expect(sdmx.errors(broken)).not.toEqual([])
  })
})

describe('the fixture server', () => {
  const windows: Array<[string, string[], string, string]> = [
    ['one currency over three days', ['USD'], '2026-03-02', '2026-03-04'],
    ['units and hundreds mixed', ['USD', 'SEK', 'JPY', 'EUR'], '2026-02-23', '2026-03-04'],
    ['every currency it serves, over Easter', CURRENCIES.map((c) => c.code), '2025-04-14', '2025-04-25'],
  ]
  for (const [label, currencies, from, to] of windows) {
    test(`its answer for ${label} is an SDMX-JSON 1.0 data message the adapter reads`, async () => {
      const raw = await bank.exchangeRates(currencies, from, to)
      expect(raw.status).toBe(200)
      expect(sdmx.errors(JSON.parse(raw.body))).toEqual([])
      expect([...mapExchangeRates(raw).keys()].sort()).toEqual([...currencies].sort())
    })
  }
})

describe('the recorded answers', () => {
  for (const name of ['single-usd.json', 'multi-unit-mult.json', 'no-datasets.json']) {
    test(`${name} is an SDMX-JSON 1.0 data message`, async () => {
      expect(sdmx.errors(await Bun.file(`${recorded}/${name}`).json())).toEqual([])
    })
  }
})

describe("the SDMX working group's EXR sample", () => {
  test('passes the schema it was published with', async () => {
    expect(sdmx.errors(await loadExample('norges-bank/samples/exr-time-series.json'))).toEqual([])
  })

  test("is refused by the adapter, since the ECB's structure has no BASE_CUR dimension to read a currency from", async () => {
    const body = JSON.stringify(await loadExample('norges-bank/samples/exr-time-series.json'))
    const raw = {
      system: 'norges-bank' as const,
      url: 'https://sdw-wsrest.ecb.europa.eu/service/data/EXR',
      status: 200,
      contentType: 'application/json',
      body,
      fetchedAt: new Date(0),
    }
    expect(() => mapExchangeRates(raw)).toThrow(MalformedUpstream)
    expect(() => mapExchangeRates(raw)).toThrow(/BASE_CUR/)
  })
})
