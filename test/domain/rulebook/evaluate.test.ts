import { describe, expect, test } from 'bun:test'
import {
  companyDeadlines,
  companySummary,
  countResults,
  evaluateObligations,
  OVERDUE_LOOKBACK_MONTHS,
} from '../../../src/domain/rulebook/evaluate.ts'
import { AS_SMALL_TIER2, AS_TIER1, ANS_MANY_PARTNERS, ENK_SMALL_TIER2, NUF_TIER1 } from '../../helpers.ts'

const results = (facts: Parameters<typeof evaluateObligations>[0]) =>
  Object.fromEntries(evaluateObligations(facts).map((e) => [e.rule_id, e.evaluation_result]))

describe('obligation evaluation', () => {
  test('an AS seen through the open registers: decided where Tier 1 decides, insufficient where Tier 2 is needed', () => {
    expect(results(AS_TIER1)).toEqual({
      'a-melding': 'insufficient_data',
      aksjonaerregisteroppgave: 'applicable',
      'apenhetsloven-redegjorelse': 'insufficient_data',
      'arbeidsgiveravgift-termin': 'insufficient_data',
      arsregnskap: 'applicable',
      'arsregnskap-fastsetting': 'applicable',
      'forskuddsskatt-upersonlig': 'insufficient_data',
      forskuddstrekk: 'insufficient_data',
      generalforsamling: 'applicable',
      'mva-arstermin': 'insufficient_data',
      'mva-arstermin-primaer': 'insufficient_data',
      'mva-manedlig': 'insufficient_data',
      'mva-omvendt-avgiftsplikt': 'not_applicable',
      'mva-registrering': 'applicable',
      'mva-termin': 'applicable',
      'reelle-rettighetshavere': 'applicable',
      revisjon: 'insufficient_data',
      'skattemelding-upersonlig': 'applicable',
      tilleggsforskudd: 'insufficient_data',
    })
  })

  test('one evaluation per rule whose entity types match, ordered by rule id', () => {
    const ids = evaluateObligations(NUF_TIER1).map((e) => e.rule_id)
    expect(ids).toEqual([...ids].sort())
    expect(ids).not.toContain('aksjonaerregisteroppgave')
    expect(ids).not.toContain('skattemelding-naering')
    expect(evaluateObligations(ENK_SMALL_TIER2).map((e) => e.rule_id)).not.toContain('reelle-rettighetshavere')
  })

  test('insufficient_data names the Tier 2 facts that are missing', () => {
    const aMelding = evaluateObligations(AS_TIER1).find((e) => e.rule_id === 'a-melding')!
    expect(aMelding.missing_facts).toEqual(['has_payroll'])
    expect(aMelding.data_tier_required).toBe('tier_2')
    expect(
      evaluateObligations(AS_TIER1).find((e) => e.rule_id === 'aksjonaerregisteroppgave')!.data_tier_required,
    ).toBe('tier_1')
  })

  test('a small AS with all figures known may opt out of audit and must run payroll reporting', () => {
    const r = results(AS_SMALL_TIER2)
    expect(r.revisjon).toBe('not_applicable')
    expect(r['a-melding']).toBe('applicable')
    expect(r['forskuddsskatt-upersonlig']).toBe('applicable')
    expect(r['mva-arstermin']).toBe('not_applicable')
  })

  test('an AS at the audit thresholds must be audited (≥ 7 M revenue, ≥ 27 M balance, > 10 FTEs)', () => {
    expect(results({ ...AS_SMALL_TIER2, annual_turnover_nok: 7_000_000 }).revisjon).toBe('applicable')
    expect(results({ ...AS_SMALL_TIER2, total_assets_nok: 27_000_000 }).revisjon).toBe('applicable')
    expect(results({ ...AS_SMALL_TIER2, employee_count: 11 }).revisjon).toBe('applicable')
    expect(results({ ...AS_SMALL_TIER2, employee_count: 10 }).revisjon).toBe('not_applicable')
  })

  test('a small sole proprietorship: VAT registration due, no accounts duty, no audit, no payroll reports', () => {
    const r = results(ENK_SMALL_TIER2)
    expect(r['mva-registrering']).toBe('applicable')
    expect(r['mva-termin']).toBe('not_applicable')
    expect(r.arsregnskap).toBe('not_applicable')
    expect(r.revisjon).toBe('not_applicable')
    expect(r['a-melding']).toBe('not_applicable')
    expect(r['skattemelding-naering']).toBe('applicable')
    expect(r['forskuddsskatt-personlig']).toBe('applicable')
  })

  test('a sole proprietorship under NOK 50,000 in turnover need not register for VAT', () => {
    expect(results({ ...ENK_SMALL_TIER2, annual_turnover_nok: 50_000 })['mva-registrering']).toBe('not_applicable')
  })

  test('a partnership with more than five partners has accounts and audit duty', () => {
    const r = results(ANS_MANY_PARTNERS)
    expect(r.arsregnskap).toBe('applicable')
    expect(r.revisjon).toBe('applicable')
    expect(r.selskapsmelding).toBe('applicable')
  })

  test('a known breach decides even when other figures are unknown', () => {
    const ans = {
      ...ANS_MANY_PARTNERS,
      employee_count: null,
      partner_count: null,
      has_limited_liability_partner: null,
      annual_turnover_nok: 6_000_000,
    }
    expect(results(ans).arsregnskap).toBe('applicable')
  })

  test('counts add up for _meta', () => {
    const c = countResults(evaluateObligations(AS_TIER1))
    expect(c).toEqual({ rule_count: 19, applicable_count: 8, not_applicable_count: 1, insufficient_data_count: 10 })
  })

  test('every reason is given in bokmål and English', () => {
    const evaluations = evaluateObligations(AS_TIER1)
    expect(evaluations.length).toBeGreaterThan(0)
    for (const e of evaluations) {
      expect(e.reason.length).toBeGreaterThan(5)
      expect(e.reason_en.length).toBeGreaterThan(5)
      expect(e.reason).not.toBe(e.reason_en)
    }
  })
})

