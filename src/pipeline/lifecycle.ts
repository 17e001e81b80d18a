/**
 * This instance's place in its life: serving, or draining towards a stop. Built per instance by
 * the composition root; main.ts flips `draining` on SIGTERM, and the readiness route reads it so a
 * proxy takes the instance out of rotation before its listener closes.
 */
import { loadMigrations } from '../store/migrate.ts'

export class Lifecycle {
  draining = false
  private known: Promise<number[]> | null = null

  /** The migration versions this build knows, read once (they are part of the build). */
  knownMigrations(): Promise<number[]> {
    this.known ??= loadMigrations().then((ms) => ms.map((m) => m.version))
    return this.known
  }
}
