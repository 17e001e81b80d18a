/**
 * The valid series and the synthetic companies of their numbers (spec: Sandbox knobs, valid sandbox
 * orgs): which numbers are sandbox organisations, that a number always gives the same company, that
 * the hand-written fixtures win, and that what is drawn hangs together as a register would show it.
 */
import { describe, expect, test } from 'bun:test'
import { ALL_SCOPES, SANDBOX_COMPANIES, type SandboxCompany } from '../../../fixtures/sandbox/companies.ts'
import { sandboxCompanyOf } from '../../../src/domain/sandbox/orgs.ts'
import { inSandboxSeries, syntheticCompany } from '../../../src/domain/sandbox/synthetic.ts'

/** A spread of numbers over every series with free digits, none of them a fixture. */
const SAMPLE = [
  ...Array.from({ length: 150 }, (_, i) => `818${String(100_000 + i * 5_987).padStart(6, '0')}`),
  ...Array.from({ length: 100 }, (_, i) => `99966${String(1_000 + i * 89).padStart(4, '0')}`),
  ...Array.from({ length: 100 }, (_, i) => `99977${String(i * 97 + 1).padStart(4, '0')}`),
].filter((org) => !SANDBOX_COMPANIES.some((c) => c.org_number === org))
const companies = SAMPLE.map(syntheticCompany)

describe('the valid series', () => {
  test('takes every nine-digit number starting 818, 99966 or 99977, and 999000002', () => {
    for (const org of [
      '818000000',
      '818123456',
      '818999999',
      '999660000',
      '999661017',
      '999669999',
      '999770000',
      '999770001',
      '999779999',
      '999000002',
    ]) {
      expect({ org, valid: inSandboxSeries(org) }).toEqual({ org, valid: true })
    }
  })

  test('refuses numbers outside it, and anything that is not nine digits', () => {
    for (const org of [
      '817999999',
      '819000000',
      '999650000',
      '999670000',
      '999760000',
      '999780000',
      '999000003',
      '999000001',
      '999000901',
      '123456785',
      '81812345',
      '8181234567',
      '99966101a',
    ]) {
      expect({ org, valid: inSandboxSeries(org) }).toEqual({ org, valid: false })
    }
  })
})

describe('sandboxCompanyOf', () => {
  test('a hand-written fixture keeps its data exactly', () => {
    for (const c of SANDBOX_COMPANIES) expect(sandboxCompanyOf(c.org_number)).toBe(c)
  })

  test('another number of a series gives its synthetic company', () => {
    for (const org of ['818123456', '999661017', '999770001'])
      expect(sandboxCompanyOf(org)).toEqual(syntheticCompany(org))
  })

  test('a number outside the series and the fixtures is no sandbox company', () => {
    for (const org of ['123456785', '817999999', '999000003', '999650000'])
      expect(sandboxCompanyOf(org)).toBeUndefined()
  })
})

