/**
 * The idempotency step on MCP: a tool whose operation declares idempotency takes the call's
 * `idempotency_key` argument through the same protocol as REST's Idempotency-Key — one run, one
 * charge, a replay of the first answer, a mismatch for other arguments, and a final failure kept.
 * The tool exists only here, registered through the app's extension point.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { AppError } from '../../src/errors/app-error.ts'
import type { Extension } from '../../src/app.ts'
import { op } from '../../src/operations/index.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'
import { connectMcp, toolBody } from '../helpers.ts'

let runs = 0
const Body = Type.Object(
  {
    note: Type.String({ maxLength: 80 }),
    outcome: Type.Optional(Type.Union([Type.Literal('ok'), Type.Literal('final_failure')])),
  },
  { additionalProperties: false },
)
const extension: Extension = {
  operations: [
    op({
      id: 'testWrite',
      method: 'POST',
      path: '/api/v1/test/write',
      category: 'B',
      format: 'envelope',
      tag: 'Test',
      summary: 'an idempotent, metered test write',
      scope: 'read:register',
      costOre: 50,
      idempotency: 'optional',
      mcpTool: 'test_write',
      request: { body: Body },
      response: Type.Object({ run: Type.Integer(), note: Type.String() }),
    }),
  ],
  handlers: {
    testWrite: async ({ body, state }) => {
      const b = body as { note: string; outcome?: string }
      runs++
      if (b.outcome === 'final_failure') {
        // Something irreversible happened before the failure (as a spent approval token).
        state.failureIsFinal = true
        throw new AppError('GOVERNMENT_VALIDATION_REJECTED', { extra: { run: runs } })
      }
      return { data: { run: runs, note: b.note } }
    },
  },
  tools: { testWrite: { justification: () => 'a test write' } },
}

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp({ extension })
  const c = await createConsumer(app, 'starter')
  await addCredits(app, c.id, 10_000)
  key = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

const balance = async () =>
  (await (await app.send('GET', '/api/v1/account/credits/balance', undefined, bearer(key))).json()).data
    .balance_ore as number

test('the tool lists the idempotency_key argument its operation declares', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const tool = (await mcp.listTools()).tools.find((t) => t.name === 'test_write')!
  expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['note', 'outcome', 'idempotency_key'])
  await mcp.close()
})

test('a retry with the same key and arguments replays the first answer: one run, one charge', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const before = await balance()
  const runsBefore = runs
  const args = { note: 'first', idempotency_key: crypto.randomUUID() }
  const first = toolBody(await mcp.callTool({ name: 'test_write', arguments: args }))
  const second = toolBody(await mcp.callTool({ name: 'test_write', arguments: args }))
  expect(second.result).toEqual(first.result)
  expect(second.metadata.idempotent_replayed).toBe(true)
  expect(first.metadata.idempotent_replayed).toBeUndefined()
  expect(runs - runsBefore).toBe(1)
  expect(before - (await balance())).toBe(50)
  await mcp.close()
})

test('calls racing with one key run once', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const runsBefore = runs
  const args = { note: 'race', idempotency_key: crypto.randomUUID() }
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => mcp.callTool({ name: 'test_write', arguments: args })),
  )
  expect(runs - runsBefore).toBe(1)
  for (const a of answers) {
    const b = toolBody(a)
    if (a.isError) expect(b.metadata.error_code).toBe('IDEMPOTENCY_IN_PROGRESS')
    else expect(b.result.note).toBe('race')
  }
  await mcp.close()
})

test('the same key with other arguments is IDEMPOTENCY_KEY_MISMATCH and runs nothing', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const idempotency_key = crypto.randomUUID()
  await mcp.callTool({ name: 'test_write', arguments: { note: 'one', idempotency_key } })
  const runsBefore = runs
  const res = await mcp.callTool({ name: 'test_write', arguments: { note: 'two', idempotency_key } })
  expect(res.isError).toBe(true)
  expect(toolBody(res).metadata.error_code).toBe('IDEMPOTENCY_KEY_MISMATCH')
  expect(runs).toBe(runsBefore)
  await mcp.close()
})

test('a key that is not a UUID is IDEMPOTENCY_KEY_INVALID_FORMAT', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const res = await mcp.callTool({ name: 'test_write', arguments: { note: 'x', idempotency_key: 'x'.repeat(36) } })
  expect(toolBody(res).metadata.error_code).toBe('IDEMPOTENCY_KEY_INVALID_FORMAT')
  await mcp.close()
})

test('a failure after something irreversible is kept: the retry hears it again and nothing runs twice', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const args = { note: 'x', outcome: 'final_failure', idempotency_key: crypto.randomUUID() }
  const first = await mcp.callTool({ name: 'test_write', arguments: args })
  const runsAfterFirst = runs
  const retry = await mcp.callTool({ name: 'test_write', arguments: args })
  expect([first.isError, retry.isError]).toEqual([true, true])
  expect(toolBody(retry).metadata.error_code).toBe('GOVERNMENT_VALIDATION_REJECTED')
  expect(runs).toBe(runsAfterFirst)
  await mcp.close()
})

test('without a key the call simply runs (the operation makes the key optional)', async () => {
  const mcp = await connectMcp(app, bearer(key))
  const runsBefore = runs
  await mcp.callTool({ name: 'test_write', arguments: { note: 'a' } })
  await mcp.callTool({ name: 'test_write', arguments: { note: 'a' } })
  expect(runs - runsBefore).toBe(2)
  await mcp.close()
})
