/**
 * The filing portal's submitter when no production approval exists (spec: execute contract 6):
 * nothing is sent anywhere. The receipt id is `MOCK-` and 32 hex digits of a SHA-256 over
 * (organisation, action id, idempotency key), so the same filing always gets the same receipt and
 * instance; the answer says, in its first member, that it is not a government response.
 */
import { canonicalJson } from '../../lib/canonical-json.ts'
import { sha256Hex } from '../../lib/hash.ts'
import type { FilingSubmitterPort, PortalReceipt, VatFiling } from './port.ts'

export const MOCK_MARKER = 'MOCK_NOT_REAL_GOV_RESPONSE'
export const MOCK_RECEIPT_PREFIX = 'MOCK-'

export function mockReceipt(f: VatFiling): PortalReceipt {
  const digest = sha256Hex(canonicalJson(['plikt-mock-filing', f.org_number, f.action_id, f.idempotency_key]))
  const partyId = String(50_000_000 + (Number.parseInt(digest.slice(32, 40), 16) % 10_000_000))
  const guid = `${digest.slice(40, 48)}-${digest.slice(48, 52)}-4${digest.slice(53, 56)}-a${digest.slice(57, 60)}-${digest.slice(0, 12)}`
  const receipt_id = `${MOCK_RECEIPT_PREFIX}${digest.slice(0, 32)}`
  return {
    receipt_id,
    instance_id: `${partyId}/${guid}`,
    government_response_raw: {
      _mock_marker: MOCK_MARKER,
      notice: 'Mock filing portal: nothing was sent to a government system.',
      org_number: f.org_number,
      period: f.period,
      action_id: f.action_id,
      status: 'ACCEPTED',
    },
  }
}

export const mockFilingSubmitter: FilingSubmitterPort = {
  mock: true,
  submitVatReturn: async (filing) => mockReceipt(filing),
}
