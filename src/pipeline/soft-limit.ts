import { AppError } from '../errors/app-error.ts'

const SOFT_LIMIT_PER_MINUTE = 1000
const SKETCH_BITS = 16
const SKETCH_MASK = (1 << SKETCH_BITS) - 1

/** FNV-1a over UTF-16 code units with two different offset bases: cheap and independent enough here. */
function hash(s: string, basis: number): number {
  let h = basis
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return (h ^ (h >>> SKETCH_BITS)) & SKETCH_MASK
}

/**
 * Category A and discovery: 1000 requests a minute per IP, counted in this instance only — a soft
 * limit by design (spec: Limits), so the public calendar costs no database write per request.
 * Counted in a count-min sketch (two rows of 2^16 counters, two independent string hashes): a
 * Map keyed by tens of thousands of fresh address strings cost ~1.3 µs a request (bench/RESULTS.md);
 * this costs two short hashes. A count is never under the truth, and exceeds it only when an
 * address collides with a busier one in both rows. One per app instance (composeDeps), so two
 * instances in one process count apart.
 */
export class SoftLimiter {
  private readonly rows = [new Uint32Array(1 << SKETCH_BITS), new Uint32Array(1 << SKETCH_BITS)] as const
  private window = 0

  /** Counts one request from `ip`; throws RATE_LIMIT_EXCEEDED past the limit. */
  hit(ip: string, now: Date): void {
    const minute = Math.floor(now.getTime() / 60_000)
    if (minute !== this.window) {
      this.window = minute
      this.rows[0].fill(0)
      this.rows[1].fill(0)
    }
    const n = Math.min(++this.rows[0][hash(ip, 0x811c9dc5)]!, ++this.rows[1][hash(ip, 0x01000193)]!)
    if (n > SOFT_LIMIT_PER_MINUTE) {
      throw new AppError('RATE_LIMIT_EXCEEDED', {
        headers: { 'retry-after': String(60 - (Math.floor(now.getTime() / 1000) % 60)) },
      })
    }
  }
}
