/**
 * The dry run: the five checks a filing must pass, evaluated without submitting anything. Live mode
 * runs the same checks as preconditions. Pure: the caller (sandbox or production) looks up the
 * facts through its own adapters and passes the Oslo date.
 */
import type { FieldIssue } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { formatDateEn, formatDateNb } from '../rulebook/schedule.ts'
import { validatePayload } from './payload.ts'
import { parsePeriod, periodDeadline, type ActionType, type PeriodParse } from './period.ts'

/**
 * The delegated scope each action needs. These names are ours (Plikt's), modelled on the Altinn
 * and Maskinporten scopes they stand for; the production adapter maps them to the real ones.
 */
export const ACTION_SCOPES: Record<ActionType, string> = {
  mva_melding: 'skatteetaten:mva-melding',
  a_melding: 'altinn:a-melding',
}

export const CHECK_NAMES = [
  'company_exists',
  'system_user_authorised',
  'scopes_delegated',
  'data_format_valid',
  'deadline_in_future',
] as const
export type CheckName = (typeof CHECK_NAMES)[number]

export interface ActionInput {
  org_number: string
  action_type: ActionType
  period: string
  payload: unknown
}

export interface ActionFacts {
  company: { exists: boolean; active: boolean }
  systemUserAuthorised: boolean
  delegatedScopes: string[]
}

export interface Check {
  name: CheckName
  passed: boolean
  /** one bokmål sentence */
  explanation_summary: string
  explanation_summary_en: string
}

export interface DryRunOutcome {
  dry_run: true
  org_number: string
  action: ActionType
  validation: { all_passed: boolean; checks: Check[]; disclaimer: string }
  /** the request's payload, verbatim */
  would_be_payload: unknown
  preview_notice: string
}

export const DRY_RUN_DISCLAIMER =
  'En prøvekjøring sender ingenting inn. At alle kontrollene består, er ingen garanti for at myndighetene godtar innsendingen.'
export const PREVIEW_NOTICE =
  'Forhåndsvisning: ingenting er sendt inn. «would_be_payload» er det som ville blitt sendt; en ekte innsending krever et godkjenningstoken og kan likevel bli avvist.'

const check = (name: CheckName, passed: boolean, nb: string, en: string): Check => ({
  name,
  passed,
  explanation_summary: nb,
  explanation_summary_en: en,
})

function companyCheck(c: ActionFacts['company']): Check {
  if (!c.exists)
    return check(
      'company_exists',
      false,
      'Organisasjonsnummeret finnes ikke i registeret.',
      'The organisation number is not in the register.',
    )
  if (!c.active)
    return check(
      'company_exists',
      false,
      'Virksomheten er slettet eller ikke lenger aktiv.',
      'The organisation is deleted or no longer active.',
    )
  return check('company_exists', true, 'Virksomheten finnes og er aktiv.', 'The organisation exists and is active.')
}

function systemUserCheck(authorised: boolean): Check {
  return authorised
    ? check(
        'system_user_authorised',
        true,
        'Virksomheten har godkjent systembrukeren.',
        'The organisation has authorised the system user.',
      )
    : check(
        'system_user_authorised',
        false,
        'Virksomheten har ikke godkjent systembrukeren.',
        'The organisation has not authorised the system user.',
      )
}

function scopeCheck(action: ActionType, delegated: readonly string[]): Check {
  const scope = ACTION_SCOPES[action]
  return delegated.includes(scope)
    ? check(
        'scopes_delegated',
        true,
        `Systembrukeren har fått delegert ${scope}.`,
        `The system user has been delegated ${scope}.`,
      )
    : check(
        'scopes_delegated',
        false,
        `Systembrukeren mangler delegering av ${scope}.`,
        `The system user lacks a delegation of ${scope}.`,
      )
}

/** Period and payload problems together: what `data_format_valid` reports and a 422 can list. */
export function dataFormatIssues(input: ActionInput): FieldIssue[] {
  return issuesOf(parsePeriod(input.action_type, input.period), input)
}

function issuesOf(parsed: PeriodParse, input: ActionInput): FieldIssue[] {
  return [...(parsed.ok ? [] : parsed.details), ...validatePayload(input.action_type, input.payload)]
}

function formatCheck(issues: FieldIssue[]): Check {
  if (issues.length === 0)
    return check(
      'data_format_valid',
      true,
      'Periode og innhold har gyldig format.',
      'The period and the content are well-formed.',
    )
  const fields = [...new Set(issues.map((i) => i.field))].join(', ')
  return check('data_format_valid', false, `Ugyldig format i ${fields}.`, `Invalid format in ${fields}.`)
}

function deadlineCheck(parsed: PeriodParse, today: LocalDate): Check {
  if (!parsed.ok)
    return check(
      'deadline_in_future',
      false,
      'Fristen kan ikke vurderes uten en gyldig periode.',
      'The deadline cannot be judged without a valid period.',
    )
  const due = periodDeadline(parsed.period)
  const label = parsed.period.label
  // The deadline day itself is still in time.
  return due >= today
    ? check(
        'deadline_in_future',
        true,
        `Fristen for ${label} er ${formatDateNb(due)} og er ikke passert.`,
        `The deadline for ${label} is ${formatDateEn(due)} and has not passed.`,
      )
    : check(
        'deadline_in_future',
        false,
        `Fristen for ${label} var ${formatDateNb(due)} og er passert.`,
        `The deadline for ${label} was ${formatDateEn(due)} and has passed.`,
      )
}

export function dryRun(input: ActionInput, facts: ActionFacts, today: LocalDate): DryRunOutcome {
  const parsed = parsePeriod(input.action_type, input.period)
  // The order is part of the contract: clients read checks[n] by position.
  const checks = [
    companyCheck(facts.company),
    systemUserCheck(facts.systemUserAuthorised),
    scopeCheck(input.action_type, facts.delegatedScopes),
    formatCheck(issuesOf(parsed, input)),
    deadlineCheck(parsed, today),
  ]
  return {
    dry_run: true,
    org_number: input.org_number,
    action: input.action_type,
    validation: { all_passed: checks.every((c) => c.passed), checks, disclaimer: DRY_RUN_DISCLAIMER },
    would_be_payload: input.payload,
    preview_notice: PREVIEW_NOTICE,
  }
}

export function failedChecks(outcome: DryRunOutcome): Check[] {
  return outcome.validation.checks.filter((c) => !c.passed)
}
