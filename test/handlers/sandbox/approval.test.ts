/**
 * Sandbox approval tokens over real HTTP: minting (POST /api/v1/sandbox/auth/approval-token) and
 * the token gauntlet of a live execute — required, invalid, used, expired, mismatched, namespaced,
 * single use under concurrency, and kept when a precondition fails.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { actionIdOf } from '../../../src/domain/actions/action-id.ts'
import { SandboxApprovalToken } from '../../../src/schemas/sandbox.ts'
import { PINNED_NOW, startApp, type TestApp } from '../../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../../helpers.ts'
import {
  actionIdFor,
  approve,
  as,
  auditRows,
  expectWriteError,
  live,
  mintRequest,
  namespaceOf,
  ownAudit,
  PUBLIC,
  tokenRows,
  vat,
} from '../../helpers.ts'

let app: TestApp
// The first file of a run may start the embedded database: allow more than the 5 s hook default.
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const MINUTE = 60_000
const LIFETIME = 15 * MINUTE

async function withClockAdvanced<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  app.clock.advance(ms)
  try {
    return await fn()
  } finally {
    app.clock.set(PINNED_NOW)
  }
}

/** Whether the token row of this namespace has been consumed (the database's view). */
async function consumed(h: Record<string, string>): Promise<boolean[]> {
  const rows = await app.deps.sql<
    { consumed_at: Date | null }[]
  >`select consumed_at from approval_tokens where namespace = ${namespaceOf(h)}`
  return rows.map((r) => r.consumed_at !== null)
}

