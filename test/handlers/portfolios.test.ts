/**
 * Portfolios over real HTTP: create, list, read, replace the companies, delete; ownership (another
 * account's portfolio is 404 and stays as it was); the whole list refused when one number is
 * invalid; duplicates collapsing; the caps (20 portfolios, 1 000 companies); tier and scope;
 * replay of a creation with the same Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isValidOrgNumber } from '../../fixtures/data/mod11.ts'
import { subUnitCase } from '../../fixtures/data/sub-units.ts'
import { MAX_COMPANIES, MAX_PORTFOLIOS } from '../../src/domain/portfolios/portfolios.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

const POSTEN = '984661185'
const OTHER = '923609016'
const BRANCH = subUnitCase('active').org_number

let app: TestApp
let key: string

beforeAll(async () => {
  app = await startApp()
  key = (await account()).key
}, 30_000)
afterAll(() => app.stop())

async function account(tier: 'free' | 'professional' | 'enterprise' = 'professional', scopes?: string[]) {
  const c = await createConsumer(app, tier)
  return { id: c.id, key: (await createKey(app, c.id, scopes)).key }
}

async function send(method: string, path: string, body?: unknown, k = key, headers: Record<string, string> = {}) {
  const res = await app.send(method, path, body, { ...bearer(k), ...freshIp(), ...headers })
  return { status: res.status, body: (await res.json()) as any }
}

const create = (name: string, k = key, headers: Record<string, string> = {}) =>
  send('POST', '/api/v1/portfolios', { name }, k, headers)
const setCompanies = (id: string, org_numbers: unknown[], k = key) =>
  send('PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers }, k)

/** `n` distinct organisation numbers that pass MOD-11, from a prefix the fixtures do not use. */
function validNumbers(n: number, start = 81_000_000): string[] {
  const out: string[] = []
  for (let p = start; out.length < n; p++) {
    for (let d = 0; d <= 9; d++) {
      const s = `${p}${d}`
      if (isValidOrgNumber(s)) {
        out.push(s)
        break
      }
    }
  }
  return out
}

describe('create, list, read, replace the companies, delete', () => {
  test('POST creates a portfolio: 201 with its id, name and no companies', async () => {
    const r = await create('Klienter Bergen')
    expect(r.status).toBe(201)
    expect(r.body.data).toEqual({
      portfolio_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Klienter Bergen',
      company_count: 0,
      created_at: PINNED_NOW,
      updated_at: PINNED_NOW,
    })
  })

  test('GET lists the account’s portfolios, oldest first, with their counts and the caps', async () => {
    const mine = await account()
    const a = (await create('A', mine.key)).body.data.portfolio_id
    app.clock.advance(1000)
    const b = (await create('B', mine.key)).body.data.portfolio_id
    app.clock.set(PINNED_NOW)
    await setCompanies(b, [POSTEN, OTHER], mine.key)
    const r = await send('GET', '/api/v1/portfolios', undefined, mine.key)
    expect(r.status).toBe(200)
    expect(r.body.data.count).toBe(2)
    expect(r.body.data.max_portfolios).toBe(MAX_PORTFOLIOS)
    expect(r.body.data.max_companies).toBe(MAX_COMPANIES)
    expect(r.body.data.portfolios.map((p: any) => [p.portfolio_id, p.company_count])).toEqual([
      [a, 0],
      [b, 2],
    ])
  })

  test('PUT replaces the companies; GET shows them, ascending', async () => {
    const id = (await create('Replace')).body.data.portfolio_id
    await setCompanies(id, [POSTEN])
    const r = await setCompanies(id, [OTHER, BRANCH])
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ portfolio_id: id, company_count: 2, org_numbers: [OTHER, BRANCH].sort() })
    const got = await send('GET', `/api/v1/portfolios/${id}`)
    expect(got.body.data.company_count).toBe(2)
    expect(got.body.data.companies.map((c: any) => c.org_number)).toEqual([OTHER, BRANCH].sort())
  })

  test('PUT collapses duplicates and says how many there were', async () => {
    const id = (await create('Dupes')).body.data.portfolio_id
    const r = await setCompanies(id, [POSTEN, OTHER, POSTEN, POSTEN])
    expect(r.body.data).toMatchObject({ company_count: 2, duplicates_removed: 2, org_numbers: [OTHER, POSTEN] })
  })

  test('PUT takes a sub-unit’s number as given and says it stands for its legal entity', async () => {
    const id = (await create('Branches')).body.data.portfolio_id
    const r = await setCompanies(id, [BRANCH])
    expect(r.body.data.org_numbers).toEqual([BRANCH])
    expect(r.body.data.sub_units.note_en).toContain('stands for the legal entity')
    expect(r.body.data.sub_units.note_nb).toContain('juridiske personen')
  })

  test('PUT with an empty list empties the portfolio', async () => {
    const id = (await create('Empty')).body.data.portfolio_id
    await setCompanies(id, [POSTEN])
    expect((await setCompanies(id, [])).body.data.company_count).toBe(0)
    expect((await send('GET', `/api/v1/portfolios/${id}`)).body.data.companies).toEqual([])
  })

  test('DELETE answers 200; the portfolio is 404 afterwards, on every route', async () => {
    const id = (await create('Gone')).body.data.portfolio_id
    await setCompanies(id, [POSTEN])
    const r = await send('DELETE', `/api/v1/portfolios/${id}`)
    expect(r).toMatchObject({ status: 200, body: { data: { portfolio_id: id, deleted: true } } })
    for (const [m, p, b] of [
      ['GET', `/api/v1/portfolios/${id}`, undefined],
      ['PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: [POSTEN] }],
      ['DELETE', `/api/v1/portfolios/${id}`, undefined],
    ] as const) {
      const again = await send(m, p, b)
      expect({ m, status: again.status, code: again.body.error_code }).toEqual({ m, status: 404, code: 'NOT_FOUND' })
    }
  })
})

