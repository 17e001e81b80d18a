/**
 * Live execution of a filing, one flow for production and the sandbox (ARCHITECTURE.md, a request's path, step 4): the approval
 * token is checked, the five checks run as preconditions (a failure leaves the token usable), the
 * token is spent atomically, the filing is handed to the submitter, and the portal's receipt is
 * signed. Only the environment differs: where the facts come from, where the filing goes, which
 * key signs the receipt, where the audit rows are written, and which day it is.
 */
import { AppError, type FieldIssue } from '../../errors/app-error.ts'
import { isDatabaseUnavailable } from '../../store/db.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { osloTimestamp } from '../../lib/oslo-time.ts'
import { actionIdOf } from './action-id.ts'
import type { ApprovalGate } from './approval.ts'
import {
  ACTION_SCOPES,
  dataFormatIssues,
  dryRun,
  failedChecks,
  type ActionFacts,
  type ActionInput,
  type Check,
  type CheckName,
} from './dry-run.ts'
import type { ActionType } from './period.ts'
import { issueReceipt, type Receipt, type ReceiptSigning } from './receipt.ts'

/** Action types that can be filed live; the others are dry-run only (spec: execute contract 5). */
export const LIVE_ACTION_TYPES: readonly ActionType[] = ['mva_melding']

/** A filing a person approved and the checks passed: what the submitter receives. */
export interface ApprovedFiling {
  input: ActionInput
  action_id: string
  /** the caller's Idempotency-Key, lower-cased: a retry of the same filing carries the same key */
  idempotency_key: string
}

/** What the portal said when it took the filing. */
export interface Submission {
  /** the portal's receipt id */
  receipt_id: string
  /** the government's answer, verbatim */
  government_response_raw: Record<string, unknown>
  /** facts worth keeping in the audit row beside the receipt id */
  audit_details?: Record<string, AuditValue>
}

/**
 * Where an approved filing goes: the filing portal (production), or the sandbox's rehearsal. It
 * throws an AppError when the government side refuses; the token is spent by then.
 */
export interface FilingSubmitter {
  /**
   * Everything that can still fail without harm, done before the token is spent: the conflict
   * lock, the government access token, the tax authority's validation. A failure here throws and
   * leaves the token usable; `release` undoes it when the spend then loses a race.
   */
  prepare?(filing: ApprovedFiling): Promise<{ release(): Promise<void> }>
  submit(filing: ApprovedFiling): Promise<Submission>
}

export type AuditValue = string | number | boolean | null

/** The audit actions of the execute contract (spec: execute contract 7). */
export type ExecuteAuditAction = 'submit_mva' | 'submit_mva_failed' | 'execute_authorization_failed'

export interface ExecuteEnv {
  /** what the five checks need to know about the organisation and its delegation */
  facts(input: ActionInput): Promise<ActionFacts>
  /** the call's approval token, bound to the caller's namespace (pipeline/approval.ts) */
  approval: ApprovalGate
  submitter: FilingSubmitter
  signing: ReceiptSigning
  /** the id of the audit row a filing writes; the receipt names it */
  auditId(filing: ApprovedFiling): string
  audit(action: ExecuteAuditAction, id: string, details: Record<string, AuditValue>): Promise<void>
  /** the Oslo date the deadline check judges against */
  today: LocalDate
  /** the instant the receipt and the audit rows carry */
  at: Date
  refusals: RefusalCodes
}

/** The checks that say the caller may not act for the organisation, audited as such. */
const AUTHORISATION_CHECKS: readonly CheckName[] = ['system_user_authorised', 'scopes_delegated']

/**
 * The codes an authorisation failure is told with. Production names the spec's own
 * (AUTH_NO_DELEGATION, SCOPE_INSUFFICIENT_FOR_ACTION with `missing_scopes`); the sandbox its
 * simulation's aliases (AUTH_MISSING_DELEGATION, SCOPE_MISSING).
 */
export interface RefusalCodes {
  noDelegation: 'AUTH_NO_DELEGATION' | 'AUTH_MISSING_DELEGATION'
  scopeMissing: 'SCOPE_INSUFFICIENT_FOR_ACTION' | 'SCOPE_MISSING'
}

export const SANDBOX_REFUSALS: RefusalCodes = { noDelegation: 'AUTH_MISSING_DELEGATION', scopeMissing: 'SCOPE_MISSING' }
export const PRODUCTION_REFUSALS: RefusalCodes = {
  noDelegation: 'AUTH_NO_DELEGATION',
  scopeMissing: 'SCOPE_INSUFFICIENT_FOR_ACTION',
}

