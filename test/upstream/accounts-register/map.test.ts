/**
 * Regnskapsregisteret answers → our accounts record, on fixtures in the recorded format
 * (reference: upstreams.md §2): a JSON array, the contract's misspelt keys, 404 with an empty body.
 */
import { describe, expect, test } from 'bun:test'
import { mapAccounts, type AccountsRecord } from '../../../src/upstream/accounts-register/map.ts'
import { MalformedUpstream, type RawResponse } from '../../../src/upstream/raw.ts'
import { PINNED_NOW } from '../../helpers.ts'

const dir = `${import.meta.dir}/fixtures`
const fixture = (name: string) => Bun.file(`${dir}/${name}`).text()

function raw(body: string, status = 200): RawResponse {
  return {
    system: 'regnskapsregisteret',
    url: 'https://data.brreg.no/regnskapsregisteret/regnskap/912345688',
    status,
    contentType: status === 404 ? null : 'application/json',
    body,
    fetchedAt: new Date(PINNED_NOW),
  }
}

async function mutated(name: string, change: (doc: any) => void): Promise<RawResponse> {
  const doc = JSON.parse(await fixture(name))
  change(doc)
  return raw(JSON.stringify(doc))
}

function record(r: RawResponse): AccountsRecord {
  const lookup = mapAccounts(r)
  if (lookup.kind !== 'found') throw new Error('expected found')
  return lookup.record
}

function malformed(r: RawResponse): MalformedUpstream {
  try {
    mapAccounts(r)
  } catch (e) {
    expect(e).toBeInstanceOf(MalformedUpstream)
    return e as MalformedUpstream
  }
  throw new Error('expected MalformedUpstream')
}

describe('the newest company accounts', () => {
  test('map to the record with period, currency, plan and key figures', async () => {
    expect(record(raw(await fixture('regnskap-selskap.json')))).toEqual({
      id: 3219847,
      accounts_type: 'SELSKAP',
      period_from: '2024-01-01',
      period_to: '2024-12-31',
      currency: 'NOK',
      presentation_plan: 'smaa',
      accounting_rules: 'regnskapslovenAlminneligRegler',
      small_company: true,
      liquidation_accounts: false,
      audited: true,
      audit_opted_out: false,
      total_assets: 8421337,
      total_equity_and_liabilities: 8421337,
      total_equity: 3120550,
      total_liabilities: 5300787,
      operating_revenue: 14870000,
      operating_result: 1334500,
      result_before_tax: 1250400,
      annual_result: 975312,
    })
  })

  test('accounting rules and small-company flag are read from the misspelt key regnkapsprinsipper', async () => {
    const r = record(
      await mutated(
        'regnskap-selskap.json',
        (d) => (d[0].regnkapsprinsipper = { smaaForetak: false, regnskapsregler: 'forenkletAnvendelseIFRS' }),
      ),
    )
    expect(r.accounting_rules).toBe('forenkletAnvendelseIFRS')
    expect(r.small_company).toBe(false)
  })

  test('the correctly spelt key regnskapsprinsipper is not the contract: without the misspelt one the rules are unknown', async () => {
    const r = record(
      await mutated('regnskap-selskap.json', (d) => {
        d[0].regnskapsprinsipper = d[0].regnkapsprinsipper
        delete d[0].regnkapsprinsipper
      }),
    )
    expect(r.accounting_rules).toBeNull()
    expect(r.small_company).toBeNull()
  })

  test('the misspelt sumInnskuttEgenkaptial does not disturb the equity figures', async () => {
    const r = record(raw(await fixture('regnskap-selskap.json')))
    expect(r.total_equity).toBe(3120550)
  })

  test('accounts in a foreign currency keep that currency and its plain amounts', async () => {
    const r = record(raw(await fixture('regnskap-eur.json')))
    expect(r).toMatchObject({
      currency: 'EUR',
      period_from: '2024-07-01',
      period_to: '2025-06-30',
      accounting_rules: 'IFRS',
      presentation_plan: 'store',
      total_assets: 52000000,
      annual_result: -1170000,
    })
  })

  test('ikkeRevidertAarsregnskap true means not audited', async () => {
    const r = record(
      await mutated(
        'regnskap-selskap.json',
        (d) => (d[0].revisjon = { ikkeRevidertAarsregnskap: true, fravalgRevisjon: true }),
      ),
    )
    expect(r.audited).toBe(false)
    expect(r.audit_opted_out).toBe(true)
  })

  test('no revisjon: audited is unknown (null), not false', async () => {
    const r = record(await mutated('regnskap-selskap.json', (d) => delete d[0].revisjon))
    expect(r.audited).toBeNull()
    expect(r.audit_opted_out).toBeNull()
  })

  test('a missing figure is null, not 0', async () => {
    const r = record(await mutated('regnskap-selskap.json', (d) => delete d[0].resultatregnskapResultat.driftsresultat))
    expect(r.operating_revenue).toBeNull()
    expect(r.operating_result).toBeNull()
    expect(r.annual_result).toBe(975312)
  })
})

