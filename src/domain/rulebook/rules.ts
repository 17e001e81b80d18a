/**
 * The rulebook (its version: version.ts): every obligation Plikt knows, as data a person can read and extend.
 *
 * Each rule says who it concerns (`entity_types`), which facts its condition reads per entity type
 * (`reads`: a Tier 2 fact there makes `tier_2_required` true), how it decides (`applies`), what the
 * law is (`legal_reference`), when it falls due (`periods`) and whether a due date on a weekend or
 * holiday moves (`shift`), and what is not settled (`uncertainties`: dated, sourced notes the
 * answers show). Sources: shared research notes on Norwegian law, cited per rule. A one-off move of
 * one period's date by law is a row in exceptions.ts, applied to RULES below.
 *
 * Adding a rule: append an entry, give it tests (test/domain/rulebook), bump RULEBOOK_VERSION
 * (version.ts): minor for a new rule or a new period, major when an existing date or verdict
 * changes, and say what changed in docs/rulebook-changelog.md. CONTRIBUTING.md says the same.
 */
import { addDays, addMonths, daysInMonth, ymd, type LocalDate } from '../../lib/local-date.ts'
import { nonWorkingReason } from '../calendar/business-days.ts'
import { DATED_EXCEPTIONS, withExceptions } from './exceptions.ts'
import type { CompanyFacts, EntityType, FactName } from './facts.ts'

export type Category = 'tax' | 'reporting' | 'registration' | 'audit'
/** The spec's frequencies, plus `per_pay_run` for withholding from 2026. */
export type Frequency = 'annual' | 'quarterly' | 'monthly' | 'bimonthly' | 'one_time' | 'per_pay_run'
export type Result = 'applicable' | 'not_applicable' | 'insufficient_data'

export interface Verdict {
  result: Result
  reason_nb: string
  reason_en: string
  /** the facts whose absence made the verdict `insufficient_data` */
  missing: FactName[]
}

export interface Period {
  /** the id suffix: `<rule id>-<key>` is the per-period obligation id */
  key: string
  /** `YYYY-Tn`, `YYYY-A`, `YYYY-MM`, `YYYY` or `YYYY-Pn` */
  label: string
  /** last day of the period the obligation covers */
  end: LocalDate
  /** the date the law names, before any shift */
  legal_due: LocalDate
  /** where one period's basis differs from the rule's (a law changed between years) */
  legal_reference?: string
}

/** Where a statement in the rulebook comes from. */
export interface Source {
  title: string
  url: string | null
}

/**
 * An open point the rulebook states rather than hides: sources that disagree, a rule read only
 * second-hand, a date that rests on the absence of a rule. Dated (`as_of`: the day up to which the
 * sources were checked) and sourced; the API shows it on the rule and on each period it concerns.
 */
export interface UncertaintyNote {
  /** stable id, e.g. `mva-omvendt-avgiftsplikt-q2` */
  id: string
  as_of: LocalDate
  nb: string
  en: string
  sources: Source[]
  /** the periods it concerns; absent: every period of the rule */
  concerns?(period: Period): boolean
  /**
   * A contested due date: the legal date each source gives for the period. The rule itself answers
   * the earliest (filing by then is never late); a test holds the rule's date to that.
   */
  contested?(period: Period): { date: LocalDate; sources: string[] }[]
}

export type ShiftPolicy =
  | { policy: 'next_business_day'; basis: string }
  | { policy: 'none'; reason_nb: string; reason_en: string }

export interface Rule {
  id: string
  name_nb: string
  name_en: string
  description_nb: string
  description_en: string
  category: Category
  frequency: Frequency
  entity_types: EntityType[]
  /** the facts the condition reads, per entity type it concerns */
  reads: Partial<Record<EntityType, FactName[]>>
  condition_nb: string
  condition_en: string
  applies(facts: CompanyFacts): Verdict
  legal_reference: string
  due_rule_nb: string
  due_rule_en: string
  shift: ShiftPolicy
  /** the periods of income/period year `year` (an empty list when the rule has no calendar date) */
  periods(year: number): Period[]
  /**
   * For an applicable company: whether a duty falls due in the window [.., windowEnd] without a
   * calendar date (withholding after each payout; registration once the threshold is passed).
   */
  undated?(facts: CompanyFacts, windowEnd: LocalDate): boolean
  recurring: boolean
  /** open points, shown with the rule and the periods they concern */
  uncertainties?: UncertaintyNote[]
}

// ---------------------------------------------------------------------------------------------
// Verdict helpers

const yes = (reason_nb: string, reason_en: string): Verdict => ({
  result: 'applicable',
  reason_nb,
  reason_en,
  missing: [],
})
const no = (reason_nb: string, reason_en: string): Verdict => ({
  result: 'not_applicable',
  reason_nb,
  reason_en,
  missing: [],
})
const unknown = (missing: FactName[], reason_nb: string, reason_en: string): Verdict => ({
  result: 'insufficient_data',
  reason_nb,
  reason_en,
  missing,
})

/** Payroll is known from the flag, or implied by a positive head count. */
function payroll(f: CompanyFacts): boolean | null {
  if (f.has_payroll !== null) return f.has_payroll
  return f.employee_count !== null && f.employee_count > 0 ? true : null
}

function employerVerdict(f: CompanyFacts, what_nb: string, what_en: string): Verdict {
  const p = payroll(f)
  if (p === true)
    return yes(`Virksomheten utbetaler lønn og skal ${what_nb}.`, `The company pays salary and must ${what_en}.`)
  if (p === false) return no('Virksomheten utbetaler ikke lønn.', 'The company pays no salary.')
  return unknown(
    ['has_payroll'],
    'Enhetsregisteret viser ikke sikkert om virksomheten utbetaler lønn (antall ansatte under 5 skjules).',
    'The register does not show reliably whether the company pays salary (head counts below 5 are hidden).',
  )
}

// ---------------------------------------------------------------------------------------------
// Period helpers

function bimonthlyTerms(year: number, due: (n: number) => LocalDate): Period[] {
  return [1, 2, 3, 4, 5, 6].map((n) => ({
    key: `${n}-${year}`,
    label: `${year}-T${n}`,
    end: ymd(year, n * 2, daysInMonth(year, n * 2)),
    legal_due: due(n),
  }))
}

function annual(year: number, legal_due: LocalDate, extra: Partial<Period> = {}): Period[] {
  return [{ key: `${year}`, label: `${year}`, end: ymd(year, 12, 31), legal_due, ...extra }]
}

/** Term n of the six two-month terms, due the 15th of the month after the term (T6: 15 January). */
const fifteenthAfterTerm = (year: number) => (n: number) => (n === 6 ? ymd(year + 1, 1, 15) : ymd(year, n * 2 + 1, 15))

/** The four quarters of `year`, each due by `due(n)`; key `<n>-<year>` as the two-month terms, label `YYYY-Qn`. */
function quarters(year: number, due: (n: number) => LocalDate): Period[] {
  return [1, 2, 3, 4].map((n) => ({
    key: `${n}-${year}`,
    label: `${year}-Q${n}`,
    end: ymd(year, n * 3, daysInMonth(year, n * 3)),
    legal_due: due(n),
  }))
}

/** The twelve months of `year`, each due the 10th of the second month after it (one month and ten days). */
function monthsDueTenthOfSecondMonthAfter(year: number): Period[] {
  return Array.from({ length: 12 }, (_, i) => {
    const m = i + 1
    const mm = String(m).padStart(2, '0')
    return {
      key: `${year}-${mm}`,
      label: `${year}-${mm}`,
      end: ymd(year, m, daysInMonth(year, m)),
      legal_due: addMonths(ymd(year, m, 10), 2),
    }
  })
}

/** 30 June of the year after the (calendar) financial year: six months after its end. */
const sixMonthsAfterYearEnd = (y: number) => annual(y, ymd(y + 1, 6, 30))

// ---------------------------------------------------------------------------------------------
// Laws, cited in lovdata style: name (id) § section

const SKTFVL = 'skatteforvaltningsloven (LOV-2016-05-27-14)'
const SKTFVFS = 'skatteforvaltningsforskriften (FOR-2016-11-23-1360)'
const SKTBL = 'skattebetalingsloven (LOV-2005-06-17-67)'
const MVAL = 'merverdiavgiftsloven (LOV-2009-06-19-58)'
const AOPPL = 'a-opplysningsloven (LOV-2012-06-22-43)'
const AOPPLF = 'a-opplysningsforskriften (FOR-2014-06-24-857)'
const RSKL = 'regnskapsloven (LOV-1998-07-17-56)'
const ASL = 'aksjeloven (LOV-1997-06-13-44)'
const REVL = 'revisorloven (LOV-2020-11-20-128)'
const RRHL = 'lov om register over reelle rettighetshavere (LOV-2019-03-01-2)'
const APL = 'åpenhetsloven (LOV-2021-06-18-99)'

/**
 * The legal basis of moving a deadline off a weekend or public holiday, in one line for the
 * answers that list deadlines (`_meta.legal_basis`): filing, payment and the a-melding's own rule.
 */
export const DEADLINE_SHIFT_BASIS =
  'skatteforvaltningsloven § 5-5 annet ledd; skattebetalingsloven § 10-2; a-opplysningsforskriften § 2-1'

const FILING_SHIFT: ShiftPolicy = {
  policy: 'next_business_day',
  basis: `${SKTFVL} § 5-5 annet ledd, jf. domstolloven (LOV-1915-08-13-5) § 149`,
}
const PAYMENT_SHIFT: ShiftPolicy = { policy: 'next_business_day', basis: `${SKTBL} § 10-2` }
const FILING_AND_PAYMENT_SHIFT: ShiftPolicy = {
  policy: 'next_business_day',
  basis: `${SKTFVL} § 5-5 annet ledd (levering) og ${SKTBL} § 10-2 (betaling)`,
}
const ACCOUNTS_NO_SHIFT: ShiftPolicy = {
  policy: 'none',
  reason_nb:
    'Fristen flyttes ikke når den faller på en helg eller helligdag: regnskapsloven har ingen slik regel, og forsinkelsesgebyret løper fra 1. august (§ 8-3 første ledd).',
  reason_en:
    'The deadline does not move when it falls on a weekend or holiday: the Accounting Act has no such rule, and the late fee runs from 1 August (section 8-3 (1)).',
}

