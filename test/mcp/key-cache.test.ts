/**
 * MCP and the per-instance key cache: one `tools/call` of a priced tool takes its key from the
 * cache, since its charge confirms the key in the same statement (as on REST); everything else is
 * answered after a fresh lookup. Two instances on one database: b has the key cached, a changes it,
 * and b's very next request must act on the change.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hashSecret } from '../../src/lib/tokens.ts'
import { readBalance } from '../../src/store/credits.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let a: TestApp
let b: TestApp
beforeAll(async () => {
  a = await startApp()
  b = await startApp()
}, 30_000)
afterAll(async () => {
  await a.stop()
  await b.stop()
})

const POSTEN = '984661185'
const SUMMARY_ORE = 50

/** One JSON-RPC message to b's /api/mcp, as a host without a session sends it. */
async function rpc(
  key: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${b.url}/api/mcp`, {
    method: 'POST',
    headers: {
      ...bearer(key),
      ...freshIp(),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text), challenge: res.headers.get('www-authenticate') }
}

const callSummary = (key: string, args: Record<string, unknown> = { org_number: POSTEN }) =>
  rpc(key, 'tools/call', { name: 'get_company_summary', arguments: args })

/** An enterprise consumer with credit and a key that b has already used for one priced tool call, so b has the key cached. */
async function keyCachedOnB(scopes?: string[]) {
  const c = await createConsumer(a, 'enterprise')
  await addCredits(a, c.id, 1000)
  const k = await createKey(a, c.id, scopes)
  const first = await callSummary(k.key)
  expect(first.status).toBe(200)
  expect(first.body.result.isError).toBeUndefined()
  expect(b.deps.keyCache.get(hashSecret(k.key))).toMatchObject({ keyId: k.id, confirmed: false })
  return { consumerId: c.id, key: k.key, keyId: k.id }
}

const balance = async (consumerId: string) => (await readBalance(a.deps.sql, consumerId)).balance_ore
const revokeOnA = async (keyId: string) =>
  expect((await a.send('DELETE', `/api/v1/admin/keys/${keyId}`, undefined, admin)).status).toBe(200)

describe('a priced tool call with a key the instance has cached', () => {
  test('is answered and charged, and the key stays cached', async () => {
    const k = await keyCachedOnB()
    const before = await balance(k.consumerId)
    const again = await callSummary(k.key)
    expect(again.status).toBe(200)
    expect(again.body.result.structuredContent.result.org_number).toBe(POSTEN)
    expect(await balance(k.consumerId)).toBe(before - SUMMARY_ORE)
    expect(b.deps.keyCache.get(hashSecret(k.key))).toMatchObject({ keyId: k.keyId, confirmed: false })
  })
})

describe('a key revoked after the instance cached it', () => {
  test('gets 401 AUTH_INVALID_KEY with the challenge on its next priced tool call, and is not charged', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    const before = await balance(k.consumerId)
    const refused = await callSummary(k.key)
    expect(refused.status).toBe(401)
    expect(refused.body.error_code).toBe('AUTH_INVALID_KEY')
    expect(refused.challenge).toContain('Bearer realm="svc-mcp"')
    expect(await balance(k.consumerId)).toBe(before)
  })

  test('gets 401 AUTH_INVALID_KEY, not the tool’s own refusal, when its arguments are invalid', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    const refused = await callSummary(k.key, { org_number: 'banana' })
    expect([refused.status, refused.body.error_code]).toEqual([401, 'AUTH_INVALID_KEY'])
  })

  test('is dropped from the instance’s cache once refused', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    expect((await callSummary(k.key)).status).toBe(401)
    expect(b.deps.keyCache.get(hashSecret(k.key))).toBeUndefined()
  })

  test('gets 401 on tools/list, which is always answered after a fresh lookup', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    const refused = await rpc(k.key, 'tools/list')
    expect([refused.status, refused.body.error_code]).toEqual([401, 'AUTH_INVALID_KEY'])
  })
})

describe('a refused key on MCP is audited as a refused credential, as on every surface', () => {
  const audited = async (correlationId: string) =>
    (
      await a.deps.sql<
        { details: { error_code: string } }[]
      >`select details from audit_log where correlation_id = ${correlationId} and action = 'authorization_failed'`
    ).map((r) => r.details.error_code)

  test('when the key came from the cache (a priced call)', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    const correlationId = `mcp-cached-refusal-${crypto.randomUUID()}`
    expect(
      (
        await rpc(
          k.key,
          'tools/call',
          { name: 'get_company_summary', arguments: { org_number: POSTEN } },
          { 'x-correlation-id': correlationId },
        )
      ).status,
    ).toBe(401)
    expect(await audited(correlationId)).toEqual(['AUTH_INVALID_KEY'])
  })

  test('when the key was looked up afresh (tools/list)', async () => {
    const k = await keyCachedOnB()
    await revokeOnA(k.keyId)
    const correlationId = `mcp-fresh-refusal-${crypto.randomUUID()}`
    expect((await rpc(k.key, 'tools/list', {}, { 'x-correlation-id': correlationId })).status).toBe(401)
    expect(await audited(correlationId)).toEqual(['AUTH_INVALID_KEY'])
  })

  test('when the key is unknown', async () => {
    const correlationId = `mcp-unknown-refusal-${crypto.randomUUID()}`
    expect(
      (
        await rpc(
          `svc_live_unknown${crypto.randomUUID().replaceAll('-', '')}`,
          'tools/list',
          {},
          { 'x-correlation-id': correlationId },
        )
      ).status,
    ).toBe(401)
    expect(await audited(correlationId)).toEqual(['AUTH_INVALID_KEY'])
  })
})

describe('a key whose consumer was deactivated after the instance cached it', () => {
  test('gets 403 AUTH_CONSUMER_INACTIVE on its next priced tool call, and is not charged', async () => {
    const k = await keyCachedOnB()
    expect((await a.send('PATCH', `/api/v1/admin/consumers/${k.consumerId}`, { active: false }, admin)).status).toBe(
      200,
    )
    const before = await balance(k.consumerId)
    const refused = await callSummary(k.key)
    expect([refused.status, refused.body.error_code]).toEqual([403, 'AUTH_CONSUMER_INACTIVE'])
    expect(await balance(k.consumerId)).toBe(before)
  })
})
