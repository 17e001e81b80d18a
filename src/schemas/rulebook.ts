import { Type } from '@sinclair/typebox'
import { ENTITY_TYPES } from '../domain/rulebook/facts.ts'
import { Lit } from './common.ts'

export const EntityType = Lit(ENTITY_TYPES, 'AS, ENK, ANS, DA or NUF')
const Category = Lit(['tax', 'reporting', 'registration', 'audit'] as const)
const Frequency = Lit(
  ['annual', 'quarterly', 'monthly', 'bimonthly', 'one_time', 'per_pay_run'] as const,
  '`per_pay_run`: withholding from 2026, due after each payout',
)
const Note = Type.Object({ nb: Type.String(), en: Type.String() })
const OsloInstant = (description: string) => Type.String({ format: 'date-time', description })
const SkippedDay = Type.Object({
  date: Type.String({ format: 'date' }),
  kind: Lit(['saturday', 'sunday', 'public_holiday'] as const),
  name_nb: Type.Optional(Type.String()),
  name_en: Type.Optional(Type.String()),
})

/** A dated, sourced open point of the rulebook (an object, so it can grow without breaking clients). */
export const Uncertainty = Type.Object(
  {
    id: Type.String({ description: 'stable id of the note, e.g. `mva-omvendt-avgiftsplikt-q2`' }),
    as_of: Type.String({ format: 'date', description: 'the day up to which the sources were checked' }),
    note: Type.Object(
      { nb: Type.String(), en: Type.String() },
      { description: 'what is uncertain and what the rulebook answers, in bokmål and English' },
    ),
    sources: Type.Array(
      Type.Object({ title: Type.String(), url: Type.Union([Type.String({ format: 'uri' }), Type.Null()]) }),
      { description: 'where the conflicting or second-hand statements come from' },
    ),
    scope: Lit(
      ['rule', 'periods'] as const,
      '`rule`: concerns every period of the rule; `periods`: only some, named in the note',
    ),
    contested_dates: Type.Union(
      [
        Type.Array(
          Type.Object({
            date: Type.String({
              format: 'date',
              description: 'the legal date a source gives, before any weekend/holiday shift',
            }),
            sources: Type.Array(Type.String(), { description: 'titles from `sources`' }),
            answered: Type.Boolean({ description: 'true for the date the rulebook answers: the earliest' }),
          }),
        ),
        Type.Null(),
      ],
      {
        description:
          'on a period whose due date the sources disagree on: every date given; null otherwise and on rule-level notes',
      },
    ),
  },
  {
    description:
      'an open point the rulebook states rather than hides: conflicting sources, a rule read only second-hand, a date resting on the absence of a rule',
  },
)
const Uncertainties = Type.Optional(
  Type.Array(Uncertainty, {
    description:
      'dated, sourced open points of the rule that concern this entry; absent when there are none (e.g. the Q2 date of `mva-omvendt-avgiftsplikt`)',
  }),
)

export const PublicDeadlinesQuery = Type.Object(
  {
    year: Type.Optional(
      Type.Integer({ minimum: 2020, maximum: 2100, description: 'calendar year (Oslo); default the current year' }),
    ),
    entity_type: Type.Optional(
      Type.Union(
        ENTITY_TYPES.map((v) => Type.Literal(v)),
        { description: 'only the deadlines that can concern this company type' },
      ),
    ),
  },
  { additionalProperties: false },
)

export const UniversalDeadline = Type.Object({
  obligation_id: Type.String({
    description:
      'per-period id `<rule id>-<period key>`, e.g. `mva-termin-6-2026`, `mva-omvendt-avgiftsplikt-2-2026` (quarter 2), `a-melding-2026-03`, `aksjonaerregisteroppgave-2025`',
  }),
  rule_id: Type.String({ description: 'the obligation in `/public/obligations`' }),
  name_nb: Type.String(),
  name_en: Type.String(),
  category: Category,
  period: Type.String({
    description:
      '`YYYY-Tn` two-month term, `YYYY-Qn` quarter, `YYYY-A` annual VAT, `YYYY-MM` month, `YYYY` income or accounting year, `YYYY-Pn` instalment',
  }),
  deadline: OsloInstant('end of the due day in Europe/Oslo, e.g. `2026-04-07T23:59:59+02:00`'),
  submission_window_closes: OsloInstant('the same instant as `deadline`'),
  adjusted_from: Type.Union([OsloInstant('the legal due date before a weekend/holiday shift'), Type.Null()]),
  business_day_adjusted: Type.Boolean(),
  adjustment: Type.Union([Type.Object({ reason: Note, skipped: Type.Array(SkippedDay) }), Type.Null()], {
    description: 'why the date moved',
  }),
  not_adjusted_reason: Type.Union([Note, Type.Null()], {
    description: 'why a date on a weekend or holiday did not move (annual accounts, general meeting)',
  }),
  legal_reference: Type.String(),
  applies_to_entity_types: Type.Array(EntityType),
  uncertainties: Uncertainties,
})

