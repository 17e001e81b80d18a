/**
 * GET /api/v1/changes?portfolio_id= over real HTTP: only the rows of the portfolio's companies (a
 * sub-unit's legal entity included, once the warm-up has read it), in archive order with the same
 * cursor; another account's portfolio is 404.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { isValidOrgNumber } from '../../fixtures/data/mod11.ts'
import { subUnitCase } from '../../fixtures/data/sub-units.ts'
import { warmRegister } from '../../src/domain/portfolios/warmup.ts'
import { appendChanges, type NewChange } from '../../src/store/changes.ts'
import type { Sql } from '../../src/store/db.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'

let app: TestApp
let key: string

beforeAll(async () => {
  app = await startApp()
  key = (await createKey(app, (await createConsumer(app, 'professional')).id)).key
}, 30_000)
afterAll(() => app.stop())

/** A random organisation number that passes MOD-11: rows of their own for each test. */
function validOrg(): string {
  for (;;) {
    const prefix = String(Math.floor(10_000_000 + Math.random() * 79_999_999))
    for (let d = 0; d <= 9; d++) if (isValidOrgNumber(`${prefix}${d}`)) return `${prefix}${d}`
  }
}

function change(entityId: string, year: number): NewChange {
  return {
    source: 'register',
    entity_type: 'annual_accounts',
    entity_id: entityId,
    change_type: 'updated',
    field_path: '/last_accounts_year',
    before_value: year - 1,
    after_value: year,
    diff: [{ op: 'replace', path: '/last_accounts_year', value: year }],
    detected_at: new Date(PINNED_NOW),
    source_snapshot_id: null,
    event_type: null,
  }
}

const append = (rows: NewChange[]) =>
  app.deps.sql.begin((tx) => appendChanges(tx as unknown as Sql, rows, new Date(PINNED_NOW)))

async function send(method: string, path: string, body?: unknown, k = key) {
  const res = await app.send(method, path, body, { ...bearer(k), ...freshIp() })
  return { status: res.status, body: (await res.json()) as any }
}

async function portfolio(orgs: string[], k = key): Promise<string> {
  const id = (await send('POST', '/api/v1/portfolios', { name: 'Endringer' }, k)).body.data.portfolio_id
  await send('PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: orgs }, k)
  return id
}

test('only the portfolio’s companies’ rows, in archive order, and the cursor follows new ones', async () => {
  const [a, b, outside] = [validOrg(), validOrg(), validOrg()]
  const id = await portfolio([a, b])
  await append([change(a, 2024), change(outside, 2024), change(b, 2024)])
  const first = await send('GET', `/api/v1/changes?portfolio_id=${id}&limit=200`)
  expect(first.status).toBe(200)
  expect(first.body.data.changes.map((c: any) => c.entity_id)).toEqual([a, b])
  await append([change(outside, 2025), change(a, 2025)])
  const next = await send('GET', `/api/v1/changes?portfolio_id=${id}&cursor=${first.body.data.next_cursor}`)
  expect(next.body.data.changes.map((c: any) => [c.entity_id, c.after_value])).toEqual([[a, 2025]])
  expect(next.body.data.has_more).toBe(false)
})

test('a sub-unit’s legal entity’s rows are included once the warm-up has read it', async () => {
  const branch = subUnitCase('active')
  const id = await portfolio([branch.org_number])
  for (let i = 0; i < 200 && (await warmRegister(app.deps)).claimed > 0; i++);
  await append([change(branch.parent_org_number, 2030)])
  const r = await send('GET', `/api/v1/changes?portfolio_id=${id}&limit=200`)
  expect(r.body.data.changes.some((c: any) => c.entity_id === branch.parent_org_number && c.after_value === 2030)).toBe(
    true,
  )
})

test('another account’s portfolio is 404 NOT_FOUND', async () => {
  const theirs = (await createKey(app, (await createConsumer(app, 'professional')).id)).key
  const id = await portfolio([validOrg()], theirs)
  const r = await send('GET', `/api/v1/changes?portfolio_id=${id}`)
  expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 404, code: 'NOT_FOUND' })
})
