/**
 * The portfolio tools over MCP with the real SDK client: list_portfolios, set_portfolio_companies
 * and get_portfolio_deadlines answer what their REST twins answer, through the same pipeline
 * (scope-filtered, tier-checked, metered once), and another account's portfolio is not found.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { connectMcp, toolBody } from '../helpers.ts'
import { warmRegister } from '../../src/domain/portfolios/warmup.ts'
import { readBalance } from '../../src/store/credits.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

const POSTEN = '984661185'
const ENK = '915241700'
const TOOLS = ['list_portfolios', 'set_portfolio_companies', 'get_portfolio_deadlines']

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

async function customer(tier: 'free' | 'professional' = 'professional', scopes?: string[]) {
  const c = await createConsumer(app, tier)
  await addCredits(app, c.id, 10_000)
  return { id: c.id, key: (await createKey(app, c.id, scopes)).key }
}

async function rest(method: string, path: string, key: string, body?: unknown) {
  const res = await app.send(method, path, body, { ...bearer(key), ...freshIp() })
  return (await res.json()) as any
}

test('a key with read:register sees the portfolio tools; one without does not', async () => {
  const k = await customer()
  const names = (await (await connectMcp(app, bearer(k.key))).listTools()).tools.map((t) => t.name)
  for (const t of TOOLS) expect(names).toContain(t)
  const narrow = await customer('professional', ['read:changes'])
  const hidden = (await (await connectMcp(app, bearer(narrow.key))).listTools()).tools.map((t) => t.name)
  for (const t of TOOLS) expect(hidden).not.toContain(t)
})

test('set, list and read over MCP answer what REST answers; the read is charged once', async () => {
  const k = await customer()
  const id = (await rest('POST', '/api/v1/portfolios', k.key, { name: 'MCP' })).data.portfolio_id
  const client = await connectMcp(app, bearer(k.key))
  const set = toolBody(
    await client.callTool({
      name: 'set_portfolio_companies',
      arguments: { portfolio_id: id, org_numbers: [ENK, POSTEN, ENK] },
    }),
  )
  expect(set.result).toMatchObject({ portfolio_id: id, company_count: 2, duplicates_removed: 1 })
  const list = toolBody(await client.callTool({ name: 'list_portfolios', arguments: {} }))
  expect(list.result).toEqual((await rest('GET', '/api/v1/portfolios', k.key)).data)
  for (let i = 0; i < 200 && (await warmRegister(app.deps)).claimed > 0; i++);
  const before = (await readBalance(app.deps.sql, k.id)).balance_ore
  const viaMcp = toolBody(
    await client.callTool({ name: 'get_portfolio_deadlines', arguments: { portfolio_id: id, horizon_months: 6 } }),
  )
  expect((await readBalance(app.deps.sql, k.id)).balance_ore).toBe(before - 50)
  const viaRest = (await rest('GET', `/api/v1/portfolios/${id}/deadlines?horizon_months=6`, k.key)).data
  expect(viaMcp.result).toEqual(viaRest)
  expect(viaMcp.result.states).toMatchObject({ answered: 2, pending: 0 })
  await client.close()
})

test('another account’s portfolio is NOT_FOUND over MCP, and nothing is charged', async () => {
  const owner = await customer()
  const id = (await rest('POST', '/api/v1/portfolios', owner.key, { name: 'Theirs' })).data.portfolio_id
  const k = await customer()
  const client = await connectMcp(app, bearer(k.key))
  const res = await client.callTool({ name: 'get_portfolio_deadlines', arguments: { portfolio_id: id } })
  expect(res.isError).toBe(true)
  expect(toolBody(res).metadata.error_code).toBe('NOT_FOUND')
  expect((await readBalance(app.deps.sql, k.id)).balance_ore).toBe(10_000)
  await client.close()
})

test('a free-tier key calling a portfolio tool is refused PLAN_INSUFFICIENT', async () => {
  const k = await customer('free')
  const client = await connectMcp(app, bearer(k.key))
  const res = await client.callTool({ name: 'list_portfolios', arguments: {} })
  expect(res.isError).toBe(true)
  expect(toolBody(res).metadata.error_code).toBe('PLAN_INSUFFICIENT')
  await client.close()
})

test('the portfolio’s deadlines read as a resource answer what REST answers, charged once as the tool is', async () => {
  const k = await customer()
  const id = (await rest('POST', '/api/v1/portfolios', k.key, { name: 'Resource' })).data.portfolio_id
  await rest('PUT', `/api/v1/portfolios/${id}/companies`, k.key, { org_numbers: [POSTEN, ENK] })
  for (let i = 0; i < 200 && (await warmRegister(app.deps)).claimed > 0; i++);
  const client = await connectMcp(app, bearer(k.key))
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
  expect(templates).toContain('plikt://portfolio/{portfolio_id}/deadlines{?from_date,horizon_months}')
  const before = (await readBalance(app.deps.sql, k.id)).balance_ore
  const [content] = (await client.readResource({ uri: `plikt://portfolio/${id}/deadlines?horizon_months=6` }))
    .contents as { text: string }[]
  expect((await readBalance(app.deps.sql, k.id)).balance_ore).toBe(before - 50)
  const viaRest = await rest('GET', `/api/v1/portfolios/${id}/deadlines?horizon_months=6`, k.key)
  expect(JSON.parse(content!.text).data).toEqual(viaRest.data)
  await client.close()
})
