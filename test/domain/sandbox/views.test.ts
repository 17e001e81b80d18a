/**
 * The sandbox views: the production rulebook and calendar over the synthetic companies, in the
 * sandbox shapes. Expectations come from the fixtures and the spec's sandbox tables.
 */
import { describe, expect, test } from 'bun:test'
import { SANDBOX_COMPANIES, sandboxCompany, type SandboxCompany } from '../../../fixtures/sandbox/companies.ts'
import { OVERDUE_LOOKBACK_MONTHS } from '../../../src/domain/rulebook/evaluate.ts'
import {
  sandboxContext,
  sandboxDeadlines,
  sandboxFacts,
  sandboxObligations,
  sandboxSummary,
  tierOf,
} from '../../../src/domain/sandbox/views.ts'
import { addMonths } from '../../../src/lib/local-date.ts'

const TODAY = '2026-01-01'
const TIER_2_FACTS = [
  'has_payroll',
  'employee_count',
  'annual_turnover_nok',
  'total_assets_nok',
  'mva_annual_term',
  'advance_tax_assessed',
] as const

function fixture(org: string): SandboxCompany {
  const c = sandboxCompany(org)
  if (!c) throw new Error(`no sandbox company ${org}`)
  return c
}
const byScenario = (name: string) => SANDBOX_COMPANIES.find((c) => c.scenario === name)!
const day = (iso: string) => iso.slice(0, 10)

describe('tierOf', () => {
  test('is tier_1_2 exactly for the companies whose fixture carries Tier 2 figures', () => {
    for (const c of SANDBOX_COMPANIES)
      expect({ org: c.org_number, tier: tierOf(c) }).toEqual({
        org: c.org_number,
        tier: c.tier_2 ? 'tier_1_2' : 'tier_1',
      })
  })
})

describe('sandboxFacts', () => {
  test('a deleted company has no facts to evaluate', () => {
    expect(sandboxFacts(byScenario('deleted'))).toBeNull()
  })

  test('a tier_1 company has its register facts and every Tier 2 fact unknown', () => {
    const c = fixture('818000022')
    const f = sandboxFacts(c)!
    expect(f).toMatchObject({
      org_number: c.org_number,
      entity_type: 'AS',
      registration_date: c.registered_date,
      mva_registered: true,
      nace_codes: ['41.200'],
    })
    for (const name of TIER_2_FACTS) expect({ name, value: f[name] }).toEqual({ name, value: null })
  })

  test('a tier_1_2 company has the Tier 2 figures its delegation gives', () => {
    const c = fixture('999661009')
    expect(sandboxFacts(c)).toMatchObject({
      employee_count: c.tier_2!.employee_count,
      annual_turnover_nok: c.tier_2!.annual_turnover_nok,
      total_assets_nok: c.tier_2!.total_assets_nok,
      has_payroll: c.tier_2!.has_payroll,
      mva_annual_term: true,
      advance_tax_assessed: c.tier_2!.advance_tax_assessed,
    })
  })

  test('a company not VAT registered is known not to be', () => {
    expect(sandboxFacts(byScenario('not_vat_registered'))!.mva_registered).toBe(false)
  })
})

