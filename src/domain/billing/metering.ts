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

/**
 * Group commit for metered calls: calls that arrive while a batch is being written wait for the
 * next one, and each batch is one transaction (store/credits.ts `chargeBatch`). Under load a
 * batch carries many calls, so the database commits once for all of them; alone, a call waits for
 * nothing. One batch is in flight per process: concurrent batches mostly wait on each other's rows (measured: 1 in flight 4 900/s, 2: 4 800/s, 8: 3 000/s).
 */
export class ChargeBatcher {
  private queue: { req: credits.ChargeRequest; resolve: (o: credits.ChargeOutcome) => void; reject: (e: unknown) => void }[] = []
  private inFlight = 0

  constructor(
    private readonly sql: Sql,
    private readonly maxInFlight = 1,
    private readonly maxBatch = 128,
  ) {}

  charge(req: credits.ChargeRequest): Promise<credits.ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ req, resolve, reject })
      if (this.inFlight < this.maxInFlight) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.inFlight++
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch)
        try {
          const out = await this.write(batch.map((b) => b.req))
          batch.forEach((b, i) => b.resolve(out[i]!))
        } catch (e) {
          batch.forEach((b) => b.reject(e))
        }
      }
    } finally {
      this.inFlight--
    }
  }

  private async write(reqs: credits.ChargeRequest[]): Promise<credits.ChargeOutcome[]> {
    try {
      return await credits.chargeBatch(this.sql, reqs)
    } catch (e) {
      // Lock order makes deadlocks impossible between our own batches; retry once in case another
      // writer (an operator credit, a refund) took the rows in its own order.
      if ((e as { code?: string }).code === '40P01') return credits.chargeBatch(this.sql, reqs)
      throw e
    }
  }
}

/**
 * The metered path: the call is counted in its rate-limit windows and, only when it is within
 * them, charged — in one transaction shared with whatever other calls are charged at that moment.
 * `judge` turns the counts into headers or a 429 (nothing charged then).
 */
export async function countAndCharge(
  charger: ChargeBatcher,
  windows: CountedWindow[],
  judge: (counts: number[]) => Record<string, string>,
  p: { consumerId: string; costOre: number; operationId: string; correlationId: string; baseUrl: string },
): Promise<{ charge: Charge; headers: Record<string, string> }> {
  let out: credits.ChargeOutcome
  try {
    out = await charger.charge({ consumerId: p.consumerId, cost: p.costOre, operationId: p.operationId, correlationId: p.correlationId, windows })
  } catch (cause) {
    throw unavailable(cause)
  }
  const headers = judge(out.hits)
  if (!out.charged) {
    throw new AppError('INSUFFICIENT_CREDITS', { extra: { top_up_url: topUpUrl(p.baseUrl), balance_ore: out.balance_ore, cost_ore: p.costOre } })
  }
  return { charge: { ledgerId: out.charged.ledger_id, balanceAfter: out.charged.balance_ore }, headers }
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
