/** Pure parts of the well-known documents. */
import { expect, test } from 'bun:test'
import { humanDuration } from '../../../src/domain/wellknown/documents.ts'

test('a retention period reads as days, hours and minutes', () => {
  expect([
    humanDuration(86_400_000),
    humanDuration(8 * 86_400_000),
    humanDuration(86_400_000 + 15 * 60_000),
    humanDuration(24 * 3_600_000 + 3_600_000),
    humanDuration(60_000),
  ]).toEqual(['1 day', '8 days', '1 day 15 minutes', '1 day 1 hour', '1 minute'])
})
