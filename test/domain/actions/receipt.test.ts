import { describe, expect, test } from 'bun:test'
import {
  buildSandboxReceipt,
  receiptSigningString,
  SANDBOX_RECEIPT_KEY,
  verifyReceiptSignature,
  type SandboxReceiptInput,
} from '../../../src/domain/actions/receipt.ts'
import { PINNED_NOW } from '../../helpers.ts'

const input: SandboxReceiptInput = {
  namespace: 'sandbox:test',
  idempotencyKey: 'idem-1',
  org_number: '984661185',
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
  timestamp: new Date(PINNED_NOW),
}

// Computed independently with Python (hashlib, hmac, uuid.uuid5, json.dumps sorted/compact) from the
// recipe in docs/receipt-signature.md and the id derivation in receipt.ts.
test('a receipt matches the independently computed golden receipt', () => {
  expect(buildSandboxReceipt(input)).toEqual({
    altinn_receipt_id: '1efead78a70a805a2e4e4975512f3658',
    audit_log_id: 'a3f9b2cf-7447-58ac-91e0-1b383db796f7',
    timestamp: '2026-03-14T10:30:00.000+01:00',
    org_number: '984661185',
    filing_type: 'mva_melding',
    rule_version: 'sandbox',
    government_response_raw: {
      _sandbox_marker: 'SANDBOX_NOT_REAL_GOV_RESPONSE',
      org_number: '984661185',
      action_type: 'mva_melding',
      status: 'ACCEPTED',
      correlation: '1efead78a70a805a2e4e4975512f3658',
      filing_period: '2026-T1',
    },
    signature: 'ea386d9e27ebe61d9f16c4529f314fa925c51c4f6c821a3f145f0816c4944d8c',
    signature_algorithm: 'HMAC-SHA256-v1',
  })
})

describe('a sandbox receipt', () => {
  test('is the same for the same request', () => {
    expect(buildSandboxReceipt({ ...input, payload: structuredClone(input.payload) })).toEqual(
      buildSandboxReceipt(input),
    )
  })

  test('has ids of the specified forms', () => {
    const r = buildSandboxReceipt(input)
    expect(r.altinn_receipt_id).toMatch(/^[0-9a-f]{32}$/)
    expect(r.audit_log_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(r.signature).toMatch(/^[0-9a-f]{64}$/)
  })

  test('carries Oslo summer time in summer', () => {
    expect(buildSandboxReceipt({ ...input, timestamp: new Date('2026-07-01T12:00:00.5Z') }).timestamp).toBe(
      '2026-07-01T14:00:00.500+02:00',
    )
  })

  test.each([
    ['namespace', { namespace: 'sandbox:other' }],
    ['idempotency key', { idempotencyKey: 'idem-2' }],
    ['payload', { payload: { total_revenue_nok: 1 } }],
    ['period', { period: '2026-T2' }],
  ] as [string, Partial<SandboxReceiptInput>][])('gets other ids for another %s', (_what, change) => {
    const a = buildSandboxReceipt(input)
    const b = buildSandboxReceipt({ ...input, ...change })
    expect(b.altinn_receipt_id).not.toBe(a.altinn_receipt_id)
    expect(b.audit_log_id).not.toBe(a.audit_log_id)
  })

  test('ids do not run together: a separator inside the key cannot forge another request’s ids', () => {
    const a = buildSandboxReceipt({ ...input, namespace: 'sandbox:a|b', idempotencyKey: 'c' })
    const b = buildSandboxReceipt({ ...input, namespace: 'sandbox:a', idempotencyKey: 'b|c' })
    expect(a.altinn_receipt_id).not.toBe(b.altinn_receipt_id)
  })

  test('does not depend on the timestamp for its ids', () => {
    expect(buildSandboxReceipt({ ...input, timestamp: new Date(0) }).altinn_receipt_id).toBe(
      buildSandboxReceipt(input).altinn_receipt_id,
    )
  })
})

describe('signature verification', () => {
  const receipt = buildSandboxReceipt(input)

  test('the signing string is the prefix and five fields joined by 0x1f', () => {
    expect(receiptSigningString(receipt)).toBe(
      [
        'PLIKT-RECEIPT-v1',
        receipt.altinn_receipt_id,
        receipt.audit_log_id,
        '984661185',
        'mva_melding',
        '2026-03-14T10:30:00.000+01:00',
      ].join('\x1f'),
    )
  })

  test('accepts the receipt as built', () => {
    expect(verifyReceiptSignature(receipt, SANDBOX_RECEIPT_KEY)).toBe(true)
  })

  test.each(['altinn_receipt_id', 'audit_log_id', 'org_number', 'filing_type', 'timestamp'] as const)(
    'refuses a receipt whose %s was changed',
    (field) => {
      expect(verifyReceiptSignature({ ...receipt, [field]: `${receipt[field]}0` }, SANDBOX_RECEIPT_KEY)).toBe(false)
    },
  )

  test('refuses another key', () => {
    expect(verifyReceiptSignature(receipt, 'some-production-secret')).toBe(false)
  })

  test('refuses a signature in upper case or of the wrong length', () => {
    expect(
      verifyReceiptSignature({ ...receipt, signature: receipt.signature.toUpperCase() }, SANDBOX_RECEIPT_KEY),
    ).toBe(false)
    expect(verifyReceiptSignature({ ...receipt, signature: receipt.signature.slice(2) }, SANDBOX_RECEIPT_KEY)).toBe(
      false,
    )
  })

  test('refuses a field containing the separator, which no issued receipt has', () => {
    expect(verifyReceiptSignature({ ...receipt, org_number: `${receipt.org_number}\x1f` }, SANDBOX_RECEIPT_KEY)).toBe(
      false,
    )
  })
})
