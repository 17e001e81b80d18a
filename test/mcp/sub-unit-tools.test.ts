/**
 * A sub-unit's number (an underenhet) through the MCP tools, with the real SDK client (which checks
 * each result against the tool's output schema) against the real app and its fixture servers: the
 * legal entity's answer with the sub-unit named, equal to the REST twin's; the deleted-parent case;
 * a filing's dry run refused with the parent's number; a number that is neither still unknown.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { byScenario } from '../../fixtures/data/companies.ts'
import { subUnitCase } from '../../fixtures/data/sub-units.ts'
import { readBalance } from '../../src/store/credits.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
let key: string
let consumerId: string
let client: Client

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  consumerId = c.id
  await addCredits(app, c.id, 10_000)
  key = (await createKey(app, c.id)).key
  client = await connectMcp(app, bearer(key))
}, 30_000)
afterAll(async () => {
  await client.close()
  await app.stop()
})

const BRANCH = subUnitCase('active')
const POSTEN = BRANCH.parent_org_number
const ORPHANED = subUnitCase('deleted-parent')

const rest = async (path: string) =>
  (await (await app.get(path, { headers: { ...bearer(key), ...freshIp() } })).json()) as { data: any }

describe('get_company_summary with a sub-unit’s number', () => {
  test('answers for the legal entity, the sub-unit named', async () => {
    const res = await client.callTool({ name: 'get_company_summary', arguments: { org_number: BRANCH.org_number } })
    expect(res.isError).toBeFalsy()
    const r = toolBody(res)
    expect(r.result).toMatchObject({
      org_number: POSTEN,
      entity_type: 'AS',
      coverage: { covered: true },
      sub_unit: {
        org_number: BRANCH.org_number,
        name: BRANCH.name,
        parent_org_number: POSTEN,
        parent_status: 'active',
      },
    })
    expect(r.result.obligations.length).toBeGreaterThan(0)
  })

  test('its result is the REST twin’s data', async () => {
    const r = toolBody(
      await client.callTool({ name: 'get_company_summary', arguments: { org_number: BRANCH.org_number } }),
    )
    expect(r.result).toEqual((await rest(`/api/v1/company/${BRANCH.org_number}/summary`)).data)
  })

  test('a sub-unit of a deleted entity: the entity’s uncovered summary, the parent marked deleted', async () => {
    const r = toolBody(
      await client.callTool({ name: 'get_company_summary', arguments: { org_number: ORPHANED.org_number } }),
    )
    expect(r.result).toMatchObject({
      org_number: ORPHANED.parent_org_number,
      coverage: { covered: false },
      obligations: [],
      sub_unit: { org_number: ORPHANED.org_number, parent_status: 'deleted' },
    })
  })
})

describe('get_company_deadlines with a sub-unit’s number', () => {
  test('the legal entity’s deadlines, the sub-unit named', async () => {
    const res = await client.callTool({
      name: 'get_company_deadlines',
      arguments: { org_number: BRANCH.org_number, horizon_months: 6 },
    })
    expect(res.isError).toBeFalsy()
    const r = toolBody(res)
    expect(r.result).toMatchObject({
      org_number: POSTEN,
      horizon_months: 6,
      sub_unit: { org_number: BRANCH.org_number, parent_org_number: POSTEN },
    })
    expect(r.result.deadlines.length).toBeGreaterThan(0)
  })
})

describe('get_company_context with a sub-unit’s number', () => {
  test('the legal entity’s register fields, the sub-unit named', async () => {
    const r = toolBody(
      await client.callTool({ name: 'get_company_context', arguments: { org_number: BRANCH.org_number } }),
    )
    expect(r.result).toMatchObject({
      org_number: POSTEN,
      name: 'POSTEN NORGE AS',
      sub_unit: { org_number: BRANCH.org_number },
    })
  })
})

describe('validate_action with a sub-unit’s number', () => {
  test('is refused with ORG_NUMBER_IS_SUB_UNIT, the parent’s number in the metadata and the fix', async () => {
    const res = await client.callTool({
      name: 'validate_action',
      arguments: { org_number: BRANCH.org_number, action_type: 'mva_melding', period: '2026-T1', payload: {} },
    })
    expect(res.isError).toBe(true)
    const r = toolBody(res)
    expect(r.metadata).toMatchObject({ error_code: 'ORG_NUMBER_IS_SUB_UNIT', parent_org_number: POSTEN })
    expect(r.metadata.remediation.explanation.fix_steps_en[0]).toContain(POSTEN)
  })
})

describe('a number that is neither a unit nor a sub-unit', () => {
  test('is still COMPANY_NOT_FOUND, and nothing is charged for it', async () => {
    const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
    const res = await client.callTool({ name: 'get_company_summary', arguments: { org_number: byScenario('unknown') } })
    expect(res.isError).toBe(true)
    expect(toolBody(res).metadata.error_code).toBe('COMPANY_NOT_FOUND')
    expect((await readBalance(app.deps.sql, consumerId)).balance_ore).toBe(before)
  })
})
