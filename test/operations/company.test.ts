/**
 * The company area's error lists (src/operations/company.ts): what each register read documents for
 * a register outage — the authority route fails UPSTREAM_UNAVAILABLE (spec: company data routes).
 */
import { describe, expect, test } from 'bun:test'
import { allOperations } from '../../src/operations/index.ts'

const byId = (id: string) => allOperations.find((o) => o.id === id)!

describe('register outage codes', () => {
  test('the authority route documents UPSTREAM_UNAVAILABLE and not REGISTER_DOWN', () => {
    const errors = byId('getCompanyAuthority').errors
    expect(errors).toContain('UPSTREAM_UNAVAILABLE')
    expect(errors).not.toContain('REGISTER_DOWN')
  })

  test('the other register reads still document REGISTER_DOWN', () => {
    for (const id of ['getCompanyContext', 'verifyCompany', 'getCompanySummary', 'getCompanyAccounts'])
      expect({ id, documented: byId(id).errors.includes('REGISTER_DOWN') }).toEqual({ id, documented: true })
  })
})
