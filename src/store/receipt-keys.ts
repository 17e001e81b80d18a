/**
 * The Ed25519 receipt-signing keys (sql/0026_receipt_signing_keys.sql): public halves, sealed
 * private halves and validity windows. Creating the first key and rotating take one
 * transaction-scoped advisory lock, so instances doing either at once make one key, and the
 * windows never overlap or leave a gap.
 */
import type { Sql } from './db.ts'

export interface ReceiptKeyRow {
  kid: string
  public_key: Uint8Array
  private_key_sealed: string
  valid_from: Date
  valid_until: Date | null
  created_at: Date
}

export type NewReceiptKey = Omit<ReceiptKeyRow, 'valid_until'>

const LOCK = 'receipt-signing-keys'

/** Every key, oldest window first: retired keys stay listed for good. */
export async function listReceiptKeys(sql: Sql): Promise<ReceiptKeyRow[]> {
  return sql<
    ReceiptKeyRow[]
  >`select kid, public_key, private_key_sealed, valid_from, valid_until, created_at from receipt_signing_keys order by valid_from`
}

/** The key whose window holds `at`, if any. */
export async function receiptKeyAt(sql: Sql, at: Date): Promise<ReceiptKeyRow | null> {
  const [row] = await sql<ReceiptKeyRow[]>`
    select kid, public_key, private_key_sealed, valid_from, valid_until, created_at from receipt_signing_keys
    where valid_from <= ${at} and (valid_until is null or valid_until > ${at})
    order by valid_from desc limit 1`
  return row ?? null
}

/** The first key, unless another instance made one first: then nothing is written. Answers whether this one was. */
export async function insertFirstReceiptKey(sql: Sql, key: NewReceiptKey): Promise<boolean> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${LOCK}, 0))`
    const [any] = await tx<{ n: number }[]>`select count(*)::int as n from receipt_signing_keys`
    if (any!.n > 0) return false
    await tx`insert into receipt_signing_keys (kid, public_key, private_key_sealed, valid_from, created_at) values (${key.kid}, ${key.public_key}, ${key.private_key_sealed}, ${key.valid_from}, ${key.created_at})`
    return true
  }) as Promise<boolean>
}

/**
 * A new key signing from its `valid_from`: the open-ended key's window closes there. 'too_early'
 * when the new window would not start after the open key's own start (its window would be empty).
 */
export async function rotateReceiptKey(
  sql: Sql,
  key: NewReceiptKey,
): Promise<{ retired: string | null } | 'too_early'> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${LOCK}, 0))`
    const [open] = await tx<
      { kid: string; valid_from: Date }[]
    >`select kid, valid_from from receipt_signing_keys where valid_until is null`
    if (open && open.valid_from.getTime() >= key.valid_from.getTime()) return 'too_early'
    if (open) await tx`update receipt_signing_keys set valid_until = ${key.valid_from} where kid = ${open.kid}`
    await tx`insert into receipt_signing_keys (kid, public_key, private_key_sealed, valid_from, created_at) values (${key.kid}, ${key.public_key}, ${key.private_key_sealed}, ${key.valid_from}, ${key.created_at})`
    return { retired: open?.kid ?? null }
  }) as Promise<{ retired: string | null } | 'too_early'>
}
