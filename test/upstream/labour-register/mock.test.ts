/** The labour register's mock: a deterministic count per organisation number, some unknown, some zero. */
import { expect, test } from 'bun:test'
import { mockEmployeeCount, mockLabourRegister } from '../../../src/upstream/labour-register/mock.ts'

const orgs = Array.from({ length: 400 }, (_, i) => String(900_000_000 + i * 7919))

test('is marked as a mock', () => {
  expect(mockLabourRegister.mock).toBe(true)
})

test('the same organisation always has the same count', async () => {
  for (const org of orgs.slice(0, 20))
    expect(await mockLabourRegister.employeeCount(org, 'unused')).toBe(mockEmployeeCount(org))
  expect(orgs.map(mockEmployeeCount)).toEqual(orgs.map(mockEmployeeCount))
})

test('some organisations have no employees (never "unknown", which the register does not answer), the rest a whole number from 1 to 1 000', () => {
  const counts = orgs.map(mockEmployeeCount)
  expect(counts.filter((c) => c === 0).length).toBeGreaterThan(0)
  for (const c of counts) expect(Number.isInteger(c) && c >= 0 && c <= 1000).toBe(true)
})
