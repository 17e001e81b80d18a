/**
 * Rehearsed filings: the production actions domain (the five checks, approval tokens, receipts)
 * over a sandbox company's delegation, plus the magic VAT values that let an agent provoke each
 * outcome. Nothing here talks to a government system; the receipt says so in two places.
 */
import { AppError, validationError } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { osloOffset, osloTimestamp } from '../../lib/oslo-time.ts'
import { actionIdOf } from '../actions/action-id.ts'
import { checkApprovalToken, consumeApprovalToken, mintApprovalToken } from '../actions/approval.ts'
import { ACTION_SCOPES, dataFormatIssues, dryRun, failedChecks, type ActionInput, type Check, type DryRunOutcome } from '../actions/dry-run.ts'
import { isPlainObject } from '../actions/payload.ts'
import { buildSandboxReceipt, SANDBOX_MARKER, type Receipt } from '../actions/receipt.ts'
import { appendSandboxAudit } from '../../store/sandbox-audit.ts'
import type { Sql } from '../../store/db.ts'
import type { SandboxCompany } from '../../../fixtures/sandbox/companies.ts'

/** `payload.total_revenue_nok` values with a fixed answer (spec: magic VAT values). */
export const MAGIC_VAT = { invalid: 0, governmentRejects: 99_999_999 } as const

/**
 * The instant the sandbox takes as now on an effective date: its first millisecond in Oslo.
 * Midnight's offset is the one in force at midnight, which on the two switch days differs from
 * the offset at noon (summer time starts and ends at 01:00 UTC, after Oslo's midnight); midnight
 * itself always exists in Oslo, so one of the two offsets reads back as itself.
 */
export function effectiveInstant(date: LocalDate): Date {
  for (const offset of ['+01:00', '+02:00']) {
    const instant = new Date(`${date}T00:00:00${offset}`)
    if (osloOffset(instant) === offset) return instant
  }
  throw new Error(`effectiveInstant: no Oslo midnight on ${date}`)
}

function factsOf(c: SandboxCompany) {
  return { company: { exists: true, active: c.status === 'active' }, systemUserAuthorised: c.delegation.system_user, delegatedScopes: c.delegation.scopes }
}

export function sandboxDryRun(c: SandboxCompany, input: ActionInput, date: LocalDate): DryRunOutcome {
  rejectMagicInvalid(input)
  return dryRun(input, factsOf(c), date)
}

function revenueOf(input: ActionInput): unknown {
  return input.action_type === 'mva_melding' && isPlainObject(input.payload) ? input.payload.total_revenue_nok : undefined
}

function rejectMagicInvalid(input: ActionInput): void {
  if (revenueOf(input) === MAGIC_VAT.invalid) {
    throw validationError([{ field: 'payload.total_revenue_nok', message: 'is 0: the sandbox treats a VAT return without revenue as invalid (magic value)' }])
  }
}

/** The plan of a filing: its action id, the dry run, and the steps that would file it. */
export function sandboxPlan(c: SandboxCompany, input: ActionInput, date: LocalDate, basePath: string) {
  const action_id = actionIdOf(input)
  const outcome = sandboxDryRun(c, input, date)
  return {
    action_id,
    org_number: input.org_number,
    action_type: input.action_type,
    period: input.period,
    ready: outcome.validation.all_passed,
    dry_run: outcome,
    steps: [
      { step: 1, method: 'POST', path: `${basePath}/auth/approval-token`, body: { org_number: input.org_number, action_id }, note: 'a person confirms; the token is shown once' },
      { step: 2, method: 'POST', path: `${basePath}/actions/execute`, headers: ['Idempotency-Key', 'X-Approval-Token'], body: 'the same org_number, action_type, period and payload', note: 'consumes the token once the five checks pass' },
    ],
  }
}

/**
 * The token lives on the real clock (an agent needs real minutes); its audit row, like every
 * sandbox audit row, is dated on the sandbox's pinned clock (the effective date), so the trail and
 * the receipts tell one timeline.
 */
export async function mintSandboxApproval(sql: Sql, namespace: string, org: string, actionId: string, now: Date, date: LocalDate) {
  const minted = await mintApprovalToken(sql, { namespace, org_number: org, action_id: actionId }, now)
  await appendSandboxAudit(sql, namespace, {
    id: crypto.randomUUID(),
    org_number: org,
    occurred_at: effectiveInstant(date),
    action: 'approval_token.minted',
    initiated_by: 'sandbox_caller',
    details: { action_id: actionId, expires_at: osloTimestamp(minted.expires_at) },
  })
  return {
    approval_token: minted.token,
    header: 'X-Approval-Token',
    org_number: org,
    action_id: actionId,
    expires_at: osloTimestamp(minted.expires_at),
    single_use: true,
  }
}

