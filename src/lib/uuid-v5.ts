/**
 * RFC 4122 §4.3 name-based UUIDs, version 5 (SHA-1). The same namespace and name always give the
 * same UUID, which is what lets a sandbox receipt carry a stable `audit_log_id` across replays.
 * SHA-1 is what the RFC prescribes; nothing here relies on its collision resistance for security.
 */
import { createHash } from 'node:crypto'

/** The RFC's predefined namespaces (appendix C). */
export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8'
export const NAMESPACE_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A string name is hashed as UTF-8, as every common implementation does. */
export function uuidV5(name: string | Uint8Array, namespace: string): string {
  if (!UUID.test(namespace)) throw new TypeError(`uuidV5: namespace is not a UUID: ${namespace}`)
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name)
    .digest()
    .subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50 // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80 // RFC 4122 variant
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