describe('one invalid number refuses the whole list, and nothing changes', () => {
  test('a number failing MOD-11 is 400 VALIDATION_FAILED naming it and its place', async () => {
    const id = (await create('Mod11')).body.data.portfolio_id
    await setCompanies(id, [POSTEN])
    const r = await setCompanies(id, [OTHER, '984661184'])
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(r.body.explanation.details).toEqual([
      { field: 'org_numbers.1', message: expect.stringContaining('"984661184" fails the check-digit test') },
    ])
    expect((await send('GET', `/api/v1/portfolios/${id}`)).body.data.companies.map((c: any) => c.org_number)).toEqual([
      POSTEN,
    ])
  })

  test('a number that is not nine digits is 400 VALIDATION_FAILED naming it', async () => {
    const id = (await create('Shape')).body.data.portfolio_id
    const r = await setCompanies(id, [POSTEN, '12345', 'abc'])
    expect(r.status).toBe(400)
    expect(r.body.explanation.details.map((d: any) => d.field)).toEqual(['org_numbers.1', 'org_numbers.2'])
    expect(r.body.explanation.details[0].message).toContain('"12345" is not an organisation number')
    expect((await send('GET', `/api/v1/portfolios/${id}`)).body.data.company_count).toBe(0)
  })

  test('more than 1 000 distinct numbers are refused; 1 000 are taken', async () => {
    const id = (await create('Big')).body.data.portfolio_id
    const many = validNumbers(MAX_COMPANIES + 1)
    const r = await setCompanies(id, many)
    expect({ status: r.status, field: r.body.explanation?.details?.[0]?.field }).toEqual({
      status: 400,
      field: 'org_numbers',
    })
    expect((await setCompanies(id, many.slice(0, MAX_COMPANIES))).body.data.company_count).toBe(MAX_COMPANIES)
    // made-up numbers: not left for the register warm-up of the tests that share this database
    await send('DELETE', `/api/v1/portfolios/${id}`)
  })
})

describe('another account’s portfolio is 404, never 403, and stays as it was', () => {
  test('GET, PUT and DELETE of another account’s id are 404 NOT_FOUND', async () => {
    const theirs = await account()
    const id = (await create('Theirs', theirs.key)).body.data.portfolio_id
    await setCompanies(id, [POSTEN], theirs.key)
    for (const [m, p, b] of [
      ['GET', `/api/v1/portfolios/${id}`, undefined],
      ['PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: [OTHER] }],
      ['DELETE', `/api/v1/portfolios/${id}`, undefined],
    ] as const) {
      const r = await send(m, p, b)
      expect({ m, status: r.status, code: r.body.error_code }).toEqual({ m, status: 404, code: 'NOT_FOUND' })
    }
    const still = await send('GET', `/api/v1/portfolios/${id}`, undefined, theirs.key)
    expect(still.body.data.companies.map((c: any) => c.org_number)).toEqual([POSTEN])
    expect(
      (await send('GET', '/api/v1/portfolios')).body.data.portfolios.map((p: any) => p.portfolio_id),
    ).not.toContain(id)
  })
})

describe('limits, tier and scope', () => {
  test(`the ${MAX_PORTFOLIOS + 1}st portfolio of an account is 400 VALIDATION_FAILED naming portfolios`, async () => {
    const mine = await account()
    for (let i = 0; i < MAX_PORTFOLIOS; i++) expect((await create(`P${i}`, mine.key)).status).toBe(201)
    const r = await create('one too many', mine.key)
    expect({ status: r.status, field: r.body.explanation.details[0].field }).toEqual({
      status: 400,
      field: 'portfolios',
    })
  })

  test('a blank name is 400 VALIDATION_FAILED naming name', async () => {
    const r = await create('   ')
    expect({ status: r.status, field: r.body.explanation.details[0].field }).toEqual({ status: 400, field: 'name' })
  })

  test('a free-tier key is 403 PLAN_INSUFFICIENT', async () => {
    const free = await account('free')
    const r = await create('Free', free.key)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 403, code: 'PLAN_INSUFFICIENT' })
  })

  test('a key without read:register is 403 SCOPE_INSUFFICIENT', async () => {
    const narrow = await account('professional', ['read:changes'])
    const r = await send('GET', '/api/v1/portfolios', undefined, narrow.key)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 403, code: 'SCOPE_INSUFFICIENT' })
  })

  test('a creation replayed with the same Idempotency-Key answers the same portfolio and creates one', async () => {
    const mine = await account()
    const h = { 'idempotency-key': crypto.randomUUID() }
    const first = await create('Once', mine.key, h)
    const again = await create('Once', mine.key, h)
    expect(again.body.data.portfolio_id).toBe(first.body.data.portfolio_id)
    expect((await send('GET', '/api/v1/portfolios', undefined, mine.key)).body.data.count).toBe(1)
  })
})