export const PublicDeadlines = Type.Object({
  year: Type.Integer(),
  entity_type: Type.Union([EntityType, Type.Null()], { description: 'the filter asked for, or null' }),
  timezone: Type.Literal('Europe/Oslo'),
  deadlines: Type.Array(UniversalDeadline, { description: 'every deadline falling in the year, by date' }),
})

export const PublicObligationsQuery = Type.Object({ entity_type: EntityType }, { additionalProperties: false })

export const UniversalObligation = Type.Object({
  obligation_id: Type.String(),
  name_nb: Type.String(),
  name_en: Type.String(),
  description_nb: Type.String(),
  description_en: Type.String(),
  category: Category,
  frequency: Frequency,
  condition_nb: Type.String(),
  condition_en: Type.String(),
  tier_2_required: Type.Boolean({
    description: 'true: deciding it for a specific company needs commercial (Tier 2) data',
  }),
  tier_2_facts: Type.Array(Type.String()),
  due_rule_nb: Type.String(),
  due_rule_en: Type.String(),
  moves_to_next_business_day: Type.Boolean(),
  legal_reference: Type.String(),
  uncertainties: Uncertainties,
})

export const PublicObligations = Type.Object({
  entity_type: EntityType,
  obligations: Type.Array(UniversalObligation),
})

const DataTier = Lit(['tier_1', 'tier_2'] as const)

export const CompanyObligationEvaluation = Type.Object({
  rule_id: Type.String(),
  obligation_name: Type.String({ description: 'bokmål' }),
  obligation_name_en: Type.String(),
  evaluation_result: Lit(
    ['applicable', 'not_applicable', 'insufficient_data'] as const,
    '`insufficient_data`: a Tier 2 fact the rule reads is unknown',
  ),
  reason: Type.String({ description: 'bokmål' }),
  reason_en: Type.String(),
  legal_reference: Type.String(),
  frequency: Frequency,
  category: Category,
  data_tier_required: DataTier,
  missing_facts: Type.Array(Type.String(), { description: 'the Tier 2 facts whose absence left the verdict open' }),
  description: Type.String({ description: 'bokmål' }),
  description_en: Type.String(),
  uncertainties: Uncertainties,
})

export const CompanyDeadlineEntry = Type.Object({
  obligation_id: Type.String({ description: 'the rule id of the obligations endpoint' }),
  deadline_id: Type.Union([Type.String({ description: 'per-period id, as in the public calendar' }), Type.Null()]),
  obligation_name: Type.String(),
  obligation_name_en: Type.String(),
  period_label: Type.Union([Type.String(), Type.Null()]),
  due_at: Type.Union([OsloInstant('end of the due day, Europe/Oslo offset'), Type.Null()], {
    description: 'null when the date depends on an event (e.g. within 14 days of a change)',
  }),
  adjusted_for: Type.Union([
    Type.Object({ reason: Note, skipped: Type.Array(SkippedDay), original_due_at: OsloInstant('the legal date') }),
    Type.Null(),
  ]),
  business_day_adjusted: Type.Boolean(),
  not_adjusted_reason: Type.Union([Note, Type.Null()]),
  due_rule: Type.Union([Note, Type.Null()], {
    description: 'how the date is set when there is no single calendar date',
  }),
  legal_reference: Type.String(),
  recurring: Type.Boolean(),
  filing_status: Lit(
    ['upcoming', 'overdue', 'filed'] as const,
    '`filed` only on tier_2 summaries with visible filings',
  ),
  uncertainties: Uncertainties,
})
