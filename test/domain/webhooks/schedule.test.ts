/** The retry schedule (spec: Events): its delays, the ±10 % jitter bounds, and the seventh attempt as the last. */
import { expect, test } from 'bun:test'
import { JITTER, MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from '../../../src/domain/webhooks/schedule.ts'
import { PINNED_NOW } from '../../helpers.ts'

const AT = new Date(PINNED_NOW)
const MIN = 60_000
const after = (attempt: number, random: number) => nextAttemptAt(attempt, AT, () => random)!.getTime() - AT.getTime()

test('after attempts 1 to 6 the next comes about 1 min, 5 min, 15 min, 1 h, 6 h and 24 h later', () => {
  expect([1, 2, 3, 4, 5, 6].map((n) => after(n, 0.5))).toEqual([
    MIN,
    5 * MIN,
    15 * MIN,
    60 * MIN,
    360 * MIN,
    1440 * MIN,
  ])
  expect(RETRY_DELAYS_MS).toHaveLength(MAX_ATTEMPTS - 1)
})

test('each delay is jittered within ±10 %, reaching both bounds', () => {
  for (let n = 1; n < MAX_ATTEMPTS; n++) {
    const d = RETRY_DELAYS_MS[n - 1]!
    expect(after(n, 0)).toBe(Math.round(d * (1 - JITTER)))
    expect(after(n, 0.999999)).toBeLessThanOrEqual(Math.round(d * (1 + JITTER)))
    expect(after(n, 0.999999)).toBeGreaterThan(Math.round(d * 1.0999))
  }
})

test('the delays drawn with Math.random stay inside the bounds', () => {
  for (let i = 0; i < 1000; i++) {
    const n = 1 + (i % 6)
    const d = RETRY_DELAYS_MS[n - 1]!
    const got = nextAttemptAt(n, AT)!.getTime() - AT.getTime()
    expect(got).toBeGreaterThanOrEqual(Math.round(d * 0.9))
    expect(got).toBeLessThanOrEqual(Math.round(d * 1.1))
  }
})

test('after the seventh attempt there is none: the delivery is abandoned', () => {
  expect(MAX_ATTEMPTS).toBe(7)
  expect(nextAttemptAt(7, AT)).toBeNull()
})