describe('minting an approval token', () => {
  test('answers 201 with an apt_ token bound to the org and action, single use, expiring 15 minutes after minting', async () => {
    const h = as()
    const body = vat()
    const actionId = await actionIdFor(app, body, h)
    const res = await mintRequest(app, body.org_number, actionId, h)
    expect(res.status).toBe(201)
    const { data } = await res.json()
    expect(Value.Check(SandboxApprovalToken, data)).toBe(true)
    expect(data).toEqual({
      approval_token: expect.stringMatching(/^apt_[0-9A-Za-z]{32}$/),
      header: 'X-Approval-Token',
      org_number: body.org_number,
      action_id: actionId,
      expires_at: '2026-03-14T10:45:00.000+01:00',
      single_use: true,
    })
  })

  test('each mint is a new token', async () => {
    const h = as()
    const first = await approve(app, vat(), h)
    const second = await approve(app, vat(), h)
    expect(second.token).not.toBe(first.token)
  })

  test('writes an approval_token.minted audit row in the caller’s namespace, without the token', async () => {
    const h = as()
    const { actionId, token } = await approve(app, vat(), h)
    const rows = await ownAudit(app, vat().org_number, h)
    expect(rows.map((r) => [r.action, r.details.action_id, r.details.expires_at])).toEqual([
      ['approval_token.minted', actionId, '2026-03-14T10:45:00.000+01:00'],
    ])
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  test('an unknown organisation is 400 VALIDATION_FAILED and mints nothing', async () => {
    const h = as()
    const actionId = await actionIdFor(app, vat(), h)
    const body = await expectWriteError(await mintRequest(app, '123456789', actionId, h), 400, 'VALIDATION_FAILED')
    expect(body.explanation.details.map((d: { field: string }) => d.field)).toEqual(['org_number'])
    expect([await tokenRows(app, h), await auditRows(app, h)]).toEqual([0, 0])
  })

  test.each([['act_123'], ['act_' + 'A'.repeat(32)], ['not-an-action']])(
    'a malformed action id (%p) is 400 VALIDATION_FAILED and mints nothing',
    async (actionId) => {
      const h = as()
      const body = await expectWriteError(
        await mintRequest(app, vat().org_number, actionId, h),
        400,
        'VALIDATION_FAILED',
      )
      expect(body.explanation.details.map((d: { field: string }) => d.field)).toEqual(['action_id'])
      expect([await tokenRows(app, h), await auditRows(app, h)]).toEqual([0, 0])
    },
  )

  test('a body with a member the schema does not know is 400 and mints nothing', async () => {
    const h = as()
    const actionId = await actionIdFor(app, vat(), h)
    const res = await app.send(
      'POST',
      '/api/v1/sandbox/auth/approval-token',
      { org_number: vat().org_number, action_id: actionId, expires_in: 3600 },
      h,
    )
    await expectWriteError(res, 400, 'VALIDATION_FAILED')
    expect(await tokenRows(app, h)).toBe(0)
  })

  test.each([
    ['999000901', 403, 'AUTH_MISSING_DELEGATION'],
    ['999000902', 401, 'AUTH_EXPIRED_TOKEN'],
    ['999000903', 400, 'VALIDATION_FAILED'],
    ['999000904', 403, 'SCOPE_MISSING'],
  ])('the reserved org %s answers %i %s and mints nothing', async (org, status, code) => {
    const h = as()
    const actionId = await actionIdFor(app, vat(), h)
    const body = await expectWriteError(await mintRequest(app, org, actionId, h), status, code)
    expect(body._meta.simulated).toBe(true)
    expect(await tokenRows(app, h)).toBe(0)
  })

  test('simulate_error answers the injected error and mints nothing', async () => {
    const h = as()
    const actionId = await actionIdFor(app, vat(), h)
    const body = await expectWriteError(
      await mintRequest(app, vat().org_number, actionId, h, undefined, '?simulate_error=missing_delegation'),
      403,
      'AUTH_MISSING_DELEGATION',
    )
    expect(body.simulated_error).toBe('missing_delegation')
    expect([await tokenRows(app, h), await auditRows(app, h)]).toEqual([0, 0])
  })

  test('X-Service-Simulate with the synthetic bearer answers the simulated code and mints nothing', async () => {
    const h = as()
    const actionId = await actionIdFor(app, vat(), h)
    await expectWriteError(
      await mintRequest(app, vat().org_number, actionId, { ...h, 'x-service-simulate': 'error_500' }),
      500,
      'INTERNAL_ERROR',
    )
    expect(await tokenRows(app, h)).toBe(0)
  })

  test('X-Service-Simulate without the synthetic bearer is 403 SANDBOX_TEST_KEY_REQUIRED and mints nothing', async () => {
    const actionId = await actionIdFor(app, vat())
    const before = await tokenRows(app, {})
    await expectWriteError(
      await mintRequest(app, vat().org_number, actionId, { 'x-service-simulate': 'error_500' }),
      403,
      'SANDBOX_TEST_KEY_REQUIRED',
    )
    expect(await tokenRows(app, {})).toBe(before)
  })

  test('the public mirror mints for 999999999 and refuses any other org with 403 PUBLIC_SANDBOX_ORG_NOT_PERMITTED', async () => {
    const body = vat({ org_number: '999999999' })
    const { token } = await approve(app, body, freshIp(), PUBLIC)
    expect(token).toMatch(/^apt_/)
    const actionId = await actionIdFor(app, vat(), freshIp())
    const refused = await expectWriteError(
      await mintRequest(app, vat().org_number, actionId, freshIp(), PUBLIC),
      403,
      'PUBLIC_SANDBOX_ORG_NOT_PERMITTED',
    )
    expect(refused.permitted_org_number).toBe('999999999')
  })
})

describe('a live execute refuses the approval token', () => {
  test('as 400 APPROVAL_TOKEN_REQUIRED when X-Approval-Token is missing', async () => {
    const h = as()
    await approve(app, vat(), h)
    await expectWriteError(await live(app, vat(), { h }), 400, 'APPROVAL_TOKEN_REQUIRED')
    expect(await consumed(h)).toEqual([false])
  })

  test.each([['garbage'], ['apt_'], ['apt_00000000000000000000000000000000'], [`apt_${'x'.repeat(300)}`]])(
    'as 403 APPROVAL_TOKEN_INVALID when it is %p',
    async (token) => {
      const h = as()
      await approve(app, vat(), h)
      await expectWriteError(await live(app, vat(), { h, token }), 403, 'APPROVAL_TOKEN_INVALID')
      expect(await consumed(h)).toEqual([false])
    },
  )

  test('as 409 APPROVAL_TOKEN_USED once it filed, under another Idempotency-Key', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    expect((await live(app, vat(), { h, token })).status).toBe(200)
    await expectWriteError(await live(app, vat(), { h, token }), 409, 'APPROVAL_TOKEN_USED')
  })

  test('as USED, not MISMATCH, when a consumed token is presented for another action', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    expect((await live(app, vat(), { h, token })).status).toBe(200)
    await expectWriteError(await live(app, vat({}, { total_revenue_nok: 1 }), { h, token }), 409, 'APPROVAL_TOKEN_USED')
  })

  test('as 403 APPROVAL_TOKEN_EXPIRED 15 minutes after minting, and not a millisecond before', async () => {
    const h = as()
    const first = await approve(app, vat(), h)
    await withClockAdvanced(LIFETIME, async () => {
      await expectWriteError(await live(app, vat(), { h, token: first.token }), 403, 'APPROVAL_TOKEN_EXPIRED')
    })
    const second = await approve(app, vat(), h)
    await withClockAdvanced(LIFETIME - 1, async () => {
      expect((await live(app, vat(), { h, token: second.token })).status).toBe(200)
    })
  })

  test('as 403 APPROVAL_TOKEN_MISMATCH for another action (a changed figure), and the token still files its own', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    await expectWriteError(
      await live(app, vat({}, { total_revenue_nok: 125_001 }), { h, token }),
      403,
      'APPROVAL_TOKEN_MISMATCH',
    )
    expect((await live(app, vat(), { h, token })).status).toBe(200)
  })

  test('as 403 APPROVAL_TOKEN_MISMATCH for another organisation', async () => {
    const h = as()
    const actionId = await actionIdFor(app, vat(), h)
    // A person approved this action id for 999000002; it is 818000006's filing.
    const minted = await mintRequest(app, '999000002', actionId, h)
    expect(minted.status).toBe(201)
    const token = (await minted.json()).data.approval_token
    await expectWriteError(await live(app, vat(), { h, token }), 403, 'APPROVAL_TOKEN_MISMATCH')
  })

  test('as 403 APPROVAL_TOKEN_INVALID under another synthetic suffix, and the token still files under its own', async () => {
    const mine = as()
    const { token } = await approve(app, vat(), mine)
    await expectWriteError(await live(app, vat(), { h: as(), token }), 403, 'APPROVAL_TOKEN_INVALID')
    expect((await live(app, vat(), { h: mine, token })).status).toBe(200)
  })

  test('as 403 APPROVAL_TOKEN_INVALID without a bearer when it was minted under a suffix', async () => {
    const { token } = await approve(app, vat(), as())
    await expectWriteError(await live(app, vat(), { token }), 403, 'APPROVAL_TOKEN_INVALID')
  })

  test('as 403 APPROVAL_TOKEN_INVALID under the synthetic bearer when it was minted with a real key, which files it', async () => {
    const consumer = await createConsumer(app)
    const real = bearer((await createKey(app, consumer.id)).key)
    const { token } = await approve(app, vat(), real)
    await expectWriteError(await live(app, vat(), { h: as(), token }), 403, 'APPROVAL_TOKEN_INVALID')
    expect((await live(app, vat(), { h: real, token })).status).toBe(200)
  })

  test('minted with a real key, it lives in a sandbox namespace, never the production one of the consumer', async () => {
    const consumer = await createConsumer(app)
    const real = bearer((await createKey(app, consumer.id)).key)
    await approve(app, vat(), real)
    const rows = await app.deps.sql<
      { namespace: string }[]
    >`select namespace from approval_tokens where namespace like ${`%${consumer.id}%`}`
    expect(rows.length).toBe(1)
    expect(rows[0]!.namespace).not.toBe(`consumer:${consumer.id}`)
    expect(rows[0]!.namespace.startsWith('sandbox')).toBe(true)
  })

  test('minted without a bearer, it lives in the anonymous sandbox namespace, not production’s anonymous scope', async () => {
    const before = await app.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from approval_tokens where namespace = 'sandbox/anonymous'`
    await approve(app, vat())
    const after = await app.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from approval_tokens where namespace = 'sandbox/anonymous'`
    expect(after[0]!.n).toBe(before[0]!.n + 1)
  })

  test('as 403 APPROVAL_TOKEN_INVALID under a suffix when it was minted without a bearer', async () => {
    const { token } = await approve(app, vat())
    await expectWriteError(await live(app, vat(), { h: as(), token }), 403, 'APPROVAL_TOKEN_INVALID')
  })
})