/**
 * The magic late filing: `payload.period` names a month (YYYY-MM, 01–12) before the effective
 * date's month. Only mva_melding is ever filed live, so only it can be late.
 */
export function reportsEarlierMonth(input: ActionInput, date: LocalDate): boolean {
  const reported = isPlainObject(input.payload) ? input.payload.period : undefined
  return input.action_type === 'mva_melding' && typeof reported === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(reported) && reported < date.slice(0, 7)
}

/**
 * 422 naming every failed check; the first decides the code. The token is untouched. A format
 * failure also lists its fields, as any VALIDATION_FAILED does.
 */
function preconditionsFailed(input: ActionInput, failed: Check[], checks: Check[]): AppError {
  const code = ({ company_exists: 'COMPANY_NOT_FOUND', system_user_authorised: 'AUTH_MISSING_DELEGATION', scopes_delegated: 'SCOPE_MISSING', data_format_valid: 'VALIDATION_FAILED', deadline_in_future: 'DEADLINE_PASSED' } as const)[failed[0]!.name]
  const details = code === 'VALIDATION_FAILED' ? dataFormatIssues(input) : []
  return new AppError(code, {
    status: 422,
    ...(details.length > 0 ? { details } : {}),
    context: { org_number: input.org_number, scope: ACTION_SCOPES[input.action_type], ...(details[0] ? { field: details[0].field } : {}) },
    extra: { failed_checks: failed.map((c) => c.name), checks },
  })
}

export interface LiveExecute {
  namespace: string
  idempotencyKey: string
  approvalToken: string | null
  input: ActionInput
  date: LocalDate
  now: Date
  /** called once the token is consumed: from then on a failure is reported as `rejected` */
  onConsumed: () => void
}

/**
 * Live mode, in the production order: the token is checked, the five checks run as preconditions
 * (a failure leaves the token usable), the token is consumed atomically, then "submitted".
 */
export async function sandboxExecute(sql: Sql, c: SandboxCompany, x: LiveExecute): Promise<{ dry_run: false; filed_late: boolean; receipt: Receipt }> {
  rejectMagicInvalid(x.input)
  if (x.input.action_type !== 'mva_melding') {
    throw new AppError('PLAN_INSUFFICIENT', { extra: { reason: 'only mva_melding can be filed live; a_melding is dry-run only' } })
  }
  const actionId = actionIdOf(x.input)
  const tokenId = await checkApprovalToken(sql, { namespace: x.namespace, token: x.approvalToken, org_number: x.input.org_number, action_id: actionId }, x.now)
  const outcome = dryRun(x.input, factsOf(c), x.date)
  const failed = failedChecks(outcome)
  if (failed.length > 0) throw preconditionsFailed(x.input, failed, outcome.validation.checks)
  if (!(await consumeApprovalToken(sql, tokenId, x.now))) throw new AppError('APPROVAL_TOKEN_USED')
  x.onConsumed()

  const audit = (action: string, id: string, details: Record<string, string | number | boolean | null>) =>
    appendSandboxAudit(sql, x.namespace, { id, org_number: c.org_number, occurred_at: effectiveInstant(x.date), action, initiated_by: 'sandbox_caller', details: { action_id: actionId, period: x.input.period, ...details } })
  if (revenueOf(x.input) === MAGIC_VAT.governmentRejects) {
    await audit('submit_mva_failed', crypto.randomUUID(), { error_code: 'GOVERNMENT_VALIDATION_REJECTED' })
    throw new AppError('GOVERNMENT_VALIDATION_REJECTED', {
      extra: {
        upstream: { system: 'Skatteetaten', http_status: 422, _sandbox_marker: SANDBOX_MARKER, error: 'VALIDERINGSFEIL', error_description: 'Skattegrunnlaget stemmer ikke med omsetningen (magisk sandkasseverdi 99999999).' },
      },
    })
  }
  const receipt = buildSandboxReceipt({
    namespace: x.namespace,
    idempotencyKey: x.idempotencyKey,
    org_number: x.input.org_number,
    action_type: x.input.action_type,
    period: x.input.period,
    payload: x.input.payload,
    timestamp: effectiveInstant(x.date),
  })
  const filed_late = reportsEarlierMonth(x.input, x.date)
  await audit('submit_mva', receipt.audit_log_id, { receipt_id: receipt.altinn_receipt_id, filed_late })
  return { dry_run: false, filed_late, receipt }
}
