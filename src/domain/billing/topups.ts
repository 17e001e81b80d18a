/**
 * Top-up requests: an agent asks, a person approves at `approval_url`. Nothing is charged until
 * then. Card checkout sits behind a payment provider; without one the operator approves instead.
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import * as credits from '../../store/credits.ts'

export const TOPUP_MIN_ORE = 1000
export const TOPUP_TTL_MS = 24 * 3600_000
export const MAX_PENDING_TOPUPS = 3

export function approvalUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/billing/topup/${id}`
}

export async function requestTopup(
  sql: Sql,
  p: { consumerId: string; keyId: string | null; amountOre: number; ceilingOre: number },
  now: Date,
  by: { actor: string; correlationId: string },
): Promise<credits.TopupRow> {
  if (p.amountOre < TOPUP_MIN_ORE) {
    throw new AppError('TOPUP_BELOW_MINIMUM', { extra: { requested_ore: p.amountOre, minimum_ore: TOPUP_MIN_ORE } })
  }
  if (p.amountOre > p.ceilingOre) {
    throw new AppError('TOPUP_CEILING_EXCEEDED', { extra: { requested_ore: p.amountOre, ceiling_ore: p.ceilingOre } })
  }
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    await accounts.lockConsumer(t, p.consumerId)
    if ((await credits.countPendingTopups(t, p.consumerId, now)) >= MAX_PENDING_TOPUPS) {
      // A slot frees when the oldest pending request expires (or is approved before that).
      const oldest = await credits.oldestPendingExpiry(t, p.consumerId, now)
      const wait = Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime() + TOPUP_TTL_MS) - now.getTime()) / 1000))
      throw new AppError('RATE_LIMITED', {
        headers: { 'retry-after': String(wait) },
        extra: {
          pending_topups: MAX_PENDING_TOPUPS,
          retry_after_seconds: wait,
          reason: 'at most 3 pending top-up requests per account',
        },
      })
    }
    const row = await credits.insertTopup(t, p.consumerId, p.keyId, p.amountOre, new Date(now.getTime() + TOPUP_TTL_MS))
    await appendAudit(t, {
      consumerId: p.consumerId,
      actor: by.actor,
      action: 'topup_requested',
      correlationId: by.correlationId,
      details: { topup_id: row.id, amount_ore: p.amountOre },
    })
    return row
  }) as Promise<credits.TopupRow>
}

/** The operator approves (no payment provider): the amount is credited once. */
export async function approveTopupByOperator(
  sql: Sql,
  id: string,
  now: Date,
  correlationId: string,
): Promise<{ topup: credits.TopupRow; balance_ore: number }> {
  const done = await credits.approveTopup(sql, id, now, correlationId)
  if (!done) {
    const t = await credits.findTopup(sql, id)
    if (!t) throw new AppError('NOT_FOUND')
    throw new AppError('VALIDATION_FAILED', {
      details: [
        { field: 'id', message: `the request is ${t.status === 'pending' ? 'expired' : t.status}, not pending` },
      ],
    })
  }
  await appendAudit(sql, {
    consumerId: done.topup.consumer_id,
    actor: 'admin',
    action: 'topup_approved',
    correlationId,
    details: { topup_id: id, amount_ore: done.topup.amount_ore },
  })
  return done
}

export async function creditByOperator(
  sql: Sql,
  consumerId: string,
  amountOre: number,
  reason: string,
  correlationId: string,
): Promise<number> {
  if (!(await accounts.findConsumer(sql, consumerId))) throw new AppError('NOT_FOUND')
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const { balance_ore } = await credits.credit(t, consumerId, amountOre, 'admin_credit', reason, correlationId)
    await appendAudit(t, {
      consumerId,
      actor: 'admin',
      action: 'credits_added',
      correlationId,
      details: { amount_ore: amountOre, reason },
    })
    return balance_ore
  }) as Promise<number>
}