describe('syntheticCompany', () => {
  test('the same number gives the same company, and another number another one', () => {
    expect(JSON.stringify(syntheticCompany('818123456'))).toBe(JSON.stringify(syntheticCompany('818123456')))
    expect(syntheticCompany('818123456').name).not.toBe(syntheticCompany('818123457').name)
  })

  test('the sample covers both entity types, both tiers, prokura and several signing rules', () => {
    expect(new Set(companies.map((c) => c.entity_type))).toEqual(new Set(['AS', 'ENK']))
    expect(new Set(companies.map((c) => c.tier_2 !== null))).toEqual(new Set([true, false]))
    expect(companies.some((c) => c.prokura.length > 0)).toBe(true)
    expect(companies.some((c) => c.vat_registered_date === null)).toBe(true)
    expect(
      new Set(companies.map((c) => (c.signing.rule === 'coded' ? c.signing.text : c.signing.rule))).size,
    ).toBeGreaterThanOrEqual(5)
  })

  const each = (what: string, check: (c: SandboxCompany) => void) =>
    test(what, () => {
      expect(companies.length).toBeGreaterThan(300)
      for (const c of companies) check(c)
    })

  each('is an active, ordinary company carrying its own number, registered before the sandbox’s today', (c) => {
    expect({ org: c.org_number, status: c.status, scenario: c.scenario, status_date: c.status_date }).toEqual({
      org: c.org_number,
      status: 'active',
      scenario: null,
      status_date: null,
    })
    expect(c.registered_date < '2024-01-01').toBe(true)
    expect(c.nace.length).toBe(1)
    expect(c.address.municipality_number).toMatch(/^\d{4}$/)
  })

  each('signs only with people who hold the role the combination names', (c) => {
    const held = new Set(c.roles.map(([, role, name]) => `${role}|${name}`))
    expect(c.signing.rule).toBe('coded')
    if (c.signing.rule !== 'coded') return
    expect(c.signing.combinations.length).toBeGreaterThan(0)
    for (const [role, name] of c.signing.combinations.flat())
      expect({ org: c.org_number, signer: `${role}|${name}`, held: held.has(`${role}|${name}`) }).toEqual({
        org: c.org_number,
        signer: `${role}|${name}`,
        held: true,
      })
    expect(new Set(c.roles.map(([, , name]) => name)).size).toBe(c.roles.length)
  })

  each('an ENK has one holder who signs alone, whose surname is in its name, and no accounts duty', (c) => {
    if (c.entity_type !== 'ENK') return
    expect(c.roles.map(([group, role]) => `${group}/${role}`)).toEqual(['INNH/INNH'])
    const owner = c.roles[0]![2]
    expect(c.signing).toEqual({ rule: 'coded', text: 'Innehaveren alene.', combinations: [[['INNH', owner]]] })
    expect(c.name).toContain(owner.split(' ')[1]!.toLocaleUpperCase('nb'))
    expect(c.name).not.toEndWith(' AS')
    expect([c.accounts, c.prokura]).toEqual([null, []])
    // The holder was an adult when the business was registered.
    expect(Number(c.roles[0]![3].slice(0, 4)) + 18).toBeLessThanOrEqual(Number(c.registered_date.slice(0, 4)))
  })

  each('an AS has one general manager, a chair, 2024 accounts in NOK that add up, and outside procurators', (c) => {
    if (c.entity_type !== 'AS') return
    expect(c.name).toEndWith(' AS')
    expect(c.roles.filter(([, role]) => role === 'DAGL').length).toBe(1)
    expect(c.roles.filter(([, role]) => role === 'LEDE').length).toBe(1)
    const a = c.accounts!
    expect({ year: a.year, currency: a.currency }).toEqual({ year: 2024, currency: 'NOK' })
    expect(a.revenue).toBeGreaterThan(0)
    expect(a.operating_result).toBeLessThan(a.revenue)
    expect(a.annual_result).toBeLessThanOrEqual(a.operating_result)
    expect(a.equity).toBeGreaterThanOrEqual(30_000)
    expect(a.equity).toBeLessThanOrEqual(a.assets)
    const board = new Set(c.roles.map(([, , name]) => name))
    for (const [role, name] of c.prokura.flat())
      expect({ role, onBoard: board.has(name) }).toEqual({ role: 'PROK', onBoard: false })
  })

  each('is VAT registered after its registration exactly when its turnover is over NOK 50,000', (c) => {
    const turnover = c.accounts?.revenue ?? c.tier_2?.annual_turnover_nok ?? null
    if (c.vat_registered_date !== null) expect(c.vat_registered_date > c.registered_date).toBe(true)
    if (turnover !== null)
      expect({ org: c.org_number, vat: c.vat_registered_date !== null }).toEqual({
        org: c.org_number,
        vat: turnover > 50_000,
      })
  })

  each(
    'has Tier 2 figures exactly when it has delegated every scope, and they agree with the register and accounts',
    (c) => {
      expect(c.delegation).toEqual(
        c.tier_2 ? { system_user: true, scopes: ALL_SCOPES } : { system_user: false, scopes: [] },
      )
      const t = c.tier_2
      if (!t) return
      expect(t.employee_count).toBe(c.employees ?? 0)
      expect(t.has_payroll).toBe(t.employee_count > 0)
      if (c.accounts)
        expect([t.annual_turnover_nok, t.total_assets_nok]).toEqual([c.accounts.revenue, c.accounts.assets])
      // The annual VAT term is open only to a registered business under NOK 1 million.
      expect(t.mva_annual_term).toBe(c.vat_registered_date !== null && t.annual_turnover_nok < 1_000_000)
    },
  )
})
