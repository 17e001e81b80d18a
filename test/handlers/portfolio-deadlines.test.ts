/**
 * A portfolio's merged deadlines over real HTTP, against the brreg fixture server: each client's
 * entries exactly as the company deadlines route gives them for the same window; the order; each
 * client's state (pending before the background warm-up, answered, stale, unavailable — one
 * client's register outage, injected at the fixture server, fails only that client); a sub-unit
 * standing for its legal entity; CSV by Accept; the charge (once, 50 øre; refunded when no client
 * was answered); another account's portfolio.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isValidOrgNumber } from '../../fixtures/data/mod11.ts'
import { subUnitCase } from '../../fixtures/data/sub-units.ts'
import { byScenario } from '../../fixtures/data/companies.ts'
import { warmRegister } from '../../src/domain/portfolios/warmup.ts'
import { CSV_COLUMNS } from '../../src/domain/portfolios/deadlines.ts'
import { readBalance } from '../../src/store/credits.ts'
import { canonicalJson } from '../../src/lib/canonical-json.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

const POSTEN = '984661185'
const ENK = '915241700'
const ANS = '921173601'
const ASA = '923609016'
const BRANCH = subUnitCase('active').org_number // a branch of POSTEN NORGE AS
const UNKNOWN = byScenario('unknown')
const WINDOW = 'from_date=2026-06-01&horizon_months=12'

let app: TestApp
let consumerId: string
let key: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'professional')
  consumerId = c.id
  await addCredits(app, c.id, 100_000)
  key = (await createKey(app, c.id)).key
}, 30_000)
afterAll(() => app.stop())

async function send(method: string, path: string, body?: unknown, k = key, headers: Record<string, string> = {}) {
  const res = await app.send(method, path, body, { ...bearer(k), ...freshIp(), ...headers })
  const text = await res.text()
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null) as any,
  }
}

async function portfolio(orgs: string[], k = key): Promise<string> {
  const id = (await send('POST', '/api/v1/portfolios', { name: 'Klienter' }, k)).body.data.portfolio_id
  expect((await send('PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: orgs }, k)).status).toBe(200)
  return id
}

/** Runs the background warm-up until nothing is due (each run takes a few; other tests' portfolios share the queue). */
async function warmAll() {
  for (let i = 0; i < 200; i++) if ((await warmRegister(app.deps)).claimed === 0) return
  throw new Error('the warm-up did not finish')
}

const deadlines = (id: string, query = WINDOW, headers: Record<string, string> = {}) =>
  send('GET', `/api/v1/portfolios/${id}/deadlines?${query}`, undefined, key, headers)
/** A number that passes MOD-11 and that no test has read: nothing of it is cached. */
function freshOrg(): string {
  for (;;) {
    const prefix = String(Math.floor(10_000_000 + Math.random() * 79_999_999))
    for (let d = 0; d <= 9; d++) if (isValidOrgNumber(`${prefix}${d}`)) return `${prefix}${d}`
  }
}

const stateOf = (data: any, org: string) => data.companies.find((c: any) => c.org_number === org)

async function brregFault(spec: Record<string, unknown>) {
  const res = await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, {
    method: 'POST',
    body: JSON.stringify(spec),
    headers: { 'content-type': 'application/json' },
  })
  expect(res.status).toBe(201)
}

