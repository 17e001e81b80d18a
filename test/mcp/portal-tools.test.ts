/**
 * list_acting_capacity over MCP with the real SDK client against the real app and its fixture
 * register: who sees it, that it answers what its REST twin answers, that a bad fnr is refused
 * naming the field without echoing it, that the sandbox bearer gets SANDBOX_TOOL_UNAVAILABLE, and
 * that no fnr reaches a log line. Identity numbers were built by hand for the fixture people's
 * birth dates (DDMMYY, an individual number, control digits by the published weights).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { FIXTURE_PEOPLE } from '../helpers.ts'

const POSTEN = '984661185'
/** Posten's general manager, born 12 April 1968. */
const DAGL_FNR = FIXTURE_PEOPLE.postenGeneralManager
/** The same with its first control digit wrong. */
const WRONG_CONTROL = '12046823451'
const SENT = [DAGL_FNR, WRONG_CONTROL]

let app: TestApp
let key: string
let client: Client

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'free')
  key = (await createKey(app, c.id)).key
  client = await connectMcp(app, bearer(key))
}, 30_000)
afterAll(async () => {
  await client.close()
  await app.stop()
})

describe('who sees list_acting_capacity', () => {
  test('a read:* key sees it, described as read-only', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'list_acting_capacity')
    expect(tool?.annotations?.readOnlyHint).toBe(true)
    expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(['fnr', 'org_number'])
  })

  test('a key without read:portal does not see it, and calling it is JSON-RPC error -32602', async () => {
    const c = await createConsumer(app, 'free')
    const narrow = await connectMcp(app, bearer((await createKey(app, c.id, ['read:register'])).key))
    expect((await narrow.listTools()).tools.map((t) => t.name)).not.toContain('list_acting_capacity')
    await expect(
      narrow.callTool({ name: 'list_acting_capacity', arguments: { fnr: DAGL_FNR, org_number: POSTEN } }),
    ).rejects.toMatchObject({ code: -32602 })
    await narrow.close()
  })
})

describe('the tool is its REST twin', () => {
  test('it answers what POST /api/v1/portal/list-acting-capacity answers', async () => {
    const r = await client.callTool({ name: 'list_acting_capacity', arguments: { fnr: DAGL_FNR, org_number: POSTEN } })
    expect(r.isError).toBeFalsy()
    const rest = await app.post(
      '/api/v1/portal/list-acting-capacity',
      { fnr: DAGL_FNR, org_number: POSTEN },
      { headers: { ...bearer(key), ...freshIp() } },
    )
    expect(toolBody(r).result).toEqual(((await rest.json()) as { data: unknown }).data)
    expect(toolBody(r).result.actions.map((a: { token: string }) => a.token)).toEqual(['act_in_daily_management'])
  })

  test('its result carries the fnr only as actor.fnr_hmac', async () => {
    const r = await client.callTool({ name: 'list_acting_capacity', arguments: { fnr: DAGL_FNR, org_number: POSTEN } })
    expect(toolBody(r).result.actor.fnr_hmac).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(r)).not.toContain(DAGL_FNR)
  })

  test('a wrong control digit is VALIDATION_FAILED naming fnr, the number nowhere in the answer', async () => {
    const r = await client.callTool({
      name: 'list_acting_capacity',
      arguments: { fnr: WRONG_CONTROL, org_number: POSTEN },
    })
    expect(r.isError).toBe(true)
    expect(toolBody(r).metadata.error_code).toBe('VALIDATION_FAILED')
    expect(toolBody(r).metadata.remediation.explanation.details.map((d: { field: string }) => d.field)).toEqual(['fnr'])
    expect(JSON.stringify(r)).not.toContain(WRONG_CONTROL)
  })

  test('an fnr of the wrong shape is refused by the arguments’ schema, naming fnr, without echoing it', async () => {
    const r = await client.callTool({
      name: 'list_acting_capacity',
      arguments: { fnr: `${DAGL_FNR}9`, org_number: POSTEN },
    })
    expect(toolBody(r).metadata.error_code).toBe('VALIDATION_FAILED')
    expect(toolBody(r).metadata.remediation.explanation.details.map((d: { field: string }) => d.field)).toContain('fnr')
    expect(JSON.stringify(r)).not.toContain(DAGL_FNR)
  })
})

describe('under the sandbox bearer', () => {
  test('it answers SANDBOX_TOOL_UNAVAILABLE (no sandbox mirror), without echoing the fnr', async () => {
    const sandbox = await connectMcp(app, { authorization: 'Bearer svc_sandbox_test_portal-suite' })
    const r = await sandbox.callTool({ name: 'list_acting_capacity', arguments: { fnr: DAGL_FNR, org_number: POSTEN } })
    expect(r.isError).toBe(true)
    expect(toolBody(r).metadata.error_code).toBe('SANDBOX_TOOL_UNAVAILABLE')
    expect(JSON.stringify(r)).not.toContain(DAGL_FNR)
    await sandbox.close()
  })
})

test('no log line of this file holds any fnr it sent', () => {
  expect(app.logs.length).toBeGreaterThan(0)
  expect(app.logs.filter((line) => SENT.some((f) => line.includes(f)))).toEqual([])
})
