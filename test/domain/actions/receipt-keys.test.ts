/** The Ed25519 receipt keys' storage: one first key however many instances ask at once, private halves sealed under the server secret. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { scratchDatabase, PINNED_NOW } from '../../helpers.ts'
import { loadMigrations, migrate } from '../../../src/store/migrate.ts'
import { receiptSigner, signEd25519, ed25519Message } from '../../../src/domain/actions/receipt-keys.ts'
import { serverKeys } from '../../../src/lib/server-secret.ts'
import type { Database } from '../../../src/store/db.ts'

let db: Database
beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
}, 120_000)
afterAll(() => db.close())

const wrap = serverKeys('receipt-keys-test-secret-0123456789abcdef0123').receiptEd25519
const at = new Date(PINNED_NOW)

test('ten signers asking at once for the first key make one key, and all sign with it', async () => {
  const keys = await Promise.all(Array.from({ length: 10 }, () => receiptSigner(db.sql, wrap, () => at).keyAt(at)))
  expect(new Set(keys.map((k) => k.kid)).size).toBe(1)
  const rows = await db.sql<
    { kid: string; valid_from: Date; valid_until: Date | null }[]
  >`select kid, valid_from, valid_until from receipt_signing_keys`
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ kid: keys[0]!.kid, valid_from: new Date(0), valid_until: null })
})

test('the private half is stored only sealed, and does not open under another server secret', async () => {
  const [row] = await db.sql<{ private_key_sealed: string }[]>`select private_key_sealed from receipt_signing_keys`
  expect(row!.private_key_sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
  const other = serverKeys('another-server-secret-0123456789abcdef0123456').receiptEd25519
  await expect(receiptSigner(db.sql, other, () => at).keyAt(at)).rejects.toThrow(
    /does not open under this SERVER_SECRET/,
  )
})

test('the signature covers the key id: the signed bytes are the receipt without signature_ed25519 only', async () => {
  const key = await receiptSigner(db.sql, wrap, () => at).keyAt(at)
  const signed = signEd25519({ b: 1, a: 'x' }, key)
  expect(ed25519Message(signed)).toBe(`{"a":"x","b":1,"signature_ed25519_key_id":"${key.kid}"}`)
})