const SFH_8_3_10 =
  'https://www.skatteetaten.no/rettskilder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-8-opplysningsplikt-for-skattepliktige-trekkpliktige-mv/ID-8-3.001/ID-8-3.029/'

/**
 * In 2021 temporary legislation gave calendar-year companies (not listed or supervised ones) two
 * more months for the 2020 accounts and general meeting. Its legal basis was not checked, so it is
 * a note on the period, not a dated exception.
 */
const COVID_2021_EXTENSION: UncertaintyNote = {
  id: 'covid-2021-utsatt-frist',
  as_of: '2025-10-27',
  nb: 'For regnskapsåret 2020 ga en midlertidig lov i 2021 to måneders utsatt frist (til 31. august 2021) for fastsetting og ordinær generalforsamling, ikke for børsnoterte eller tilsynspliktige selskaper. Hjemmelen er ikke kontrollert, så datoen her er den ordinære.',
  en: 'For the 2020 financial year, a temporary act in 2021 gave two more months (to 31 August 2021) for adoption and the ordinary general meeting, not for listed or supervised companies. Its legal basis was not checked, so the date here is the ordinary one.',
  sources: [
    {
      title:
        'Økonomiassistanse: Utsatt frist for fastsettelse av årsregnskap og avholdelse av generalforsamling (2021)',
      url: 'https://okonomiassistanse.no/utsatt-frist-for-fastsettelse-av-arsregnskap-og-avholdelse-av-generalforsamling/',
    },
  ],
  concerns: (p) => p.label === '2020',
}

// ---------------------------------------------------------------------------------------------

