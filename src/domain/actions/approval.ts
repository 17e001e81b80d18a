/**
 * Approval tokens: a person confirms one action for one organisation and gets a token that an
 * agent sends once in `X-Approval-Token`. Checking and consuming are separate so that a live
 * submission can check the token, run its preconditions, and consume only when it will really
 * submit: a failed precondition leaves the token usable.
 */
import { AppError, validationError, type FieldIssue } from '../../errors/app-error.ts'
import { isOrgNumberShape } from '../../lib/org-number.ts'
import { hashSecret, newSecret } from '../../lib/tokens.ts'
import { findApprovalToken, insertApprovalToken, markApprovalTokenConsumed } from '../../store/approval-tokens.ts'
import type { Sql } from '../../store/db.ts'
import { ACTION_ID_PATTERN } from './action-id.ts'

export const APPROVAL_TOKEN_PREFIX = 'apt_'
/** Long enough for an agent to act on a person's confirmation, short enough to stay that one decision. */
export const APPROVAL_TOKEN_LIFETIME_MS = 15 * 60_000

/** Longer than any token we mint; anything longer is garbage and is not hashed or looked up. */
const MAX_TOKEN_LENGTH = 128

export interface ApprovalTarget {
  namespace: string
  org_number: string
  action_id: string
}

export async function mintApprovalToken(sql: Sql, t: ApprovalTarget, now: Date): Promise<{ token: string; expires_at: Date }> {
  const issues: FieldIssue[] = []
  if (!isOrgNumberShape(t.org_number)) issues.push({ field: 'org_number', message: 'must be nine digits' })
  if (!ACTION_ID_PATTERN.test(t.action_id)) issues.push({ field: 'action_id', message: 'must be act_ followed by 32 lower-case hex digits' })
  if (issues.length) throw validationError(issues)
  const token = newSecret(APPROVAL_TOKEN_PREFIX)
  const expires_at = new Date(now.getTime() + APPROVAL_TOKEN_LIFETIME_MS)
  await insertApprovalToken(sql, { namespace: t.namespace, tokenHash: hashSecret(token), orgNumber: t.org_number, actionId: t.action_id, createdAt: now, expiresAt: expires_at })
  return { token, expires_at }
}

/**
 * The token's row id when it may approve this action now; otherwise the APPROVAL_TOKEN_* error.
 * Precedence: a consumed token is USED even when it has expired since or is presented for
 * something else, because "it may already have been submitted" is what the caller must hear.
 * The lookup is by SHA-256 of the token, so the index comparison reveals nothing about the secret.
 */
export async function checkApprovalToken(sql: Sql, t: ApprovalTarget & { token: string | null | undefined }, now: Date): Promise<string> {
  if (t.token === null || t.token === undefined || t.token === '') throw new AppError('APPROVAL_TOKEN_REQUIRED')
  if (!t.token.startsWith(APPROVAL_TOKEN_PREFIX) || t.token.length > MAX_TOKEN_LENGTH) throw new AppError('APPROVAL_TOKEN_INVALID')
  const row = await findApprovalToken(sql, t.namespace, hashSecret(t.token))
  if (!row) throw new AppError('APPROVAL_TOKEN_INVALID')
  if (row.consumed_at) throw new AppError('APPROVAL_TOKEN_USED')
  if (row.expires_at.getTime() <= now.getTime()) throw new AppError('APPROVAL_TOKEN_EXPIRED')
  if (row.org_number !== t.org_number || row.action_id !== t.action_id) throw new AppError('APPROVAL_TOKEN_MISMATCH')
  return row.id
}

/**
 * Consumes the token checked by `checkApprovalToken`. False when another request consumed it
 * first (or it expired in between): the caller answers APPROVAL_TOKEN_USED and submits nothing.
 */
export function consumeApprovalToken(sql: Sql, id: string, now: Date): Promise<boolean> {
  return markApprovalTokenConsumed(sql, id, now)
}

/** A checked token, ready to be spent once the preconditions pass. */
export interface ApprovedAction {
  /** spends the token atomically; APPROVAL_TOKEN_USED when another call spent it first */
  spend(): Promise<void>
}

/**
 * The approval step as a handler meets it: the call's token (REST `X-Approval-Token`, MCP
 * `approval_token`) bound to the caller's namespace. Built by the pipeline (pipeline/approval.ts),
 * so every surface checks and spends a token the same way.
 */
export interface ApprovalGate {
  /** throws the APPROVAL_TOKEN_* error that applies; a failed check spends nothing */
  check(org_number: string, action_id: string): Promise<ApprovedAction>
}

/** `onSpent` runs once the token is gone: from then on a failure is final and must say so. */
export function approvalGate(sql: Sql, namespace: string, token: string | null, now: () => Date, onSpent: () => void): ApprovalGate {
  return {
    async check(org_number, action_id) {
      const id = await checkApprovalToken(sql, { namespace, token, org_number, action_id }, now())
      return {
        async spend() {
          if (!(await consumeApprovalToken(sql, id, now()))) throw new AppError('APPROVAL_TOKEN_USED')
          onSpent()
        },
      }
    },
  }
}
