/** Secrets we hand out (API keys, tokens): ≥ 128 random bits, shown once, stored as SHA-256 only. */
import { randomBytes } from 'node:crypto'
import { sha256Hex } from './hash.ts'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** 32 base62 characters: 190 bits from the OS's CSPRNG (rejection sampling keeps it uniform). */
export function randomBase62(length = 32): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]
    }
  }
  return out
}

export function newSecret(prefix: string): string {
  return `${prefix}${randomBase62()}`
}

export function hashSecret(secret: string): string {
  return sha256Hex(secret)
}

/** What a person may see again later: the prefix and four characters, e.g. `svc_free_Ab3x…`. */
export function displayPrefix(secret: string, prefix: string): string {
  return `${secret.slice(0, prefix.length + 4)}…`
}