const RULE_TABLE: Rule[] = [
  {
    id: 'aksjonaerregisteroppgave',
    name_nb: 'Aksjonærregisteroppgaven',
    name_en: 'Shareholder register return',
    description_nb:
      'Oppgave til Skatteetaten over aksjonærer og endringer i aksjekapital og eierskap i løpet av året. Leveres også når ingenting er endret.',
    description_en:
      'Return to the Tax Administration on shareholders and changes in share capital and ownership during the year. Filed even when nothing changed.',
    category: 'reporting',
    frequency: 'annual',
    entity_types: ['AS'],
    reads: { AS: [] },
    condition_nb: 'Alle aksjeselskap, også når ingenting er endret eller selskapet ble avviklet i løpet av året.',
    condition_en: 'Every limited company, also when nothing changed or the company was wound up during the year.',
    applies: () =>
      yes(
        'Aksjeselskap skal alltid levere aksjonærregisteroppgaven.',
        'A limited company must always file the shareholder register return.',
      ),
    legal_reference: `${SKTFVL} § 7-7; ${SKTFVFS} § 7-7-1`,
    due_rule_nb: '31. januar året etter inntektsåret.',
    due_rule_en: '31 January of the year after the income year.',
    shift: FILING_SHIFT,
    periods: (y) => annual(y, ymd(y + 1, 1, 31)),
    recurring: true,
  },
  {
    id: 'a-melding',
    name_nb: 'A-melding',
    name_en: 'A-melding (monthly employer report)',
    description_nb: 'Månedlig melding om inntekt, arbeidsforhold og skattetrekk for hver ansatt.',
    description_en: 'Monthly report of income, employment and tax withheld for each employee.',
    category: 'reporting',
    frequency: 'monthly',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['has_payroll'],
      ENK: ['has_payroll'],
      ANS: ['has_payroll'],
      DA: ['has_payroll'],
      NUF: ['has_payroll'],
    },
    condition_nb:
      'Virksomheter som utbetaler lønn eller annen godtgjørelse, eller har ansatte. Et enkeltpersonforetak uten ansatte leverer ikke.',
    condition_en:
      'Companies that pay salary or other remuneration, or have employees. A sole proprietorship without employees files none.',
    applies: (f) => employerVerdict(f, 'levere a-melding hver måned', 'file an a-melding every month'),
    legal_reference: `${AOPPL} § 4; ${AOPPLF} § 2-1`,
    due_rule_nb: 'Den 5. i måneden etter.',
    due_rule_en: 'The 5th of the following month.',
    shift: { policy: 'next_business_day', basis: `${AOPPLF} § 2-1` },
    periods: (y) =>
      Array.from({ length: 12 }, (_, i) => {
        const m = i + 1
        const mm = String(m).padStart(2, '0')
        return {
          key: `${y}-${mm}`,
          label: `${y}-${mm}`,
          end: ymd(y, m, daysInMonth(y, m)),
          legal_due: m === 12 ? ymd(y + 1, 1, 5) : ymd(y, m + 1, 5),
        }
      }),
    recurring: true,
  },
  {
    id: 'arbeidsgiveravgift-termin',
    name_nb: 'Arbeidsgiveravgift',
    name_en: "Employer's national insurance contribution",
    description_nb: 'Betaling av arbeidsgiveravgift for de to foregående kalendermånedene, seks terminer i året.',
    description_en: "Payment of the employer's contribution for the two preceding calendar months, six terms a year.",
    category: 'tax',
    frequency: 'bimonthly',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['has_payroll'],
      ENK: ['has_payroll'],
      ANS: ['has_payroll'],
      DA: ['has_payroll'],
      NUF: ['has_payroll'],
    },
    condition_nb: 'Arbeidsgivere, det vil si virksomheter som utbetaler lønn.',
    condition_en: 'Employers, that is companies that pay salary.',
    applies: (f) => employerVerdict(f, 'betale arbeidsgiveravgift', "pay the employer's contribution"),
    legal_reference: `${SKTBL} § 10-10 annet ledd`,
    due_rule_nb:
      '15. i måneden etter hver tomånederstermin: 15. mars, 15. mai, 15. juli, 15. september, 15. november og 15. januar.',
    due_rule_en:
      '15th of the month after each two-month term: 15 March, 15 May, 15 July, 15 September, 15 November and 15 January.',
    shift: PAYMENT_SHIFT,
    periods: (y) =>
      bimonthlyTerms(y, fifteenthAfterTerm(y)).map((p) =>
        // The 2026 reform split § 10-10 into ledd; earlier terms fall under the old wording.
        y <= 2025 ? { ...p, legal_reference: `${SKTBL} § 10-10 (ordlyd før 1. januar 2026)` } : p,
      ),
    recurring: true,
  },
  {
    id: 'arsregnskap',
    name_nb: 'Årsregnskap til Regnskapsregisteret',
    name_en: 'Annual accounts to the Register of Company Accounts',
    description_nb:
      'Fastsatt årsregnskap, årsberetning og revisjonsberetning sendes Regnskapsregisteret innen én måned etter fastsetting.',
    description_en:
      'The adopted annual accounts, directors’ report and auditor’s report go to the Register of Company Accounts within one month of adoption.',
    category: 'reporting',
    frequency: 'annual',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: [],
      NUF: ['norwegian_tax_liability'],
      ANS: ['annual_turnover_nok', 'employee_count', 'partner_count', 'has_limited_liability_partner'],
      DA: ['annual_turnover_nok', 'employee_count', 'partner_count', 'has_limited_liability_partner'],
      ENK: ['total_assets_nok', 'employee_count'],
    },
    condition_nb:
      'Aksjeselskap alltid. NUF som driver virksomhet og er skattepliktig i Norge. ANS/DA med minst 5 mill. kr i salgsinntekt, 5 årsverk, over 5 deltakere eller en deltaker med begrenset ansvar. ENK med eiendeler over 20 mill. kr eller over 20 årsverk.',
    condition_en:
      'Limited companies always. A NUF doing business and taxable in Norway. ANS/DA with NOK 5 million in sales, 5 FTEs, more than 5 partners or a partner with limited liability. ENK with assets over NOK 20 million or over 20 FTEs.',
    applies: (f) => accountsDuty(f),
    legal_reference: `${RSKL} §§ 1-2, 3-1, 8-2 og 8-3 første ledd`,
    due_rule_nb: 'Senest 31. juli året etter regnskapsåret (forsinkelsesgebyr fra 1. august).',
    due_rule_en: '31 July of the year after the accounting year at the latest (late fee from 1 August).',
    shift: ACCOUNTS_NO_SHIFT,
    // The 2020 accounts' date (postponed two months by forskrift, covid-19) is a dated exception: exceptions.ts.
    periods: (y) => annual(y, ymd(y + 1, 7, 31)),
    recurring: true,
  },
  {
    id: 'forskuddsskatt-personlig',
    name_nb: 'Forskuddsskatt for personlige skattytere',
    name_en: 'Advance tax, individuals',
    description_nb:
      'Innehaveren av et enkeltpersonforetak betaler utskrevet forskuddsskatt i fire terminer i inntektsåret.',
    description_en:
      'The owner of a sole proprietorship pays assessed advance tax in four instalments during the income year.',
    category: 'tax',
    frequency: 'quarterly',
    entity_types: ['ENK'],
    reads: { ENK: ['advance_tax_assessed'] },
    condition_nb: 'Når Skatteetaten har skrevet ut forskuddsskatt (ikke under 2 000 kr).',
    condition_en: 'When the Tax Administration has assessed advance tax (not below NOK 2,000).',
    applies: (f) => advanceTaxVerdict(f),
    legal_reference: `${SKTBL} § 10-20 første ledd, endret ved LOV-2020-12-21-166`,
    due_rule_nb: '15. mars, 15. juni, 15. september og 15. desember i inntektsåret.',
    due_rule_en: '15 March, 15 June, 15 September and 15 December of the income year.',
    shift: PAYMENT_SHIFT,
    periods: (y) => {
      // From income year 2021 the 2nd and 4th instalments moved from 15 May/15 Nov to 15 Jun/15 Dec.
      const months = y >= 2021 ? [3, 6, 9, 12] : [3, 5, 9, 11]
      return months.map((m, i) => ({
        key: `${i + 1}-${y}`,
        label: `${y}-P${i + 1}`,
        end: ymd(y, 12, 31),
        legal_due: ymd(y, m, 15),
        ...(y < 2021 ? { legal_reference: `${SKTBL} § 10-20 første ledd (ordlyd før LOV-2020-12-21-166)` } : {}),
      }))
    },
    recurring: true,
  },
  {
    id: 'forskuddsskatt-upersonlig',
    name_nb: 'Forskuddsskatt for upersonlige skattytere',
    name_en: 'Advance tax, companies',
    description_nb: 'Selskapet betaler utskrevet forskuddsskatt for inntektsåret i to terminer året etter.',
    description_en: 'The company pays the assessed advance tax for the income year in two instalments the year after.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['AS', 'NUF'],
    reads: { AS: ['advance_tax_assessed'], NUF: ['advance_tax_assessed'] },
    condition_nb: 'Når Skatteetaten har skrevet ut forskuddsskatt (ikke under 2 000 kr).',
    condition_en: 'When the Tax Administration has assessed advance tax (not below NOK 2,000).',
    applies: (f) => advanceTaxVerdict(f),
    legal_reference: `${SKTBL} § 10-20 tredje ledd`,
    due_rule_nb: '15. februar og 15. april året etter inntektsåret.',
    due_rule_en: '15 February and 15 April of the year after the income year.',
    shift: PAYMENT_SHIFT,
    periods: (y) => [
      { key: `1-${y}`, label: `${y}-P1`, end: ymd(y, 12, 31), legal_due: ymd(y + 1, 2, 15) },
      { key: `2-${y}`, label: `${y}-P2`, end: ymd(y, 12, 31), legal_due: ymd(y + 1, 4, 15) },
    ],
    recurring: true,
  },
  {
    id: 'forskuddstrekk',
    name_nb: 'Forskuddstrekk',
    name_en: 'Tax withheld from pay',
    description_nb:
      'Skattetrekk fra lønn betales til Skatteetaten. Trekk fra januar 2026 betales senest første virkedag etter utbetalingen; trekk til og med desember 2025 ble betalt annenhver måned sammen med arbeidsgiveravgiften.',
    description_en:
      'Tax withheld from pay is paid to the Tax Administration. Withholding from January 2026 is due the first working day after the payout; withholding up to December 2025 was paid every other month with the employer’s contribution.',
    category: 'tax',
    frequency: 'per_pay_run',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['has_payroll'],
      ENK: ['has_payroll'],
      ANS: ['has_payroll'],
      DA: ['has_payroll'],
      NUF: ['has_payroll'],
    },
    condition_nb: 'Arbeidsgivere som trekker skatt i lønn.',
    condition_en: 'Employers that withhold tax from pay.',
    applies: (f) => employerVerdict(f, 'trekke og betale forskuddstrekk', 'withhold and pay tax from pay'),
    legal_reference: `${SKTBL} § 10-10 første ledd, endret ved LOV-2025-06-20-63 (i kraft 1. januar 2026)`,
    due_rule_nb:
      'Senest første virkedag etter hver lønnsutbetaling (fra 2026). Terminer til og med 2025: som arbeidsgiveravgiften.',
    due_rule_en:
      'The first working day after each payout at the latest (from 2026). Terms up to 2025: as the employer’s contribution.',
    shift: PAYMENT_SHIFT,
    // From 2026 the due date depends on each payout, which no register shows: no calendar dates.
    periods: (y) =>
      y <= 2025
        ? bimonthlyTerms(y, fifteenthAfterTerm(y)).map((p) => ({
            ...p,
            legal_reference: `${SKTBL} § 10-10, jf. § 5-11 (ordlyd før 1. januar 2026)`,
          }))
        : [],
    undated: (_f, windowEnd) => windowEnd >= '2026-01-01',
    recurring: true,
  },
  {
    id: 'mva-arstermin',
    name_nb: 'Mva-melding, årstermin',
    name_en: 'Annual VAT return',
    description_nb:
      'Virksomheter med omsetning under 1 million kroner kan søke om å levere én mva-melding for hele året.',
    description_en: 'Businesses with turnover under NOK 1 million may apply to file one VAT return for the whole year.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['mva_registered', 'mva_annual_term'],
      ENK: ['mva_registered', 'mva_annual_term'],
      ANS: ['mva_registered', 'mva_annual_term'],
      DA: ['mva_registered', 'mva_annual_term'],
      NUF: ['mva_registered', 'mva_annual_term'],
    },
    condition_nb: 'Mva-registrerte virksomheter som Skatteetaten har godkjent for årstermin (søknad innen 1. februar).',
    condition_en: 'VAT-registered businesses approved for the annual term (application by 1 February).',
    applies: (f) => {
      if (f.mva_registered === false)
        return no('Ikke registrert i Merverdiavgiftsregisteret.', 'Not registered for VAT.')
      if (f.mva_registered === null)
        return unknown(['mva_registered'], 'Mva-registreringen er ukjent.', 'The VAT registration is unknown.')
      if (f.mva_annual_term === true)
        return yes(
          'Godkjent for årstermin: leverer én mva-melding for året.',
          'Approved for the annual term: files one VAT return for the year.',
        )
      if (f.mva_annual_term === false)
        return no(
          'Leverer mva-melding for alminnelig tomånederstermin.',
          'Files VAT returns for the ordinary two-month terms.',
        )
      return unknown(
        ['mva_annual_term'],
        'Det er ukjent om virksomheten er godkjent for årstermin.',
        'Whether the business is approved for the annual term is unknown.',
      )
    },
    legal_reference: `${SKTFVFS} §§ 8-3-3 og 8-3-10 annet ledd; ${SKTBL} § 10-30`,
    due_rule_nb: '10. mars året etter (primærnæring: 10. april).',
    due_rule_en: '10 March of the following year (primary industries: 10 April).',
    shift: FILING_AND_PAYMENT_SHIFT,
    periods: (y) => [{ key: `${y}`, label: `${y}-A`, end: ymd(y, 12, 31), legal_due: ymd(y + 1, 3, 10) }],
    recurring: true,
  },
  {
    id: 'mva-registrering',
    name_nb: 'Registrering i Merverdiavgiftsregisteret',
    name_en: 'VAT registration',
    description_nb:
      'Virksomheter med avgiftspliktig omsetning og uttak over 50 000 kr i løpet av tolv måneder skal registrere seg.',
    description_en:
      'Businesses whose taxable sales and withdrawals exceed NOK 50,000 within twelve months must register.',
    category: 'registration',
    frequency: 'one_time',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['mva_registered', 'annual_turnover_nok'],
      ENK: ['mva_registered', 'annual_turnover_nok'],
      ANS: ['mva_registered', 'annual_turnover_nok'],
      DA: ['mva_registered', 'annual_turnover_nok'],
      NUF: ['mva_registered', 'annual_turnover_nok'],
    },
    condition_nb:
      'Avgiftspliktig omsetning over 50 000 kr i løpet av tolv måneder (140 000 kr for veldedige organisasjoner).',
    condition_en: 'Taxable sales over NOK 50,000 within twelve months (NOK 140,000 for charities).',
    applies: (f) => {
      if (f.mva_registered === true) return yes('Registrert i Merverdiavgiftsregisteret.', 'Registered for VAT.')
      if (f.annual_turnover_nok === null) {
        return unknown(
          f.mva_registered === null ? ['mva_registered', 'annual_turnover_nok'] : ['annual_turnover_nok'],
          'Ikke registrert, og omsetningen er ukjent.',
          'Not registered, and the turnover is unknown.',
        )
      }
      return f.annual_turnover_nok > 50_000
        ? yes(
            'Omsetningen er over 50 000 kr: virksomheten skal registrere seg.',
            'Turnover is above NOK 50,000: the business must register.',
          )
        : no('Omsetningen er ikke over 50 000 kr.', 'Turnover is not above NOK 50,000.')
    },
    legal_reference: `${MVAL} §§ 2-1 og 2-4; ${SKTFVL} § 8-13`,
    due_rule_nb: 'Når grensen passeres; forhåndsregistrering er mulig.',
    due_rule_en: 'When the threshold is passed; registration in advance is possible.',
    shift: FILING_SHIFT,
    periods: () => [],
    undated: (f) => f.mva_registered !== true,
    recurring: false,
  },
  {
    id: 'mva-termin',
    name_nb: 'Mva-melding, alminnelig termin',
    name_en: 'VAT return, two-month term',
    description_nb: 'Mva-melding og betaling for hver tomånederstermin, seks terminer i året.',
    description_en: 'VAT return and payment for each two-month term, six terms a year.',
    category: 'tax',
    frequency: 'bimonthly',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['mva_registered'],
      ENK: ['mva_registered'],
      ANS: ['mva_registered'],
      DA: ['mva_registered'],
      NUF: ['mva_registered'],
    },
    condition_nb:
      'Virksomheter registrert i Merverdiavgiftsregisteret, med mindre de er godkjent for årstermin, har fått pålagt månedlig periode eller leverer årlig som primærnæring.',
    condition_en:
      'Businesses registered for VAT, unless approved for the annual term, put on an imposed monthly period or filing annually as a primary industry.',
    applies: (f) => {
      if (f.mva_registered === null)
        return unknown(['mva_registered'], 'Mva-registreringen er ukjent.', 'The VAT registration is unknown.')
      if (!f.mva_registered) return no('Ikke registrert i Merverdiavgiftsregisteret.', 'Not registered for VAT.')
      if (f.mva_annual_term === true)
        return no(
          'Godkjent for årstermin: leverer én mva-melding for året i stedet.',
          'Approved for the annual term: files one VAT return for the year instead.',
        )
      if (f.mva_monthly_term === true)
        return no(
          'Skattekontoret har fastsatt månedlig skattleggingsperiode: leverer mva-melding hver måned i stedet.',
          'The tax office has imposed a monthly VAT period: files a VAT return every month instead.',
        )
      if (f.mva_primary_industry_term === true)
        return no(
          'Primærnæring med kalenderåret som skattleggingsperiode: leverer én mva-melding for året i stedet.',
          'Primary industry with the calendar year as its VAT period: files one VAT return for the year instead.',
        )
      return yes(
        'Registrert i Merverdiavgiftsregisteret; alminnelig termin er to måneder.',
        'Registered for VAT; the ordinary term is two months.',
      )
    },
    legal_reference: `${SKTFVFS} §§ 8-3-1 og 8-3-10 første ledd; ${SKTBL} § 10-30`,
    due_rule_nb:
      'En måned og ti dager etter terminen: 10. april, 10. juni, 31. august, 10. oktober, 10. desember og 10. februar.',
    due_rule_en:
      'One month and ten days after the term: 10 April, 10 June, 31 August, 10 October, 10 December and 10 February.',
    shift: FILING_AND_PAYMENT_SHIFT,
    // Term 3 (May–June) has the summer exception: 31 August (§ 8-3-10 first ledd, second sentence).
    periods: (y) =>
      bimonthlyTerms(y, (n) => (n === 3 ? ymd(y, 8, 31) : n === 6 ? ymd(y + 1, 2, 10) : ymd(y, n * 2 + 2, 10))),
    recurring: true,
  },
  {
    id: 'reelle-rettighetshavere',
    name_nb: 'Registrering av reelle rettighetshavere',
    name_en: 'Beneficial owners register',
    description_nb:
      'Opplysninger om reelle rettighetshavere registreres i Brønnøysundregistrene, og endringer meldes innen 14 dager.',
    description_en:
      'Beneficial owners are registered with the Brønnøysund Register Centre, and changes are reported within 14 days.',
    category: 'registration',
    frequency: 'one_time',
    entity_types: ['AS', 'ANS', 'DA', 'NUF'],
    reads: { AS: [], ANS: [], DA: [], NUF: [] },
    condition_nb:
      'Selskaper og andre sammenslutninger som driver virksomhet eller er registrert her. Ikke enkeltpersonforetak. Et NUF med eieropplysninger i et annet EØS-register oppgir hvilket register.',
    condition_en:
      'Companies and other entities doing business or registered here. Not sole proprietorships. A NUF whose owner data are in another EEA register names that register.',
    applies: (f) =>
      f.entity_type === 'NUF'
        ? yes(
            'Plikten gjelder NUF; har foretaket eieropplysningene i et annet EØS-register, oppgis hvilket register i stedet.',
            'The duty covers a NUF; if its owner data are in another EEA register, that register is named instead.',
          )
        : yes('Plikten gjelder alle selskaper av denne typen.', 'The duty covers every company of this type.'),
    legal_reference: `${RRHL} §§ 2 og 3 første ledd; forskrift 21. juni 2021 til loven § 1-2`,
    due_rule_nb:
      'Plikten gjaldt fra 31. juli 2025; nye enheter innen 14 dager etter registreringen, endringer innen 14 dager.',
    due_rule_en: 'Mandatory from 31 July 2025; new entities within 14 days of registration, changes within 14 days.',
    shift: {
      policy: 'none',
      reason_nb: 'Ingen regel om å flytte denne fristen til neste virkedag er funnet.',
      reason_en: 'No rule moving this deadline to the next working day has been found.',
    },
    periods: (y) =>
      y === 2025 ? [{ key: '2025', label: '2025', end: ymd(2025, 7, 31), legal_due: ymd(2025, 7, 31) }] : [],
    recurring: false,
  },
  {
    id: 'revisjon',
    name_nb: 'Revisjonsplikt',
    name_en: 'Statutory audit',
    description_nb:
      'Årsregnskapet revideres av en statsautorisert eller registrert revisor; revisjonsberetningen sendes med årsregnskapet.',
    description_en:
      'The annual accounts are audited by a state-authorised or registered auditor; the auditor’s report goes with the accounts.',
    category: 'audit',
    frequency: 'annual',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['annual_turnover_nok', 'total_assets_nok', 'employee_count'],
      NUF: ['norwegian_tax_liability', 'annual_turnover_nok', 'total_assets_nok', 'employee_count'],
      ENK: ['total_assets_nok', 'employee_count', 'annual_turnover_nok'],
      ANS: [
        'annual_turnover_nok',
        'employee_count',
        'partner_count',
        'has_limited_liability_partner',
        'total_assets_nok',
      ],
      DA: [
        'annual_turnover_nok',
        'employee_count',
        'partner_count',
        'has_limited_liability_partner',
        'total_assets_nok',
      ],
    },
    condition_nb:
      'AS (og NUF som tilsvarer AS) kan velge bort revisjon med driftsinntekter under 7 mill. kr, balansesum under 27 mill. kr og høyst 10 årsverk. Andre regnskapspliktige har revisjonsplikt fra 5 mill. kr i driftsinntekter.',
    condition_en:
      'An AS (and a NUF equivalent to one) may opt out with operating revenue under NOK 7 million, balance under NOK 27 million and at most 10 FTEs. Other entities with accounts duty must be audited from NOK 5 million in operating revenue.',
    applies: (f) => auditDuty(f),
    legal_reference: `${REVL} § 2-1; ${ASL} § 7-6 med forskrift om terskelverdier`,
    due_rule_nb: 'Revisjonsberetningen sendes sammen med årsregnskapet, senest 31. juli året etter.',
    due_rule_en: 'The auditor’s report is filed with the annual accounts, by 31 July of the following year.',
    shift: ACCOUNTS_NO_SHIFT,
    periods: (y) => annual(y, y === 2020 ? ymd(2021, 9, 30) : ymd(y + 1, 7, 31)),
    recurring: true,
  },
  {
    id: 'selskapsmelding',
    name_nb: 'Selskapsmelding',
    name_en: 'Partnership tax return',
    description_nb: 'Selskapsmelding for ansvarlige selskaper; deltakerne leverer i tillegg egen skattemelding.',
    description_en: 'Tax return of the partnership; the partners also file their own tax returns.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['ANS', 'DA'],
    reads: { ANS: [], DA: [] },
    condition_nb: 'Alle ansvarlige selskaper (ANS og DA).',
    condition_en: 'Every general partnership (ANS and DA).',
    applies: () =>
      yes(
        'Ansvarlige selskaper skal alltid levere selskapsmelding.',
        'A general partnership must always file the partnership return.',
      ),
    legal_reference: `${SKTFVL} § 8-9; ${SKTFVFS} § 8-2-3`,
    due_rule_nb: '31. mai året etter inntektsåret.',
    due_rule_en: '31 May of the year after the income year.',
    shift: FILING_SHIFT,
    periods: (y) => annual(y, ymd(y + 1, 5, 31)),
    recurring: true,
  },
  {
    id: 'skattemelding-naering',
    name_nb: 'Skattemelding for næringsdrivende',
    name_en: 'Tax return for sole traders',
    description_nb: 'Innehaveren leverer skattemelding med næringsspesifikasjon for foretaket.',
    description_en: 'The owner files a tax return with the business specification for the sole proprietorship.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['ENK'],
    reads: { ENK: [] },
    condition_nb: 'Alle enkeltpersonforetak.',
    condition_en: 'Every sole proprietorship.',
    applies: () =>
      yes(
        'Innehaveren av et enkeltpersonforetak skal alltid levere skattemelding for næringsdrivende.',
        'The owner of a sole proprietorship must always file the tax return for sole traders.',
      ),
    legal_reference: `${SKTFVL} § 8-2; ${SKTFVFS} § 8-2-3`,
    due_rule_nb: '31. mai året etter inntektsåret.',
    due_rule_en: '31 May of the year after the income year.',
    shift: FILING_SHIFT,
    periods: (y) => annual(y, ymd(y + 1, 5, 31)),
    recurring: true,
  },
  {
    id: 'skattemelding-upersonlig',
    name_nb: 'Skattemelding for formues- og inntektsskatt for selskaper',
    name_en: 'Company tax return',
    description_nb: 'Selskapets skattemelding med næringsspesifikasjon.',
    description_en: 'The company’s tax return with the business specification.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['AS', 'NUF'],
    reads: { AS: [], NUF: ['norwegian_tax_liability'] },
    condition_nb: 'Alle aksjeselskap; NUF som er skattepliktige til Norge.',
    condition_en: 'Every limited company; a NUF with tax liability to Norway.',
    applies: (f) => {
      if (f.entity_type === 'AS')
        return yes('Aksjeselskap skal alltid levere skattemelding.', 'A limited company must always file a tax return.')
      if (f.norwegian_tax_liability === true)
        return yes('Foretaket er skattepliktig til Norge.', 'The branch is taxable in Norway.')
      if (f.norwegian_tax_liability === false)
        return no('Foretaket er ikke skattepliktig til Norge.', 'The branch is not taxable in Norway.')
      return unknown(
        ['norwegian_tax_liability'],
        'Det er ukjent om foretaket er skattepliktig til Norge.',
        'Whether the branch is taxable in Norway is unknown.',
      )
    },
    legal_reference: `${SKTFVL} § 8-2; ${SKTFVFS} § 8-2-3`,
    due_rule_nb: '31. mai året etter inntektsåret.',
    due_rule_en: '31 May of the year after the income year.',
    shift: FILING_SHIFT,
    periods: (y) => annual(y, ymd(y + 1, 5, 31)),
    recurring: true,
  },

  // ---- Rulebook 1.1.0 --------------------------------------------------------------------------

  {
    id: 'generalforsamling',
    name_nb: 'Ordinær generalforsamling',
    name_en: 'Ordinary general meeting',
    description_nb:
      'Den ordinære generalforsamlingen godkjenner årsregnskapet og eventuell årsberetning, herunder utbytte. Dokumentene sendes aksjeeierne minst én uke før. Møtet kan holdes fysisk eller elektronisk, eller behandles skriftlig når ingen aksjeeier motsetter seg det.',
    description_en:
      'The ordinary general meeting approves the annual accounts and any directors’ report, including dividend. The documents go to the shareholders at least one week before. It may meet physically or electronically, or decide in writing when no shareholder objects.',
    category: 'reporting',
    frequency: 'annual',
    entity_types: ['AS'],
    reads: { AS: [] },
    condition_nb:
      'Alle aksjeselskap. Regnskapsår som ikke følger kalenderåret er ikke modellert: da er fristen seks måneder etter det årets slutt.',
    condition_en:
      'Every limited company. Financial years other than the calendar year are not modelled: the deadline is then six months after that year’s end.',
    applies: () =>
      yes(
        'Aksjeselskap skal holde ordinær generalforsamling innen seks måneder etter regnskapsårets slutt.',
        'A limited company must hold its ordinary general meeting within six months of the end of the financial year.',
      ),
    legal_reference: `${ASL} § 5-5 første ledd`,
    due_rule_nb: 'Innen seks måneder etter regnskapsårets slutt: 30. juni året etter for kalenderår.',
    due_rule_en:
      'Within six months of the end of the financial year: 30 June of the following year for a calendar year.',
    shift: {
      policy: 'none',
      reason_nb:
        'Fristen flyttes ikke når den faller på en helg eller helligdag: aksjeloven har ingen slik regel, og generalforsamlingen er selskapets egen handling, ikke en innlevering til et kontor.',
      reason_en:
        'The deadline does not move when it falls on a weekend or holiday: the Limited Liability Companies Act has no such rule, and the meeting is the company’s own act, not a filing with an office.',
    },
    periods: sixMonthsAfterYearEnd,
    recurring: true,
    uncertainties: [
      {
        id: 'generalforsamling-ingen-helgeregel',
        as_of: '2025-10-27',
        nb: 'At fristen ikke flyttes, bygger på at aksjeloven ikke har noen regel om helg og helligdag; ingen dom eller uttalelse fra departementet om en 30. juni på en helg er funnet. Enkelte andre tjenester flytter datoen til neste virkedag.',
        en: 'That the deadline does not move rests on the absence of any weekend or holiday rule in the Act; no court ruling or ministry statement on a 30 June falling on a weekend was found. Some other services move the date to the next working day.',
        sources: [
          { title: 'Aksjeloven § 5-5 (Lovdata)', url: 'https://lovdata.no/dokument/NL/lov/1997-06-13-44/KAPITTEL_5-1' },
        ],
        concerns: (p) => nonWorkingReason(p.legal_due) !== null,
      },
      COVID_2021_EXTENSION,
    ],
  },
  {
    id: 'arsregnskap-fastsetting',
    name_nb: 'Fastsetting av årsregnskapet',
    name_en: 'Adoption of the annual accounts',
    description_nb:
      'Årsregnskapet (og årsberetningen, der den kreves) fastsettes senest seks måneder etter regnskapsårets slutt; innsendingen til Regnskapsregisteret følger innen én måned. I et aksjeselskap er fastsettingen generalforsamlingens godkjenning.',
    description_en:
      'The annual accounts (and the directors’ report where required) are adopted within six months of the end of the financial year; filing with the Register of Company Accounts follows within a month. In a limited company, adoption is the general meeting’s approval.',
    category: 'reporting',
    frequency: 'annual',
    entity_types: ['AS', 'ENK', 'ANS', 'DA'],
    reads: {
      AS: [],
      ANS: ['annual_turnover_nok', 'employee_count', 'partner_count', 'has_limited_liability_partner'],
      DA: ['annual_turnover_nok', 'employee_count', 'partner_count', 'has_limited_liability_partner'],
      ENK: ['total_assets_nok', 'employee_count'],
    },
    condition_nb:
      'Alle regnskapspliktige: aksjeselskap alltid; ANS, DA og ENK når de har regnskapsplikt (som for årsregnskapet). NUF er ikke tatt med: reglene for det utenlandske selskapets regnskap er ikke kontrollert.',
    condition_en:
      'Everyone with a duty to keep accounts: limited companies always; ANS, DA and ENK when they have the duty (as for the annual accounts). NUF is left out: the rules for the foreign company’s accounts have not been checked.',
    applies: (f) => accountsDuty(f),
    legal_reference: `${RSKL} § 3-1; for aksjeselskap ${ASL} § 5-5 annet ledd`,
    due_rule_nb: 'Senest seks måneder etter regnskapsårets slutt: 30. juni året etter for kalenderår.',
    due_rule_en:
      'Within six months of the end of the financial year: 30 June of the following year for a calendar year.',
    shift: {
      policy: 'none',
      reason_nb:
        'Fristen flyttes ikke når den faller på en helg eller helligdag: regnskapsloven har ingen slik regel, og fastsettingen er foretakets egen handling.',
      reason_en:
        'The deadline does not move when it falls on a weekend or holiday: the Accounting Act has no such rule, and adoption is the business’s own act.',
    },
    periods: sixMonthsAfterYearEnd,
    recurring: true,
    uncertainties: [
      {
        id: 'arsregnskap-fastsetting-ingen-helgeregel',
        as_of: '2025-10-27',
        nb: 'At fristen ikke flyttes, bygger på at regnskapsloven ikke har noen regel om helg og helligdag. Teksten i § 3-1 er lest slik Regnskap Norge gjengir den, ikke i Lovdata.',
        en: 'That the deadline does not move rests on the absence of any weekend or holiday rule in the Accounting Act. Section 3-1 was read as Regnskap Norge quotes it, not on Lovdata.',
        sources: [
          {
            title: 'Regnskap Norge: Siste frist for innsendelse av årsregnskap er 31. juli',
            url: 'https://www.regnskapnorge.no/faget/artikler/regnskap/siste-frist-for-innsendelse-av-arsregnskap-er-31.-juli/',
          },
        ],
        concerns: (p) => nonWorkingReason(p.legal_due) !== null,
      },
      COVID_2021_EXTENSION,
    ],
  },
  {
    id: 'tilleggsforskudd',
    name_nb: 'Tilleggsforskudd',
    name_en: 'Additional advance tax',
    description_nb:
      'Frivillig innbetaling av skatt for inntektsåret, senest 31. mai året etter, for å unngå eller redusere rentetillegg på restskatt. Det er en rett, ikke en plikt: den som ikke venter restskatt, trenger ikke betale.',
    description_en:
      'A voluntary payment of tax for the income year, by 31 May of the following year, to avoid or reduce interest on residual tax. It is a right, not a duty: a taxpayer who expects no residual tax need not pay.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['AS', 'ENK', 'NUF'],
    reads: {
      AS: ['expects_residual_tax'],
      ENK: ['expects_residual_tax'],
      NUF: ['norwegian_tax_liability', 'expects_residual_tax'],
    },
    condition_nb:
      'Frivillig. Aktuelt for skattytere som venter restskatt: aksjeselskap, NUF som er skattepliktig til Norge, og innehaveren av et enkeltpersonforetak. Ikke ANS/DA: deltakerne betaler sin egen skatt.',
    condition_en:
      'Optional. Relevant to taxpayers who expect residual tax: limited companies, a NUF taxable in Norway, and the owner of a sole proprietorship. Not ANS/DA: the partners pay their own tax.',
    applies: (f) => {
      if (f.entity_type === 'NUF' && f.norwegian_tax_liability === false)
        return no('Foretaket er ikke skattepliktig til Norge.', 'The branch is not taxable in Norway.')
      if (f.expects_residual_tax === true) {
        if (f.entity_type === 'NUF' && f.norwegian_tax_liability === null) {
          return unknown(
            ['norwegian_tax_liability'],
            'Tilleggsforskudd er frivillig og bare aktuelt ved skatteplikt til Norge, som er ukjent for foretaket.',
            'An additional advance is optional and only relevant with tax liability to Norway, which is unknown for the branch.',
          )
        }
        return yes(
          'Det ventes restskatt: tilleggsforskudd er frivillig, men betalt innen 31. mai reduserer det rentetillegget.',
          'Residual tax is expected: an additional advance is optional, but paid by 31 May it reduces the interest charged.',
        )
      }
      if (f.expects_residual_tax === false)
        return no(
          'Det ventes ingen restskatt: tilleggsforskudd er frivillig og har ingen hensikt her.',
          'No residual tax is expected: an additional advance is optional and serves no purpose here.',
        )
      return unknown(
        f.entity_type === 'NUF' && f.norwegian_tax_liability === null
          ? ['norwegian_tax_liability', 'expects_residual_tax']
          : ['expects_residual_tax'],
        'Tilleggsforskudd er frivillig og bare aktuelt ved forventet restskatt, som ingen åpne registre viser.',
        'An additional advance is optional and only relevant when residual tax is expected, which no open register shows.',
      )
    },
    legal_reference: `${SKTBL} § 4-7; rentetillegg § 11-5 første ledd`,
    due_rule_nb:
      'Senest 31. mai året etter inntektsåret; faller dagen på en helg eller helligdag, er fristen første virkedag etter.',
    due_rule_en:
      '31 May of the year after the income year at the latest; if that day is a weekend or holiday, the first working day after.',
    shift: { policy: 'next_business_day', basis: `Skatteetatens praksis, i samsvar med ${SKTBL} § 10-2` },
    periods: (y) => annual(y, ymd(y + 1, 5, 31)),
    recurring: true,
    uncertainties: [
      {
        id: 'tilleggsforskudd-hjemmel',
        as_of: '2025-10-27',
        nb: 'Ordlyden i skattebetalingsloven § 4-7 er bare lest i Skattebetalingshåndboken 2014 («ikke senere enn 31. mai i ligningsåret»); datoen bekreftes av Skatteetatens gjeldende sider. Flyttingen fra helg og helligdag bygger på Skatteetatens uttalte praksis, ikke på en egen lovregel.',
        en: 'The wording of skattebetalingsloven section 4-7 was read only in the 2014 Skattebetalingshåndboken ("not later than 31 May of the assessment year"); current Skatteetaten pages confirm the date. The move off weekends and holidays rests on Skatteetaten’s stated practice, not on a rule of the Act itself.',
        sources: [
          {
            title: 'Skatteetaten: Tilleggsforskudd for næringsdrivende',
            url: 'https://www.skatteetaten.no/bedrift-og-organisasjon/skatt/forskuddsskatt/tilleggsforskudd/',
          },
          {
            title: 'Skattebetalingshåndboken, § 4-7',
            url: 'https://www.skatteetaten.no/rettskilder/type/handboker/skattebetalingshandboken/gjeldende/kapittel-4.-forskudd-pa-skatt/ID-4-7.001/ID-4-7.003/',
          },
        ],
      },
    ],
  },
  {
    id: 'mva-manedlig',
    name_nb: 'Mva-melding, månedlig termin',
    name_en: 'VAT return, monthly period',
    description_nb:
      'Mva-melding og betaling for hver måned når skattekontoret har fastsatt månedlig skattleggingsperiode etter gjentatte og vesentlige brudd på leveringsplikten (for inntil tolv måneder). Det er ikke en periode virksomheten selv velger.',
    description_en:
      'VAT return and payment for each month when the tax office has imposed a monthly period after repeated and material breaches of the filing duty (for up to twelve months). It is not a period the business chooses.',
    category: 'tax',
    frequency: 'monthly',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['mva_registered', 'mva_monthly_term'],
      ENK: ['mva_registered', 'mva_monthly_term'],
      ANS: ['mva_registered', 'mva_monthly_term'],
      DA: ['mva_registered', 'mva_monthly_term'],
      NUF: ['mva_registered', 'mva_monthly_term'],
    },
    condition_nb:
      'Bare når skattekontoret har pålagt mva-registrerte virksomheten månedlig termin; det vises ikke i åpne registre.',
    condition_en:
      'Only when the tax office has imposed a monthly period on the VAT-registered business; no open register shows it.',
    applies: (f) => {
      if (f.mva_registered === false)
        return no('Ikke registrert i Merverdiavgiftsregisteret.', 'Not registered for VAT.')
      if (f.mva_registered === null)
        return unknown(['mva_registered'], 'Mva-registreringen er ukjent.', 'The VAT registration is unknown.')
      if (f.mva_monthly_term === true)
        return yes(
          'Skattekontoret har pålagt månedlig termin: mva-melding for hver måned.',
          'The tax office has imposed a monthly period: a VAT return for each month.',
        )
      if (f.mva_monthly_term === false)
        return no('Ingen pålagt månedlig termin.', 'No monthly period has been imposed.')
      return unknown(
        ['mva_monthly_term'],
        'Månedlig termin gjelder bare når skattekontoret har pålagt den, og det vises ikke i åpne registre.',
        'The monthly period applies only when the tax office has imposed it, and no open register shows that.',
      )
    },
    legal_reference: `${SKTFVFS} §§ 8-3-2 og 8-3-10 første ledd første punktum; ${SKTBL} § 10-30`,
    due_rule_nb:
      'En måned og ti dager etter måneden: den 10. i den andre måneden etter. Sommerunntaket (31. august) gjelder ikke: mai 10. juli, juni 10. august.',
    due_rule_en:
      'One month and ten days after the month: the 10th of the second month after. The summer exception (31 August) does not apply: May is due 10 July, June 10 August.',
    shift: FILING_AND_PAYMENT_SHIFT,
    periods: monthsDueTenthOfSecondMonthAfter,
    recurring: true,
    uncertainties: [
      {
        id: 'mva-manedlig-sommer',
        as_of: '2025-10-27',
        nb: 'At mai og juni forfaller 10. juli og 10. august, følger av ordlyden i skatteforvaltningsforskriften § 8-3-10 første ledd slik Skatteforvaltningshåndboken gjengir den (sommerunntaket nevner bare tredje alminnelige termin og særskilt skattemelding); noe eksempel fra Skatteetaten er ikke funnet.',
        en: 'That May and June fall due on 10 July and 10 August follows from the wording of skatteforvaltningsforskriften section 8-3-10 (1) as Skatteforvaltningshåndboken quotes it (the summer exception names only the third ordinary term and the special return); no worked example from Skatteetaten was found.',
        sources: [{ title: 'Skatteforvaltningshåndboken § 8-3, leveringsfrister for mva-meldinger', url: SFH_8_3_10 }],
        concerns: (p) => p.label.endsWith('-05') || p.label.endsWith('-06'),
      },
    ],
  },
  {
    id: 'mva-arstermin-primaer',
    name_nb: 'Mva-melding, årstermin for primærnæring',
    name_en: 'Annual VAT return, primary industries',
    description_nb:
      'Jordbruk med binæringer, skogbruk og fiske (også pelsdyr og reindrift) har som hovedregel kalenderåret som skattleggingsperiode, med én mva-melding og betaling for året.',
    description_en:
      'Farming with side activities, forestry and fishing (also fur farming and reindeer husbandry) have the calendar year as their VAT period as a rule, with one return and payment for the year.',
    category: 'tax',
    frequency: 'annual',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['mva_registered', 'mva_primary_industry_term'],
      ENK: ['mva_registered', 'mva_primary_industry_term'],
      ANS: ['mva_registered', 'mva_primary_industry_term'],
      DA: ['mva_registered', 'mva_primary_industry_term'],
      NUF: ['mva_registered', 'mva_primary_industry_term'],
    },
    condition_nb:
      'Mva-registrerte virksomheter i primærnæring som har kalenderåret som skattleggingsperiode. Næringskode 01–03 er bare et hint; perioden registreres av Skatteetaten.',
    condition_en:
      'VAT-registered primary-industry businesses with the calendar year as their VAT period. Industry code 01–03 is only a hint; the period is registered by the Tax Administration.',
    applies: (f) => {
      if (f.mva_registered === false)
        return no('Ikke registrert i Merverdiavgiftsregisteret.', 'Not registered for VAT.')
      if (f.mva_registered === null)
        return unknown(['mva_registered'], 'Mva-registreringen er ukjent.', 'The VAT registration is unknown.')
      if (f.mva_primary_industry_term === true)
        return yes(
          'Primærnæring med kalenderåret som skattleggingsperiode.',
          'Primary industry with the calendar year as its VAT period.',
        )
      if (f.mva_primary_industry_term === false)
        return no('Har ikke årlig periode for primærnæring.', 'Has no annual primary-industry period.')
      const hint = f.nace_codes.some((c) => /^0[1-3]\./.test(c))
      return unknown(
        ['mva_primary_industry_term'],
        hint
          ? 'Næringskoden tyder på primærnæring, men om virksomheten har kalenderåret som periode, vises ikke i åpne registre.'
          : 'Om virksomheten har årlig periode for primærnæring, vises ikke i åpne registre.',
        hint
          ? 'The industry code suggests a primary industry, but whether the business has the calendar year as its period is not in the open registers.'
          : 'Whether the business has the annual primary-industry period is not in the open registers.',
      )
    },
    legal_reference: `${SKTFVFS} §§ 8-3-7 første ledd og 8-3-10 tredje ledd; ${SKTBL} § 10-30`,
    due_rule_nb: 'Tre måneder og ti dager etter året: 10. april året etter.',
    due_rule_en: 'Three months and ten days after the year: 10 April of the following year.',
    shift: FILING_AND_PAYMENT_SHIFT,
    periods: (y) => [{ key: `${y}`, label: `${y}-A`, end: ymd(y, 12, 31), legal_due: ymd(y + 1, 4, 10) }],
    recurring: true,
    uncertainties: [
      {
        id: 'mva-arstermin-primaer-unntak',
        as_of: '2025-10-27',
        nb: 'Bare hovedregelen i skatteforvaltningsforskriften § 8-3-7 første ledd er lest (gjengitt i Skattebetalingshåndboken); unntakene, for eksempel for blandet virksomhet, er ikke lest. Datoen er sikker.',
        en: 'Only the main rule of skatteforvaltningsforskriften section 8-3-7 (1) was read (as quoted in Skattebetalingshåndboken); its exceptions, e.g. for mixed businesses, were not. The date is settled.',
        sources: [
          {
            title: 'Skatteetaten: Regler og skjema for jordbruk, skogbruk og fiske',
            url: 'https://www.skatteetaten.no/bedrift-og-organisasjon/rapportering-og-bransjer/jordbruk-skogbruk-og-fiske/regler-og-skjema-for-jordbruk-skogbruk-og-fiske/',
          },
        ],
      },
    ],
  },
  {
    id: 'mva-omvendt-avgiftsplikt',
    name_nb: 'Mva-melding for omvendt avgiftsplikt',
    name_en: 'VAT return for reverse charge',
    description_nb:
      'Virksomheter som ikke er registrert i Merverdiavgiftsregisteret, men kjøper tjenester fra utlandet (eller klimakvoter eller gull) med omvendt avgiftsplikt, leverer særskilt mva-melding (RF-0005) for kvartaler med slike kjøp over 2 000 kr.',
    description_en:
      'Businesses not registered for VAT that buy services from abroad (or emission allowances or gold) under the reverse charge file a special VAT return (RF-0005) for quarters with such purchases over NOK 2,000.',
    category: 'tax',
    frequency: 'quarterly',
    entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['mva_registered', 'reverse_charge_purchases'],
      ENK: ['mva_registered', 'reverse_charge_purchases'],
      ANS: ['mva_registered', 'reverse_charge_purchases'],
      DA: ['mva_registered', 'reverse_charge_purchases'],
      NUF: ['mva_registered', 'reverse_charge_purchases'],
    },
    condition_nb:
      'Bare virksomheter som ikke er mva-registrert, og bare for kvartaler der kjøp med omvendt avgiftsplikt overstiger 2 000 kr. Registrerte virksomheter tar slike kjøp med i den vanlige mva-meldingen.',
    condition_en:
      'Only businesses not registered for VAT, and only for quarters in which reverse-charge purchases exceed NOK 2,000. Registered businesses include such purchases in their ordinary VAT return.',
    applies: (f) => {
      if (f.mva_registered === true)
        return no(
          'Registrert i Merverdiavgiftsregisteret: kjøp med omvendt avgiftsplikt føres i den vanlige mva-meldingen.',
          'Registered for VAT: reverse-charge purchases go in the ordinary VAT return.',
        )
      if (f.mva_registered === null)
        return unknown(['mva_registered'], 'Mva-registreringen er ukjent.', 'The VAT registration is unknown.')
      if (f.reverse_charge_purchases === true)
        return yes(
          'Ikke mva-registrert og kjøper med omvendt avgiftsplikt: særskilt mva-melding for hvert kvartal med kjøp over 2 000 kr.',
          'Not registered for VAT and buys under the reverse charge: a special VAT return for each quarter with purchases over NOK 2,000.',
        )
      if (f.reverse_charge_purchases === false)
        return no(
          'Ingen kjøp med omvendt avgiftsplikt over 2 000 kr i kvartalet.',
          'No reverse-charge purchases over NOK 2,000 in a quarter.',
        )
      return unknown(
        ['reverse_charge_purchases'],
        'Ikke mva-registrert; plikten gjelder bare kvartaler med kjøp fra utlandet over 2 000 kr, og det vises ikke i åpne registre.',
        'Not registered for VAT; the duty covers only quarters with purchases from abroad over NOK 2,000, which no open register shows.',
      )
    },
    legal_reference: `${MVAL} §§ 3-30 og 11-3; ${SKTFVFS} § 8-3-10 første ledd; ${SKTBL} § 10-30`,
    due_rule_nb:
      'En måned og ti dager etter kvartalet: 10. mai, 10. august (omstridt, se usikkerhet), 10. november og 10. februar.',
    due_rule_en:
      'One month and ten days after the quarter: 10 May, 10 August (contested, see uncertainties), 10 November and 10 February.',
    shift: FILING_AND_PAYMENT_SHIFT,
    // Q2: the earlier of the two dates the sources give (10 August, not 31 August); see the note.
    periods: (y) => quarters(y, (n) => (n === 4 ? ymd(y + 1, 2, 10) : ymd(y, n * 3 + 2, 10))),
    recurring: true,
    uncertainties: [
      {
        id: 'mva-omvendt-avgiftsplikt-q2',
        as_of: '2025-10-27',
        nb: 'Fristen for 2. kvartal er omstridt. Skatteetatens skjemasider for RF-0005 og Altinn oppgir 10. august. Skatteforvaltningshåndboken gjengir skatteforvaltningsforskriften § 8-3-10 første ledd tredje punktum slik at sommerunntaket (31. august) også gjelder særskilt skattemelding, og sier at 31. august også gjelder omvendt avgiftsplikt. Ingen endring av § 8-3-10 i 2025 er funnet. Plikt oppgir den tidligste datoen, 10. august: den som leverer og betaler innen da, er ikke for sent ute etter noen av kildene.',
        en: 'The Q2 deadline is contested. Skatteetaten’s RF-0005 form pages and Altinn give 10 August. Skatteforvaltningshåndboken quotes skatteforvaltningsforskriften section 8-3-10 (1) third sentence so that the summer exception (31 August) also covers the special VAT return, and says 31 August also applies to the reverse charge. No 2025 amendment of section 8-3-10 was found. Plikt answers the earlier date, 10 August: filing and paying by then is late under neither source.',
        sources: [
          {
            title: 'Skatteetaten: Mva-melding for omvendt avgiftsplikt (RF-0005)',
            url: 'https://www.skatteetaten.no/skjema/mva-melding-for-omvendt-avgiftsplikt/',
          },
          {
            title: 'Altinn: Merverdiavgift – mva-melding for omvendt avgiftsplikt',
            url: 'https://www.altinn.no/skjemaoversikt/skatteetaten/merverdiavgift-mvamoms---mva-melding-for-omvendt-avgiftsplikt-/',
          },
          { title: 'Skatteforvaltningshåndboken § 8-3, leveringsfrister for mva-meldinger', url: SFH_8_3_10 },
        ],
        concerns: (p) => p.label.endsWith('-Q2'),
        contested: (p) => {
          const y = Number(p.label.slice(0, 4))
          return [
            {
              date: ymd(y, 8, 10),
              sources: [
                'Skatteetaten: Mva-melding for omvendt avgiftsplikt (RF-0005)',
                'Altinn: Merverdiavgift – mva-melding for omvendt avgiftsplikt',
              ],
            },
            { date: ymd(y, 8, 31), sources: ['Skatteforvaltningshåndboken § 8-3, leveringsfrister for mva-meldinger'] },
          ]
        },
      },
    ],
  },
  {
    id: 'apenhetsloven-redegjorelse',
    name_nb: 'Redegjørelse etter åpenhetsloven',
    name_en: 'Transparency Act account',
    description_nb:
      'Større virksomheter offentliggjør en redegjørelse for aktsomhetsvurderingene (grunnleggende menneskerettigheter og anstendige arbeidsforhold) innen 30. juni hvert år, og ellers ved vesentlige endringer. Den kan stå i årsberetningen. Plikten gjelder bare over størrelsesgrensene.',
    description_en:
      'Larger enterprises publish an account of their due diligence (fundamental human rights and decent working conditions) by 30 June each year, and otherwise on material changes. It may sit in the directors’ report. The duty applies only above the size thresholds.',
    category: 'reporting',
    frequency: 'annual',
    entity_types: ['AS', 'ANS', 'DA', 'NUF'],
    reads: {
      AS: ['transparency_act_size_met'],
      ANS: ['transparency_act_size_met'],
      DA: ['transparency_act_size_met'],
      NUF: ['norwegian_tax_liability', 'transparency_act_size_met'],
    },
    condition_nb:
      'Betinget av størrelse: store foretak etter regnskapsloven, eller foretak som på balansedagen overstiger to av tre grenser — salgsinntekt 70 mill. kr, balansesum 35 mill. kr, 50 årsverk i snitt — to år på rad; morselskap vurderes for konsernet. Utenlandske foretak bare når de er skattepliktige til Norge.',
    condition_en:
      'Conditional on size: large enterprises under the Accounting Act, or enterprises exceeding two of three limits on the balance-sheet date — sales NOK 70 million, balance-sheet total NOK 35 million, 50 FTEs on average — two years running; a parent is tested on the group. Foreign enterprises only when taxable in Norway.',
    applies: (f) => {
      if (f.entity_type === 'NUF' && f.norwegian_tax_liability === false)
        return no('Foretaket er ikke skattepliktig til Norge.', 'The branch is not taxable in Norway.')
      if (f.transparency_act_size_met === false)
        return no(
          'Under størrelsesgrensene i åpenhetsloven § 3: ingen plikt til redegjørelse.',
          'Below the size limits of the Transparency Act section 3: no duty to publish an account.',
        )
      const missing: FactName[] =
        f.entity_type === 'NUF' && f.norwegian_tax_liability === null ? ['norwegian_tax_liability'] : []
      if (f.transparency_act_size_met === true && missing.length === 0) {
        return yes(
          'Større virksomhet etter åpenhetsloven § 3: redegjørelsen offentliggjøres innen 30. juni.',
          'A larger enterprise under the Transparency Act section 3: the account is published by 30 June.',
        )
      }
      if (f.transparency_act_size_met === null) missing.push('transparency_act_size_met')
      return unknown(
        missing,
        `Plikten gjelder bare over størrelsesgrensene (to av tre grenser to år på rad, for konsernet), og det vises ikke i åpne registre.${sizeHintNb(f)}`,
        `The duty applies only above the size limits (two of three limits two years running, for the group), which no open register shows.${sizeHintEn(f)}`,
      )
    },
    legal_reference: `${APL} §§ 2, 3 og 5`,
    due_rule_nb: 'Innen 30. juni hvert år (for året før), og ved vesentlige endringer i risikovurderingene.',
    due_rule_en: 'By 30 June each year (for the year before), and on material changes to the risk assessments.',
    shift: {
      policy: 'none',
      reason_nb:
        'Fristen flyttes ikke når den faller på en helg eller helligdag: åpenhetsloven har ingen slik regel, og offentliggjøringen er virksomhetens egen handling.',
      reason_en:
        'The deadline does not move when it falls on a weekend or holiday: the Transparency Act has no such rule, and publishing is the enterprise’s own act.',
    },
    periods: (y) => annual(y, ymd(y + 1, 6, 30)),
    recurring: true,
    uncertainties: [
      {
        id: 'apenhetsloven-lovtekst',
        as_of: '2025-10-27',
        nb: 'Lovteksten i åpenhetsloven §§ 3 og 5 etter endringene i kraft 1. november 2024 er ikke lest; 30. juni oppgis av Forbrukertilsynet på en side oppdatert etter endringene. Periodeangivelsen (året før fristen) er en konvensjon, ikke lovtekst. Om et enkeltpersonforetak kan være «større virksomhet», er ikke avklart, så ENK er ikke tatt med. Ingen regel om helg og helligdag er funnet.',
        en: 'The text of the Transparency Act sections 3 and 5 as amended in force 1 November 2024 was not read; 30 June is stated by the Consumer Authority on a page updated after the amendments. The period label (the year before the deadline) is a convention, not statute. Whether a sole proprietorship can be a "larger enterprise" is not settled, so ENK is left out. No weekend or holiday rule was found.',
        sources: [
          {
            title: 'Forbrukertilsynet: Redegjørelse',
            url: 'https://www.forbrukertilsynet.no/vi-jobber-med/apenhetsloven/redegjorelsesplikt',
          },
          {
            title: 'Forbrukertilsynet: Hvem har plikter etter åpenhetsloven',
            url: 'https://forbrukertilsynet.no/vi-jobber-med/apenhetsloven/hvem-har-plikter-etter-apenhetsloven',
          },
        ],
      },
    ],
  },
]

