/** The mock submitter (spec: execute contract 6): MOCK- receipts, SHA-256 derived, deterministic per filing. */
import { expect, test } from 'bun:test'
import { MOCK_MARKER, mockFilingSubmitter, mockReceipt } from '../../../src/upstream/filing-portal/mock-submitter.ts'

const filing = {
  org_number: '984661185',
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000 },
  action_id: 'act_0123456789abcdef0123456789abcdef',
  idempotency_key: 'key-1',
}

test('is marked as a mock', () => {
  expect(mockFilingSubmitter.mock).toBe(true)
})

test('the receipt id is MOCK- and 32 lower-case hex digits', async () => {
  expect((await mockFilingSubmitter.submitVatReturn(filing, 'unused', 8000)).receipt_id).toMatch(/^MOCK-[0-9a-f]{32}$/)
})

test('the same filing always gets the same receipt and instance', () => {
  expect(mockReceipt(filing)).toEqual(mockReceipt({ ...filing }))
})

test('another organisation, action or idempotency key gets another receipt', () => {
  const ids = [
    filing,
    { ...filing, org_number: '923609016' },
    { ...filing, action_id: 'act_ffffffffffffffffffffffffffffffff' },
    { ...filing, idempotency_key: 'key-2' },
  ].map((f) => mockReceipt(f).receipt_id)
  expect(new Set(ids).size).toBe(4)
})

test('the instance id has the portal form party/guid', () => {
  expect(mockReceipt(filing).instance_id).toMatch(
    /^\d{8}\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
  )
})

test('the government response says first that it is not a government response', () => {
  const raw = mockReceipt(filing).government_response_raw
  expect(Object.keys(raw)[0]).toBe('_mock_marker')
  expect(raw._mock_marker).toBe(MOCK_MARKER)
  expect(raw).toMatchObject({ org_number: '984661185', period: '2026-T1', action_id: filing.action_id })
})
