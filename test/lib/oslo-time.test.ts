import { expect, test } from 'bun:test'
import { endOfOsloDay, osloDate, osloTimestamp } from '../../src/lib/oslo-time.ts'

test('the end of an Oslo day carries that day’s offset, across both DST switches', () => {
  expect(endOfOsloDay('2026-03-28')).toBe('2026-03-28T23:59:59+01:00')
  expect(endOfOsloDay('2026-03-29')).toBe('2026-03-29T23:59:59+02:00') // summer time from 02:00 local
  expect(endOfOsloDay('2026-10-24')).toBe('2026-10-24T23:59:59+02:00')
  expect(endOfOsloDay('2026-10-25')).toBe('2026-10-25T23:59:59+01:00') // winter time from 03:00 local
})

test('the Oslo date of an instant changes at Oslo midnight, not UTC midnight', () => {
  expect(osloDate(new Date('2026-12-31T22:59:59Z'))).toBe('2026-12-31')
  expect(osloDate(new Date('2026-12-31T23:00:00Z'))).toBe('2027-01-01')
  expect(osloDate(new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01')
})

test('timestamps render with the Oslo offset and milliseconds', () => {
  expect(osloTimestamp(new Date('2026-01-01T12:00:00.123Z'))).toBe('2026-01-01T13:00:00.123+01:00')
  expect(osloTimestamp(new Date('2026-07-01T12:00:00Z'))).toBe('2026-07-01T14:00:00.000+02:00')
})
