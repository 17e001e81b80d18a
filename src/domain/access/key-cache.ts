/**
 * Keys resolved by this process, so a keyed request needs no lookup of its own. The cache is never
 * the authority: the request's first write — its rate-limit count (store/rate-limits.ts) or its
 * charge (store/credits.ts) — only counts while the key is still live with the cached plan, and a
 * refusal is only given after a fresh lookup (pipeline/key-confirmation.ts). So a revocation, a deactivated
 * consumer or a plan change takes effect on the very next request on every instance, cache or not.
 */
import type { KeyPrincipal } from './types.ts'

export class KeyCache {
  private readonly byHash = new Map<string, KeyPrincipal>()

  constructor(private readonly max = 10_000) {}

  get(hash: string): KeyPrincipal | undefined {
    return this.byHash.get(hash)
  }

  set(hash: string, principal: KeyPrincipal): void {
    if (this.byHash.size >= this.max && !this.byHash.has(hash)) this.byHash.delete(this.byHash.keys().next().value!)
    this.byHash.set(hash, { ...principal, confirmed: false })
  }

  /** Forgets a key (rare: it was found revoked, inactive or re-planned), wherever it is cached. */
  forget(keyId: string): void {
    for (const [hash, p] of this.byHash) if (p.keyId === keyId) this.byHash.delete(hash)
  }

  get size(): number {
    return this.byHash.size
  }
}

/** The key was revoked, its consumer deactivated or its plan changed since it was resolved: nothing was counted or charged. */
export class KeyNotLive extends Error {
  constructor() {
    super('the key is no longer live with the plan it was resolved with')
  }
}
