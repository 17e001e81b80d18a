/**
 * Dated deadlines from the rules: each period's legal due date, moved to the next working day when
 * the rule's policy says so, with the reason spelt out in both languages.
 */
import { yearOf, type LocalDate } from '../../lib/local-date.ts'
import { nextBusinessDay, nonWorkingReason, type NonWorkingReason } from '../calendar/business-days.ts'
import type { Period, Rule, Source, UncertaintyNote } from './rules.ts'

export interface DeadlineInstance {
  rule: Rule
  /** per-period id, `<rule id>-<period key>` */
  id: string
  period: Period
  legal_due: LocalDate
  due: LocalDate
  shifted: boolean
  /** the non-working days the shift passed over */
  skipped: NonWorkingReason[]
  /** set when the legal date is not a working day but the rule keeps it */
  kept_on: NonWorkingReason | null
  legal_reference: string
}

export function instanceOf(rule: Rule, period: Period): DeadlineInstance {
  const shift = rule.shift.policy === 'next_business_day' ? nextBusinessDay(period.legal_due) : null
  return {
    rule,
    id: `${rule.id}-${period.key}`,
    period,
    legal_due: period.legal_due,
    due: shift ? shift.date : period.legal_due,
    shifted: shift !== null && shift.date !== period.legal_due,
    skipped: shift ? shift.skipped : [],
    kept_on: shift ? null : nonWorkingReason(period.legal_due),
    legal_reference: period.legal_reference ?? rule.legal_reference,
  }
}

/** Every instance of a rule whose (shifted) due date lies in [from, to]. */
export function instancesBetween(rule: Rule, from: LocalDate, to: LocalDate): DeadlineInstance[] {
  const out: DeadlineInstance[] = []
  // A period's due date is at most ~19 months after its year starts (annual accounts).
  for (let y = yearOf(from) - 2; y <= yearOf(to); y++) {
    for (const p of rule.periods(y)) {
      const inst = instanceOf(rule, p)
      if (inst.due >= from && inst.due <= to) out.push(inst)
    }
  }
  return out
}

const MONTHS_NB = [
  'januar',
  'februar',
  'mars',
  'april',
  'mai',
  'juni',
  'juli',
  'august',
  'september',
  'oktober',
  'november',
  'desember',
]
const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const WEEKDAYS_NB = ['søndag', 'mandag', 'tirsdag', 'onsdag', 'torsdag', 'fredag', 'lørdag']

export function formatDateNb(d: LocalDate): string {
  return `${Number(d.slice(8, 10))}. ${MONTHS_NB[Number(d.slice(5, 7)) - 1]} ${d.slice(0, 4)}`
}

export function formatDateEn(d: LocalDate): string {
  return `${Number(d.slice(8, 10))} ${MONTHS_EN[Number(d.slice(5, 7)) - 1]} ${d.slice(0, 4)}`
}

function describeNb(r: NonWorkingReason): string {
  if (r.kind === 'public_holiday') return `${formatDateNb(r.date)} er ${r.name_nb.toLowerCase()}`
  return `${formatDateNb(r.date)} er en ${r.kind === 'saturday' ? 'lørdag' : 'søndag'}`
}

function describeEn(r: NonWorkingReason): string {
  if (r.kind === 'public_holiday') return `${formatDateEn(r.date)} is ${r.name_en}`
  return `${formatDateEn(r.date)} is a ${r.kind === 'saturday' ? 'Saturday' : 'Sunday'}`
}

function joinNb(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} og ${parts.at(-1)}`
}

function joinEn(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

export interface DateNote {
  nb: string
  en: string
}

/** Why a deadline moved, e.g. "5. april 2026 er en søndag og 6. april 2026 er andre påskedag …". */
export function shiftNote(inst: DeadlineInstance): DateNote | null {
  if (!inst.shifted || inst.rule.shift.policy !== 'next_business_day') return null
  const basis = inst.rule.shift.basis
  return {
    nb: `${joinNb(inst.skipped.map(describeNb))}; fristen løper derfor til ${WEEKDAYS_NB[new Date(`${inst.due}T00:00:00Z`).getUTCDay()]} ${formatDateNb(inst.due)} (${basis}).`,
    en: `${joinEn(inst.skipped.map(describeEn))}; the deadline therefore runs to ${formatDateEn(inst.due)} (${basis}).`,
  }
}

/** Why a deadline on a weekend or holiday did not move. */
export function keptNote(inst: DeadlineInstance): DateNote | null {
  if (!inst.kept_on || inst.rule.shift.policy !== 'none') return null
  return {
    nb: `${describeNb(inst.kept_on)}. ${inst.rule.shift.reason_nb}`,
    en: `${describeEn(inst.kept_on)}. ${inst.rule.shift.reason_en}`,
  }
}

export const skippedDays = (inst: DeadlineInstance) =>
  inst.skipped.map((s) =>
    s.kind === 'public_holiday'
      ? { date: s.date, kind: s.kind, name_nb: s.name_nb, name_en: s.name_en }
      : { date: s.date, kind: s.kind },
  )

/** An uncertainty note as the API shows it. */
export interface UncertaintyView {
  id: string
  as_of: LocalDate
  note: DateNote
  sources: Source[]
  /** `rule`: concerns every period; `periods`: only some, named in the note */
  scope: 'rule' | 'periods'
  /** on a period whose date is contested: each date the sources give (before any shift), and which one the rulebook answers */
  contested_dates: { date: LocalDate; sources: string[]; answered: boolean }[] | null
}

function view(n: UncertaintyNote, period: Period | null): UncertaintyView {
  return {
    id: n.id,
    as_of: n.as_of,
    note: { nb: n.nb, en: n.en },
    sources: n.sources.map((s) => ({ title: s.title, url: s.url })),
    scope: n.concerns ? 'periods' : 'rule',
    contested_dates:
      period && n.contested
        ? n
            .contested(period)
            .map((c) => ({ date: c.date, sources: [...c.sources], answered: c.date === period.legal_due }))
        : null,
  }
}

/** Every open point of a rule, for the rule-level answers (obligations). */
export function ruleUncertainties(rule: Rule): UncertaintyView[] {
  return (rule.uncertainties ?? []).map((n) => view(n, null))
}

/** The open points that concern one period, with its contested dates. */
export function instanceUncertainties(inst: DeadlineInstance): UncertaintyView[] {
  return (inst.rule.uncertainties ?? [])
    .filter((n) => !n.concerns || n.concerns(inst.period))
    .map((n) => view(n, inst.period))
}

/** `{ uncertainties }` when there are any, else nothing: an entry without open points keeps 1.0.0's shape. */
export function withUncertainties<T extends object>(
  entry: T,
  notes: UncertaintyView[],
): T & { uncertainties?: UncertaintyView[] } {
  return notes.length ? { ...entry, uncertainties: notes } : entry
}
