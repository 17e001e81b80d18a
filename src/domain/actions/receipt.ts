/**
 * Filing receipts and their signature. A receipt is signed with HMAC-SHA-256 over a fixed prefix
 * and five of its fields joined by the unit separator 0x1f (docs/receipt-signature.md is the
 * client's recipe). None of the signed fields can contain 0x1f in a receipt we issue, so the
 * joined string determines the fields; verification refuses any field that does contain it.
 *
 * Sandbox receipts are not real, so their key is public and clients can verify them offline.
 * Production receipts are signed with a key of the consumer's own, derived from the server
 * secret: the consumer reads it once (GET /api/v1/auth/receipt-key) and verifies offline, and no
 * consumer's key verifies (or forges) another's receipts. Since the account can therefore make
 * receipts that verify as ours, production receipts also carry an Ed25519 signature over the whole
 * receipt by a key of the service's, which anyone can check with the published public key
 * (receipt-keys.ts). Sandbox receipts do not: they prove nothing was filed, and a signature a third
 * party trusts must never stand on one.
 */
import { createHmac } from 'node:crypto'
import { canonicalJson } from '../../lib/canonical-json.ts'
import { safeEqual, sha256Hex } from '../../lib/hash.ts'
import { osloTimestamp } from '../../lib/oslo-time.ts'
import { uuidV5 } from '../../lib/uuid-v5.ts'
import { actionIdOf } from './action-id.ts'
import type { ActionType } from './period.ts'
import {
  receiptSigner,
  signEd25519,
  type Ed25519Fields,
  type Ed25519Signer,
  type Ed25519SigningKey,
} from './receipt-keys.ts'
import type { Sql } from '../../store/db.ts'

export const RECEIPT_SIGNATURE_PREFIX = 'PLIKT-RECEIPT-v1'
export const RECEIPT_SIGNATURE_ALGORITHM = 'HMAC-SHA256-v1'
const SEPARATOR = '\x1f'

/** PUBLIC by design: it signs sandbox receipts only, which are not real filings. */
export const SANDBOX_RECEIPT_KEY = 'plikt-sandbox-receipt-key-v1-public-not-secret'
export const SANDBOX_MARKER = 'SANDBOX_NOT_REAL_GOV_RESPONSE'
export const SANDBOX_RULE_VERSION = 'sandbox'
/** uuid v5 of `urn:plikt:sandbox:audit-log` in the RFC's URL namespace; fixed forever. */
export const SANDBOX_AUDIT_NAMESPACE = 'c96f517a-4048-5376-bb72-fc21bc4a1d53'

export interface SignedReceiptFields {
  altinn_receipt_id: string
  audit_log_id: string
  org_number: string
  filing_type: string
  timestamp: string
}

export type GovernmentStatus = 'SUBMITTED' | 'PROCESSING' | 'ACCEPTED'

export interface Receipt extends SignedReceiptFields {
  filing_type: ActionType
  rule_version: string
  government_response_raw: Record<string, unknown>
  signature: string
  signature_algorithm: typeof RECEIPT_SIGNATURE_ALGORITHM
}

/** A production receipt: the HMAC-signed receipt and the Ed25519 signature over all of it. */
export type SignedReceipt = Receipt & Ed25519Fields

export interface SandboxGovernmentResponse {
  _sandbox_marker: typeof SANDBOX_MARKER
  org_number: string
  action_type: ActionType
  status: GovernmentStatus
  correlation: string
  filing_period: string
}

/** A receipt's signing string: its kind's prefix and the signed fields, joined by the unit separator. */
export function signingString(prefix: string, fields: readonly string[]): string {
  return [prefix, ...fields].join(SEPARATOR)
}

/** HMAC-SHA256-v1 over a signing string: 64 lower-case hex digits. Filing and delegation receipts both sign so. */
export function hmacSignature(signing: string, key: string | Uint8Array): string {
  return createHmac('sha256', key).update(signing, 'utf8').digest('hex')
}

export function receiptSigningString(f: SignedReceiptFields): string {
  return signingString(RECEIPT_SIGNATURE_PREFIX, [
    f.altinn_receipt_id,
    f.audit_log_id,
    f.org_number,
    f.filing_type,
    f.timestamp,
  ])
}

/** 64 lower-case hex digits. */
export function signReceipt(f: SignedReceiptFields, key: string | Uint8Array): string {
  return hmacSignature(receiptSigningString(f), key)
}

export function verifyReceiptSignature(
  receipt: SignedReceiptFields & { signature: string },
  key: string | Uint8Array,
): boolean {
  const fields = [
    receipt.altinn_receipt_id,
    receipt.audit_log_id,
    receipt.org_number,
    receipt.filing_type,
    receipt.timestamp,
  ]
  if (fields.some((v) => typeof v !== 'string' || v.includes(SEPARATOR))) return false
  if (typeof receipt.signature !== 'string' || !/^[0-9a-f]{64}$/.test(receipt.signature)) return false
  return safeEqual(signReceipt(receipt, key), receipt.signature)
}

