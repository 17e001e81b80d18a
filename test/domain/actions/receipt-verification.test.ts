/**
 * A client's view: verify a sandbox receipt with nothing but node:crypto and the recipe in
 * docs/receipt-signature.md. Deliberately does not import the signing code.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { expect, test } from 'bun:test'
import { buildSandboxReceipt } from '../../../src/domain/actions/receipt.ts'

// From the documentation, not from the code.
const DOCUMENTED_KEY = 'plikt-sandbox-receipt-key-v1-public-not-secret'

function clientVerifies(receipt: object): boolean {
  const r = receipt as Record<string, unknown>
  const message = [
    'PLIKT-RECEIPT-v1',
    r.altinn_receipt_id,
    r.audit_log_id,
    r.org_number,
    r.filing_type,
    r.timestamp,
  ].join('\x1f')
  const expected = createHmac('sha256', DOCUMENTED_KEY).update(message, 'utf8').digest()
  const given = Buffer.from(String(r.signature), 'hex')
  return (
    r.signature_algorithm === 'HMAC-SHA256-v1' && given.length === expected.length && timingSafeEqual(given, expected)
  )
}

const receipt = buildSandboxReceipt({
  namespace: 'sandbox:verify',
  idempotencyKey: crypto.randomUUID(),
  org_number: '923609016',
  action_type: 'a_melding',
  period: '2026-02',
  payload: { employee_count: 12, gross_salary_nok: 640_000 },
  timestamp: new Date('2026-03-05T07:15:42.123Z'),
})

test('a client verifies a sandbox receipt from the documented recipe alone', () => {
  expect(clientVerifies(receipt)).toBe(true)
})

test('a client verifies the receipt after a JSON round trip', () => {
  expect(clientVerifies(JSON.parse(JSON.stringify(receipt)))).toBe(true)
})

test('a client rejects a receipt with a tampered organisation number', () => {
  expect(clientVerifies({ ...receipt, org_number: '984661185' })).toBe(false)
})

test('a client rejects a receipt with a tampered timestamp', () => {
  expect(clientVerifies({ ...receipt, timestamp: '2026-03-05T08:15:42.124+01:00' })).toBe(false)
})

test('the receipt carries the sandbox marker a client checks before trusting anything', () => {
  expect(receipt.government_response_raw._sandbox_marker).toBe('SANDBOX_NOT_REAL_GOV_RESPONSE')
  expect(receipt.rule_version).toBe('sandbox')
})