describe('a token that did not file is not consumed', () => {
  test('when a precondition fails: 422 with the failed checks, and the same token files once the check passes', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    // On 2026-05-01 the deadline of 2026-T1 (10 April) has passed.
    const late = await expectWriteError(
      await live(app, vat(), { h, token, query: 'mock_date=2026-05-01' }),
      422,
      'DEADLINE_PASSED',
    )
    expect(late.failed_checks).toEqual(['deadline_in_future'])
    expect((await live(app, vat(), { h, token })).status).toBe(200)
  })

  test('when the company has no delegation: a retry is refused for the delegation again, never as USED', async () => {
    const h = as()
    const body = vat({ org_number: '999660118' })
    const { token } = await approve(app, body, h)
    for (let i = 0; i < 2; i++) {
      const res = await expectWriteError(await live(app, body, { h, token }), 422, 'AUTH_MISSING_DELEGATION')
      expect(res.failed_checks).toEqual(['system_user_authorised', 'scopes_delegated'])
    }
    expect(await consumed(h)).toEqual([false])
  })

  test('when the Idempotency-Key is missing', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    await expectWriteError(await live(app, vat(), { h, token, key: null }), 400, 'IDEMPOTENCY_KEY_REQUIRED')
    expect((await live(app, vat(), { h, token })).status).toBe(200)
  })

  test('when the payload carries the invalid magic value 0', async () => {
    const h = as()
    const body = vat({}, { total_revenue_nok: 0 })
    // A token for the zero-revenue content itself (plan refuses that content, so its id is computed).
    const minted = await mintRequest(app, body.org_number, actionIdOf(body), h)
    expect(minted.status).toBe(201)
    const token = (await minted.json()).data.approval_token
    await expectWriteError(await live(app, body, { h, token }), 400, 'VALIDATION_FAILED')
    expect(await consumed(h)).toEqual([false])
  })

  test('when simulate_error injects a failure, and the same token files afterwards', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    await expectWriteError(
      await live(app, vat(), { h, token, query: 'simulate_error=portal_timeout' }),
      504,
      'EXECUTION_DEADLINE_EXCEEDED',
    )
    expect((await live(app, vat(), { h, token })).status).toBe(200)
  })
})

