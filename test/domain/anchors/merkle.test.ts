/**
 * The anchor's Merkle tree against RFC 6962 written out recursively here, and its audit paths
 * checked by an independent verifier (RFC 9162 §2.1.3.2, node:crypto only) and by the code
 * docs/anchor-proof.md publishes.
 */
import { createHash } from 'node:crypto'
import { expect, test } from 'bun:test'
import { auditPath, EMPTY_ROOT, leafData, leafHash, rootOf } from '../../../src/domain/anchors/merkle.ts'
import { importDocSnippet } from '../../helpers.ts'
import { verifyInclusion as verify } from '../../helpers.ts'

const h = (...parts: Buffer[]) => parts.reduce((x, p) => x.update(p), createHash('sha256')).digest()
const leaves = (n: number) => Array.from({ length: n }, (_, i) => `leaf ${i}`)

/** RFC 6962 §2.1 MTH, as written there. */
function mth(d: string[]): Buffer {
  if (d.length === 0) return h()
  if (d.length === 1) return h(Buffer.from([0]), Buffer.from(d[0]!, 'utf8'))
  let k = 1
  while (k * 2 < d.length) k *= 2
  return h(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)))
}

test('the root is RFC 6962’s for every size from 0 to 70', () => {
  for (let n = 0; n <= 70; n++)
    expect(rootOf(leaves(n).map(leafHash)).toString('hex')).toBe(mth(leaves(n)).toString('hex'))
  expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
})

test('the root over aligned power-of-two blocks equals the root over all leaves', () => {
  for (const n of [1, 7, 8, 9, 33, 64, 100]) {
    const hashed = leaves(n).map(leafHash)
    const blocks: Buffer[] = []
    for (let i = 0; i < n; i += 8) blocks.push(rootOf(hashed.slice(i, i + 8)))
    expect(rootOf(blocks).equals(rootOf(hashed))).toBe(true)
  }
})

test('every audit path verifies with an independent RFC 9162 verifier, and fails for another leaf or index', () => {
  for (const n of [1, 2, 3, 5, 8, 13, 31, 32, 33]) {
    const hashed = leaves(n).map(leafHash)
    const root = rootOf(hashed)
    for (let i = 0; i < n; i++) {
      const path = auditPath(i, hashed)
      expect(verify(i, n, hashed[i]!, path, root)).toBe(true)
      if (n > 1) {
        expect(verify(i, n, hashed[(i + 1) % n]!, path, root)).toBe(false)
        expect(verify((i + 1) % n, n, hashed[i]!, path, root)).toBe(false)
      }
    }
  }
})

test('the path inside a block followed by the block’s path among blocks is the leaf’s path in the whole tree', () => {
  const hashed = leaves(45).map(leafHash)
  const blocks: Buffer[] = []
  for (let i = 0; i < 45; i += 8) blocks.push(rootOf(hashed.slice(i, i + 8)))
  for (const i of [0, 7, 8, 20, 40, 44]) {
    const b = Math.floor(i / 8)
    const joined = [...auditPath(i % 8, hashed.slice(b * 8, b * 8 + 8)), ...auditPath(b, blocks)]
    expect(joined.map((x) => x.toString('hex'))).toEqual(auditPath(i, hashed).map((x) => x.toString('hex')))
  }
})

test('the recipe docs/anchor-proof.md publishes accepts a real path and refuses a wrong root', async () => {
  const { verifyInclusion } = await importDocSnippet<{ verifyInclusion: (proof: unknown, root: string) => boolean }>(
    'docs/anchor-proof.md',
  )
  const data = leaves(11).map(
    (l, i) =>
      leafData({
        id: `00000000-0000-4000-8000-00000000000${i % 10}`,
        content_sha256: 'ab'.repeat(32),
        fetched_at: `2026-03-13T10:00:0${i % 10}.000000Z`,
      }) + l,
  )
  const hashed = data.map(leafHash)
  const root = rootOf(hashed).toString('hex')
  for (let i = 0; i < data.length; i++) {
    const proof = {
      leaf_index: i,
      tree_size: data.length,
      leaf_data: data[i],
      audit_path: auditPath(i, hashed).map((p) => p.toString('hex')),
    }
    expect(verifyInclusion(proof, root)).toBe(true)
    expect(verifyInclusion(proof, EMPTY_ROOT.toString('hex'))).toBe(false)
  }
})