/** Every rule of the rulebook, with its dated exceptions applied (exceptions.ts). */
export const RULES: Rule[] = withExceptions(RULE_TABLE, DATED_EXCEPTIONS)

// ---------------------------------------------------------------------------------------------
// Conditions too long to read inline

function advanceTaxVerdict(f: CompanyFacts): Verdict {
  if (f.advance_tax_assessed === true)
    return yes('Skatteetaten har skrevet ut forskuddsskatt.', 'The Tax Administration has assessed advance tax.')
  if (f.advance_tax_assessed === false)
    return no('Det er ikke skrevet ut forskuddsskatt.', 'No advance tax has been assessed.')
  return unknown(
    ['advance_tax_assessed'],
    'Det er ukjent om det er skrevet ut forskuddsskatt.',
    'Whether advance tax has been assessed is unknown.',
  )
}

const NOK = (n: number) => `${(n / 1_000_000).toLocaleString('nb-NO')} mill. kr`
const NOK_EN = (n: number) => `NOK ${(n / 1_000_000).toLocaleString('en-GB')} million`

/** Regnskapsplikt (rskl. § 1-2): the thresholds by entity type. */
export function accountsDuty(f: CompanyFacts): Verdict {
  switch (f.entity_type) {
    case 'AS':
      return yes(
        'Aksjeselskap har alltid regnskapsplikt.',
        'A limited company always has the duty to keep and file accounts.',
      )
    case 'NUF':
      if (f.norwegian_tax_liability === true)
        return yes(
          'Foretaket driver virksomhet og er skattepliktig i Norge.',
          'The branch does business and is taxable in Norway.',
        )
      if (f.norwegian_tax_liability === false)
        return no('Foretaket er ikke skattepliktig i Norge.', 'The branch is not taxable in Norway.')
      return unknown(
        ['norwegian_tax_liability'],
        'Det er ukjent om foretaket er skattepliktig i Norge.',
        'Whether the branch is taxable in Norway is unknown.',
      )
    case 'ENK': {
      if ((f.total_assets_nok ?? 0) > 20_000_000)
        return yes(`Eiendelene er over ${NOK(20_000_000)}.`, `Assets exceed ${NOK_EN(20_000_000)}.`)
      if ((f.employee_count ?? 0) > 20)
        return yes('Foretaket har over 20 årsverk.', 'The business has more than 20 FTEs.')
      const missing = (['total_assets_nok', 'employee_count'] as const).filter((k) => f[k] === null)
      if (missing.length)
        return unknown(
          [...missing],
          'Eiendeler og årsverk avgjør regnskapsplikten, og minst én av dem er ukjent.',
          'Assets and FTEs decide the duty, and at least one is unknown.',
        )
      return no(
        `Eiendeler under ${NOK(20_000_000)} og høyst 20 årsverk.`,
        `Assets under ${NOK_EN(20_000_000)} and at most 20 FTEs.`,
      )
    }
    case 'ANS':
    case 'DA': {
      // Duty unless ALL hold: sales < 5 M, < 5 FTEs, ≤ 5 partners, no limited-liability partner.
      if ((f.annual_turnover_nok ?? 0) >= 5_000_000)
        return yes(`Salgsinntekten er minst ${NOK(5_000_000)}.`, `Sales are at least ${NOK_EN(5_000_000)}.`)
      if ((f.employee_count ?? 0) >= 5)
        return yes('Selskapet har minst 5 årsverk.', 'The partnership has at least 5 FTEs.')
      if ((f.partner_count ?? 0) > 5)
        return yes('Selskapet har over 5 deltakere.', 'The partnership has more than 5 partners.')
      if (f.has_limited_liability_partner === true)
        return yes('En deltaker er et selskap med begrenset ansvar.', 'A partner is a company with limited liability.')
      const missing = (
        ['annual_turnover_nok', 'employee_count', 'partner_count', 'has_limited_liability_partner'] as const
      ).filter((k) => f[k] === null)
      if (missing.length)
        return unknown(
          [...missing],
          'Salgsinntekt, årsverk og deltakere avgjør regnskapsplikten, og noe av dette er ukjent.',
          'Sales, FTEs and partners decide the duty, and some of it is unknown.',
        )
      return no(
        'Under alle grensene for regnskapsplikt for ansvarlige selskaper.',
        'Below every threshold of the accounts duty for partnerships.',
      )
    }
  }
}

