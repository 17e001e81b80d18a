/** An inclusion proof checked as RFC 9162 §2.1.3.2 writes it, with node:crypto only: independent of src/. */
import { createHash } from 'node:crypto'

const h = (...parts: Buffer[]) => parts.reduce((x, p) => x.update(p), createHash('sha256')).digest()

export function verifyInclusion(index: number, size: number, leaf: Buffer, path: Buffer[], root: Buffer): boolean {
  if (index >= size) return false
  let fn = index
  let sn = size - 1
  let r = leaf
  for (const p of path) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      r = h(Buffer.from([1]), p, r)
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2)
        sn = Math.floor(sn / 2)
      }
    } else {
      r = h(Buffer.from([1]), r, p)
    }
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 && r.equals(root)
}
