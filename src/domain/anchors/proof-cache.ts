/**
 * An instance's inclusion proofs, kept once computed: a snapshot's proof in its day's anchor never
 * changes (the anchor and its block roots are append-only, sql/0020_anchors.sql), and computing one
 * reads and hashes a block of up to 1 024 leaves. The anchor's own view is not kept — its RFC 3161
 * timestamp may arrive after the proof was first asked for — and is read with every answer.
 * Bounded: the least recently used proof goes first.
 */
export const PROOF_CACHE_SIZE = 2_000

export interface CachedProof {
  day: string
  proof: {
    snapshot_id: string
    content_sha256: string
    fetched_at: string
    leaf_data: string
    leaf_hash: string
    leaf_index: number
    tree_size: number
    audit_path: string[]
  }
}

export class ProofCache {
  private readonly proofs = new Map<string, CachedProof>()
  /** answers served from the cache (for tests and metrics) */
  hits = 0

  constructor(private readonly max = PROOF_CACHE_SIZE) {}

  get(snapshotId: string): CachedProof | undefined {
    const p = this.proofs.get(snapshotId)
    if (!p) return undefined
    this.proofs.delete(snapshotId)
    this.proofs.set(snapshotId, p)
    this.hits++
    return p
  }

  set(snapshotId: string, p: CachedProof): void {
    this.proofs.delete(snapshotId)
    this.proofs.set(snapshotId, p)
    if (this.proofs.size > this.max) this.proofs.delete(this.proofs.keys().next().value!)
  }

  get size(): number {
    return this.proofs.size
  }
}
