/**
 * A sub-unit's number (an underenhet: a branch, shop or site) on every company route, over real
 * HTTP to the brreg fixture server, which answers `/enheter/{orgnr}` 404 and
 * `/underenheter/{orgnr}` with the sub-unit (fixtures/data/sub-units.ts). Reads answer for the
 * legal entity it belongs to and name the sub-unit in `sub_unit`; delegations and filings refuse
 * with ORG_NUMBER_IS_SUB_UNIT, naming the parent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { byScenario } from '../../fixtures/data/companies.ts'
import { subUnitCase } from '../../fixtures/data/sub-units.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { MVA } from '../helpers.ts'

let app: TestApp
let key: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 1_000_000)
  key = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

const BRANCH = subUnitCase('active') // 973120018, a branch of POSTEN NORGE AS
const POSTEN = BRANCH.parent_org_number
const ORPHANED = subUnitCase('deleted-parent') // 987650001, a branch of the deleted SOLBERGSTRAND KAFÉ AS
const DELETED_PARENT = ORPHANED.parent_org_number
const DELETED = subUnitCase('deleted') // 990140006, the deleted stub names no parent
const NEITHER = byScenario('unknown') // 999888941

async function get(path: string) {
  const res = await app.get(path, { headers: { ...bearer(key), ...freshIp() } })
  return { status: res.status, body: (await res.json()) as any }
}

async function post(path: string, body: unknown) {
  const res = await app.post(path, body, { headers: { ...bearer(key), ...freshIp() } })
  return { status: res.status, body: (await res.json()) as any }
}

/** The block every read answers a sub-unit's number with. */
function expectBranchNamed(data: any) {
  expect(data.sub_unit).toMatchObject({
    org_number: BRANCH.org_number,
    name: BRANCH.name,
    org_form: { code: 'BEDR' },
    status: 'active',
    parent_org_number: POSTEN,
    parent_name: 'POSTEN NORGE AS',
    parent_status: 'active',
  })
  expect(data.sub_unit.note_en).toContain(POSTEN)
  expect(data.sub_unit.note_nb).toContain(POSTEN)
}

