/** Webhook secrets: shown as whsec_…, kept only as AES-256-GCM ciphertext bound to their subscription, and the signature they make. */
import { createHmac } from 'node:crypto'
import { expect, test } from 'bun:test'
import { decryptSecret, encryptSecret, newWebhookSecret } from '../../../src/domain/webhooks/secrets.ts'
import { signatureHeader } from '../../../src/domain/webhooks/signature.ts'
import { deriveKey } from '../../../src/lib/server-secret.ts'

const key = deriveKey('test-server-secret-0123456789abcdef0123456789abcdef', 'webhook-secrets')
const id = '5f0c1c7e-0000-4000-8000-000000000001'

test('a secret is whsec_ and 256 random bits, never the same twice', () => {
  const a = newWebhookSecret()
  expect(a).toMatch(/^whsec_[0-9a-f]{64}$/)
  expect(newWebhookSecret()).not.toBe(a)
})

test('the ciphertext holds no trace of the secret and decrypts back to it', () => {
  const secret = newWebhookSecret()
  const sealed = encryptSecret(key, id, secret)
  expect(sealed).not.toContain(secret.slice(6))
  expect(sealed).not.toContain(Buffer.from(secret).toString('base64').slice(0, 20))
  expect(decryptSecret(key, id, sealed)).toBe(secret)
})

test('the same secret encrypts differently each time (a fresh IV)', () => {
  const secret = newWebhookSecret()
  expect(encryptSecret(key, id, secret)).not.toBe(encryptSecret(key, id, secret))
})

test('a ciphertext does not decrypt for another subscription, under another key, or altered', () => {
  const sealed = encryptSecret(key, id, newWebhookSecret())
  expect(() => decryptSecret(key, '5f0c1c7e-0000-4000-8000-000000000002', sealed)).toThrow()
  expect(() =>
    decryptSecret(deriveKey('another-server-secret-0123456789abcdef0123', 'webhook-secrets'), id, sealed),
  ).toThrow()
  const [v, iv, ct] = sealed.split(':')
  const flipped = Buffer.from(ct!, 'base64')
  flipped[0]! ^= 1
  expect(() => decryptSecret(key, id, `${v}:${iv}:${flipped.toString('base64')}`)).toThrow()
})

test('the signature header is t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>"> under the whole secret string', () => {
  const secret = 'whsec_' + 'ab'.repeat(32)
  const body = '{"a":1}'
  const header = signatureHeader(secret, body, new Date('2026-03-14T09:30:00.900Z'))
  const t = Math.floor(Date.parse('2026-03-14T09:30:00Z') / 1000)
  expect(header).toBe(
    `t=${t},v1=${createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(Buffer.from(`${t}.${body}`, 'utf8'))
      .digest('hex')}`,
  )
})