describe('the merged deadlines are the company route’s', () => {
  let id: string
  let data: any
  beforeAll(async () => {
    // The database is shared with the suite's other files: what they cached of these companies,
    // at their own clocks, goes, so the warm-up reads them here at the pinned instant.
    const orgs = [POSTEN, ENK, ANS, ASA]
    await app.deps.sql`delete from upstream_cache where resource_key like any(${orgs.map((o) => `%${o}%`)}::text[])`
    await app.deps.sql`delete from register_warmups where org_number = any(${orgs}::text[])`
    id = await portfolio(orgs)
    await warmAll()
    const r = await deadlines(id)
    expect(r.status).toBe(200)
    data = r.body.data
  })

  test('each client’s entries equal GET /company/{org}/deadlines for the same window, with org_number and company_name', async () => {
    for (const org of [POSTEN, ENK, ANS, ASA]) {
      const one = (await send('GET', `/api/v1/company/${org}/deadlines?${WINDOW}`)).body.data
      const mine = data.deadlines.filter((d: any) => d.org_number === org)
      expect(mine.map(({ org_number: _, company_name: __, ...d }: any) => d)).toEqual(one.deadlines)
      expect(new Set(mine.map((d: any) => d.company_name))).toEqual(
        new Set(mine.length ? [stateOf(data, org).name] : []),
      )
      expect(stateOf(data, org).deadline_count).toBe(one.deadlines.length)
    }
    expect(data.deadlines.length).toBeGreaterThan(10)
  })

  test('the answer’s response_hash is the SHA-256 of its data’s canonical JSON, as on every answer', async () => {
    const r = await deadlines(id)
    expect(r.body._meta.response_hash).toBe(`sha256:${sha256Hex(canonicalJson(r.body.data))}`)
  })

  test('entries are sorted by due date, then organisation number, undated last', () => {
    const keys = data.deadlines.map((d: any) => [d.due_at?.slice(0, 10) ?? '9999-99-99', d.org_number])
    const sorted = [...keys].sort((a, b) =>
      a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
    )
    expect(keys).toEqual(sorted)
  })

  test('every client is answered from fresh register data, with its freshness; the window is the route’s', () => {
    expect(data).toMatchObject({
      portfolio_id: id,
      from_date: '2026-06-01',
      to_date: '2027-06-01',
      horizon_months: 12,
      company_count: 4,
      states: { answered: 4, stale: 0, unavailable: 0, pending: 0 },
    })
    expect(stateOf(data, POSTEN)).toMatchObject({
      state: 'answered',
      legal_entity_org_number: POSTEN,
      name: 'POSTEN NORGE AS',
      data_tier: 'tier_1',
      covered: true,
      freshness: { stale: false, served_from: 'cache', data_freshness: PINNED_NOW },
      error: null,
    })
    // a form the rulebook does not cover is answered, with no deadlines
    expect(stateOf(data, ASA)).toMatchObject({ state: 'answered', covered: false, deadline_count: 0 })
  })

  test('without a window the route’s defaults apply: today in Europe/Oslo, 12 months', async () => {
    const r = await send('GET', `/api/v1/portfolios/${id}/deadlines`)
    expect(r.body.data).toMatchObject({ from_date: '2026-03-14', horizon_months: 12 })
  })

  test('a from_date that is not a date is 400 VALIDATION_FAILED naming from_date', async () => {
    const r = await deadlines(id, 'from_date=2026-02-30')
    expect({ status: r.status, field: r.body.explanation.details[0].field }).toEqual({
      status: 400,
      field: 'from_date',
    })
  })

  test('an answer older than its freshness is served stale, with its freshness', async () => {
    app.clock.advance(2 * 3600_000)
    try {
      const r = await deadlines(id)
      expect(r.body.data.states).toMatchObject({ answered: 0, stale: 4 })
      expect(stateOf(r.body.data, POSTEN).freshness).toMatchObject({ stale: true, data_freshness: PINNED_NOW })
      expect(r.body.data.deadlines).toEqual(data.deadlines)
      expect(r.body._meta.stale).toBe(true)
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })
})

describe('each client’s state; one client’s failure never fails the portfolio', () => {
  test('just added, clients are pending: the answer does not wait, and costs nothing', async () => {
    // two numbers no test has read before
    const [a, b] = [freshOrg(), freshOrg()]
    const id = await portfolio([a, b])
    const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
    const r = await deadlines(id)
    expect(r.status).toBe(200)
    expect(r.body.data.states).toEqual({ answered: 0, stale: 0, unavailable: 0, pending: 2 })
    expect(r.body.data.deadlines).toEqual([])
    expect(stateOf(r.body.data, a)).toMatchObject({ state: 'pending', error: null, freshness: null })
    expect((await readBalance(app.deps.sql, consumerId)).balance_ore).toBe(before)
  })

  test('an answered read is charged once, 50 øre, whatever the number of clients', async () => {
    const id = await portfolio([POSTEN, ENK, ANS])
    await warmAll()
    const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
    expect((await deadlines(id)).status).toBe(200)
    expect((await readBalance(app.deps.sql, consumerId)).balance_ore).toBe(before - 50)
  })

  test('a client the register does not know is unavailable with COMPANY_NOT_FOUND; the others are answered', async () => {
    const id = await portfolio([POSTEN, UNKNOWN])
    await warmAll()
    const r = await deadlines(id)
    expect(r.status).toBe(200)
    expect(stateOf(r.body.data, UNKNOWN)).toMatchObject({
      state: 'unavailable',
      error: { error_code: 'COMPANY_NOT_FOUND', retryable: false },
    })
    expect(stateOf(r.body.data, POSTEN).state).toBe('answered')
  })

  test('a register outage for one client (injected) makes it unavailable with REGISTER_DOWN; the rest are answered', async () => {
    const id = await portfolio([POSTEN, ENK])
    await warmAll()
    const down = freshOrg() // never read: no cached answer to fall back to
    await brregFault({ match: `/enheter/${down}`, mode: 'status', status: 503 })
    try {
      await send('PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: [POSTEN, ENK, down] })
      await warmAll()
      const r = await deadlines(id)
      expect(r.status).toBe(200)
      expect(r.body.data.states).toMatchObject({ answered: 2, unavailable: 1, pending: 0 })
      expect(stateOf(r.body.data, down)).toMatchObject({
        state: 'unavailable',
        error: { error_code: 'REGISTER_DOWN', retryable: true },
      })
      expect(r.body.data.deadlines.some((d: any) => d.org_number === POSTEN)).toBe(true)
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })

  test('a sub-unit stands for its legal entity, named in its state; the entity held twice is listed once', async () => {
    const id = await portfolio([POSTEN, BRANCH])
    await warmAll()
    const r = await deadlines(id)
    const branch = stateOf(r.body.data, BRANCH)
    expect(branch).toMatchObject({
      state: 'answered',
      legal_entity_org_number: POSTEN,
      name: 'POSTEN NORGE AS',
      sub_unit: { org_number: BRANCH, parent_org_number: POSTEN },
    })
    const one = (await send('GET', `/api/v1/company/${POSTEN}/deadlines?${WINDOW}`)).body.data
    expect(r.body.data.deadlines.length).toBe(one.deadlines.length)
    expect(new Set(r.body.data.deadlines.map((d: any) => d.org_number))).toEqual(new Set([POSTEN]))
  })
})

describe('CSV, and who may read', () => {
  test('Accept: text/csv answers the same rows as RFC 4180 CSV with a header row', async () => {
    const id = await portfolio([POSTEN, ENK])
    await warmAll()
    const json = (await deadlines(id)).body.data
    const r = await deadlines(id, WINDOW, { accept: 'text/csv' })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
    expect(r.headers.get('cache-control')).toBe('private, no-store')
    expect(r.text.endsWith('\r\n')).toBe(true)
    const lines = r.text.slice(0, -2).split('\r\n')
    expect(lines[0]).toBe(CSV_COLUMNS.join(','))
    expect(lines.length - 1).toBe(json.deadlines.length)
    const first = json.deadlines[0]
    expect(lines[1]!.startsWith(`${first.org_number},${first.company_name},${first.obligation_id},`)).toBe(true)
    expect(lines[1]).toContain(first.due_at)
  })

  test('another account’s portfolio is 404 NOT_FOUND, and nothing is charged', async () => {
    const other = await createConsumer(app, 'professional')
    await addCredits(app, other.id, 10_000)
    const otherKey = (await createKey(app, other.id)).key
    const id = await portfolio([POSTEN])
    await warmAll()
    const before = (await readBalance(app.deps.sql, other.id)).balance_ore
    const r = await send('GET', `/api/v1/portfolios/${id}/deadlines`, undefined, otherKey)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 404, code: 'NOT_FOUND' })
    expect((await readBalance(app.deps.sql, other.id)).balance_ore).toBe(before)
  })
})

describe('the price is documented where prices are', () => {
  test('the price list and the capabilities document give 50 øre a call and say how it applies', async () => {
    const prices = (await (await app.get('/api/v1/pricing')).json()) as any
    const row = prices.data.operations.find((o: any) => o.operation_id === 'getPortfolioDeadlines')
    expect(row).toMatchObject({ cost_ore: 50, mcp_tool: 'get_portfolio_deadlines' })
    expect(row.price_note).toContain('never costs more than the same company reads made one by one')
    const caps = (await (await app.get('/api/v1/capabilities')).json()) as any
    const cap = caps.data.capabilities.find((c: any) => c.id === 'getPortfolioDeadlines')
    expect(cap).toMatchObject({ price_ore: 50, tier_minimum: 'professional', scope: 'read:register' })
    expect(cap.price_note).toBe(row.price_note)
  })
})