/** Revisjonsplikt (revl. § 2-1, asl. § 7-6). */
export function auditDuty(f: CompanyFacts): Verdict {
  if (f.entity_type === 'AS' || f.entity_type === 'NUF') {
    if (f.entity_type === 'NUF') {
      const duty = accountsDuty(f)
      if (duty.result !== 'applicable')
        return duty.result === 'not_applicable'
          ? no('Foretaket har ikke regnskapsplikt i Norge.', 'The branch has no accounts duty in Norway.')
          : duty
    }
    if ((f.annual_turnover_nok ?? 0) >= 7_000_000)
      return yes(`Driftsinntektene er minst ${NOK(7_000_000)}.`, `Operating revenue is at least ${NOK_EN(7_000_000)}.`)
    if ((f.total_assets_nok ?? 0) >= 27_000_000)
      return yes(
        `Balansesummen er minst ${NOK(27_000_000)}.`,
        `The balance-sheet total is at least ${NOK_EN(27_000_000)}.`,
      )
    if ((f.employee_count ?? 0) > 10) return yes('Selskapet har over 10 årsverk.', 'The company has more than 10 FTEs.')
    const missing = (['annual_turnover_nok', 'total_assets_nok', 'employee_count'] as const).filter(
      (k) => f[k] === null,
    )
    if (missing.length)
      return unknown(
        [...missing],
        'Driftsinntekter, balansesum og årsverk avgjør om selskapet kan velge bort revisjon, og noe av dette er ukjent.',
        'Revenue, balance and FTEs decide whether the company may opt out of audit, and some of it is unknown.',
      )
    return no(
      'Under alle tersklene: selskapet kan velge bort revisjon ved vedtak i generalforsamlingen.',
      'Below every threshold: the company may opt out of audit by a decision of the general meeting.',
    )
  }
  const duty = accountsDuty(f)
  if (duty.result === 'not_applicable')
    return no(
      'Uten regnskapsplikt er det heller ingen revisjonsplikt.',
      'Without a duty to file accounts there is no audit duty either.',
    )
  if (duty.result === 'insufficient_data')
    return {
      ...duty,
      reason_nb: `Revisjonsplikten følger regnskapsplikten. ${duty.reason_nb}`,
      reason_en: `The audit duty follows the accounts duty. ${duty.reason_en}`,
    }
  if ((f.annual_turnover_nok ?? 0) >= 5_000_000)
    return yes(`Driftsinntektene er minst ${NOK(5_000_000)}.`, `Operating revenue is at least ${NOK_EN(5_000_000)}.`)
  if (f.entity_type !== 'ENK') {
    if ((f.partner_count ?? 0) > 5)
      return yes(
        'Ansvarlige selskaper med over 5 deltakere har alltid revisjonsplikt.',
        'A partnership with more than 5 partners must always be audited.',
      )
    if (
      f.has_limited_liability_partner === true &&
      ((f.total_assets_nok ?? 0) > 20_000_000 || (f.employee_count ?? 0) > 10)
    ) {
      return yes(
        'Deltaker med begrenset ansvar og balansesum over 20 mill. kr eller over 10 årsverk.',
        'A limited-liability partner and a balance over NOK 20 million or more than 10 FTEs.',
      )
    }
  }
  const needed: FactName[] =
    f.entity_type === 'ENK'
      ? ['annual_turnover_nok']
      : ['annual_turnover_nok', 'partner_count', 'has_limited_liability_partner']
  if (f.entity_type !== 'ENK' && f.has_limited_liability_partner === true)
    needed.push('total_assets_nok', 'employee_count')
  const missing = needed.filter((k) => f[k] === null)
  if (missing.length)
    return unknown(
      missing,
      'Driftsinntektene avgjør revisjonsplikten, og noe av grunnlaget er ukjent.',
      'Operating revenue decides the audit duty, and some of the basis is unknown.',
    )
  return no(
    `Driftsinntekter under ${NOK(5_000_000)}: ingen revisjonsplikt.`,
    `Operating revenue under ${NOK_EN(5_000_000)}: no audit duty.`,
  )
}

