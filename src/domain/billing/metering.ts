/**
 * Metering: an operation's price is taken before the work and held; the hold is settled when the
 * call succeeds and refunded when it fails — or, if the process dies, by the expiry sweep. The
 * balance can never go below zero, and when it cannot be read the call is refused (fail closed).
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import * as credits from '../../store/credits.ts'
import type { CountedWindow } from '../access/limits.ts'

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

function unavailable(cause: unknown): AppError {
  return new AppError('CREDIT_CHECK_UNAVAILABLE', { cause, headers: { 'retry-after': '5' } })
}

async function insufficient(sql: Sql, consumerId: string, costOre: number, baseUrl: string): Promise<AppError> {
  let balance = 0
  try {
    balance = (await credits.readBalance(sql, consumerId)).balance_ore
  } catch (cause) {
    return unavailable(cause)
  }
  return new AppError('INSUFFICIENT_CREDITS', { extra: { top_up_url: topUpUrl(baseUrl), balance_ore: balance, cost_ore: costOre } })
}

export async function chargeBeforeWork(sql: Sql, consumerId: string, costOre: number, operationId: string, correlationId: string, baseUrl: string): Promise<Charge> {
  let charged: Awaited<ReturnType<typeof credits.debitWithHold>>
  try {
    charged = await credits.debitWithHold(sql, consumerId, costOre, operationId, correlationId)
  } catch (cause) {
    throw unavailable(cause)
  }
  if (charged) return { ledgerId: charged.ledger_id, balanceAfter: charged.balance_ore }
  throw await insufficient(sql, consumerId, costOre, baseUrl)
}

/**
 * The metered path in one commit: the call is counted in its rate-limit windows and, only when it
 * is within them, charged. `judge` turns the counts into headers or a 429 (nothing charged then).
 */
export async function countAndCharge(
  sql: Sql,
  windows: CountedWindow[],
  judge: (counts: number[]) => Record<string, string>,
  p: { consumerId: string; costOre: number; operationId: string; correlationId: string; baseUrl: string },
): Promise<{ charge: Charge; headers: Record<string, string> }> {
  let result: Awaited<ReturnType<typeof credits.countAndDebit>>
  try {
    result = await credits.countAndDebit(sql, windows, p.consumerId, p.costOre, p.operationId, p.correlationId)
  } catch (cause) {
    throw unavailable(cause)
  }
  const headers = judge(result.hits)
  if (!result.charged) throw await insufficient(sql, p.consumerId, p.costOre, p.baseUrl)
  return { charge: { ledgerId: result.charged.ledger_id, balanceAfter: result.charged.balance_ore }, headers }
}

export function refund(sql: Sql, charge: Charge, reason: string): Promise<boolean> {
  return credits.refundHold(sql, charge.ledgerId, reason)
}

/**
 * Settles the holds of successful calls in batches: one DELETE per batch instead of one commit
 * per call. If the process dies before a batch is written, the sweep refunds those calls — the
 * error falls in the caller's favour, never against them.
 */
export class HoldSettler {
  private pending: number[] = []
  private timer: ReturnType<typeof setTimeout> | null = null
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly sql: Sql,
    private readonly onError: (e: unknown) => void,
    private readonly delayMs = 20,
    private readonly maxBatch = 256,
  ) {}

  settle(charge: Charge): void {
    this.pending.push(charge.ledgerId)
    if (this.pending.length >= this.maxBatch) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs)
  }

  /** Writes what is pending; resolves when every settle so far is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return this.flushing
    this.flushing = this.flushing.then(() => credits.settleHolds(this.sql, batch).catch(this.onError))
    return this.flushing
  }
}
