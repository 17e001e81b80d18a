/**
 * Rehearsed filings: the production actions domain (the five checks, approval tokens, receipts)
 * over a sandbox company's delegation, plus the magic VAT values that let an agent provoke each
 * outcome. Nothing here talks to a government system; the receipt says so in two places.
 */
import { AppError, validationError } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { osloOffset, osloTimestamp } from '../../lib/oslo-time.ts'
import { actionIdOf } from '../actions/action-id.ts'
import { mintApprovalToken, type ApprovalGate } from '../actions/approval.ts'
import { dryRun, type ActionInput, type DryRunOutcome } from '../actions/dry-run.ts'
import { executeLive, SANDBOX_REFUSALS, type FilingSubmitter } from '../actions/execute.ts'
import { isPlainObject } from '../actions/payload.ts'
import {
  SANDBOX_MARKER,
  SANDBOX_SIGNING,
  sandboxGovernmentResponse,
  sandboxReceiptIds,
  type Receipt,
} from '../actions/receipt.ts'
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
  return {
    company: { exists: true, active: c.status === 'active' },
    systemUserAuthorised: c.delegation.system_user,
    delegatedScopes: c.delegation.scopes,
  }
}

export function sandboxDryRun(c: SandboxCompany, input: ActionInput, date: LocalDate): DryRunOutcome {
  rejectMagicInvalid(input)
  return dryRun(input, factsOf(c), date)
}

function revenueOf(input: ActionInput): unknown {
  return input.action_type === 'mva_melding' && isPlainObject(input.payload)
    ? input.payload.total_revenue_nok
    : undefined
}

function rejectMagicInvalid(input: ActionInput): void {
  if (revenueOf(input) === MAGIC_VAT.invalid) {
    throw validationError([
      {
        field: 'payload.total_revenue_nok',
        message: 'is 0: the sandbox treats a VAT return without revenue as invalid (magic value)',
      },
    ])
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
      {
        step: 1,
        method: 'POST',
        path: `${basePath}/auth/approval-token`,
        body: { org_number: input.org_number, action_id },
        note: 'a person confirms; the token is shown once',
      },
      {
        step: 2,
        method: 'POST',
        path: `${basePath}/actions/execute`,
        headers: ['Idempotency-Key', 'X-Approval-Token'],
        body: 'the same org_number, action_type, period and payload',
        note: 'consumes the token once the five checks pass',
      },
    ],
  }
}

/**
 * The sandbox's automatic path: its token is usable as minted, with no person's confirmation,
 * because the sandbox rehearses and never files (production's tokens wait for one: approval.ts).
 * The token lives on the real clock (an agent needs real minutes); its audit row, like every
 * sandbox audit row, is dated on the sandbox's pinned clock (the effective date), so the trail and
 * the receipts tell one timeline.
 */
export async function mintSandboxApproval(
  sql: Sql,
  namespace: string,
  org: string,
  actionId: string,
  now: Date,
  date: LocalDate,
) {
  const minted = await mintApprovalToken(sql, { namespace, org_number: org, action_id: actionId }, now, {
    confirmation: 'automatic',
  })
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
  return (
    input.action_type === 'mva_melding' &&
    typeof reported === 'string' &&
    /^\d{4}-(0[1-9]|1[0-2])$/.test(reported) &&
    reported < date.slice(0, 7)
  )
}

/**
 * The sandbox's stand-in for the filing portal: it accepts every filing with a deterministic
 * receipt id, except the magic revenue the government "rejects". A filing for a month before the
 * effective one is accepted late (`filed_late`, audited with the receipt).
 */
function rehearsal(namespace: string, date: LocalDate): FilingSubmitter {
  return {
    async submit(f) {
      if (revenueOf(f.input) === MAGIC_VAT.governmentRejects) {
        throw new AppError('GOVERNMENT_VALIDATION_REJECTED', {
          extra: {
            upstream: {
              system: 'Skatteetaten',
              http_status: 422,
              _sandbox_marker: SANDBOX_MARKER,
              error: 'VALIDERINGSFEIL',
              error_description: 'Skattegrunnlaget stemmer ikke med omsetningen (magisk sandkasseverdi 99999999).',
            },
          },
        })
      }
      const { receipt_id } = sandboxReceiptIds(namespace, f.idempotency_key, f.action_id)
      return {
        receipt_id,
        government_response_raw: {
          ...sandboxGovernmentResponse(receipt_id, f.input.org_number, f.input.action_type, f.input.period),
        },
        audit_details: { filed_late: reportsEarlierMonth(f.input, date) },
      }
    },
  }
}

export interface LiveExecute {
  namespace: string
  idempotencyKey: string
  /** the call's approval token in this namespace (pipeline/approval.ts) */
  approval: ApprovalGate
  input: ActionInput
  date: LocalDate
}

/**
 * Live mode: the production flow (domain/actions/execute.ts) over the sandbox company's delegation,
 * with the rehearsal for a portal, the public sandbox key for signing, and the effective date for
 * a clock. Only the magic invalid revenue is refused before it, as a malformed request.
 */
export async function sandboxExecute(
  sql: Sql,
  c: SandboxCompany,
  x: LiveExecute,
): Promise<{ dry_run: false; filed_late: boolean; receipt: Receipt }> {
  rejectMagicInvalid(x.input)
  const at = effectiveInstant(x.date)
  const receipt = await executeLive(
    {
      facts: async () => factsOf(c),
      approval: x.approval,
      submitter: rehearsal(x.namespace, x.date),
      signing: SANDBOX_SIGNING,
      auditId: (f) => sandboxReceiptIds(x.namespace, f.idempotency_key, f.action_id).audit_log_id,
      audit: (action, id, details) =>
        appendSandboxAudit(sql, x.namespace, {
          id,
          org_number: c.org_number,
          occurred_at: at,
          action,
          initiated_by: 'sandbox_caller',
          details,
        }),
      today: x.date,
      at,
      refusals: SANDBOX_REFUSALS,
    },
    x.input,
    x.idempotencyKey,
  )
  return { dry_run: false, filed_late: reportsEarlierMonth(x.input, x.date), receipt }
}
