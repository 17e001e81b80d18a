/**
 * Signed delegation receipts: proof that at time T the consumer had (or gave up) a scoped
 * delegation from an organisation through a system user. HMAC-SHA256-v1 like the filing receipt
 * (docs/receipt-signature.md is the recipe for both), with its own prefix so a filing receipt's
 * signature can never pass for a delegation receipt's. Like a production filing receipt it also
 * carries the service's Ed25519 signature over the whole receipt (actions/receipt-keys.ts).
 */
import { osloTimestamp } from '../../lib/oslo-time.ts'
import { hmacSignature, RECEIPT_SIGNATURE_ALGORITHM, signingString, type ConsumerSigning } from '../actions/receipt.ts'
import { signEd25519, type Ed25519Fields } from '../actions/receipt-keys.ts'

export const DELEGATION_SIGNATURE_PREFIX = 'PLIKT-DELEGATION-v1'

export type DelegationEvent = 'delegation_granted' | 'delegation_revoked'

export interface DelegationReceiptFields {
  receipt_id: string
  event: DelegationEvent
  timestamp: string
  consumer_id: string
  agent_principal_id: string
  delegation_id: string
  org_number: string
  /** empty until the organisation has approved and a system user exists */
  system_user_id: string
  /** the delegated scopes, sorted, separated by one space */
  scopes: string
  /** the delegation's state at `timestamp`: `pending`, `active` or `revoked` */
  delegation_status: string
}

export interface DelegationReceipt extends DelegationReceiptFields, Ed25519Fields {
  /** the consumer's HMAC receipt key that made `signature` */
  key_id: string
  signature: string
  signature_algorithm: typeof RECEIPT_SIGNATURE_ALGORITHM
}

const SIGNED: (keyof DelegationReceiptFields)[] = [
  'receipt_id',
  'event',
  'timestamp',
  'consumer_id',
  'agent_principal_id',
  'delegation_id',
  'org_number',
  'system_user_id',
  'scopes',
  'delegation_status',
]

export function delegationSigningString(f: DelegationReceiptFields): string {
  return signingString(
    DELEGATION_SIGNATURE_PREFIX,
    SIGNED.map((k) => f[k]),
  )
}

export async function signDelegationReceipt(
  f: Omit<DelegationReceiptFields, 'receipt_id' | 'timestamp'> & { at: Date },
  signing: ConsumerSigning,
): Promise<DelegationReceipt> {
  const { at, ...rest } = f
  const fields: DelegationReceiptFields = { receipt_id: crypto.randomUUID(), timestamp: osloTimestamp(at), ...rest }
  const hmacSigned: Omit<DelegationReceipt, keyof Ed25519Fields> = {
    ...fields,
    key_id: signing.key_id,
    signature: hmacSignature(delegationSigningString(fields), signing.key),
    signature_algorithm: RECEIPT_SIGNATURE_ALGORITHM,
  }
  return signEd25519(hmacSigned, await signing.ed25519.keyAt(at))
}
