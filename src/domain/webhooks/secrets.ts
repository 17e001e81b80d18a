/**
 * Webhook secrets (spec: Events): generated here, shown once, and kept only encrypted — they sign
 * every delivery, so unlike a key they cannot be hashed. AES-256-GCM under the server secret's
 * `webhook-secrets` key (lib/server-secret.ts), with the subscription's id as associated data so a
 * ciphertext copied onto another row does not decrypt there.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'

/** `whsec_` + 256 random bits as hex. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('hex')
}

const VERSION = 'v1'

/** `v1:<iv>:<ciphertext and tag>`, base64. */
export function encryptSecret(key: Buffer, subscriptionId: string, secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(subscriptionId, 'utf8'))
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return `${VERSION}:${iv.toString('base64')}:${sealed.toString('base64')}`
}

/** Throws when the ciphertext was made under another key or for another subscription. */
export function decryptSecret(key: Buffer, subscriptionId: string, stored: string): string {
  const [version, iv, sealed] = stored.split(':')
  if (version !== VERSION || !iv || !sealed) throw new Error('unreadable webhook secret ciphertext')
  const bytes = Buffer.from(sealed, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'))
  decipher.setAAD(Buffer.from(subscriptionId, 'utf8'))
  decipher.setAuthTag(bytes.subarray(bytes.length - 16))
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8')
}
