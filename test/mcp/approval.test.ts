/**
 * The approval step on MCP, through `submit_vat_return` (the sandbox execute as a tool) with the
 * real SDK client: without an approval token the call is a dry run; with one it runs the live
 * flow the REST route runs — the token spent once, the receipt signed, a retry with the same
 * `idempotency_key` replaying the answer, a failure after the token was spent kept as final.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'
import { approve, as, ownAudit, live, vat, type HeaderMap } from '../helpers.ts'
import { SANDBOX_RECEIPT_KEY, verifyReceiptSignature } from '../../src/domain/actions/receipt.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

/** A client under a synthetic bearer of its own namespace, and the REST headers of the same namespace. */
async function caller(): Promise<{ mcp: Client; h: HeaderMap }> {
  const h = as()
  return { mcp: await connectMcp(app, h), h }
}

const args = (body = vat(), extra: Record<string, unknown> = {}) => ({
  org_number: body.org_number,
  period: body.period,
  payload: body.payload,
  ...extra,
})

async function call(mcp: Client, a: Record<string, unknown>) {
  const r = (await mcp.callTool({ name: 'submit_vat_return', arguments: a })) as { isError?: boolean }
  return { isError: r.isError === true, body: toolBody(r) }
}

describe('submit_vat_return', () => {
  test('is listed under the synthetic bearer with idempotency_key and approval_token arguments', async () => {
    const { mcp } = await caller()
    const tool = (await mcp.listTools()).tools.find((t) => t.name === 'submit_vat_return')
    expect(Object.keys(tool!.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['org_number', 'period', 'payload', 'dry_run', 'idempotency_key', 'approval_token']),
    )
    expect(tool!.inputSchema.required).toEqual(expect.arrayContaining(['org_number', 'period', 'payload']))
    await mcp.close()
  })

  test('a production key is offered production’s submit_vat_return, never the sandbox rehearsal', async () => {
    const c = await createConsumer(app, 'enterprise')
    const { key } = await createKey(app, c.id)
    const mcp = await connectMcp(app, bearer(key))
    const tools = (await mcp.listTools()).tools.filter((t) => t.name === 'submit_vat_return')
    expect(tools).toHaveLength(1)
    expect(tools[0]!.description).not.toContain('sandbox')
    await mcp.close()
  })

  test('the synthetic bearer is offered the sandbox rehearsal only, once', async () => {
    const { mcp } = await caller()
    const tools = (await mcp.listTools()).tools.filter((t) => t.name === 'submit_vat_return')
    expect(tools).toHaveLength(1)
    expect(tools[0]!.description).toContain('nothing is ever submitted')
    await mcp.close()
  })

  test('without an approval token is a dry run: the five checks, nothing submitted, the same outcome as REST’s ?dry_run=true', async () => {
    const { mcp, h } = await caller()
    const { isError, body } = await call(mcp, args())
    expect(isError).toBe(false)
    expect(body.result.dry_run).toBe(true)
    expect(body.result.validation.all_passed).toBe(true)
    const rest = await (await app.send('POST', '/api/v1/sandbox/actions/execute?dry_run=true', vat(), h)).json()
    expect(body.result).toEqual((rest as { data: unknown }).data)
    expect(body._meta.is_sandbox).toBe(true)
    await mcp.close()
  })

  test('dry_run: false without a token is a live call that needs one: APPROVAL_TOKEN_REQUIRED, nothing submitted', async () => {
    const { mcp } = await caller()
    const { isError, body } = await call(mcp, args(vat(), { dry_run: false, idempotency_key: crypto.randomUUID() }))
    expect(isError).toBe(true)
    expect(body.metadata.error_code).toBe('APPROVAL_TOKEN_REQUIRED')
    expect(body.execution_guarantee).toBe('nothing_submitted')
    expect(body.outcome).toEqual({ submitted: false, status: 'not_attempted', approval_token_consumed: false })
    await mcp.close()
  })

  test('with a token minted on REST files live: a receipt signed with the public sandbox key, audited in the caller’s namespace', async () => {
    const { mcp, h } = await caller()
    const { token } = await approve(app, vat(), h)
    const { isError, body } = await call(
      mcp,
      args(vat(), { approval_token: token, idempotency_key: crypto.randomUUID() }),
    )
    expect(isError).toBe(false)
    expect(body.result.dry_run).toBe(false)
    expect((body as unknown as { _sandbox_marker: string })._sandbox_marker).toBe('SANDBOX_NOT_REAL_GOV_RESPONSE')
    expect(verifyReceiptSignature(body.result.receipt, SANDBOX_RECEIPT_KEY)).toBe(true)
    const filed = (await ownAudit(app, '818000006', h)).filter((e) => e.action === 'submit_mva')
    expect(filed.map((e) => e.id)).toEqual([body.result.receipt.audit_log_id])
    await mcp.close()
  })

  test('an approval_token that is not one we issued is APPROVAL_TOKEN_INVALID, and nothing is filed', async () => {
    const { mcp, h } = await caller()
    const { isError, body } = await call(
      mcp,
      args(vat(), { approval_token: 'apt_not-a-token-we-issued', idempotency_key: crypto.randomUUID() }),
    )
    expect([isError, body.metadata.error_code]).toEqual([true, 'APPROVAL_TOKEN_INVALID'])
    expect(body.outcome).toEqual({ submitted: false, status: 'not_attempted', approval_token_consumed: false })
    expect((await ownAudit(app, '818000006', h)).filter((e) => e.action === 'submit_mva')).toEqual([])
    await mcp.close()
  })

  test.each([
    ['longer than 128 characters', `apt_${'x'.repeat(200)}`],
    ['not a string', 12345],
  ])(
    'an approval_token %s is refused as VALIDATION_FAILED before anything runs, and a minted token stays usable',
    async (_what, bad) => {
      const { mcp, h } = await caller()
      const { token } = await approve(app, vat(), h)
      const refused = await call(mcp, args(vat(), { approval_token: bad, idempotency_key: crypto.randomUUID() }))
      expect([refused.isError, refused.body.metadata.error_code]).toEqual([true, 'VALIDATION_FAILED'])
      expect(
        (await call(mcp, args(vat(), { approval_token: token, idempotency_key: crypto.randomUUID() }))).isError,
      ).toBe(false)
      await mcp.close()
    },
  )

  test('an idempotency_key that is not a UUID is refused, and the token stays usable', async () => {
    const { mcp, h } = await caller()
    const { token } = await approve(app, vat(), h)
    const refused = await call(
      mcp,
      args(vat(), { approval_token: token, idempotency_key: 'not-a-uuid-but-exactly-36-characters' }),
    )
    expect(refused.body.metadata.error_code).toBe('IDEMPOTENCY_KEY_INVALID_FORMAT')
    expect(
      (await call(mcp, args(vat(), { approval_token: token, idempotency_key: crypto.randomUUID() }))).isError,
    ).toBe(false)
    await mcp.close()
  })

  test('spends the token once: a second call with it (another idempotency_key) is APPROVAL_TOKEN_USED', async () => {
    const { mcp, h } = await caller()
    const { token } = await approve(app, vat(), h)
    expect(
      (await call(mcp, args(vat(), { approval_token: token, idempotency_key: crypto.randomUUID() }))).isError,
    ).toBe(false)
    const again = await call(mcp, args(vat(), { approval_token: token, idempotency_key: crypto.randomUUID() }))
    expect(again.body.metadata.error_code).toBe('APPROVAL_TOKEN_USED')
    // A token spent on MCP is spent on REST too: one namespace, one token.
    expect(((await (await live(app, vat(), { h, token })).json()) as { error_code: string }).error_code).toBe(
      'APPROVAL_TOKEN_USED',
    )
    await mcp.close()
  })

  test('a retry with the same idempotency_key replays the receipt without spending anything again', async () => {
    const { mcp, h } = await caller()
    const { token } = await approve(app, vat(), h)
    const key = crypto.randomUUID()
    const first = await call(mcp, args(vat(), { approval_token: token, idempotency_key: key }))
    const retry = await call(mcp, args(vat(), { approval_token: token, idempotency_key: key }))
    expect(retry.isError).toBe(false)
    expect(retry.body.result).toEqual(first.body.result)
    expect(retry.body.metadata.idempotent_replayed).toBe(true)
    expect((await ownAudit(app, '818000006', h)).filter((e) => e.action === 'submit_mva')).toHaveLength(1)
    await mcp.close()
  })

  test('five racing calls with one token file once', async () => {
    const { mcp, h } = await caller()
    const { token } = await approve(app, vat(), h)
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(mcp, args(vat(), { approval_token: token, idempotency_key: crypto.randomUUID() })),
      ),
    )
    expect(results.filter((r) => !r.isError)).toHaveLength(1)
    expect(results.filter((r) => r.isError).map((r) => r.body.metadata.error_code)).toEqual(
      Array(4).fill('APPROVAL_TOKEN_USED'),
    )
    expect((await ownAudit(app, '818000006', h)).filter((e) => e.action === 'submit_mva')).toHaveLength(1)
    await mcp.close()
  })

  test('a precondition failure leaves the token usable: 422-coded failure naming the checks, then the token still files', async () => {
    const { mcp, h } = await caller()
    const late = vat({ period: '2025-T5' })
    const { token } = await approve(app, late, h)
    const failed = await call(mcp, args(late, { approval_token: token, idempotency_key: crypto.randomUUID() }))
    expect(failed.body.metadata.error_code).toBe('DEADLINE_PASSED')
    expect(failed.body.metadata.failed_checks).toEqual(['deadline_in_future'])
    expect(failed.body.outcome.approval_token_consumed).toBe(false)
    // The same token on the mocked effective date where the term is still in time.
    const ok = await call(
      mcp,
      args(late, { approval_token: token, idempotency_key: crypto.randomUUID(), mock_date: '2025-12-01' }),
    )
    expect(ok.isError).toBe(false)
    await mcp.close()
  })

  test('a government rejection after the token was spent is final: reported as rejected, and a retry with the key hears it again', async () => {
    const { mcp, h } = await caller()
    const rejected = vat({}, { total_revenue_nok: 99_999_999 })
    const { token } = await approve(app, rejected, h)
    const key = crypto.randomUUID()
    const first = await call(mcp, args(rejected, { approval_token: token, idempotency_key: key }))
    expect(first.body.metadata.error_code).toBe('GOVERNMENT_VALIDATION_REJECTED')
    expect(first.body.outcome).toEqual({ submitted: false, status: 'rejected', approval_token_consumed: true })
    const retry = await call(mcp, args(rejected, { approval_token: token, idempotency_key: key }))
    expect(retry.body.metadata.error_code).toBe('GOVERNMENT_VALIDATION_REJECTED')
    await mcp.close()
  })
})

test('a keyed call of a tool that names no approval takes no approval_token argument', async () => {
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 1_000)
  const { key } = await createKey(app, c.id)
  const mcp = await connectMcp(app, bearer(key))
  const tool = (await mcp.listTools()).tools.find((t) => t.name === 'get_company_summary')
  expect(Object.keys(tool!.inputSchema.properties ?? {})).not.toContain('approval_token')
  await mcp.close()
})