/** The first failed check decides the code; an inactive company is not a missing one. */
function codeOf(first: Check, facts: ActionFacts, refusals: RefusalCodes) {
  if (first.name === 'company_exists') return facts.company.exists ? 'COMPANY_INACTIVE' : 'COMPANY_NOT_FOUND'
  return (
    {
      system_user_authorised: refusals.noDelegation,
      scopes_delegated: refusals.scopeMissing,
      data_format_valid: 'VALIDATION_FAILED',
      deadline_in_future: 'DEADLINE_PASSED',
    } as const
  )[first.name]
}

/**
 * 422 naming every failed check; the first decides the code. The token is untouched. A format
 * failure also lists its fields, as any VALIDATION_FAILED does.
 */
function preconditionsFailed(
  input: ActionInput,
  facts: ActionFacts,
  failed: Check[],
  checks: Check[],
  refusals: RefusalCodes,
): AppError {
  const code = codeOf(failed[0]!, facts, refusals)
  const details: FieldIssue[] = code === 'VALIDATION_FAILED' ? dataFormatIssues(input) : []
  const scope = ACTION_SCOPES[input.action_type]
  return new AppError(code, {
    status: 422,
    ...(details.length > 0 ? { details } : {}),
    context: { org_number: input.org_number, scope, ...(details[0] ? { field: details[0].field } : {}) },
    extra: {
      failed_checks: failed.map((c) => c.name),
      checks,
      ...(code === 'SCOPE_INSUFFICIENT_FOR_ACTION'
        ? { missing_scopes: facts.delegatedScopes.includes(scope) ? [] : [scope] }
        : {}),
    },
  })
}

export async function executeLive(env: ExecuteEnv, input: ActionInput, idempotencyKey: string): Promise<Receipt> {
  if (!LIVE_ACTION_TYPES.includes(input.action_type)) {
    throw new AppError('PLAN_INSUFFICIENT', {
      extra: { reason: `only ${LIVE_ACTION_TYPES.join(', ')} can be filed live; ${input.action_type} is dry-run only` },
    })
  }
  const action_id = actionIdOf(input)
  const approved = await env.approval.check(input.org_number, action_id)
  const facts = await env.facts(input)
  const outcome = dryRun(input, facts, env.today)
  const failed = failedChecks(outcome)
  const base = { action_id, period: input.period }
  if (failed.length > 0) {
    const refused = failed.filter((c) => AUTHORISATION_CHECKS.includes(c.name))
    if (refused.length > 0)
      await env.audit('execute_authorization_failed', crypto.randomUUID(), {
        ...base,
        failed_checks: refused.map((c) => c.name).join(','),
      })
    throw preconditionsFailed(input, facts, failed, outcome.validation.checks, env.refusals)
  }
  const filing: ApprovedFiling = { input, action_id, idempotency_key: idempotencyKey }
  // The Ed25519 key is found before anything is filed: a key that cannot be read fails harmlessly here.
  const ed25519 = env.signing.ed25519 ? await env.signing.ed25519.keyAt(env.at) : null
  const prepared = env.submitter.prepare ? await env.submitter.prepare(filing) : null
  try {
    await approved.spend()
  } catch (e) {
    await prepared?.release()
    throw e
  }

  let submission: Submission
  try {
    submission = await env.submitter.submit(filing)
  } catch (e) {
    // The token is spent: a failure that does not say what happened upstream is not an internal
    // error the caller may retry past, but a filing whose fate must be reconciled first. The
    // database going away is said as such (503): a retry with the same Idempotency-Key resumes.
    const failure =
      e instanceof AppError || isDatabaseUnavailable(e)
        ? e
        : new AppError('EXECUTION_FAILED', {
            context: { org_number: input.org_number },
            extra: { action_id },
            cause: e,
          })
    await env.audit('submit_mva_failed', crypto.randomUUID(), {
      ...base,
      error_code: failure instanceof AppError ? failure.code : 'INTERNAL_ERROR',
    })
    throw failure
  }
  const receipt = issueReceipt(
    {
      altinn_receipt_id: submission.receipt_id,
      audit_log_id: env.auditId(filing),
      org_number: input.org_number,
      filing_type: input.action_type,
      timestamp: osloTimestamp(env.at),
    },
    submission.government_response_raw,
    env.signing,
    ed25519,
  )
  await env.audit('submit_mva', receipt.audit_log_id, {
    ...base,
    receipt_id: receipt.altinn_receipt_id,
    ...submission.audit_details,
  })
  return receipt
}
