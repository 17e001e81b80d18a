/**
 * Metering: an operation's price is taken before the work and held; the hold is settled when the
 * call succeeds and refunded when it fails — or, if the process dies, by the expiry sweep. The
 * balance can never go below zero, and when it cannot be read the call is refused (fail closed).
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import * as credits from '../../store/credits.ts'

/** A metered call that leaves less than this gets a warning header (see /api/v1/pricing). */
export const LOW_BALANCE_ORE = 1000
/** A hold this old belongs to a call that died: the sweep refunds it. */
export const HOLD_TIMEOUT_MS = 5 * 60_000

export function topUpUrl(baseUrl: string): string {
  return `${baseUrl}/dashboard#credits`
}

export interface Charge {
  ledgerId: number
  balanceAfter: number
}

export async function chargeBeforeWork(sql: Sql, consumerId: string, costOre: number, operationId: string, correlationId: string, baseUrl: string): Promise<Charge> {
  let charged: Awaited<ReturnType<typeof credits.debitWithHold>>
  try {
    charged = await credits.debitWithHold(sql, consumerId, costOre, operationId, correlationId)
  } catch (cause) {
    throw new AppError('CREDIT_CHECK_UNAVAILABLE', { cause, headers: { 'retry-after': '5' } })
  }
  if (charged) return { ledgerId: charged.ledger_id, balanceAfter: charged.balance_ore }
  let balance = 0
  try {
    balance = (await credits.readBalance(sql, consumerId)).balance_ore
  } catch (cause) {
    throw new AppError('CREDIT_CHECK_UNAVAILABLE', { cause, headers: { 'retry-after': '5' } })
  }
  throw new AppError('INSUFFICIENT_CREDITS', { extra: { top_up_url: topUpUrl(baseUrl), balance_ore: balance, cost_ore: costOre } })
}

export function settle(sql: Sql, charge: Charge): Promise<void> {
  return credits.settleHold(sql, charge.ledgerId)
}

export function refund(sql: Sql, charge: Charge, reason: string): Promise<boolean> {
  return credits.refundHold(sql, charge.ledgerId, reason)
}
