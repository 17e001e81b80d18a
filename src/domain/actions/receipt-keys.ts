/**
 * Ed25519 receipt signatures (issue 31 item 11): beside the HMAC-SHA256-v1 signature, which only
 * the account holding its receipt key can check, every production receipt — filing and delegation
 * alike — carries `signature_ed25519` by a key of the service's, whose public half anyone can
 * fetch from /.well-known/receipt-keys.json and check offline (docs/receipt-signature.md).
 *
 * The signed bytes: the UTF-8 of the RFC 8785 canonical JSON (lib/canonical-json.ts) of the
 * receipt as issued, without `signature_ed25519` — every other field, the HMAC signature and
 * `signature_ed25519_key_id` included — so nothing in a receipt can change without breaking it.
 *
 * The keys: generated at random by the service (the first when a receipt first needs one, later
 * ones by rotation, `plikt rotate-receipt-key`), the private half kept only sealed with
 * AES-256-GCM under the server secret's `receipt-ed25519-keys` key with the kid as associated
 * data. Random rather than derived from the server secret: forging then needs the database and
 * the secret both, and a rotation after a leak does not depend on the secret changing. Each key
 * signs the receipts whose `timestamp` falls in its window [valid_from, valid_until); rotating
 * closes the open key's window where the new one opens, and every key stays published, so old
 * receipts keep verifying. The first key's window opens at the Unix epoch: no key came before it,
 * and an instance whose clock runs behind the one that made it still finds it.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto'
import { canonicalJson } from '../../lib/canonical-json.ts'
import type { Sql } from '../../store/db.ts'
import {
  insertFirstReceiptKey,
  listReceiptKeys,
  receiptKeyAt,
  rotateReceiptKey,
  type NewReceiptKey,
  type ReceiptKeyRow,
} from '../../store/receipt-keys.ts'

/** Where the first key's window opens: no key came before it. */
export const FIRST_KEY_VALID_FROM = new Date(0)
/**
 * A rotation's default lead: the new key is published this long before it signs, longer than a
 * cache may keep the key set (CACHE.receiptKeys), so a verifier's copy holds it by the first
 * receipt it signs.
 */
export const ROTATION_LEAD_MS = 10 * 60_000

/** The fields the Ed25519 signature adds to a receipt. */
export interface Ed25519Fields {
  signature_ed25519_key_id: string
  /** base64url (no padding) of the 64-byte Ed25519 signature */
  signature_ed25519: string
}

/** The key that signs one receipt, chosen for the receipt's time before anything is filed. */
export interface Ed25519SigningKey {
  kid: string
  sign(message: string): string
}

/** Finds (or, the first time, makes) the key whose window holds an instant. */
export interface Ed25519Signer {
  keyAt(at: Date): Promise<Ed25519SigningKey>
}

/** The bytes an Ed25519 receipt signature covers: the canonical JSON of the receipt without `signature_ed25519`. */
export function ed25519Message(receipt: object): string {
  const { signature_ed25519: _unsigned, ...signed } = receipt as Record<string, unknown>
  return canonicalJson(signed)
}

/** The receipt with its key id and Ed25519 signature over everything else. */
export function signEd25519<R extends object>(receipt: R, key: Ed25519SigningKey): R & Ed25519Fields {
  const withKid = { ...receipt, signature_ed25519_key_id: key.kid }
  return { ...withKid, signature_ed25519: key.sign(ed25519Message(withKid)) }
}

const SEAL_VERSION = 'v1'

function seal(wrapKey: Buffer, kid: string, pkcs8: Buffer): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', wrapKey, iv)
  cipher.setAAD(Buffer.from(kid, 'utf8'))
  const sealed = Buffer.concat([cipher.update(pkcs8), cipher.final(), cipher.getAuthTag()])
  return `${SEAL_VERSION}:${iv.toString('base64')}:${sealed.toString('base64')}`
}

