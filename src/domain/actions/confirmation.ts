/**
 * A person's confirmation of a production approval token (issue 31 item 10; spec state table:
 * "human confirmed action"). The key route mints the token `awaiting`, with the action's content;
 * the account's owner, signed in, opens the confirmation page, sees the content — organisation,
 * action, period, amounts, and the five checks run again now — and confirms or declines it. Only
 * then is the token usable (approval.ts). The decision is made once, by one conditional update,
 * and audited in the same transaction with who (the browser session) and when.
 */
import { AppError } from '../../errors/app-error.ts'
import { appendAuditAt } from '../../store/audit.ts'
import {
  awaitingApprovalTokens,
  decideApprovalToken,
  findApprovalTokenById,
  type ApprovalTokenRow,
} from '../../store/approval-tokens.ts'
import type { Sql } from '../../store/db.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import type { CompanyReads } from '../sources.ts'
import type { DelegationEnv } from '../delegation/fullmakt.ts'
import { dryRun, type DryRunOutcome } from './dry-run.ts'
import { productionFacts } from './production.ts'
import type { ActionType } from './period.ts'

/** Where a token stands for the person looking at it. */
export type ConfirmationState = 'awaiting' | 'confirmed' | 'declined' | 'expired' | 'used'

export interface ConfirmationView {
  token: ApprovalTokenRow & { action: NonNullable<ApprovalTokenRow['action']> }
  state: ConfirmationState
  /** the organisation's name as the register gives it; null when it could not be read now */
  company_name: string | null
  /** the five checks run now; null (with `checks_unavailable`) when they could not be */
  checks: DryRunOutcome | null
  checks_unavailable: AppError | null
}

export function stateOf(row: ApprovalTokenRow, now: Date): ConfirmationState {
  if (row.consumed_at) return 'used'
  if (row.confirmation === 'declined') return 'declined'
  if (row.expires_at.getTime() <= now.getTime()) return 'expired'
  return row.confirmation === 'confirmed' ? 'confirmed' : 'awaiting'
}

/**
 * The account's own token that a person confirms, by its row id. A token of another account, a
 * sandbox token (which no person confirms) and an unknown id are all NOT_FOUND: the page says
 * nothing about what it does not show.
 */
export async function confirmableToken(sql: Sql, consumerId: string, id: string): Promise<ConfirmationView['token']> {
  const row = await findApprovalTokenById(sql, `consumer:${consumerId}`, id)
  if (!row || row.action === null || row.confirmation === 'automatic') throw new AppError('NOT_FOUND')
  return row as ConfirmationView['token']
}

/** What the page shows: the token, its state, and the five checks run now against the register and the account's delegations. */
export async function confirmationView(
  env: { sql: Sql; reads: CompanyReads; delegation: DelegationEnv; today: LocalDate; now: Date },
  id: string,
): Promise<ConfirmationView> {
  const token = await confirmableToken(env.sql, env.delegation.consumerId, id)
  const state = stateOf(token, env.now)
  let company_name: string | null = null
  let checks: DryRunOutcome | null = null
  let checks_unavailable: AppError | null = null
  try {
    const { value } = await env.reads.unit(token.org_number)
    if (value.kind === 'found') company_name = value.unit.name
    const input = { ...token.action, action_type: token.action.action_type as ActionType }
    checks = dryRun(input, await productionFacts(env.reads, env.delegation, token.org_number), env.today)
  } catch (e) {
    // The register or the agency is down: the content is still shown, and the page says the checks could not be run.
    if (!(e instanceof AppError)) throw e
    checks_unavailable = e
  }
  return { token, state, company_name, checks, checks_unavailable }
}

export type DecisionOutcome =
  | { kind: 'decided'; token: ApprovalTokenRow }
  | { kind: 'not_open'; token: ApprovalTokenRow; state: ConfirmationState }

/**
 * The signed-in owner's decision. Only an open token (awaiting, unconsumed, unexpired) of the
 * account is decided, once; the audit row names the session (`session:<id>`) and the instant.
 */
export async function decideConfirmation(
  sql: Sql,
  d: {
    consumerId: string
    id: string
    decision: 'confirm' | 'decline'
    sessionId: string
    correlationId: string | null
    now: Date
  },
): Promise<DecisionOutcome> {
  const before = await confirmableToken(sql, d.consumerId, d.id)
  const by = `session:${d.sessionId}`
  const decided = (await sql.begin(async (t) => {
    const tx = t as unknown as Sql
    const row = await decideApprovalToken(tx, {
      namespace: `consumer:${d.consumerId}`,
      id: d.id,
      decision: d.decision === 'confirm' ? 'confirmed' : 'declined',
      by,
      now: d.now,
    })
    if (!row) return null
    await appendAuditAt(tx, {
      id: crypto.randomUUID(),
      occurredAt: d.now,
      consumerId: d.consumerId,
      actor: by,
      action: d.decision === 'confirm' ? 'approval_token_confirmed' : 'approval_token_declined',
      orgNumber: row.org_number,
      correlationId: d.correlationId,
      details: {
        token_id: row.id,
        action_id: row.action_id,
        action_type: row.action?.action_type ?? null,
        period: row.action?.period ?? null,
        decided_at: d.now.toISOString(),
        expires_at: row.expires_at.toISOString(),
      },
    })
    return row
  })) as ApprovalTokenRow | null
  if (decided) return { kind: 'decided', token: decided }
  const now = (await confirmableToken(sql, d.consumerId, d.id)) ?? before
  return { kind: 'not_open', token: now, state: stateOf(now, d.now) }
}

/** The account's filings waiting for its owner's confirmation: what the dashboard lists. */
export function awaitingConfirmation(sql: Sql, consumerId: string, now: Date): Promise<ApprovalTokenRow[]> {
  return awaitingApprovalTokens(sql, `consumer:${consumerId}`, now)
}
