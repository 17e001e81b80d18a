/**
 * The sandbox's rehearsed filings below HTTP: the effective instant, the magic values, and live
 * execution against the database with an explicit `now` (token expiry to the millisecond, what is
 * consumed when, what is written to the audit trail).
 */
import { describe, expect, test } from 'bun:test'
import { actionIdOf } from '../../../src/domain/actions/action-id.ts'
import {
  APPROVAL_TOKEN_LIFETIME_MS,
  approvalGate,
  checkApprovalToken,
  mintApprovalToken,
} from '../../../src/domain/actions/approval.ts'
import type { ActionInput } from '../../../src/domain/actions/dry-run.ts'
import {
  effectiveInstant,
  mintSandboxApproval,
  reportsEarlierMonth,
  sandboxDryRun,
  sandboxExecute,
  sandboxPlan,
  type LiveExecute,
} from '../../../src/domain/sandbox/actions.ts'
import { AppError } from '../../../src/errors/app-error.ts'
import { sandboxAuditFor } from '../../../src/store/sandbox-audit.ts'
import { sandboxCompany, type SandboxCompany } from '../../../fixtures/sandbox/companies.ts'
import { PINNED_NOW, testDatabase } from '../../helpers.ts'

const NOW = new Date(PINNED_NOW)
const at = (ms: number) => new Date(NOW.getTime() + ms)
const ns = () => `sandbox:${crypto.randomUUID().slice(0, 12)}`
const company = (org: string): SandboxCompany => sandboxCompany(org)!
const HEALTHY = company('818000006')

const vat = (payload: Record<string, unknown> = { total_revenue_nok: 125_000 }, period = '2026-T1'): ActionInput => ({
  org_number: '818000006',
  action_type: 'mva_melding',
  period,
  payload,
})
const aMelding = (payload: Record<string, unknown> = { employee_count: 3, gross_salary_nok: 90_000 }): ActionInput => ({
  org_number: '818000006',
  action_type: 'a_melding',
  period: '2026-01',
  payload,
})