/** The last day a rule's one-time duty runs for a company registered on `registered` (rrhl.: 14 days). */
export function beneficialOwnersDue(registered: LocalDate | null): LocalDate {
  const start = ymd(2025, 7, 31)
  if (!registered) return start
  const due = addDays(registered, 14)
  return due > start ? due : start
}

/** The last figures Plikt has, against åpenhetsloven § 3's limits: a hint in the reason, never the verdict. */
function sizeOver(f: CompanyFacts): number | null {
  const figures = [f.annual_turnover_nok, f.total_assets_nok, f.employee_count]
  if (figures.some((x) => x === null)) return null
  return (
    (f.annual_turnover_nok! > 70_000_000 ? 1 : 0) +
    (f.total_assets_nok! > 35_000_000 ? 1 : 0) +
    (f.employee_count! > 50 ? 1 : 0)
  )
}

function sizeHintNb(f: CompanyFacts): string {
  const n = sizeOver(f)
  return n === null ? '' : ` Siste kjente tall overstiger ${n} av 3 grenser, men ett års tall avgjør ikke testen.`
}

function sizeHintEn(f: CompanyFacts): string {
  const n = sizeOver(f)
  return n === null
    ? ''
    : ` The latest known figures exceed ${n} of 3 limits, but one year’s figures do not decide the test.`
}