describe('which record', () => {
  test('with KONSERN and SELSKAP both present, the SELSKAP accounts are chosen', async () => {
    const r = record(raw(await fixture('regnskap-konsern-og-selskap.json')))
    expect(r.accounts_type).toBe('SELSKAP')
    expect(r.id).toBe(4100002)
    expect(r.total_assets).toBe(30000000)
  })

  test('SELSKAP is chosen whichever order the array has', async () => {
    const r = record(await mutated('regnskap-konsern-og-selskap.json', (d) => d.reverse()))
    expect(r.accounts_type).toBe('SELSKAP')
  })

  test('of several company records, the newest period is chosen', async () => {
    const r = record(
      await mutated('regnskap-selskap.json', (d) => {
        const older = structuredClone(d[0])
        older.id = 1
        older.regnskapsperiode = { fraDato: '2023-01-01', tilDato: '2023-12-31' }
        d.unshift(older)
      }),
    )
    expect(r.period_to).toBe('2024-12-31')
  })
})

describe('none', () => {
  test('404 with an empty body is none', () => {
    expect(mapAccounts(raw('', 404))).toEqual({ kind: 'none' })
  })

  test('an empty array is none', () => {
    expect(mapAccounts(raw('[]'))).toEqual({ kind: 'none' })
  })
})

describe('garbage is MalformedUpstream', () => {
  test('a body that is not JSON', () => {
    expect(malformed(raw('<html><h1>502 Bad Gateway</h1></html>')).system).toBe('regnskapsregisteret')
  })

  test('an object instead of the array', async () => {
    const one = JSON.parse(await fixture('regnskap-selskap.json'))[0]
    malformed(raw(JSON.stringify(one)))
  })

  test('a record without regnskapsperiode', async () => {
    malformed(await mutated('regnskap-selskap.json', (d) => delete d[0].regnskapsperiode))
  })

  test('a record whose period dates are not YYYY-MM-DD', async () => {
    malformed(await mutated('regnskap-selskap.json', (d) => (d[0].regnskapsperiode.tilDato = '31.12.2024')))
  })

  test('a record without valuta', async () => {
    malformed(await mutated('regnskap-selskap.json', (d) => delete d[0].valuta))
  })

  test('an item that is not an object', () => {
    malformed(raw('[42]'))
  })

  test('HTTP 500 with the error body', () => {
    malformed(
      raw(
        '{"timestamp":"2026-03-14T09:30:00.000+00:00","status":500,"error":"Internal Server Error","message":"","path":"/regnskapsregisteret/regnskap/912345688","trace":"5f0c"}',
        500,
      ),
    )
  })

  test('HTTP 401', () => {
    malformed(raw('', 401))
  })
})