describe('the government’s rejection consumes the token', () => {
  test('99999999 is 422 GOVERNMENT_VALIDATION_REJECTED with the token reported consumed, and a retry is USED', async () => {
    const h = as()
    const body = vat({}, { total_revenue_nok: 99_999_999 })
    const { token } = await approve(app, body, h)
    await expectWriteError(await live(app, body, { h, token }), 422, 'GOVERNMENT_VALIDATION_REJECTED', true)
    await expectWriteError(await live(app, body, { h, token }), 409, 'APPROVAL_TOKEN_USED')
  })
})

describe('single use under concurrency', () => {
  test('10 parallel live executes with one token and different Idempotency-Keys: exactly one files, the rest are APPROVAL_TOKEN_USED', async () => {
    const h = as()
    const { token } = await approve(app, vat(), h)
    const responses = await Promise.all(Array.from({ length: 10 }, () => live(app, vat(), { h, token })))
    const bodies = await Promise.all(responses.map((r) => r.json()))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(bodies.filter((b, i) => statuses[i] === 409 && b.error_code === 'APPROVAL_TOKEN_USED')).toHaveLength(9)
    for (const [i, b] of bodies.entries())
      if (statuses[i] !== 200)
        expect(b.outcome).toEqual({ submitted: false, status: 'not_attempted', approval_token_consumed: false })
    const filed = (await ownAudit(app, vat().org_number, h)).filter((r) => r.action === 'submit_mva')
    expect(filed.map((r) => r.id)).toEqual([bodies[statuses.indexOf(200)].data.receipt.audit_log_id])
  })

  test('10 parallel magic rejections with one token: exactly one is rejected by the government, the rest are USED', async () => {
    const h = as()
    const body = vat({}, { total_revenue_nok: 99_999_999 })
    const { token } = await approve(app, body, h)
    const responses = await Promise.all(Array.from({ length: 10 }, () => live(app, body, { h, token })))
    const codes = (await Promise.all(responses.map((r) => r.json()))).map((b) => b.error_code)
    expect(codes.filter((c) => c === 'GOVERNMENT_VALIDATION_REJECTED')).toHaveLength(1)
    expect(codes.filter((c) => c === 'APPROVAL_TOKEN_USED')).toHaveLength(9)
    expect((await ownAudit(app, body.org_number, h)).filter((r) => r.action === 'submit_mva_failed')).toHaveLength(1)
  })
})
