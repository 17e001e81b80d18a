import { describe, expect, test } from 'bun:test'
import {
  ACTION_SCOPES,
  CHECK_NAMES,
  DRY_RUN_DISCLAIMER,
  dryRun,
  failedChecks,
  PREVIEW_NOTICE,
  type ActionFacts,
  type ActionInput,
  type CheckName,
} from '../../../src/domain/actions/dry-run.ts'

const TODAY = '2026-03-14'
const input: ActionInput = {
  org_number: '984661185',
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000, extra: { kept: true } },
}
const facts: ActionFacts = {
  company: { exists: true, active: true },
  systemUserAuthorised: true,
  delegatedScopes: ['skatteetaten:mva-melding', 'altinn:a-melding'],
}

const checkOf = (outcome: ReturnType<typeof dryRun>, name: string) =>
  outcome.validation.checks.find((c) => c.name === name)!

describe('the outcome', () => {
  test('has the five checks in the fixed order', () => {
    expect(dryRun(input, facts, TODAY).validation.checks.map((c) => c.name)).toEqual([
      'company_exists',
      'system_user_authorised',
      'scopes_delegated',
      'data_format_valid',
      'deadline_in_future',
    ])
    expect([...CHECK_NAMES]).toEqual(dryRun(input, facts, TODAY).validation.checks.map((c) => c.name))
  })

  test('has exactly the specified members when everything passes', () => {
    const outcome = dryRun(input, facts, TODAY)
    expect(Object.keys(outcome).sort()).toEqual([
      'action',
      'dry_run',
      'org_number',
      'preview_notice',
      'validation',
      'would_be_payload',
    ])
    expect(outcome).toMatchObject({
      dry_run: true,
      org_number: '984661185',
      action: 'mva_melding',
      preview_notice: PREVIEW_NOTICE,
    })
    expect(outcome.validation).toMatchObject({ all_passed: true, disclaimer: DRY_RUN_DISCLAIMER })
    expect(failedChecks(outcome)).toEqual([])
  })

  test('echoes the payload verbatim, unknown keys included', () => {
    const outcome = dryRun(input, facts, TODAY)
    expect(outcome.would_be_payload).toBe(input.payload)
    expect(outcome.would_be_payload).toEqual({ total_revenue_nok: 125_000, extra: { kept: true } })
  })

  test('every check explains itself in bokmål and English', () => {
    const { checks } = dryRun(input, facts, TODAY).validation
    expect(checks).toHaveLength(5)
    for (const c of checks) {
      expect(Object.keys(c).sort()).toEqual(['explanation_summary', 'explanation_summary_en', 'name', 'passed'])
      expect(c.explanation_summary).toMatch(/^[A-ZÆØÅ].*\.$/)
      expect(c.explanation_summary_en).toMatch(/^[A-Z].*\.$/)
      expect(c.explanation_summary).not.toBe(c.explanation_summary_en)
    }
  })

  test('the disclaimer and the notice say nothing is submitted and a pass guarantees nothing', () => {
    expect(DRY_RUN_DISCLAIMER).toContain('sender ingenting inn')
    expect(DRY_RUN_DISCLAIMER).toContain('ingen garanti')
    expect(PREVIEW_NOTICE).toContain('ingenting er sendt inn')
  })
})

describe('each check fails on its own fact', () => {
  test.each([
    ['company_exists', { ...facts, company: { exists: false, active: false } }, input],
    ['company_exists', { ...facts, company: { exists: true, active: false } }, input],
    ['system_user_authorised', { ...facts, systemUserAuthorised: false }, input],
    ['scopes_delegated', { ...facts, delegatedScopes: ['altinn:a-melding'] }, input],
    ['data_format_valid', facts, { ...input, payload: { total_revenue_nok: -1 } }],
    ['deadline_in_future', facts, { ...input, period: '2025-T6' }],
  ] as [CheckName, ActionFacts, ActionInput][])('%s', (name, f, i) => {
    const outcome = dryRun(i, f, TODAY)
    expect(failedChecks(outcome).map((c) => c.name)).toEqual([name])
    expect(outcome.validation.all_passed).toBe(false)
  })

  test('an unknown and a deleted company are told apart', () => {
    const unknown = checkOf(
      dryRun(input, { ...facts, company: { exists: false, active: false } }, TODAY),
      'company_exists',
    )
    const deleted = checkOf(
      dryRun(input, { ...facts, company: { exists: true, active: false } }, TODAY),
      'company_exists',
    )
    expect(unknown.explanation_summary).not.toBe(deleted.explanation_summary)
  })

  test('the scope an action needs is its own: a-melding needs altinn:a-melding', () => {
    const aInput: ActionInput = {
      ...input,
      action_type: 'a_melding',
      period: '2026-02',
      payload: { employee_count: 2, gross_salary_nok: 80_000 },
    }
    expect(ACTION_SCOPES).toEqual({ mva_melding: 'skatteetaten:mva-melding', a_melding: 'altinn:a-melding' })
    expect(
      checkOf(dryRun(aInput, { ...facts, delegatedScopes: ['skatteetaten:mva-melding'] }, TODAY), 'scopes_delegated')
        .passed,
    ).toBe(false)
    expect(
      checkOf(dryRun(aInput, { ...facts, delegatedScopes: ['altinn:a-melding'] }, TODAY), 'scopes_delegated').passed,
    ).toBe(true)
  })

  test('a malformed period fails both the format and the deadline check', () => {
    const outcome = dryRun({ ...input, period: '2026-T7' }, facts, TODAY)
    expect(failedChecks(outcome).map((c) => c.name)).toEqual(['data_format_valid', 'deadline_in_future'])
    expect(checkOf(outcome, 'data_format_valid').explanation_summary).toContain('period')
  })

  test('the format check names every bad field', () => {
    const c = checkOf(
      dryRun({ ...input, period: '2026-13', payload: { output_vat_nok: 1.5 } }, facts, TODAY),
      'data_format_valid',
    )
    expect(c.explanation_summary_en).toBe(
      'Invalid format in period, payload.total_revenue_nok, payload.output_vat_nok.',
    )
  })

  test('everything failing still yields five checks, none thrown', () => {
    const none: ActionFacts = {
      company: { exists: false, active: false },
      systemUserAuthorised: false,
      delegatedScopes: [],
    }
    const outcome = dryRun({ ...input, period: 'x', payload: null }, none, TODAY)
    expect(failedChecks(outcome)).toHaveLength(5)
    expect(outcome.would_be_payload).toBeNull()
  })
})

describe('the deadline check', () => {
  test('passes on the deadline day itself and fails the day after', () => {
    expect(checkOf(dryRun(input, facts, '2026-04-10'), 'deadline_in_future').passed).toBe(true)
    expect(checkOf(dryRun(input, facts, '2026-04-11'), 'deadline_in_future').passed).toBe(false)
  })

  test('names the deadline in the explanation', () => {
    expect(checkOf(dryRun(input, facts, TODAY), 'deadline_in_future').explanation_summary).toBe(
      'Fristen for 2026-T1 er 10. april 2026 og er ikke passert.',
    )
    expect(
      checkOf(dryRun({ ...input, period: '2025-T6' }, facts, TODAY), 'deadline_in_future').explanation_summary_en,
    ).toBe('The deadline for 2025-T6 was 10 February 2026 and has passed.')
  })
})
