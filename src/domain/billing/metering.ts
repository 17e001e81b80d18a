/**
 * Metering: an operation's price is taken before the work and held; the hold is settled when the
 * call succeeds and refunded when it fails — or, if the process dies, by the expiry sweep. The
 * balance can never go below zero, and when it cannot be read the call is refused (fail closed).
 */
import { AppError } from '../../errors/app-error.ts'
import type { Sql } from '../../store/db.ts'
import * as credits from '../../store/credits.ts'
import { KeyNotLive } from '../access/key-cache.ts'
import type { CountedWindow } from '../access/limits.ts'

/** A metered call that leaves less than this gets a warning header (see /api/v1/pricing). */
export const LOW_BALANCE_ORE = 1000
/** A hold this old belongs to a call that died: the sweep refunds it. */
export const HOLD_TIMEOUT_MS = 5 * 60_000

export function topUpUrl(baseUrl: string): string {
  return `${baseUrl}/dashboard#credits`
}

/** The hold of one charge batch: it goes when the last of the batch's calls has finished. */
export interface BatchHold {
  id: number
  open: number
}

export interface Charge {
  ledgerId: number
  balanceAfter: number
  hold: BatchHold
}

/** A call's outcome in its batch, and the batch's hold when the call was charged. */
interface Charged {
  outcome: credits.ChargeOutcome
  hold: BatchHold | null
}

function unavailable(cause: unknown): AppError {
  return new AppError('CREDIT_CHECK_UNAVAILABLE', { cause, headers: { 'retry-after': '5' } })
}

/**
 * Group commit for metered calls: calls that arrive while batches are being written wait for the
 * next one, and each batch is one statement (store/credits.ts `chargeBatch`). Under load a batch
 * carries many calls, so the database commits once for all of them; alone, a call waits for
 * nothing. Two batches are in flight on the charge connection (Database.chargeSql), which
 * pipelines them: PostgreSQL starts the second the moment the first commits instead of waiting for
 * this process to read the answer and send the next. Measured on PostgreSQL (bench/RESULTS.md):
 * one in flight ~5 000 calls/s, two ~7 200/s, four ~5 700/s (smaller batches, same fixed cost).
 */
export class ChargeBatcher {
  private queue: { req: credits.ChargeRequest; resolve: (r: Charged) => void; reject: (e: unknown) => void }[] = []
  private inFlight = 0

  constructor(
    private readonly sql: Sql,
    private readonly maxInFlight = 2,
    private readonly maxBatch = 128,
  ) {}

  /** charges waiting for a batch (the metrics read it when scraped) */
  get queued(): number {
    return this.queue.length
  }

  /** batches being written now, at most `maxInFlight` */
  get writing(): number {
    return this.inFlight
  }