describe('a sub-unit of an active company, on each read: the legal entity’s answer, the sub-unit named', () => {
  test('context', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/context`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      name: 'POSTEN NORGE AS',
      entity_type: 'AS',
      status: 'active',
    })
    expectBranchNamed(r.body.data)
    expect(r.body.data.sub_unit.location_address).toMatchObject({ lines: ['Robsrudskogen 15'], city: 'LØRENSKOG' })
  })

  test('context cites both register answers it rests on', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/context`)
    expect(r.body._meta.source_snapshot_ids).toHaveLength(2)
  })

  test('summary', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/summary`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ org_number: POSTEN, entity_type: 'AS', coverage: { covered: true } })
    expect(r.body.data.obligations.length).toBeGreaterThan(0)
    expect(r.body.data.deadlines.length).toBeGreaterThan(0)
    expectBranchNamed(r.body.data)
  })

  test('summary is the parent’s summary, plus the block', async () => {
    const [branch, parent] = await Promise.all([
      get(`/api/v1/company/${BRANCH.org_number}/summary`),
      get(`/api/v1/company/${POSTEN}/summary`),
    ])
    const { sub_unit, ...rest } = branch.body.data
    expect(sub_unit).toBeDefined()
    expect(rest).toEqual(parent.body.data)
    expect(parent.body.data.sub_unit).toBeUndefined()
  })

  test('obligations', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/obligations`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ org_number: POSTEN, entity_type: 'AS', coverage: { covered: true } })
    expect(r.body.data.obligations.length).toBeGreaterThan(0)
    expectBranchNamed(r.body.data)
  })

  test('deadlines', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/deadlines?from_date=2026-03-14&horizon_months=6`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      entity_type: 'AS',
      from_date: '2026-03-14',
      horizon_months: 6,
    })
    expect(r.body.data.deadlines.length).toBeGreaterThan(0)
    expectBranchNamed(r.body.data)
  })

  test('verify', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/verify`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ org_number: POSTEN, registry_status: 'active', verification_status: 'pass' })
    expectBranchNamed(r.body.data)
  })

  test('snapshot', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/snapshot`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      sections: { verify: { status: 'ok', verification_status: 'pass' }, roles: { status: 'ok' } },
    })
    expect(r.body.data.sections.roles.roles.length).toBeGreaterThan(0)
    expectBranchNamed(r.body.data)
  })

  test('authority', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/authority`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      classification: 'sole',
      rule: 'coded',
      kombinasjon_available: true,
    })
    expectBranchNamed(r.body.data)
  })

  test('accounts', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/accounts`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      has_filed_annual_accounts: true,
      last_accounts_year: 2024,
      filing_obligation_known: true,
    })
    expectBranchNamed(r.body.data)
  })

  test('profile', async () => {
    const r = await post('/api/v1/register/company-profile', { org_number: BRANCH.org_number })
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      display_name: 'POSTEN NORGE AS',
      status: 'active',
      roles_available: true,
    })
    expect(r.body.data.role_codes).toContain('DAGL')
    expectBranchNamed(r.body.data)
  })

  test('filing history answers for the number as asked (the portal, not the register)', async () => {
    const r = await get(`/api/v1/company/${BRANCH.org_number}/filing-history`)
    expect(r.status).toBe(200)
    expect(r.body.data.org_number).toBe(BRANCH.org_number)
  })

  test('a branch of an ANS answers for the ANS', async () => {
    const r = await get('/api/v1/company/974120003/summary')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: '921173601',
      entity_type: 'ANS',
      sub_unit: { org_number: '974120003', parent_org_number: '921173601' },
    })
  })
})

describe('a sub-unit whose legal entity is deleted', () => {
  test('summary: the deleted entity’s (not covered, no evaluations), the sub-unit named with the parent deleted and its own closing date', async () => {
    const r = await get(`/api/v1/company/${ORPHANED.org_number}/summary`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: DELETED_PARENT,
      coverage: { covered: false },
      obligations: [],
      deadlines: [],
    })
    expect(r.body.data.sub_unit).toMatchObject({
      org_number: ORPHANED.org_number,
      parent_org_number: DELETED_PARENT,
      parent_status: 'deleted',
      closed_date: '2024-06-01',
    })
    expect(r.body.data.sub_unit.note_en).toContain('is deleted from the register (2024-06-28)')
  })

  test('verify: fail, the entity being deleted', async () => {
    const r = await get(`/api/v1/company/${ORPHANED.org_number}/verify`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: DELETED_PARENT,
      registry_status: 'deleted',
      verification_status: 'fail',
      sub_unit: { parent_status: 'deleted' },
    })
  })
})

describe('a deleted sub-unit whose entry names no parent', () => {
  test('a read is 404 SUB_UNIT_DELETED naming the sub-unit, not COMPANY_NOT_FOUND', async () => {
    const r = await get(`/api/v1/company/${DELETED.org_number}/context`)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 404, code: 'SUB_UNIT_DELETED' })
    expect(r.body.sub_unit).toMatchObject({
      org_number: DELETED.org_number,
      name: DELETED.name,
      status: 'deleted',
      deleted_date: '2023-03-31',
      parent_org_number: null,
    })
  })
})

describe('a number that is neither a unit nor a sub-unit', () => {
  test('is still 404 COMPANY_NOT_FOUND', async () => {
    const r = await get(`/api/v1/company/${NEITHER}/summary`)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 404, code: 'COMPANY_NOT_FOUND' })
  })

  test('accounts still answers nulls for it', async () => {
    const r = await get(`/api/v1/company/${NEITHER}/accounts`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: NEITHER,
      has_filed_annual_accounts: null,
      filing_obligation_known: null,
    })
    expect(r.body.data.sub_unit).toBeUndefined()
  })
})

describe('bulk status', () => {
  test('each kind of number in its row, in the order given', async () => {
    const list = [BRANCH.org_number, POSTEN, ORPHANED.org_number, DELETED.org_number, NEITHER]
    const res = await app.get(`/api/v1/public/company-status?org_numbers=${list.join(',')}`, { headers: freshIp() })
    expect(res.status).toBe(200)
    const rows = ((await res.json()) as any).data.rows
    expect(
      rows.map((r: any) => [
        r.org_number,
        r.found,
        r.registry_status,
        r.name ?? null,
        r.sub_unit?.parent_org_number ?? null,
      ]),
    ).toEqual([
      [BRANCH.org_number, true, 'active', 'POSTEN NORGE AS', POSTEN],
      [POSTEN, true, 'active', 'POSTEN NORGE AS', null],
      [ORPHANED.org_number, true, 'deleted', 'SOLBERGSTRAND KAFÉ AS', DELETED_PARENT],
      [DELETED.org_number, true, 'deleted', DELETED.name, null],
      [NEITHER, false, 'not_found', null, null],
    ])
    expect(rows[0].sub_unit).toMatchObject({ org_number: BRANCH.org_number, name: BRANCH.name })
    expect(rows[0]).toMatchObject({ entity_type: 'AS', mva_registered: true, error: null })
    expect(rows[3]).toMatchObject({ entity_type: 'BEDR', sub_unit: { status: 'deleted' }, error: null })
  })
})

describe('what only a legal entity can do: refused with the parent’s number in the fix', () => {
  test('a delegation request is 422 ORG_NUMBER_IS_SUB_UNIT', async () => {
    const r = await post('/api/v1/auth/system-user/delegate', { org_number: BRANCH.org_number, scopes: [MVA] })
    expect({ status: r.status, code: r.body.error_code, parent: r.body.parent_org_number }).toEqual({
      status: 422,
      code: 'ORG_NUMBER_IS_SUB_UNIT',
      parent: POSTEN,
    })
    expect(r.body.explanation.fix_steps_en[0]).toContain(POSTEN)
    expect(r.body.explanation.fix_steps[0]).toContain(POSTEN)
    expect(r.body.explanation.summary_en).toBe(`The number is a sub-unit of ${POSTEN}, not a legal entity.`)
  })

  test('a fullmakt request is 422 ORG_NUMBER_IS_SUB_UNIT', async () => {
    const r = await post('/api/v1/fullmakt/request', {
      agent_principal_id: crypto.randomUUID(),
      org_number: BRANCH.org_number,
      scopes: [MVA],
    })
    expect({ status: r.status, code: r.body.error_code, parent: r.body.parent_org_number }).toEqual({
      status: 422,
      code: 'ORG_NUMBER_IS_SUB_UNIT',
      parent: POSTEN,
    })
  })

  test('a dry run of a filing is 422 ORG_NUMBER_IS_SUB_UNIT', async () => {
    const r = await post('/api/v1/actions/validate', {
      org_number: BRANCH.org_number,
      action_type: 'mva_melding',
      period: '2026-T1',
      payload: {},
    })
    expect({ status: r.status, code: r.body.error_code, parent: r.body.parent_org_number }).toEqual({
      status: 422,
      code: 'ORG_NUMBER_IS_SUB_UNIT',
      parent: POSTEN,
    })
    expect(r.body.sub_unit).toMatchObject({ org_number: BRANCH.org_number, parent_org_number: POSTEN })
  })
})

describe('caching: a sub-unit is read as a unit is', () => {
  async function brregRequests(): Promise<string[]> {
    const log = (await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()) as {
      path: string
    }[]
    return log.map((r) => r.path)
  }
  const clearLog = () => fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })

  test('the first read asks /enheter (404), then /underenheter (the parent is cached already); a second read asks nothing', async () => {
    const org = '973130005' // Posten's other branch, not read by any other test here
    await get(`/api/v1/company/${POSTEN}/context`)
    await clearLog()
    await get(`/api/v1/company/${org}/context`)
    expect(await brregRequests()).toEqual([
      `/enhetsregisteret/api/enheter/${org}`,
      `/enhetsregisteret/api/underenheter/${org}`,
    ])
    await clearLog()
    const again = await get(`/api/v1/company/${org}/context`)
    expect(again.body._meta.served_from).toBe('cache')
    expect(await brregRequests()).toEqual([])
  })

  test('a number that is neither is cached as not found under both lookups', async () => {
    const org = '999888941'
    await get(`/api/v1/company/${org}/verify`)
    await clearLog()
    await get(`/api/v1/company/${org}/verify`)
    expect(await brregRequests()).toEqual([])
    const rows = await app.deps.sql<
      { resource_key: string; http_status: number }[]
    >`select resource_key, http_status from upstream_cache where org_number = ${org} order by resource_key`
    expect(rows.map((r) => [r.resource_key, r.http_status])).toEqual([
      [`enhet:${org}`, 404],
      [`underenhet:${org}`, 404],
    ])
  })
})
