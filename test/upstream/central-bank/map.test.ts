/**
 * Norges Bank SDMX-JSON → rate observations, on fixtures in the recorded format (upstreams.md §3).
 */
import { describe, expect, test } from 'bun:test'
import { mapExchangeRates, perUnit } from '../../../src/upstream/central-bank/map.ts'
import { MalformedUpstream, type RawResponse } from '../../../src/upstream/raw.ts'

const dir = `${import.meta.dir}/fixtures`
const fixture = (name: string) => Bun.file(`${dir}/${name}`).text()

function raw(body: string, status = 200): RawResponse {
  return {
    system: 'norges-bank',
    url: 'https://data.norges-bank.no/api/data/EXR/B.USD.NOK.SP',
    status,
    contentType: 'application/vnd.sdmx.data+json',
    body,
    fetchedAt: new Date('2026-03-04T15:10:00Z'),
  }
}

/** The single-series fixture with one change applied. */
async function mutated(change: (doc: any) => void): Promise<RawResponse> {
  const doc = JSON.parse(await fixture('single-usd.json'))
  change(doc)
  return raw(JSON.stringify(doc))
}

function malformed(r: RawResponse): MalformedUpstream {
  try {
    mapExchangeRates(r)
  } catch (e) {
    expect(e).toBeInstanceOf(MalformedUpstream)
    return e as MalformedUpstream
  }
  throw new Error('expected MalformedUpstream')
}

