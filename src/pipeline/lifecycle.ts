/**
 * This instance's place in its life: serving, or draining towards a stop. Built per instance by
 * the composition root; main.ts flips `draining` on SIGTERM, and the readiness route reads it so a
 * proxy takes the instance out of rotation before its listener closes.
 */
import { loadMigrations } from '../store/migrate.ts'

export class Lifecycle {
  draining = false
  private known: Promise<number[]> | null = null
  /** when the readiness route last answered (performance.now() ms), and the shortest gap seen between two */
  private lastCheck: number | null = null
  private shortestGap = Number.POSITIVE_INFINITY

  /** The readiness route calls this on every check: a proxy's checks show its interval. */
  readinessChecked(nowMs: number = performance.now()): void {
    if (this.lastCheck !== null) this.shortestGap = Math.min(this.shortestGap, nowMs - this.lastCheck)
    this.lastCheck = nowMs
  }

  /**
   * At SIGTERM: a warning when something has been checking readiness (within the last minute, at
   * least twice) and the grace is shorter than two of its intervals — the least any `fall` needs to
   * take the instance out before its listener closes (docs/deploy.md §4: (fall + 1) × inter); null
   * when the grace is enough or nobody checks.
   */
  graceWarning(graceMs: number, nowMs: number = performance.now()): string | null {
    if (this.lastCheck === null || nowMs - this.lastCheck > 60_000 || !Number.isFinite(this.shortestGap)) return null
    const interval = Math.round(this.shortestGap)
    if (graceMs >= 2 * this.shortestGap) return null
    return `readiness is checked about every ${interval} ms, but DRAIN_GRACE_MS is ${graceMs}: the proxy may send requests after this instance stops accepting; set DRAIN_GRACE_MS to at least (fall + 1) × inter of its checks (docs/deploy.md §4)`
  }

  /**
   * The grace when DRAIN_GRACE_MS is not set: four of the intervals the readiness checks came at
   * (within the last minute, at least twice) — enough for a proxy whose `fall` is 3 or less, the
   * guide's among them (docs/deploy.md §4: (fall + 1) × inter) — at most 30 s; none when nobody
   * checks, so a stop without a proxy in front is not delayed.
   */
  automaticGrace(nowMs: number = performance.now()): number {
    if (this.lastCheck === null || nowMs - this.lastCheck > 60_000 || !Number.isFinite(this.shortestGap)) return 0
    return Math.min(30_000, Math.ceil(4 * this.shortestGap))
  }

  /** The migration versions this build knows, read once (they are part of the build). */
  knownMigrations(): Promise<number[]> {
    this.known ??= loadMigrations().then((ms) => ms.map((m) => m.version))
    return this.known
  }
}
