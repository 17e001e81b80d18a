/**
 * Regnskapsregisteret's own OpenAPI document and example answers (contracts/brreg-regnskapsregisteret/,
 * SOURCES.md) judge the fixture server, the recorded answers and the adapter (issue 26, item 2).
 * The document gives the list path's 200 schema as `type: object` though the service answers an
 * array of `Regnskap` (its own examples are such records), so each record is checked against
 * `Regnskap`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { COMPANIES } from '../../../fixtures/data/companies.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { READ_POLICY, UpstreamClient } from '../../../src/upstream/http.ts'
import { LiveAccountsRegister } from '../../../src/upstream/accounts-register/live.ts'
import { mapAccounts } from '../../../src/upstream/accounts-register/map.ts'
import { MalformedUpstream, type RawResponse } from '../../../src/upstream/raw.ts'
import { loadContract, loadExample, openApiComponent, openApiResponse, type Shape } from '../../helpers.ts'

const doc = await loadContract('brreg-regnskapsregisteret/regnskapsregister.yaml')
const regnskap = openApiComponent(doc, 'Regnskap')
const byId = openApiResponse(doc, '/regnskapsregisteret/regnskap/{orgNummer}/{id}', 'get', '200')

const recorded = `${import.meta.dir}/../../upstream/accounts-register/fixtures`

function failures(shape: Shape, values: Array<[string, unknown]>): Record<string, string[]> {
  return Object.fromEntries(
    values.map(([label, v]) => [label, shape.errors(v)] as const).filter(([, e]) => e.length > 0),
  )
}

function raw(body: unknown, status = 200): RawResponse {
  return {
    system: 'regnskapsregisteret',
    url: 'https://data.brreg.no/regnskapsregisteret/regnskap/123456789',
    status,
    contentType: 'application/json',
    body: JSON.stringify(body),
    fetchedAt: new Date(0),
  }
}

let servers: FixtureServers
let accounts: LiveAccountsRegister

beforeAll(async () => {
  servers = await startFixtureServers()
  accounts = new LiveAccountsRegister(
    servers.businessRegisterUrl,
    new UpstreamClient('Regnskapsregisteret', READ_POLICY, fixedClock('2026-03-04T12:00:00Z')),
    fixedClock('2026-03-04T12:00:00Z'),
  )
})
afterAll(() => servers.stop())

describe('the contract itself', () => {
  const record = {
    id: 1,
    regnskapstype: 'SELSKAP',
    regnskapsperiode: { fraDato: '2024-01-01', tilDato: '2024-12-31' },
    valuta: 'NOK',
    eiendeler: { sumEiendeler: 100 },
  }

  test('a record shaped as the document says passes', () => {
    expect(regnskap.errors(record)).toEqual([])
  })

  test('a record of a type outside SELSKAP/KONSERN fails', () => {
    expect(regnskap.errors({ ...record, regnskapstype: 'AARLIG' })).not.toEqual([])
  })

  test('a period written dd.MM.yyyy fails the date format', () => {
    expect(
      regnskap.errors({ ...record, regnskapsperiode: { fraDato: '01.01.2024', tilDato: '31.12.2024' } }),
    ).not.toEqual([])
  })

  test('an amount written as a string fails', () => {
    expect(regnskap.errors({ ...record, eiendeler: { sumEiendeler: '100' } })).not.toEqual([])
  })

  test('accounting rules outside the documented three fail', () => {
    expect(regnskap.errors({ ...record, regnkapsprinsipper: { regnskapsregler: 'NGAAP' } })).not.toEqual([])
  })
})

describe('the fixture server', () => {
  test('every record it answers is the documented Regnskap', async () => {
    const records: Array<[string, unknown]> = []
    for (const c of COMPANIES.filter((c) => !c.magic)) {
      const answer = await accounts.accounts(c.org_number)
      if (answer.status !== 200) continue
      const list = JSON.parse(answer.body) as unknown[]
      list.forEach((r, i) => records.push([`${c.org_number}[${i}]`, r]))
    }
    expect(records.length).toBeGreaterThan(10)
    expect(failures(regnskap, records)).toEqual({})
  })
})

describe('the recorded answers', () => {
  for (const name of ['regnskap-selskap.json', 'regnskap-konsern-og-selskap.json', 'regnskap-eur.json']) {
    test(`every record of ${name} is the documented Regnskap`, async () => {
      const list = (await Bun.file(`${recorded}/${name}`).json()) as unknown[]
      expect(list.length).toBeGreaterThan(0)
      expect(
        failures(
          regnskap,
          list.map((r, i) => [String(i), r]),
        ),
      ).toEqual({})
    })
  }
})

describe("the publisher's own example answers", () => {
  test('the example list for an org number is made of documented Regnskap records', async () => {
    const list = (await loadExample('brreg-regnskapsregisteret/examples/OrgnrResponseDefault.json')) as unknown[]
    expect(
      failures(
        regnskap,
        list.map((r, i) => [String(i), r]),
      ),
    ).toEqual({})
  })

  test('the example record by id is the documented answer of /regnskap/{orgNummer}/{id}', async () => {
    expect(byId.errors(await loadExample('brreg-regnskapsregisteret/examples/IdResponseDefault.json'))).toEqual([])
  })

  test('the example as published is refused: its currency is the placeholder "valutakode", and amounts without a currency are not read', async () => {
    const list = await loadExample('brreg-regnskapsregisteret/examples/OrgnrResponseDefault.json')
    expect(() => mapAccounts(raw(list))).toThrow(MalformedUpstream)
  })

  test('the example, its placeholder currency made NOK, maps to the figures written in it', async () => {
    const list = (await loadExample('brreg-regnskapsregisteret/examples/OrgnrResponseDefault.json')) as Array<
      Record<string, unknown>
    >
    const lookup = mapAccounts(raw(list.map((r) => ({ ...r, valuta: 'NOK' }))))
    // Read by hand from OrgnrResponseDefault.json.
    expect(lookup).toEqual({
      kind: 'found',
      record: {
        id: 10,
        accounts_type: 'SELSKAP',
        period_from: '2019-01-01',
        period_to: '2019-12-31',
        currency: 'NOK',
        presentation_plan: 'store',
        accounting_rules: 'regnskapslovenAlminneligRegler',
        small_company: true,
        liquidation_accounts: true,
        audited: false,
        audit_opted_out: true,
        total_assets: 2024,
        total_equity_and_liabilities: 2027,
        total_equity: 2028,
        total_liabilities: 2031,
        operating_revenue: 2042,
        operating_result: 2040,
        result_before_tax: 2034,
        annual_result: 2038,
      },
    })
  })
})
