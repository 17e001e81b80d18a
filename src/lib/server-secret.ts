/**
 * The server secret and the keys derived from it. One secret from SERVER_SECRET (or, when unset, a
 * random one kept in DATA_DIR) yields a key per purpose, so the fnr HMAC key, the receipt key and
 * the key webhook secrets are encrypted under are never the same bytes and none of them is the
 * secret itself. Changing the secret makes stored webhook secrets unreadable: their deliveries
 * then fail until the subscriptions are made again.
 *
 * Several instances on one PostgreSQL must share SERVER_SECRET: a generated file is per machine,
 * and receipts signed on one instance would not verify on another.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export interface ServerKeys {
  /** HMAC-SHA-256 key for fnr (personal identity numbers): they are stored and compared only as its digest */
  fnr: Buffer
  /** root of the per-consumer HMAC receipt keys (consumerReceiptKey in domain/actions/receipt.ts) */
  receipts: Buffer
  /** HMAC-SHA-256 key for the CSRF tokens of forms that have no session (the mock agency's approval page) */
  forms: Buffer
  /** AES-256-GCM key webhook secrets are kept under (domain/webhooks/secrets.ts) */
  webhookSecrets: Buffer
  /** AES-256-GCM key the Ed25519 receipt keys' private halves are kept under (domain/actions/receipt-keys.ts) */
  receiptEd25519: Buffer
}

/** The key for one purpose: HMAC-SHA-256(secret, "plikt-key-v1:" + purpose). */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`plikt-key-v1:${purpose}`, 'utf8').digest()
}

export function serverKeys(secret: string): ServerKeys {
  return {
    fnr: deriveKey(secret, 'fnr-hmac'),
    receipts: deriveKey(secret, 'receipt-signing'),
    forms: deriveKey(secret, 'form-tokens'),
    webhookSecrets: deriveKey(secret, 'webhook-secrets'),
    receiptEd25519: deriveKey(secret, 'receipt-ed25519-keys'),
  }
}

/** DATA_DIR/server-secret, created (0600) with 256 random bits when it does not exist yet. */
export function secretFromDataDir(dataDir: string): { secret: string; created: boolean } {
  const dir = resolve(dataDir)
  const file = join(dir, 'server-secret')
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim()
    if (secret.length < 32)
      throw new Error(
        `${file} holds fewer than 32 characters; delete it to have a new secret generated, or set SERVER_SECRET`,
      )
    return { secret, created: false }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(32).toString('hex')
  // 'wx': two processes starting at once do not overwrite each other's secret.
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return { secret, created: true }
}

/**
 * A short name for a secret that says nothing about it (HMAC under the secret, like every derived
 * key): backups and the instance file carry it, so a secret that does not match is told apart.
 */
export function secretFingerprint(secret: string): string {
  return deriveKey(secret, 'fingerprint').subarray(0, 8).toString('hex')
}

/** The secret kept in DATA_DIR, or null when there is none (a DATA_DIR served only with SERVER_SECRET). */
export function readSecretFile(dataDir: string): string | null {
  const file = join(resolve(dataDir), 'server-secret')
  if (!existsSync(file)) return null
  const secret = readFileSync(file, 'utf8').trim()
  if (secret.length < 32) throw new Error(`${file} holds fewer than 32 characters`)
  return secret
}

/** Puts a restored secret into DATA_DIR/server-secret (0600; refuses to replace one). */
export function writeSecretFile(dataDir: string, secret: string): void {
  const file = join(resolve(dataDir), 'server-secret')
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
}