/** Which key signs a receipt and which rule version it names: public for the sandbox, secret in production. */
export interface ReceiptSigning {
  key: string | Uint8Array
  rule_version: string
  /** production's Ed25519 keys; null in the sandbox, whose receipts carry the HMAC signature only */
  ed25519: Ed25519Signer | null
}

/** Identifies the derivation, so a rotated derivation can be told apart in receipts. */
export const RECEIPT_KEY_ID_PREFIX = 'rk1_'

/** The consumer's receipt key: HMAC-SHA-256(root, "consumer:" + id), root from the server secret. */
export function consumerReceiptKey(root: Uint8Array, consumerId: string): { key: Buffer; key_id: string } {
  const key = createHmac('sha256', root).update(`consumer:${consumerId}`, 'utf8').digest()
  return {
    key,
    key_id: `${RECEIPT_KEY_ID_PREFIX}${createHmac('sha256', key).update('key-id', 'utf8').digest('hex').slice(0, 16)}`,
  }
}

/** How a consumer's production receipts are signed: their own HMAC key and the service's Ed25519 keys. */
export interface ConsumerSigning {
  key: Uint8Array
  key_id: string
  ed25519: Ed25519Signer
}

/** How a consumer's receipts are signed: with its own HMAC key and the service's Ed25519 keys. */
export function consumerSigning(
  sql: Sql,
  keys: { receipts: Buffer; receiptEd25519: Buffer },
  consumerId: string,
  now: () => Date,
): ConsumerSigning {
  return { ...consumerReceiptKey(keys.receipts, consumerId), ed25519: receiptSigner(sql, keys.receiptEd25519, now) }
}

export const SANDBOX_SIGNING: ReceiptSigning = {
  key: SANDBOX_RECEIPT_KEY,
  rule_version: SANDBOX_RULE_VERSION,
  ed25519: null,
}

/**
 * A receipt: the five signed fields, the government's answer verbatim, and the HMAC signature over
 * the five; with an Ed25519 key (production), its key id and its signature over all of that.
 */
export function issueReceipt(
  signed: SignedReceiptFields & { filing_type: ActionType },
  government_response_raw: Record<string, unknown>,
  signing: ReceiptSigning,
  ed25519: Ed25519SigningKey | null = null,
): Receipt | SignedReceipt {
  const receipt: Receipt = {
    ...signed,
    rule_version: signing.rule_version,
    government_response_raw,
    signature: signReceipt(signed, signing.key),
    signature_algorithm: RECEIPT_SIGNATURE_ALGORITHM,
  }
  return ed25519 ? signEd25519(receipt, ed25519) : receipt
}

/**
 * A sandbox filing's ids are deterministic: the same request replayed gives the same receipt. They
 * derive from the canonical JSON array `[namespace, idempotency key, action id]` (unambiguous
 * whatever the key contains): the receipt id is its SHA-256 cut to 32 hex digits, the audit id its
 * uuid v5 under SANDBOX_AUDIT_NAMESPACE.
 */
export function sandboxReceiptIds(
  namespace: string,
  idempotencyKey: string,
  actionId: string,
): { receipt_id: string; audit_log_id: string } {
  const material = canonicalJson([namespace, idempotencyKey, actionId])
  return { receipt_id: sha256Hex(material).slice(0, 32), audit_log_id: uuidV5(material, SANDBOX_AUDIT_NAMESPACE) }
}

/** What the sandbox's stand-in for the government answers to an accepted filing. */
export function sandboxGovernmentResponse(
  receiptId: string,
  org_number: string,
  action_type: ActionType,
  period: string,
): SandboxGovernmentResponse {
  return {
    _sandbox_marker: SANDBOX_MARKER,
    org_number,
    action_type,
    status: 'ACCEPTED',
    correlation: receiptId,
    filing_period: period,
  }
}

export interface SandboxReceiptInput {
  namespace: string
  idempotencyKey: string
  org_number: string
  action_type: ActionType
  period: string
  /** the action id is derived from it, so the receipt names exactly the content filed */
  payload: unknown
  timestamp: Date
}

/** The receipt a sandbox live execute issues for this request (the execute flow composes the same parts). */
export function buildSandboxReceipt(input: SandboxReceiptInput): Receipt {
  const ids = sandboxReceiptIds(input.namespace, input.idempotencyKey, actionIdOf(input))
  return issueReceipt(
    {
      altinn_receipt_id: ids.receipt_id,
      audit_log_id: ids.audit_log_id,
      org_number: input.org_number,
      filing_type: input.action_type,
      timestamp: osloTimestamp(input.timestamp),
    },
    { ...sandboxGovernmentResponse(ids.receipt_id, input.org_number, input.action_type, input.period) },
    SANDBOX_SIGNING,
  )
}