describe('company deadlines', () => {
  const opts = { fromDate: '2026-03-14', horizonMonths: 12 }

  test('lists the applicable obligations’ deadlines by due date, with overdue ones from the lookback', () => {
    const { deadlines, to_date } = companyDeadlines(AS_TIER1, opts)
    expect(to_date).toBe('2027-03-14')
    const rows = deadlines.map((d) => `${d.deadline_id} ${d.due_at} ${d.filing_status}`)
    expect(rows).toEqual([
      'aksjonaerregisteroppgave-2025 2026-02-02T23:59:59+01:00 overdue',
      'mva-termin-6-2025 2026-02-10T23:59:59+01:00 overdue',
      'mva-termin-1-2026 2026-04-10T23:59:59+02:00 upcoming',
      'skattemelding-upersonlig-2025 2026-06-01T23:59:59+02:00 upcoming',
      'mva-termin-2-2026 2026-06-10T23:59:59+02:00 upcoming',
      'arsregnskap-fastsetting-2025 2026-06-30T23:59:59+02:00 upcoming',
      'generalforsamling-2025 2026-06-30T23:59:59+02:00 upcoming',
      'arsregnskap-2025 2026-07-31T23:59:59+02:00 upcoming',
      'mva-termin-3-2026 2026-08-31T23:59:59+02:00 upcoming',
      'mva-termin-4-2026 2026-10-12T23:59:59+02:00 upcoming',
      'mva-termin-5-2026 2026-12-10T23:59:59+01:00 upcoming',
      'aksjonaerregisteroppgave-2026 2027-02-01T23:59:59+01:00 upcoming',
      'mva-termin-6-2026 2027-02-10T23:59:59+01:00 upcoming',
    ])
    expect(OVERDUE_LOOKBACK_MONTHS).toBe(3)
  })

  test('the lookback reaches back exactly three months, both ends inclusive', () => {
    const on = companyDeadlines(AS_TIER1, { fromDate: '2026-05-02', horizonMonths: 1 }).deadlines.map(
      (d) => d.deadline_id,
    )
    expect(on).toContain('aksjonaerregisteroppgave-2025') // due 2 Feb 2026, the first day of the window
    const after = companyDeadlines(AS_TIER1, { fromDate: '2026-05-03', horizonMonths: 1 }).deadlines.map(
      (d) => d.deadline_id,
    )
    expect(after).not.toContain('aksjonaerregisteroppgave-2025')
    expect(after).toContain('mva-termin-6-2025') // due 10 Feb 2026
  })

  test('a shifted deadline carries the legal date and the reason', () => {
    const d = companyDeadlines(AS_TIER1, opts).deadlines.find((x) => x.deadline_id === 'skattemelding-upersonlig-2025')!
    expect(d.business_day_adjusted).toBe(true)
    expect(d.adjusted_for!.original_due_at).toBe('2026-05-31T23:59:59+02:00')
    expect(d.adjusted_for!.reason.nb).toContain('søndag')
    expect(d.obligation_id).toBe('skattemelding-upersonlig')
    expect(d.period_label).toBe('2025')
  })

  test('the annual accounts deadline on a Saturday does not move, and says why', () => {
    const d = companyDeadlines(AS_TIER1, { fromDate: '2027-06-01', horizonMonths: 3 }).deadlines.find(
      (x) => x.deadline_id === 'arsregnskap-2026',
    )!
    expect(d.due_at).toBe('2027-07-31T23:59:59+02:00')
    expect(d.business_day_adjusted).toBe(false)
    expect(d.adjusted_for).toBeNull()
    expect(d.not_adjusted_reason!.nb).toContain('lørdag')
    expect(d.not_adjusted_reason!.en).toContain('1 August')
  })

  test('a recorded filing marks the period filed', () => {
    const d = companyDeadlines(AS_TIER1, {
      ...opts,
      filed: (rule, period) => rule === 'mva-termin' && period === '2025-T6',
    }).deadlines
    expect(d.find((x) => x.deadline_id === 'mva-termin-6-2025')!.filing_status).toBe('filed')
    expect(d.find((x) => x.deadline_id === 'mva-termin-1-2026')!.filing_status).toBe('upcoming')
  })

  test('periods before the company was registered are not its deadlines', () => {
    const young = { ...AS_TIER1, registration_date: '2026-05-01' }
    const d = companyDeadlines(young, { fromDate: '2026-05-01', horizonMonths: 12 }).deadlines
    const ids = d.map((x) => x.deadline_id)
    expect(ids).not.toContain('skattemelding-upersonlig-2025')
    expect(ids).not.toContain('mva-termin-1-2026')
    expect(ids).toContain('mva-termin-3-2026')
    expect(d.find((x) => x.obligation_id === 'reelle-rettighetshavere')!.due_at).toBe('2026-05-15T23:59:59+02:00')
  })

  test('withholding from 2026 has no calendar date: one undated entry, listed last', () => {
    const d = companyDeadlines(AS_SMALL_TIER2, opts).deadlines
    const last = d.at(-1)!
    expect(last).toMatchObject({ obligation_id: 'forskuddstrekk', due_at: null, period_label: null })
    expect(last.due_rule!.nb).toContain('første virkedag')
    expect(d.filter((x) => x.due_at === null)).toHaveLength(1)
  })

  test('the horizon bounds the list', () => {
    const d = companyDeadlines(AS_TIER1, { fromDate: '2026-03-14', horizonMonths: 1 }).deadlines
    expect(d.every((x) => x.due_at === null || x.due_at.slice(0, 10) <= '2026-04-14')).toBe(true)
  })

  test('undecided rules are named so a caller knows the list may be incomplete', () => {
    expect(companyDeadlines(AS_TIER1, opts).undecided_rules).toEqual([
      'a-melding',
      'apenhetsloven-redegjorelse',
      'arbeidsgiveravgift-termin',
      'forskuddsskatt-upersonlig',
      'forskuddstrekk',
      'mva-arstermin',
      'mva-arstermin-primaer',
      'mva-manedlig',
      'revisjon',
      'tilleggsforskudd',
    ])
  })
})

