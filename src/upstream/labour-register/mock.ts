/**
 * The labour register without delegated access: a deterministic employee count from a hash of the
 * organisation number. One in four numbers has no employees (the register answers an employer it
 * has nothing on with an empty list, never "unknown"), most have a handful to fifty, and one in ten
 * of the rest has up to a thousand.
 */
import { createHash } from 'node:crypto'
import type { LabourRegister } from './port.ts'

export function mockEmployeeCount(orgNumber: string): number {
  const d = createHash('sha256').update(`plikt-labour-register:${orgNumber}`).digest()
  if (d[0]! % 8 <= 1) return 0
  if (d[3]! % 10 === 0) return 50 + (d.readUInt16BE(4) % 951)
  return 1 + (d.readUInt16BE(1) % 50)
}

export const mockLabourRegister: LabourRegister = {
  mock: true,
  employeeCount: async (org) => mockEmployeeCount(org),
}