function unseal(wrapKey: Buffer, kid: string, stored: string): KeyObject {
  const [version, iv, sealed] = stored.split(':')
  if (version !== SEAL_VERSION || !iv || !sealed) throw new Error(`receipt key ${kid}: unreadable sealed private key`)
  const bytes = Buffer.from(sealed, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', wrapKey, Buffer.from(iv, 'base64'))
  decipher.setAAD(Buffer.from(kid, 'utf8'))
  decipher.setAuthTag(bytes.subarray(bytes.length - 16))
  let pkcs8: Buffer
  try {
    pkcs8 = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()])
  } catch {
    // The secret changed (or instances do not share it): docs/deploy.md, "Receipt signing keys".
    throw new Error(
      `receipt key ${kid} does not open under this SERVER_SECRET: instances must share it; after changing it, run \`plikt rotate-receipt-key --valid-from now\``,
    )
  }
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url) of an Ed25519 public key: the kid. */
export function thumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`, 'utf8').digest('base64url')
}

/** A fresh key pair, its private half sealed. */
export function newReceiptKey(wrapKey: Buffer, validFrom: Date, now: Date): NewReceiptKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const x = publicKey.export({ format: 'jwk' }).x!
  const kid = thumbprint(x)
  return {
    kid,
    public_key: Buffer.from(x, 'base64url'),
    private_key_sealed: seal(wrapKey, kid, privateKey.export({ format: 'der', type: 'pkcs8' })),
    valid_from: validFrom,
    created_at: now,
  }
}

function signingKey(wrapKey: Buffer, row: ReceiptKeyRow): Ed25519SigningKey {
  const privateKey = unseal(wrapKey, row.kid, row.private_key_sealed)
  return { kid: row.kid, sign: (message) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64url') }
}

/** The signer over the database's keys; `now` stamps a first key's creation. */
export function receiptSigner(sql: Sql, wrapKey: Buffer, now: () => Date): Ed25519Signer {
  return {
    async keyAt(at) {
      let row = await receiptKeyAt(sql, at)
      if (!row) {
        await insertFirstReceiptKey(sql, newReceiptKey(wrapKey, FIRST_KEY_VALID_FROM, now()))
        row = await receiptKeyAt(sql, at)
      }
      if (!row) throw new Error(`no receipt key covers ${at.toISOString()}`)
      return signingKey(wrapKey, row)
    },
  }
}

/** A published key: JWK (RFC 8037 OKP) with its validity window. */
export interface PublishedReceiptKey {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid: string
  use: 'sig'
  alg: 'EdDSA'
  valid_from: string
  valid_until: string | null
}

/** The key set at RECEIPT_KEYS_PATH: every key ever used or announced, oldest window first. */
export async function publishedReceiptKeys(sql: Sql): Promise<{ keys: PublishedReceiptKey[] }> {
  const rows = await listReceiptKeys(sql)
  return {
    keys: rows.map((r) => ({
      kty: 'OKP',
      crv: 'Ed25519',
      x: Buffer.from(r.public_key).toString('base64url'),
      kid: r.kid,
      use: 'sig',
      alg: 'EdDSA',
      valid_from: r.valid_from.toISOString(),
      valid_until: r.valid_until?.toISOString() ?? null,
    })),
  }
}

export type RotationOutcome = { kid: string; valid_from: Date; retired: string | null } | { refused: string }

/**
 * A new key that signs from `validFrom` (not in the past); the open key signs until then. Refused
 * when an announced key already opens at or after `validFrom`.
 */
export async function rotateReceiptKeys(
  sql: Sql,
  wrapKey: Buffer,
  validFrom: Date,
  now: Date,
): Promise<RotationOutcome> {
  if (validFrom.getTime() < now.getTime() - 1000)
    return {
      refused: `valid_from ${validFrom.toISOString()} is in the past: a key cannot sign receipts already issued`,
    }
  const key = newReceiptKey(wrapKey, validFrom, now)
  const done = await rotateReceiptKey(sql, key)
  if (done === 'too_early')
    return {
      refused: `the newest key already signs from ${validFrom.toISOString()} or later: choose a later valid_from`,
    }
  return { kid: key.kid, valid_from: validFrom, retired: done.retired }
}