describe('company summary', () => {
  const opts = { fromDate: '2026-03-14', horizonMonths: 12, filed: () => true }

  test('holds no name, status or roles, and points tier_1 callers at the delegation flow', () => {
    const s = companySummary(AS_TIER1, 'tier_1', opts)
    expect(Object.keys(s).sort()).toEqual([
      'data_tier',
      'deadlines',
      'entity_type',
      'mva_registered',
      'nace_codes',
      'obligations',
      'org_number',
      'undecided_rules',
      'upgrade_path',
    ])
    expect(s.upgrade_path).toContain('Altinn')
    // Filings are not visible on tier_1, so nothing is reported filed.
    expect(s.deadlines.some((d) => d.filing_status === 'filed')).toBe(false)
  })

  test('on tier_2 shows recorded filings and no upgrade path', () => {
    const s = companySummary(AS_SMALL_TIER2, 'tier_2', opts)
    expect(s.upgrade_path).toBeNull()
    expect(s.deadlines.filter((d) => d.due_at).every((d) => d.filing_status === 'filed')).toBe(true)
  })
})

describe('the rules 1.1.0 added: who they concern and what decides them', () => {
  const verdict = (facts: Parameters<typeof evaluateObligations>[0], id: string) =>
    evaluateObligations(facts).find((e) => e.rule_id === id)

  test('every AS must hold a general meeting and adopt its accounts, on register data alone', () => {
    expect([
      verdict(AS_TIER1, 'generalforsamling')!.evaluation_result,
      verdict(AS_TIER1, 'generalforsamling')!.data_tier_required,
    ]).toEqual(['applicable', 'tier_1'])
    expect(verdict(AS_TIER1, 'arsregnskap-fastsetting')!.evaluation_result).toBe('applicable')
  })

  test('no general meeting for other forms; no adoption rule for a NUF', () => {
    expect(verdict(ENK_SMALL_TIER2, 'generalforsamling')).toBeUndefined()
    expect(verdict(ANS_MANY_PARTNERS, 'generalforsamling')).toBeUndefined()
    expect(verdict(NUF_TIER1, 'arsregnskap-fastsetting')).toBeUndefined()
  })

  test('adoption of the accounts follows the accounts duty: a small ENK has none, a partnership with six partners has it', () => {
    expect(verdict(ENK_SMALL_TIER2, 'arsregnskap-fastsetting')!.evaluation_result).toBe('not_applicable')
    expect(verdict(ANS_MANY_PARTNERS, 'arsregnskap-fastsetting')!.evaluation_result).toBe('applicable')
  })

  test('reverse-charge VAT: decided from the register for a VAT-registered company, open for one that is not', () => {
    expect(verdict(AS_TIER1, 'mva-omvendt-avgiftsplikt')).toMatchObject({
      evaluation_result: 'not_applicable',
      missing_facts: [],
    })
    const unregistered = verdict({ ...AS_TIER1, mva_registered: false }, 'mva-omvendt-avgiftsplikt')!
    expect(unregistered).toMatchObject({
      evaluation_result: 'insufficient_data',
      missing_facts: ['reverse_charge_purchases'],
    })
    expect(unregistered.reason).toContain('2 000 kr')
    expect(unregistered.reason_en).toContain('NOK 2,000')
  })

  test('reverse-charge VAT applies to an unregistered business that buys from abroad', () => {
    expect(
      verdict({ ...ENK_SMALL_TIER2, reverse_charge_purchases: true }, 'mva-omvendt-avgiftsplikt')!.evaluation_result,
    ).toBe('applicable')
  })

  test('monthly VAT is open until the imposed period is known; when it is, the two-month term gives way', () => {
    expect(verdict(AS_TIER1, 'mva-manedlig')).toMatchObject({
      evaluation_result: 'insufficient_data',
      missing_facts: ['mva_monthly_term'],
    })
    const monthly = { ...AS_SMALL_TIER2, mva_monthly_term: true }
    expect(verdict(monthly, 'mva-manedlig')!.evaluation_result).toBe('applicable')
    expect(verdict(monthly, 'mva-termin')!.evaluation_result).toBe('not_applicable')
  })

  test('the primary-industry annual return: an industry code 01–03 is named as a hint, never taken as the answer', () => {
    const farm = verdict({ ...AS_TIER1, nace_codes: ['01.110'] }, 'mva-arstermin-primaer')!
    expect(farm.evaluation_result).toBe('insufficient_data')
    expect(farm.reason_en).toContain('industry code suggests')
    expect(verdict(AS_TIER1, 'mva-arstermin-primaer')!.reason_en).not.toContain('industry code')
    expect(verdict({ ...AS_TIER1, mva_primary_industry_term: true }, 'mva-termin')!.evaluation_result).toBe(
      'not_applicable',
    )
  })

  test('the additional advance is never a guess: open without an expected residual tax, and optional in every answer', () => {
    for (const facts of [
      AS_TIER1,
      { ...AS_TIER1, expects_residual_tax: true },
      { ...AS_TIER1, expects_residual_tax: false },
    ]) {
      const v = verdict(facts, 'tilleggsforskudd')!
      expect(v.reason).toContain('frivillig')
      expect(v.reason_en).toContain('optional')
    }
    expect(verdict(AS_TIER1, 'tilleggsforskudd')).toMatchObject({
      evaluation_result: 'insufficient_data',
      missing_facts: ['expects_residual_tax'],
    })
    expect(verdict(ANS_MANY_PARTNERS, 'tilleggsforskudd')).toBeUndefined()
  })

  test('the Transparency Act account: one year’s figures are a hint in the reason, not the verdict', () => {
    const big = verdict(
      { ...AS_SMALL_TIER2, annual_turnover_nok: 90_000_000, total_assets_nok: 40_000_000 },
      'apenhetsloven-redegjorelse',
    )!
    expect(big).toMatchObject({ evaluation_result: 'insufficient_data', missing_facts: ['transparency_act_size_met'] })
    expect(big.reason_en).toContain('exceed 2 of 3 limits')
    expect(
      verdict({ ...AS_TIER1, transparency_act_size_met: true }, 'apenhetsloven-redegjorelse')!.evaluation_result,
    ).toBe('applicable')
    expect(
      verdict({ ...NUF_TIER1, norwegian_tax_liability: false }, 'apenhetsloven-redegjorelse')!.evaluation_result,
    ).toBe('not_applicable')
    expect(verdict(ENK_SMALL_TIER2, 'apenhetsloven-redegjorelse')).toBeUndefined()
  })

  test('a conditional rule says so in both languages in its description', () => {
    const d = (id: string) => evaluateObligations(AS_TIER1).find((e) => e.rule_id === id)!
    expect([d('tilleggsforskudd').description, d('tilleggsforskudd').description_en]).toEqual([
      expect.stringContaining('ikke en plikt'),
      expect.stringContaining('not a duty'),
    ])
    expect([d('mva-manedlig').description, d('mva-manedlig').description_en]).toEqual([
      expect.stringContaining('skattekontoret har fastsatt'),
      expect.stringContaining('tax office has imposed'),
    ])
    expect([d('apenhetsloven-redegjorelse').description, d('apenhetsloven-redegjorelse').description_en]).toEqual([
      expect.stringContaining('størrelsesgrensene'),
      expect.stringContaining('size thresholds'),
    ])
  })

  test('an obligation with open points carries them; one without has no uncertainties field', () => {
    const e = evaluateObligations({ ...AS_TIER1, mva_registered: false })
    expect(
      e
        .find((x) => x.rule_id === 'mva-omvendt-avgiftsplikt')!
        .uncertainties!.map((u) => [u.id, u.scope, u.contested_dates]),
    ).toEqual([['mva-omvendt-avgiftsplikt-q2', 'periods', null]])
    expect('uncertainties' in e.find((x) => x.rule_id === 'a-melding')!).toBe(false)
  })
})

