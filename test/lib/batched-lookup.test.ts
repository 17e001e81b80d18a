import { describe, expect, test } from 'bun:test'
import { BatchedLookup } from '../../src/lib/batched-lookup.ts'

/** A table read through the lookup: every read is recorded, and each can be held open. */
function table(rows: Map<string, number>) {
  const reads: string[][] = []
  let gate: Promise<void> | null = null
  let open = () => {}
  const lookup = new BatchedLookup<string, number>(
    async (keys) => {
      reads.push(keys)
      // what the table holds when the read is sent is what it answers
      const found = new Map(keys.filter((k) => rows.has(k)).map((k) => [k, rows.get(k)!]))
      if (gate) await gate
      return found
    },
    (k) => k,
  )
  return {
    lookup,
    reads,
    hold() {
      gate = new Promise((r) => (open = r))
    },
    release() {
      gate = null
      open()
    },
  }
}

describe('a batched lookup', () => {
  test('alone, a lookup is read at once, in a read of its own', async () => {
    const t = table(new Map([['a', 1]]))
    expect(await t.lookup.get('a')).toBe(1)
    expect(t.reads).toEqual([['a']])
  })

  test('a key the read does not return is answered undefined', async () => {
    const t = table(new Map())
    expect(await t.lookup.get('missing')).toBeUndefined()
  })

  test('lookups that arrive while a read is out are read together in one next read, each key once', async () => {
    const t = table(
      new Map([
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ]),
    )
    t.hold()
    const first = t.lookup.get('a')
    const rest = [t.lookup.get('b'), t.lookup.get('c'), t.lookup.get('b'), t.lookup.get('a')]
    t.release()
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 2, 1])
    expect(t.reads).toEqual([['a'], ['b', 'c', 'a']])
  })

  test('a lookup that arrives after its key’s read was sent waits for a read sent after it, and sees a write made between', async () => {
    const rows = new Map([['a', 1]])
    const t = table(rows)
    t.hold()
    const before = t.lookup.get('a')
    rows.set('a', 2) // committed after the first read was sent, before the second lookup
    const after = t.lookup.get('a')
    t.release()
    expect([await before, await after]).toEqual([1, 2])
  })

  test('a failed read fails its own lookups only; the next lookups are read again', async () => {
    let fail = true
    const lookup = new BatchedLookup<string, number>(
      async (keys) => {
        if (fail) {
          fail = false
          throw new Error('database away')
        }
        return new Map(keys.map((k) => [k, 7]))
      },
      (k) => k,
    )
    await expect(lookup.get('a')).rejects.toThrow('database away')
    expect(await lookup.get('a')).toBe(7)
  })
})
