/**
 * Lookups by key that arrive while one is being read are read together, in one statement, when
 * it returns (the DataLoader pattern, with the charge batcher's rule for freshness): under load
 * the hot path reads a table once per batch instead of once per request; alone, a lookup waits for
 * nothing. Every lookup is answered by a read sent after it arrived, so it sees every write that
 * committed before it was asked — batching never serves an older answer than a plain read would.
 */
export class BatchedLookup<K, V> {
  private queue = new Map<
    string,
    { key: K; waiters: { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[] }
  >()
  private inFlight = 0

  /**
   * @param read the values of these distinct keys, by `id` of the key; a key it leaves out is
   *   answered `undefined`
   */
  constructor(
    private readonly read: (keys: K[]) => Promise<Map<string, V>>,
    private readonly id: (key: K) => string,
    private readonly maxInFlight = 1,
    private readonly maxBatch = 256,
  ) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const k = this.id(key)
      const entry = this.queue.get(k)
      if (entry) entry.waiters.push({ resolve, reject })
      else this.queue.set(k, { key, waiters: [{ resolve, reject }] })
      if (this.inFlight < this.maxInFlight) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.inFlight++
    try {
      while (this.queue.size) {
        const batch = [...this.queue.entries()].slice(0, this.maxBatch)
        for (const [k] of batch) this.queue.delete(k)
        try {
          const found = await this.read(batch.map(([, e]) => e.key))
          for (const [k, e] of batch) for (const w of e.waiters) w.resolve(found.get(k))
        } catch (err) {
          for (const [, e] of batch) for (const w of e.waiters) w.reject(err)
        }
      }
    } finally {
      this.inFlight--
    }
  }
}
