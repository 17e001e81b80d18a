/**
 * The one live-execute flow (domain/actions/execute.ts) with an environment of the production
 * shape: facts from a lookup, a submitter that records what reached it, a secret signing key. The
 * sandbox runs the same flow with its own environment (test/domain/sandbox/actions.test.ts).
 */
import { describe, expect, test } from 'bun:test'
import { actionIdOf } from '../../../src/domain/actions/action-id.ts'
import { approvalGate, mintApprovalToken } from '../../../src/domain/actions/approval.ts'
import type { ActionFacts, ActionInput } from '../../../src/domain/actions/dry-run.ts'
import {
  executeLive,
  PRODUCTION_REFUSALS,
  SANDBOX_REFUSALS,
  type ApprovedFiling,
  type ExecuteAuditAction,
  type ExecuteEnv,
} from '../../../src/domain/actions/execute.ts'
import { verifyReceiptSignature } from '../../../src/domain/actions/receipt.ts'
import { AppError } from '../../../src/errors/app-error.ts'
import { PINNED_NOW, testDatabase } from '../../helpers.ts'

const NOW = new Date(PINNED_NOW)
const KEY = 'a production secret, not the public sandbox key'
const vat = (over: Partial<ActionInput> = {}): ActionInput => ({
  org_number: '984661185',
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000 },
  ...over,
})
const AUTHORISED: ActionFacts = {
  company: { exists: true, active: true },
  systemUserAuthorised: true,
  delegatedScopes: ['skatteetaten:mva-melding'],
}

