/** The labour register's mock: a deterministic count per organisation number, some unknown, some zero. */
import { expect, test } from 'bun:test'
import { mockEmployeeCount, mockLabourRegister } from '../../../src/upstream/labour-register/mock.ts'

const orgs = Array.from({ length: 400 }, (_, i) => String(900_000_000 + i * 7919))

test('is marked as a mock', () => {
  expect(mockLabourRegister.mock).toBe(true)
})

test('the same organisation always has the same count', async () => {
  for (const org of orgs.slice(0, 20)) expect(await mockLabourRegister.employeeCount(org, 'unused')).toBe(mockEmployeeCount(org))
  expect(orgs.map(mockEmployeeCount)).toEqual(orgs.map(mockEmployeeCount))
})

test('some organisations are unknown (null), some have no employees, the rest a whole number ≥ 1', () => {
  const counts = orgs.map(mockEmployeeCount)
  expect(counts.filter((c) => c === null).length).toBeGreaterThan(0)
  expect(counts.filter((c) => c === 0).length).toBeGreaterThan(0)
  for (const c of counts) if (c !== null && c !== 0) expect(Number.isInteger(c) && c >= 1 && c <= 1000).toBe(true)
})