describe('sandboxObligations', () => {
  test('a deleted company has none', () => {
    expect(sandboxObligations(byScenario('deleted'), TODAY).obligations).toEqual([])
  })

  test('required follows the evaluation: always, conditionally, never', () => {
    const expected = { applicable: 'always', insufficient_data: 'conditionally', not_applicable: 'never' } as const
    const seen = new Set<string>()
    for (const c of SANDBOX_COMPANIES) {
      for (const o of sandboxObligations(c, TODAY).obligations) {
        seen.add(o.status)
        expect({ id: o.obligation_id, required: o.required }).toEqual({
          id: o.obligation_id,
          required: expected[o.status],
        })
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(expected).sort())
  })

  test('frequency and category stay within the sandbox enums (a-melding is monthly, not per pay run)', () => {
    for (const c of SANDBOX_COMPANIES) {
      for (const o of sandboxObligations(c, TODAY).obligations) {
        expect(['annual', 'quarterly', 'monthly', 'bimonthly', 'one_time']).toContain(o.frequency)
        expect(['tax', 'reporting', 'registration', 'audit']).toContain(o.category)
      }
    }
    expect(
      sandboxObligations(fixture('818000006'), TODAY).obligations.find((o) => o.obligation_id === 'a-melding')!
        .frequency,
    ).toBe('monthly')
  })

  test('an AS with every Tier 2 figure known leaves nothing undecided; without them something is', () => {
    const statuses = (c: SandboxCompany) => sandboxObligations(c, TODAY).obligations.map((o) => o.status)
    expect(statuses(fixture('818000006'))).not.toContain('insufficient_data')
    expect(statuses(byScenario('tier_1_only'))).toContain('insufficient_data')
  })

  test('deadline_at is the first deadline still to meet on or after the date, with the Oslo offset', () => {
    const c = fixture('999000002')
    for (const date of ['2026-01-01', '2026-03-29', '2026-10-25']) {
      const { deadlines } = sandboxDeadlines(c, date)
      for (const o of sandboxObligations(c, date).obligations) {
        const first = deadlines.find(
          (d) => d.obligation_id === o.obligation_id && d.status === 'upcoming' && d.deadline_at !== null,
        )
        expect({ date, id: o.obligation_id, at: o.deadline_at }).toEqual({
          date,
          id: o.obligation_id,
          at: first?.deadline_at ?? null,
        })
        if (o.deadline_at) {
          expect(day(o.deadline_at) >= date).toBe(true)
          expect(o.deadline_at).toMatch(/T23:59:59\+0[12]:00$/)
        }
      }
    }
  })

  test('deadline_at skips a period already filed even when its due day is still ahead', () => {
    // 818000006 filed a-melding 2025-09 (due 2025-10-06), 2025-10 and 2025-11 early.
    const aMelding = sandboxObligations(fixture('818000006'), '2025-10-01').obligations.find(
      (o) => o.obligation_id === 'a-melding',
    )!
    expect(aMelding.deadline_at).toBe('2026-01-05T23:59:59+01:00')
  })

  test('an obligation that is not applicable has no deadline_at', () => {
    const others = SANDBOX_COMPANIES.flatMap((c) => sandboxObligations(c, TODAY).obligations).filter(
      (o) => o.status !== 'applicable',
    )
    expect(others.length).toBeGreaterThan(0)
    for (const o of others) expect(o.deadline_at).toBeNull()
  })
})

describe('sandboxDeadlines', () => {
  test('cover the lookback before the date and twelve months after it', () => {
    for (const date of ['2026-01-01', '2026-07-15']) {
      const dated = sandboxDeadlines(fixture('999000002'), date).deadlines.filter((d) => d.deadline_at !== null)
      expect(dated.length).toBeGreaterThan(0)
      for (const d of dated) {
        expect(day(d.deadline_at!) >= addMonths(date, -OVERDUE_LOOKBACK_MONTHS)).toBe(true)
        expect(day(d.deadline_at!) <= addMonths(date, 12)).toBe(true)
      }
    }
  })

  test('are overdue before the date and upcoming from it, where nothing is filed', () => {
    const date = '2026-04-30'
    const { deadlines } = sandboxDeadlines(fixture('999000002'), date)
    expect(new Set(deadlines.map((d) => d.status))).toEqual(new Set(['overdue', 'upcoming']))
    for (const d of deadlines) {
      const expected = d.deadline_at === null || day(d.deadline_at) >= date ? 'upcoming' : 'overdue'
      expect({ id: d.deadline_id, status: d.status }).toEqual({ id: d.deadline_id, status: expected })
    }
  })

  test('are sorted by due date, undated last', () => {
    const { deadlines } = sandboxDeadlines(fixture('818000006'), TODAY)
    const keys = deadlines.map((d) => (d.deadline_at ? day(d.deadline_at) : '9999'))
    expect(keys).toEqual([...keys].sort())
  })

  test('show the filings on record as filed for a tier_1_2 company', () => {
    const filed = sandboxDeadlines(fixture('818000006'), TODAY)
      .deadlines.filter((d) => d.status === 'filed')
      .map((d) => d.deadline_id)
    expect(filed.sort()).toEqual([
      'a-melding-2025-09',
      'a-melding-2025-10',
      'a-melding-2025-11',
      'mva-termin-4-2025',
      'mva-termin-5-2025',
    ])
  })

  test('never show filed without Tier 2, as production never does', () => {
    const withoutDelegation: SandboxCompany = { ...fixture('818000006'), tier_2: null }
    const statuses = sandboxDeadlines(withoutDelegation, TODAY).deadlines.map((d) => d.status)
    expect(statuses).not.toContain('filed')
  })

  test('a deleted company has none', () => {
    expect(sandboxDeadlines(byScenario('deleted'), TODAY).deadlines).toEqual([])
  })
})

describe('sandboxSummary', () => {
  test('is the obligations and the deadlines of the same date, with the same head and no name', () => {
    const c = fixture('999771009')
    const s = sandboxSummary(c, '2026-05-05')
    expect(s.obligations).toEqual(sandboxObligations(c, '2026-05-05').obligations)
    expect(s.deadlines).toEqual(sandboxDeadlines(c, '2026-05-05').deadlines)
    expect(s).toMatchObject({ org_number: c.org_number, entity_type: 'ENK', data_tier: 'tier_1_2' })
    expect(s).not.toHaveProperty('name')
  })
})

describe('sandboxContext', () => {
  test('a tier_1 company has no Tier 2 block and is told how to get one', async () => {
    const ctx = await sandboxContext(fixture('818000014'))
    expect(ctx.tier_2).toBeNull()
    expect(ctx.upgrade_path).toContain('delegering')
  })

  test('a tier_1_2 company has its Tier 2 block and no upgrade path', async () => {
    const c = fixture('999771009')
    const ctx = await sandboxContext(c)
    expect(ctx.tier_2).toEqual({
      employee_count: 1,
      annual_turnover: 1_350_000,
      total_assets: 290_000,
      mva_registered: true,
      mva_registration_date: '2018-03-01',
    })
    expect(ctx.upgrade_path).toBeNull()
  })

  test('only an active company is ACTIVE', async () => {
    for (const c of SANDBOX_COMPANIES)
      expect({ org: c.org_number, status: (await sandboxContext(c)).status }).toEqual({
        org: c.org_number,
        status: c.status === 'active' ? 'ACTIVE' : 'INACTIVE',
      })
  })

  test('answers when the signature service is down, with no signing holders', async () => {
    const ctx = await sandboxContext(byScenario('signature_service_down'))
    expect(ctx.signaturrett).toEqual([])
  })

  test('lists the procurators with their role', async () => {
    expect((await sandboxContext(fixture('818000006'))).prokura).toEqual([{ role: 'PROK', name: 'Ola Testmann' }])
  })
})
