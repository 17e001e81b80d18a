import { expect, test } from 'bun:test'
import { ProofCache, type CachedProof } from '../../../src/domain/anchors/proof-cache.ts'

const proof = (id: string): CachedProof => ({
  day: '2026-03-12',
  proof: {
    snapshot_id: id,
    content_sha256: 'a',
    fetched_at: 'f',
    leaf_data: 'd',
    leaf_hash: 'h',
    leaf_index: 0,
    tree_size: 1,
    audit_path: [],
  },
})

test('the proof cache is bounded: past its size the least recently used proof goes first', () => {
  const cache = new ProofCache(2)
  cache.set('a', proof('a'))
  cache.set('b', proof('b'))
  expect(cache.get('a')?.proof.snapshot_id).toBe('a')
  cache.set('c', proof('c'))
  expect(cache.size).toBe(2)
  expect(cache.get('b')).toBeUndefined()
  expect(cache.get('a')?.proof.snapshot_id).toBe('a')
  expect(cache.get('c')?.proof.snapshot_id).toBe('c')
})