describe('company deadlines of the 1.1.0 rules', () => {
  test('an unregistered AS buying from abroad sees Q2 due 10 August with the contested date shown', () => {
    const facts = { ...AS_TIER1, mva_registered: false, reverse_charge_purchases: true }
    const q2 = companyDeadlines(facts, { fromDate: '2026-06-01', horizonMonths: 3 }).deadlines.find(
      (d) => d.deadline_id === 'mva-omvendt-avgiftsplikt-2-2026',
    )!
    expect([q2.due_at, q2.period_label]).toEqual(['2026-08-10T23:59:59+02:00', '2026-Q2'])
    expect(q2.uncertainties![0]!.contested_dates!.map((c) => c.date)).toEqual(['2026-08-10', '2026-08-31'])
  })

  test('the general meeting for 2028 stays on Saturday 30 June 2029 and says why', () => {
    const gm = companyDeadlines(AS_TIER1, { fromDate: '2029-06-01', horizonMonths: 1 }).deadlines.find(
      (d) => d.deadline_id === 'generalforsamling-2028',
    )!
    expect([gm.due_at, gm.business_day_adjusted, gm.adjusted_for]).toEqual(['2029-06-30T23:59:59+02:00', false, null])
    expect(gm.not_adjusted_reason!.en).toContain('Saturday')
    expect(gm.not_adjusted_reason!.en).toContain('no such rule')
  })

  test('a rule left open by Tier 2 has no deadlines and is named undecided', () => {
    const r = companyDeadlines(AS_TIER1, { fromDate: '2026-03-14', horizonMonths: 12 })
    expect(r.deadlines.some((d) => d.obligation_id === 'tilleggsforskudd' || d.obligation_id === 'mva-manedlig')).toBe(
      false,
    )
    expect(r.undecided_rules).toContain('tilleggsforskudd')
  })
})