describe('single series', () => {
  test('resolves series key and observation keys into currency and dates, sorted by date', async () => {
    const map = mapExchangeRates(raw(await fixture('single-usd.json')))
    expect([...map.keys()]).toEqual(['USD'])
    expect(map.get('USD')!.map((o) => o.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04'])
  })

  test('keeps the published string verbatim and gives NOK per one unit as a number', async () => {
    const [first] = mapExchangeRates(raw(await fixture('single-usd.json'))).get('USD')!
    expect(first).toEqual({
      currency: 'USD',
      date: '2026-03-02',
      value: '10.5550',
      unit_mult: 0,
      rate: 10.555,
      decimals: 4,
    })
  })
})

describe('several series in one answer', () => {
  test('UNIT_MULT is resolved per series through its attribute index, not from values[0]', async () => {
    const map = mapExchangeRates(raw(await fixture('multi-unit-mult.json')))
    // UNIT_MULT values are ["2", "0"]: values[0] would wrongly make USD per hundred.
    expect(map.get('USD')!.every((o) => o.unit_mult === 0)).toBe(true)
    expect(map.get('SEK')!.every((o) => o.unit_mult === 2)).toBe(true)
    expect(map.get('JPY')!.every((o) => o.unit_mult === 2)).toBe(true)
  })

  test('a per-hundred quotation becomes a per-unit rate by moving the decimal point', async () => {
    const map = mapExchangeRates(raw(await fixture('multi-unit-mult.json')))
    const sek = map.get('SEK')!
    expect(sek.map((o) => [o.date, o.value, o.rate])).toEqual([
      ['2026-03-02', '101.14', 1.0114],
      ['2026-03-03', '101.20', 1.012],
    ])
    expect(map.get('JPY')![0]).toMatchObject({ date: '2026-03-04', value: '7.0115', rate: 0.070115 })
  })

  test('DECIMALS is resolved per series too', async () => {
    const map = mapExchangeRates(raw(await fixture('multi-unit-mult.json')))
    expect(map.get('SEK')![0]!.decimals).toBe(2)
    expect(map.get('USD')![0]!.decimals).toBe(4)
  })

  test('an uncoded series attribute (values with a name only, as SDMX-JSON 1.0 allows) does not stop the rates being read', async () => {
    const r = await mutated((d) => {
      d.data.structure.attributes.series.push({
        id: 'TITLE',
        name: 'Title',
        relationship: { dimensions: ['BASE_CUR'] },
        values: [{ name: 'US dollar (USD)' }, null],
      })
      d.data.dataSets[0].series['0:0:0:0'].attributes.push(0)
    })
    expect(
      mapExchangeRates(r)
        .get('USD')!
        .map((o) => o.value),
    ).toEqual(['10.5550', '10.6010', '10.6120'])
  })

  test('a DECIMALS value without an id leaves the decimals unknown', async () => {
    const map = mapExchangeRates(
      await mutated((d) => (d.data.structure.attributes.series[0].values = [{ name: 'Four' }])),
    )
    expect(map.get('USD')![0]!.decimals).toBeNull()
  })

  test('observation keys index the shared TIME_PERIOD list, whatever its order', async () => {
    const usd = mapExchangeRates(raw(await fixture('multi-unit-mult.json'))).get('USD')!
    // TIME_PERIOD values are [03-03, 03-02, 03-04]; key "0" is 3 March.
    expect(usd.map((o) => [o.date, o.value])).toEqual([
      ['2026-03-02', '10.5550'],
      ['2026-03-03', '10.6010'],
      ['2026-03-04', '10.6120'],
    ])
  })
})

describe('perUnit', () => {
  test('divides by 10^mult without binary rounding beyond the final parse', () => {
    expect(perUnit('101.14', 2)).toBe(1.0114)
    expect(perUnit('7.0115', 2)).toBe(0.070115)
    expect(perUnit('0.5', 2)).toBe(0.005)
    expect(perUnit('98', 2)).toBe(0.98)
    expect(perUnit('11.6625', 0)).toBe(11.6625)
  })
})

describe('no records', () => {
  test('404 (the API\'s "no results") is an empty map', () => {
    expect(mapExchangeRates(raw('NoRecordsFound', 404)).size).toBe(0)
  })

  test('a null observation is a missing value, not garbage', async () => {
    const map = mapExchangeRates(
      await mutated((d) => (d.data.dataSets[0].series['0:0:0:0'].observations['1'] = [null])),
    )
    expect(map.get('USD')!.map((o) => o.date)).toEqual(['2026-03-02', '2026-03-04'])
  })
})

describe('garbage is MalformedUpstream', () => {
  test('a body that is not JSON', () => {
    malformed(raw('<html>maintenance</html>'))
  })

  test('an answer without dataSets', async () => {
    expect(malformed(raw(await fixture('no-datasets.json'))).reason).toContain('dataSets')
  })

  test('an answer without structure', async () => {
    malformed(await mutated((d) => delete d.data.structure))
  })

  test('a non-numeric observation value', async () => {
    const e = malformed(await mutated((d) => (d.data.dataSets[0].series['0:0:0:0'].observations['0'] = ['n/a'])))
    expect(e.reason).toContain('not a number')
  })

  test('an observation key outside TIME_PERIOD', async () => {
    const e = malformed(await mutated((d) => (d.data.dataSets[0].series['0:0:0:0'].observations['7'] = ['10.1'])))
    expect(e.reason).toContain('out of range')
  })

  test('a series key position outside its dimension', async () => {
    malformed(
      await mutated((d) => {
        const s = d.data.dataSets[0].series
        s['0:3:0:0'] = s['0:0:0:0']
        delete s['0:0:0:0']
      }),
    )
  })

  test('a series attribute index outside the attribute values', async () => {
    malformed(await mutated((d) => (d.data.dataSets[0].series['0:0:0:0'].attributes = [0, 0, 5, 0])))
  })

  test('a structure without UNIT_MULT (the rate could not be scaled)', async () => {
    malformed(await mutated((d) => d.data.structure.attributes.series.splice(2, 1)))
  })

  test('a UNIT_MULT value without an id (the rate could not be scaled)', async () => {
    malformed(await mutated((d) => (d.data.structure.attributes.series[2].values = [{ name: 'Units' }])))
  })

  test('another 4xx carries the status in the reason', () => {
    expect(malformed(raw('Bad Request', 400)).reason).toContain('400')
  })
})
