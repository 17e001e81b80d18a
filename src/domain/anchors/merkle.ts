/**
 * The Merkle tree of an anchor: RFC 6962's (Certificate Transparency) over SHA-256. A leaf is
 * SHA-256(0x00 ‖ leaf data), a node SHA-256(0x01 ‖ left ‖ right); the tree pairs nodes left to
 * right level by level and carries an odd last node up unchanged, which is exactly RFC 6962's
 * split at the largest power of two. An empty tree's root is SHA-256 of nothing.
 *
 * Because every aligned block of a power-of-two number of leaves is a subtree of that tree, the
 * root over the roots of consecutive CHUNK_LEAVES-leaf blocks equals the root over all leaves, and
 * a leaf's audit path is its path inside its block followed by its block's path among the blocks.
 * An anchor keeps only the block roots; docs/anchor-proof.md is the recipe to check a path.
 */
import { createHash } from 'node:crypto'

export const CHUNK_LEAVES = 1024

const LEAF = Buffer.from([0x00])
const NODE = Buffer.from([0x01])

export const EMPTY_ROOT = createHash('sha256').digest()

/** What a leaf commits to: the snapshot's id, the SHA-256 of the upstream's answer, and when it was fetched (as the proof states it). */
export function leafData(s: { id: string; content_sha256: string; fetched_at: string }): string {
  return `plikt-snapshot-v1|${s.id}|${s.content_sha256}|${s.fetched_at}`
}

// One hasher for every leaf and node: a day's anchor hashes two million times, and Bun's hasher,
// reused (digest() resets it), costs half of a new node:crypto Hash each time. Both functions run
// to completion synchronously, so nothing can interleave on it.
const hasher = new Bun.CryptoHasher('sha256')

export function leafHash(data: string): Buffer {
  hasher.update(LEAF)
  hasher.update(data)
  return hasher.digest() as Buffer
}

export function nodeHash(left: Buffer, right: Buffer): Buffer {
  hasher.update(NODE)
  hasher.update(left)
  hasher.update(right)
  return hasher.digest() as Buffer
}

/** The root over nodes that are already hashed (leaf hashes, or the roots of aligned blocks). */
export function rootOf(nodes: Buffer[]): Buffer {
  if (nodes.length === 0) return EMPTY_ROOT
  let level = nodes
  while (level.length > 1) {
    const up: Buffer[] = []
    for (let i = 0; i + 1 < level.length; i += 2) up.push(nodeHash(level[i]!, level[i + 1]!))
    if (level.length % 2 === 1) up.push(level[level.length - 1]!)
    level = up
  }
  return level[0]!
}

/** The siblings from `index` up to the root, bottom first (RFC 6962 PATH). */
export function auditPath(index: number, nodes: Buffer[]): Buffer[] {
  const path: Buffer[] = []
  let level = nodes
  let i = index
  while (level.length > 1) {
    const sibling = i ^ 1
    if (sibling < level.length) path.push(level[sibling]!)
    const up: Buffer[] = []
    for (let j = 0; j + 1 < level.length; j += 2) up.push(nodeHash(level[j]!, level[j + 1]!))
    if (level.length % 2 === 1) up.push(level[level.length - 1]!)
    level = up
    i >>= 1
  }
  return path
}
