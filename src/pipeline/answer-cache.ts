import type { EvaluationCounts } from '../domain/rulebook/evaluate.ts'
import { precompute, type PrecomputedData } from './envelope.ts'

/**
 * Rulebook answers depend only on the archived register answer they read and the dates asked
 * for, so the serialised and hashed body is kept per (snapshot, question): a cached unit costs a
 * lookup instead of an evaluation and a canonical hash (~0.5 ms). Bounded; oldest out first. One
 * per app instance (composeDeps builds it).
 */
export type CachedAnswer = { data: unknown; body: PrecomputedData; counts: EvaluationCounts | null }
export class AnswerCache {
  private static readonly MAX = 2000
  private readonly entries = new Map<string, CachedAnswer>()

  get(key: string, compute: () => { data: unknown; counts: EvaluationCounts | null }): CachedAnswer {
    let hit = this.entries.get(key)
    if (!hit) {
      const r = compute()
      hit = { data: r.data, body: precompute(r.data), counts: r.counts }
      if (this.entries.size >= AnswerCache.MAX) this.entries.delete(this.entries.keys().next().value!)
      this.entries.set(key, hit)
    }
    return hit
  }
}