async function env(
  input: ActionInput,
  over: { facts?: ActionFacts; token?: string | null; rejects?: boolean; breaks?: unknown } = {},
) {
  const { sql } = await testDatabase()
  const namespace = `consumer:${crypto.randomUUID()}`
  const { token } = await mintApprovalToken(
    sql,
    { namespace, org_number: input.org_number, action_id: actionIdOf(input) },
    NOW,
    { confirmation: 'automatic' },
  )
  const submitted: ApprovedFiling[] = []
  const audited: [ExecuteAuditAction, Record<string, unknown>][] = []
  let spent = 0
  const e: ExecuteEnv = {
    facts: async () => over.facts ?? AUTHORISED,
    approval: approvalGate(
      sql,
      namespace,
      over.token === undefined ? token : over.token,
      () => NOW,
      () => spent++,
      null,
    ),
    submitter: {
      async submit(f) {
        submitted.push(f)
        if (over.rejects) throw new AppError('GOVERNMENT_VALIDATION_REJECTED')
        if (over.breaks !== undefined) throw over.breaks
        return { receipt_id: `MOCK-${f.action_id.slice(4, 20)}`, government_response_raw: { status: 'ACCEPTED' } }
      },
    },
    signing: { key: KEY, rule_version: '2026.1', ed25519: null },
    auditId: () => '7d0c2c1e-0000-4000-8000-000000000001',
    audit: async (action, _id, details) => void audited.push([action, details]),
    today: '2026-01-01',
    at: NOW,
    refusals: PRODUCTION_REFUSALS,
  }
  return { e, submitted, audited, spent: () => spent }
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (x: unknown) => x,
  )
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`)
  return err
}

describe('executeLive', () => {
  test('files an approved filing once and signs the portal’s receipt with the environment’s key', async () => {
    const { e, submitted, audited, spent } = await env(vat())
    const receipt = await executeLive(e, vat(), 'idem')
    expect(submitted.map((f) => [f.action_id, f.idempotency_key])).toEqual([[actionIdOf(vat()), 'idem']])
    expect([receipt.altinn_receipt_id, receipt.rule_version, receipt.audit_log_id]).toEqual([
      `MOCK-${actionIdOf(vat()).slice(4, 20)}`,
      '2026.1',
      '7d0c2c1e-0000-4000-8000-000000000001',
    ])
    expect(verifyReceiptSignature(receipt, KEY)).toBe(true)
    expect(spent()).toBe(1)
    expect(audited.map(([a]) => a)).toEqual(['submit_mva'])
  })

  test('checks the token before anything reaches the submitter, and spends nothing on a missing one', async () => {
    const { e, submitted, spent } = await env(vat(), { token: null })
    expect((await refusal(executeLive(e, vat(), 'idem'))).code).toBe('APPROVAL_TOKEN_REQUIRED')
    expect([submitted.length, spent()]).toEqual([0, 0])
  })

  test('an authorisation failure is audited as execute_authorization_failed, leaves the token unspent and submits nothing', async () => {
    const { e, submitted, audited, spent } = await env(vat(), { facts: { ...AUTHORISED, systemUserAuthorised: false } })
    const err = await refusal(executeLive(e, vat(), 'idem'))
    expect([err.code, err.status]).toEqual(['AUTH_NO_DELEGATION', 422])
    expect(audited).toEqual([
      [
        'execute_authorization_failed',
        { action_id: actionIdOf(vat()), period: '2026-T1', failed_checks: 'system_user_authorised' },
      ],
    ])
    expect([submitted.length, spent()]).toEqual([0, 0])
  })

  test('production names a missing scope SCOPE_INSUFFICIENT_FOR_ACTION with missing_scopes; the sandbox its aliases', async () => {
    const noScope = { ...AUTHORISED, delegatedScopes: [] }
    const production = await refusal(executeLive((await env(vat(), { facts: noScope })).e, vat(), 'idem'))
    expect([production.code, production.options.extra?.missing_scopes]).toEqual([
      'SCOPE_INSUFFICIENT_FOR_ACTION',
      ['skatteetaten:mva-melding'],
    ])
    const sandbox = await env(vat(), { facts: { ...noScope, systemUserAuthorised: false } })
    const aliased = await refusal(executeLive({ ...sandbox.e, refusals: SANDBOX_REFUSALS }, vat(), 'idem'))
    expect(aliased.code).toBe('AUTH_MISSING_DELEGATION')
  })

  test('a company that exists but is not active fails as COMPANY_INACTIVE, one that does not exist as COMPANY_NOT_FOUND', async () => {
    const inactive = await env(vat(), { facts: { ...AUTHORISED, company: { exists: true, active: false } } })
    expect((await refusal(executeLive(inactive.e, vat(), 'idem'))).code).toBe('COMPANY_INACTIVE')
    const missing = await env(vat(), { facts: { ...AUTHORISED, company: { exists: false, active: false } } })
    expect((await refusal(executeLive(missing.e, vat(), 'idem'))).code).toBe('COMPANY_NOT_FOUND')
  })

  test('a rejection by the government comes after the token was spent and is audited as submit_mva_failed', async () => {
    const { e, audited, spent } = await env(vat(), { rejects: true })
    expect((await refusal(executeLive(e, vat(), 'idem'))).code).toBe('GOVERNMENT_VALIDATION_REJECTED')
    expect(spent()).toBe(1)
    expect(audited.map(([a, d]) => [a, d.error_code])).toEqual([
      ['submit_mva_failed', 'GOVERNMENT_VALIDATION_REJECTED'],
    ])
  })

  test('a failure after the token was spent that says nothing of the filing is EXECUTION_FAILED, audited, not an internal error', async () => {
    const { e, audited, spent } = await env(vat(), { breaks: new TypeError('a bug between the portal and us') })
    const err = await refusal(executeLive(e, vat(), 'idem'))
    expect([err.code, err.status]).toEqual(['EXECUTION_FAILED', 502])
    expect(spent()).toBe(1)
    expect(audited.map(([a, d]) => [a, d.error_code])).toEqual([['submit_mva_failed', 'EXECUTION_FAILED']])
  })

  test('the database going away after the token was spent stays what it is, so a retry with the same key resumes', async () => {
    const gone = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
    const { e } = await env(vat(), { breaks: gone })
    expect(await executeLive(e, vat(), 'idem').catch((x: unknown) => x)).toBe(gone)
  })

  test('an a-melding is refused as PLAN_INSUFFICIENT before its token is looked at', async () => {
    const input = vat({
      action_type: 'a_melding',
      period: '2026-01',
      payload: { employee_count: 1, gross_salary_nok: 1 },
    })
    const { e, spent } = await env(input, { token: 'apt_not-even-looked-up' })
    expect((await refusal(executeLive(e, input, 'idem'))).code).toBe('PLAN_INSUFFICIENT')
    expect(spent()).toBe(0)
  })
})