function thrown(fn: () => unknown): AppError {
  try {
    fn()
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
  throw new Error('expected an AppError')
}

async function rejected(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  if (!(e instanceof AppError)) throw new Error(`expected an AppError, got ${String(e)}`)
  return e
}

/** A token for `input` minted at NOW in a fresh namespace, and a live execute of it (the token, the clock and the date overridable). */
async function prepared(
  input: ActionInput,
  over: { approvalToken?: string | null; now?: Date; date?: LiveExecute['date'] } = {},
) {
  const { sql } = await testDatabase()
  const namespace = ns()
  const { token } = await mintApprovalToken(
    sql,
    { namespace, org_number: input.org_number, action_id: actionIdOf(input) },
    NOW,
    { confirmation: 'automatic' },
  )
  let consumed = 0
  const now = over.now ?? NOW
  const x: LiveExecute = {
    namespace,
    idempotencyKey: crypto.randomUUID(),
    approval: approvalGate(
      sql,
      namespace,
      over.approvalToken === undefined ? token : over.approvalToken,
      () => now,
      () => {
        consumed++
      },
      null,
    ),
    input,
    date: over.date ?? '2026-01-01',
  }
  return {
    sql,
    namespace,
    token,
    x,
    consumedCalls: () => consumed,
    stillChecks: (at = NOW) =>
      checkApprovalToken(
        sql,
        { namespace, token, org_number: input.org_number, action_id: actionIdOf(input) },
        at,
        null,
      ),
  }
}

describe('effectiveInstant: the first millisecond of the effective date in Oslo', () => {
  test.each([
    ['2026-01-01', '2025-12-31T23:00:00.000Z'],
    ['2026-07-01', '2026-06-30T22:00:00.000Z'],
    // Summer time starts at 02:00 on 29 March: midnight is still +01:00.
    ['2026-03-29', '2026-03-28T23:00:00.000Z'],
    ['2026-03-30', '2026-03-29T22:00:00.000Z'],
    // Summer time ends at 03:00 on 25 October: midnight is still +02:00.
    ['2026-10-25', '2026-10-24T22:00:00.000Z'],
    ['2026-10-26', '2026-10-25T23:00:00.000Z'],
  ])('%s begins at %s', (date, iso) => {
    expect(effectiveInstant(date).toISOString()).toBe(iso)
  })
})

describe('the magic late filing (payload.period)', () => {
  test.each([
    ['2025-12', true],
    ['2025-01', true],
    ['2026-01', false],
    ['2026-02', false],
    ['2025-13', false],
    ['2025-00', false],
    ['2025-1', false],
    ['2025-T6', false],
  ])('payload.period %p on 2026-01-01 is late: %p', (period, late) => {
    expect(reportsEarlierMonth(vat({ total_revenue_nok: 1, period }), '2026-01-01')).toBe(late)
  })

  test('a non-string payload.period is not late', () => {
    expect(reportsEarlierMonth(vat({ total_revenue_nok: 1, period: 202512 }), '2026-01-01')).toBe(false)
  })

  test('an a-melding is never late by the magic value', () => {
    expect(
      reportsEarlierMonth(aMelding({ employee_count: 1, gross_salary_nok: 1, period: '2025-12' }), '2026-01-01'),
    ).toBe(false)
  })
})

describe('the invalid magic value (total_revenue_nok 0)', () => {
  test('a dry run of a VAT return without revenue is VALIDATION_FAILED naming the field', () => {
    const e = thrown(() => sandboxDryRun(HEALTHY, vat({ total_revenue_nok: 0 }), '2026-01-01'))
    expect([e.code, e.status, e.options.details?.map((d) => d.field)]).toEqual([
      'VALIDATION_FAILED',
      400,
      ['payload.total_revenue_nok'],
    ])
  })

  test('an a-melding carrying total_revenue_nok 0 is not magic', () => {
    expect(
      sandboxDryRun(HEALTHY, aMelding({ employee_count: 1, gross_salary_nok: 1, total_revenue_nok: 0 }), '2026-01-01')
        .validation.all_passed,
    ).toBe(true)
  })

  test('the government-rejection value passes the dry run', () => {
    expect(sandboxDryRun(HEALTHY, vat({ total_revenue_nok: 99_999_999 }), '2026-01-01').validation.all_passed).toBe(
      true,
    )
  })
})

test('a plan’s action id is the content’s, and its steps use the base path given', () => {
  const p = sandboxPlan(HEALTHY, vat(), '2026-01-01', '/api/v1/sandbox/public')
  expect(p.action_id).toBe(actionIdOf(vat()))
  expect(p.steps.map((s) => s.path)).toEqual([
    '/api/v1/sandbox/public/auth/approval-token',
    '/api/v1/sandbox/public/actions/execute',
  ])
})

describe('minting in the sandbox', () => {
  test('records approval_token.minted in the namespace at the effective instant, with the real expiry in Oslo time', async () => {
    const { sql } = await testDatabase()
    const namespace = ns()
    const minted = await mintSandboxApproval(sql, namespace, '818000006', actionIdOf(vat()), NOW, '2026-01-01')
    expect(minted.expires_at).toBe('2026-03-14T10:45:00.000+01:00')
    const rows = await sandboxAuditFor(sql, namespace, '818000006', 200)
    expect(rows.map((r) => [r.action, r.occurred_at.toISOString(), r.details])).toEqual([
      [
        'approval_token.minted',
        '2025-12-31T23:00:00.000Z',
        { action_id: actionIdOf(vat()), expires_at: '2026-03-14T10:45:00.000+01:00' },
      ],
    ])
  })
})

describe('live execution with an explicit now', () => {
  test('files with a token at the last millisecond of its lifetime', async () => {
    const { sql, x } = await prepared(vat(), { now: at(APPROVAL_TOKEN_LIFETIME_MS - 1) })
    const out = await sandboxExecute(sql, HEALTHY, x)
    expect(out.dry_run).toBe(false)
  })

  test('refuses a token at the end of its lifetime as APPROVAL_TOKEN_EXPIRED and consumes nothing', async () => {
    const { sql, x, consumedCalls } = await prepared(vat(), { now: at(APPROVAL_TOKEN_LIFETIME_MS) })
    const e = await rejected(sandboxExecute(sql, HEALTHY, x))
    expect(e.code).toBe('APPROVAL_TOKEN_EXPIRED')
    expect(consumedCalls()).toBe(0)
  })

  test('stamps the receipt with the effective date, not with now', async () => {
    const { sql, x } = await prepared(vat(), { now: at(5 * 60_000), date: '2026-02-03' })
    const out = await sandboxExecute(sql, HEALTHY, x)
    expect(out.receipt.timestamp).toBe('2026-02-03T00:00:00.000+01:00')
  })

  test('consumes the token once and reports it once', async () => {
    const { sql, x, consumedCalls, stillChecks } = await prepared(vat())
    await sandboxExecute(sql, HEALTHY, x)
    expect(consumedCalls()).toBe(1)
    expect((await rejected(stillChecks())).code).toBe('APPROVAL_TOKEN_USED')
  })

  test('records submit_mva under the receipt’s audit_log_id, in the namespace only', async () => {
    const { sql, namespace, x } = await prepared(vat({ total_revenue_nok: 5, period: '2025-11' }))
    const { receipt, filed_late } = await sandboxExecute(sql, HEALTHY, x)
    expect(filed_late).toBe(true)
    const rows = (await sandboxAuditFor(sql, namespace, '818000006', 200)).filter((r) => r.action === 'submit_mva')
    expect(rows.map((r) => [r.id, r.details.receipt_id, r.details.filed_late])).toEqual([
      [receipt.audit_log_id, receipt.altinn_receipt_id, true],
    ])
    expect(await sandboxAuditFor(sql, ns(), '818000006', 200)).toEqual([])
  })

  test('a precondition failure is 422 naming the failed checks, reports no consumption, and leaves the token usable', async () => {
    const { sql, x, consumedCalls, stillChecks } = await prepared(vat(undefined, '2025-T5'))
    const e = await rejected(sandboxExecute(sql, HEALTHY, x))
    expect([e.code, e.status, e.options.extra?.failed_checks]).toEqual(['DEADLINE_PASSED', 422, ['deadline_in_future']])
    expect(consumedCalls()).toBe(0)
    expect(await stillChecks()).toEqual(expect.any(String))
  })

  test('a format failure lists the faulty fields as the details of its 422', async () => {
    const { sql, x } = await prepared(vat({ total_revenue_nok: -5 }, '2026-T9'))
    const e = await rejected(sandboxExecute(sql, HEALTHY, x))
    expect([e.code, e.status]).toEqual(['VALIDATION_FAILED', 422])
    expect(e.options.details?.map((d) => d.field)).toEqual(['period', 'payload.total_revenue_nok'])
  })

  test('the government’s rejection comes after consumption: onConsumed was called, submit_mva_failed recorded', async () => {
    const { sql, namespace, x, consumedCalls } = await prepared(vat({ total_revenue_nok: 99_999_999 }))
    const e = await rejected(sandboxExecute(sql, HEALTHY, x))
    expect(e.code).toBe('GOVERNMENT_VALIDATION_REJECTED')
    expect(consumedCalls()).toBe(1)
    expect((await sandboxAuditFor(sql, namespace, '818000006', 200)).map((r) => r.action).sort()).toEqual([
      'submit_mva_failed',
    ])
  })

  test('an a-melding is PLAN_INSUFFICIENT before the token is even looked at', async () => {
    const { sql, x } = await prepared(aMelding(), { approvalToken: null })
    expect((await rejected(sandboxExecute(sql, HEALTHY, x))).code).toBe('PLAN_INSUFFICIENT')
  })

  test('the same namespace, key and content give the same receipt', async () => {
    const { sql } = await testDatabase()
    const namespace = ns()
    const idempotencyKey = crypto.randomUUID()
    const once = async () => {
      const { token } = await mintApprovalToken(
        sql,
        { namespace, org_number: '818000006', action_id: actionIdOf(vat()) },
        NOW,
        { confirmation: 'automatic' },
      )
      return sandboxExecute(sql, HEALTHY, {
        namespace,
        idempotencyKey,
        approval: approvalGate(
          sql,
          namespace,
          token,
          () => NOW,
          () => {},
          null,
        ),
        input: vat(),
        date: '2026-01-01',
      })
    }
    expect((await once()).receipt).toEqual((await once()).receipt)
  })
})