  charge(req: credits.ChargeRequest): Promise<Charged> {
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
          // One hold for the batch: it stays until the last call charged in it has finished.
          const charged = out.filter((o) => o.charged)
          const hold = charged.length ? { id: charged[0]!.charged!.hold_id, open: charged.length } : null
          batch.forEach((b, i) => b.resolve({ outcome: out[i]!, hold: out[i]!.charged ? hold : null }))
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
 * The metered path: the call's key is confirmed live, the call counted in its rate-limit windows
 * and, only when it is within them, charged — in one statement shared with whatever other calls
 * are charged at that moment. `judge` turns the counts into headers or a 429 (nothing charged then).
 */
export async function countAndCharge(
  charger: ChargeBatcher,
  windows: CountedWindow[],
  judge: (counts: number[]) => Record<string, string>,
  p: {
    consumerId: string
    /** null: a call with no key (a calendar feed's read), charged while its consumer is live with `plan` */
    keyId: string | null
    plan: string
    costOre: number
    operationId: string
    correlationId: string
    baseUrl: string
  },
): Promise<{ charge: Charge; headers: Record<string, string> }> {
  let charged: Charged
  try {
    charged = await charger.charge({
      consumerId: p.consumerId,
      keyId: p.keyId,
      plan: p.plan,
      cost: p.costOre,
      operationId: p.operationId,
      correlationId: p.correlationId,
      windows,
    })
  } catch (cause) {
    throw unavailable(cause)
  }
  const { outcome, hold } = charged
  if (!outcome.keyLive) throw new KeyNotLive()
  const headers = judge(outcome.hits)
  if (!outcome.charged) {
    throw new AppError('INSUFFICIENT_CREDITS', {
      extra: { top_up_url: topUpUrl(p.baseUrl), balance_ore: outcome.balance_ore, cost_ore: p.costOre },
    })
  }
  return {
    charge: { ledgerId: outcome.charged.ledger_id, balanceAfter: outcome.charged.balance_ore, hold: hold! },
    headers,
  }
}

/**
 * Releases the holds of finished batches: a batch's hold goes when the last of its calls has
 * finished (settled, or refunded), in one DELETE per flush for all such batches. If the process
 * dies before then, the sweep refunds the batch's debits — the error falls in the caller's favour,
 * never against them.
 */
export class HoldSettler {
  private pending: number[] = []
  /** refunds of failed calls that could not be written yet; their batches' holds wait for them */
  private refunds: { charge: Charge; reason: string; refunded: () => void }[] = []
  private timer: ReturnType<typeof setTimeout> | null = null
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly sql: Sql,
    private readonly onError: (e: unknown) => void,
    private readonly delayMs = 20,
    private readonly maxBatch = 256,
    private readonly retryMs = 1000,
  ) {}

  /** One call of the charge's batch has finished; its debit stands or has been refunded. */
  finish(charge: Charge): void {
    if (--charge.hold.open > 0) return
    this.pending.push(charge.hold.id)
    if (this.pending.length >= this.maxBatch) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs)
  }

  /**
   * A failed call's debit is given back, and then its batch may be released. A refund that cannot
   * be written (the database is away) is tried again with the releases while this process lives:
   * left to the sweep, it would refund the whole batch, the calls that succeeded with it too.
   */
  async giveBack(charge: Charge, reason: string, refunded: () => void): Promise<void> {
    try {
      await credits.refundDebit(this.sql, charge.ledgerId, reason)
    } catch (e) {
      this.onError(e)
      this.refunds.push({ charge, reason, refunded })
      this.timer ??= setTimeout(() => void this.flush(), this.retryMs)
      return
    }
    refunded()
    this.finish(charge)
  }

  /**
   * For shutdown: flushes, and while anything was refused tries again every `retryMs` until all is
   * written or `withinMs` has passed. Whatever is left is what the sweep will refund (successes of
   * its batches too), so a database that is briefly away at shutdown must not leave it. Resolves
   * to the number of releases and refunds still unwritten.
   */
  async settle(withinMs: number): Promise<number> {
    const until = performance.now() + withinMs
    for (;;) {
      await this.flush()
      const left = this.pending.length + this.refunds.length
      if (left === 0 || performance.now() >= until) {
        if (this.timer) clearTimeout(this.timer)
        this.timer = null
        return left
      }
      await Bun.sleep(Math.min(this.retryMs, Math.max(0, until - performance.now())))
    }
  }

  /** Writes what is pending; resolves when every refund and release so far is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.refunds.length) {
      const waiting = this.refunds
      this.refunds = []
      // (refundDebit is idempotent: a retry of a refund whose answer was lost refunds nothing twice)
      // The first that fails puts the rest back untried: with the database away, each try would
      // wait out the connect timeout, and a drain would wait for all of them.
      this.flushing = this.flushing.then(async () => {
        for (const [i, r] of waiting.entries()) {
          await this.giveBack(r.charge, r.reason, r.refunded)
          if (this.refunds.length) {
            this.refunds.push(...waiting.slice(i + 1))
            return
          }
        }
      })
    }
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return this.flushing.then(() => (this.pending.length ? this.flush() : undefined))
    this.flushing = this.flushing.then(() =>
      credits.releaseHolds(this.sql, batch).catch((e: unknown) => {
        // The calls succeeded: their holds must go, or the sweep would refund work that was done.
        // Kept and tried again while this process lives; only a process that dies leaves them.
        this.onError(e)
        this.pending.push(...batch)
        this.timer ??= setTimeout(() => void this.flush(), this.retryMs)
      }),
    )
    return this.flushing
  }
}
