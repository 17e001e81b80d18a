/**
 * Approval tokens: a single-use permission to submit one action for one organisation, sent once in
 * `X-Approval-Token`. Checking and consuming are separate so that a live submission can check the
 * token, run its preconditions, and consume only when it will really submit: a failed
 * precondition leaves the token usable.
 *
 * A production token is a person's confirmation (spec state table: "human confirmed action"): the
 * key route mints it `awaiting`, with the action's content, and it is usable only once the
 * account's owner, signed in, has confirmed exactly that content on the confirmation page
 * (confirmation.ts). An agent with a key alone can mint one but never make it usable. A sandbox
 * token is `automatic`: the sandbox rehearses and never files.
 */
import { AppError, validationError, type FieldIssue } from '../../errors/app-error.ts'
import { isOrgNumberShape } from '../../lib/org-number.ts'
import { hashSecret, newSecret } from '../../lib/tokens.ts'
import {
  findApprovalToken,
  insertApprovalToken,
  markApprovalTokenConsumed,
  type ApprovalActionContent,
} from '../../store/approval-tokens.ts'
import type { Sql } from '../../store/db.ts'
import { ACTION_ID_PATTERN } from './action-id.ts'

/** The page a person confirms a production token on: `/approvals/<token row id>`. */
export const CONFIRMATION_PATH = '/approvals'
export const confirmationPath = (id: string) => `${CONFIRMATION_PATH}/${id}`

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

/**
 * How a token becomes usable: `automatic` (the sandbox: as minted) or `person` (production: once
 * the account's owner confirms `action`, whose digest the caller has checked is the action id).
 */
export type MintConfirmation = { confirmation: 'automatic' } | { confirmation: 'person'; action: ApprovalActionContent }

export interface MintedApprovalToken {
  /** the row id: the confirmation page's address names it, never the token */
  id: string
  token: string
  expires_at: Date
  confirmation: 'automatic' | 'awaiting'
}

export async function mintApprovalToken(
  sql: Sql,
  t: ApprovalTarget,
  now: Date,
  how: MintConfirmation,
): Promise<MintedApprovalToken> {
  const issues: FieldIssue[] = []
  if (!isOrgNumberShape(t.org_number)) issues.push({ field: 'org_number', message: 'must be nine digits' })
  if (!ACTION_ID_PATTERN.test(t.action_id))
    issues.push({ field: 'action_id', message: 'must be act_ followed by 32 lower-case hex digits' })
  if (issues.length) throw validationError(issues)
  const token = newSecret(APPROVAL_TOKEN_PREFIX)
  const expires_at = new Date(now.getTime() + APPROVAL_TOKEN_LIFETIME_MS)
  const confirmation = how.confirmation === 'person' ? 'awaiting' : 'automatic'
  const id = await insertApprovalToken(sql, {
    namespace: t.namespace,
    tokenHash: hashSecret(token),
    orgNumber: t.org_number,
    actionId: t.action_id,
    createdAt: now,
    expiresAt: expires_at,
    confirmation,
    action: how.confirmation === 'person' ? how.action : null,
  })
  return { id, token, expires_at, confirmation }
}

/**
 * Whether a token must carry a person's confirmation to be used, and where that person confirms:
 * null for the sandbox (its tokens are usable as minted), the page's address for production.
 */
export type PersonConfirmation = { url(id: string): string } | null

/**
 * The token's row id when it may approve this action now; otherwise the APPROVAL_TOKEN_* error.
 * Precedence: a consumed token is USED even when it has expired since or is presented for
 * something else, because "it may already have been submitted" is what the caller must hear;
 * then EXPIRED and MISMATCH (confirming would not help), then, where a person must confirm,
 * DECLINED and UNCONFIRMED (the latter names the page the person confirms on).
 * The lookup is by SHA-256 of the token, so the index comparison reveals nothing about the secret.
 */
export async function checkApprovalToken(
  sql: Sql,
  t: ApprovalTarget & { token: string | null | undefined },
  now: Date,
  person: PersonConfirmation,
): Promise<string> {
  if (t.token === null || t.token === undefined || t.token === '') throw new AppError('APPROVAL_TOKEN_REQUIRED')
  if (!t.token.startsWith(APPROVAL_TOKEN_PREFIX) || t.token.length > MAX_TOKEN_LENGTH)
    throw new AppError('APPROVAL_TOKEN_INVALID')
  const row = await findApprovalToken(sql, t.namespace, hashSecret(t.token))
  if (!row) throw new AppError('APPROVAL_TOKEN_INVALID')
  if (row.consumed_at) throw new AppError('APPROVAL_TOKEN_USED')
  if (row.expires_at.getTime() <= now.getTime()) throw new AppError('APPROVAL_TOKEN_EXPIRED')
  if (row.org_number !== t.org_number || row.action_id !== t.action_id) throw new AppError('APPROVAL_TOKEN_MISMATCH')
  if (person && row.confirmation !== 'confirmed') {
    if (row.confirmation === 'declined')
      throw new AppError('APPROVAL_TOKEN_DECLINED', { extra: { declined_at: row.decided_at?.toISOString() ?? null } })
    throw new AppError('APPROVAL_TOKEN_UNCONFIRMED', {
      extra: {
        confirmation_state: 'awaiting_confirmation',
        confirmation_url: person.url(row.id),
        expires_at: row.expires_at.toISOString(),
      },
    })
  }
  return row.id
}

/**
 * Consumes the token checked by `checkApprovalToken`. False when another request consumed it
 * first (or it expired, or a person declined it, in between): the caller answers
 * APPROVAL_TOKEN_USED and submits nothing.
 */
export function consumeApprovalToken(sql: Sql, id: string, now: Date, person: PersonConfirmation): Promise<boolean> {
  return markApprovalTokenConsumed(sql, id, now, person !== null)
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

/**
 * `onSpent` runs once the token is gone: from then on a failure is final and must say so.
 * `person`: production's gate demands a person's confirmation; the sandbox's is null.
 */
export function approvalGate(
  sql: Sql,
  namespace: string,
  token: string | null,
  now: () => Date,
  onSpent: () => void,
  person: PersonConfirmation,
): ApprovalGate {
  return {
    async check(org_number, action_id) {
      const id = await checkApprovalToken(sql, { namespace, token, org_number, action_id }, now(), person)
      return {
        async spend() {
          if (!(await consumeApprovalToken(sql, id, now(), person))) throw new AppError('APPROVAL_TOKEN_USED')
          onSpent()
        },
      }
    },
  }
}
