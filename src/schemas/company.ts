import { Type, type TSchema } from '@sinclair/typebox'
import { ENTITY_TYPES } from '../domain/rulebook/facts.ts'
import { CompanyObligationEvaluation, CompanyDeadlineEntry } from './rulebook.ts'
import { digitString, ORG_NUMBER_FORMAT } from './formats.ts'
import { Lit } from './common.ts'

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])
const Day = (description?: string) => Type.String({ format: 'date', ...(description ? { description } : {}) })
const TriState = (description: string) => Nullable(Type.Boolean({ description: `${description}; null = unknown` }))

/**
 * Nine digits; the last a MOD-11 check digit. A well-formed number failing the check is
 * 400 ORG_NUMBER_INVALID_CHECKSUM, anything else 400 VALIDATION_FAILED.
 */
export const OrgNumber = digitString(9, {
  format: ORG_NUMBER_FORMAT,
  description: 'organisation number: nine digits, MOD-11 check digit',
})
export const OrgParams = Type.Object({ org: OrgNumber })

export const Coded = Type.Object({ code: Type.String(), description: Nullable(Type.String()) })
export const Address = Type.Object({
  lines: Type.Array(Type.String()),
  postal_code: Nullable(Type.String()),
  city: Nullable(Type.String()),
  municipality_number: Nullable(Type.String()),
  municipality: Nullable(Type.String()),
  country_code: Nullable(Type.String()),
  country: Nullable(Type.String()),
})

/**
 * Present only when the organisation number asked about is a sub-unit's (an underenhet: a branch,
 * shop or site, organisation form BEDR or AAFY). The answer is then about the legal entity it
 * belongs to: `org_number` and every other field are the parent's.
 */
export const SubUnit = Type.Object(
  {
    org_number: Type.String({ description: 'the sub-unit’s own number, as asked' }),
    name: Type.String(),
    org_form: Coded,
    status: Lit(['active', 'deleted'] as const),
    location_address: Nullable(Address),
    started_date: Nullable(Day('oppstartsdato')),
    closed_date: Nullable(Day('nedleggelsesdato: activity ended')),
    deleted_date: Nullable(Day('slettedato')),
    parent_org_number: Nullable(
      Type.String({
        description: 'the legal entity the answer is about; null only for a deleted sub-unit that no longer names one',
      }),
    ),
    parent_name: Nullable(Type.String()),
    parent_status: Nullable(
      Lit(
        ['active', 'deleted'] as const,
        '`deleted`: the legal entity is deleted, so the sub-unit has no active entity behind it',
      ),
    ),
    note_nb: Type.String({ description: 'what the answer is about, in bokmål' }),
    note_en: Type.String(),
  },
  {
    description:
      'Only when the number asked about is a sub-unit’s: the answer is its legal entity’s (a sub-unit has no obligations, deadlines, roles, signing rules, accounts or filings of its own), and this names the sub-unit.',
  },
)
const WithSubUnit = { sub_unit: Type.Optional(SubUnit) }

export const SearchQuery = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 400,
      description: 'company name or part of it; 2 to 100 characters after trimming',
    }),
  },
  { additionalProperties: false },
)

const CandidateStatus = Lit(['active', 'bankrupt', 'under_dissolution', 'under_forced_dissolution', 'deleted'] as const)

export const SearchResult = Type.Object({
  query: Type.String({ description: 'the trimmed name searched for' }),
  count: Type.Integer({ minimum: 1, maximum: 10 }),
  total_matches: Type.Integer({ description: 'how many units the register matched in all' }),
  candidates: Type.Array(
    Type.Object({
      name: Type.String(),
      org_number: Type.String(),
      org_form: Type.String(),
      org_form_description: Nullable(Type.String()),
      municipality: Nullable(Type.String()),
      status: CandidateStatus,
    }),
    { maxItems: 10 },
  ),
})

const Distress = Type.Object({
  bankrupt: TriState('konkurs'),
  bankrupt_date: Nullable(Day()),
  under_dissolution: TriState('under avvikling'),
  under_dissolution_date: Nullable(Day()),
  under_forced_dissolution: TriState('under tvangsavvikling eller tvangsoppløsning'),
  forced_dissolution_date: Nullable(Day()),
})

const Mva = Type.Object({
  registered: TriState('registered in Merverdiavgiftsregisteret'),
  registered_date: Nullable(Day()),
  voluntary_registrations: Type.Array(Type.String(), {
    description: 'grounds of voluntary registration, as the register words them',
  }),
})

export const CompanyContext = Type.Object({
  org_number: Type.String(),
  name: Type.String(),
  org_form: Coded,
  entity_type: Nullable(Lit(ENTITY_TYPES, 'the rulebook type; null for forms the rulebook does not cover (e.g. ASA)')),
  status: Lit(['active', 'deleted'] as const),
  deleted_date: Nullable(Day()),
  registered_date: Nullable(Day('registration in Enhetsregisteret')),
  founded_date: Nullable(Day()),
  enterprise_register: Type.Object({
    registered: TriState('registered in Foretaksregisteret'),
    registered_date: Nullable(Day()),
  }),
  business_address: Nullable(Address),
  postal_address: Nullable(Address),
  nace_codes: Type.Array(Coded),
  institutional_sector: Nullable(Coded),
  mva: Mva,
  distress: Distress,
  share_capital: Nullable(
    Type.Object({ amount: Type.Number(), currency: Nullable(Type.String()), type: Nullable(Type.String()) }),
  ),
  last_accounts_year: Nullable(
    Type.Integer({ description: 'the last year of annual accounts the register has received' }),
  ),
  parent_org_number: Nullable(Type.String()),
  home_country_registration: Nullable(Type.String({ description: 'NUF: registration number in the home country' })),
  website: Nullable(Type.String()),
  data_tier: Lit(['tier_1', 'tier_2'] as const),
  tier_2: Nullable(
    Type.Object(
      {
        employee_count: Nullable(Type.Integer({ description: 'active employments in the labour register' })),
        annual_turnover: Nullable(Type.Number({ description: 'operating revenue of the last annual accounts, NOK' })),
        total_assets: Nullable(Type.Number({ description: 'balance-sheet total of the last annual accounts, NOK' })),
        accounts_year: Nullable(Type.Integer()),
        sources: Type.Object({ employee_count: Type.String(), accounts: Type.String() }),
      },
      { description: 'only with an active delegation from the organisation (`data_tier: tier_2`); null otherwise' },
    ),
  ),
  upgrade_path: Nullable(Type.String({ description: 'how to get Tier 2 (bokmål)' })),
  upgrade_path_en: Nullable(Type.String()),
  ...WithSubUnit,
})

const Signals = Type.Object({
  is_active: TriState('not deleted from the register (decides the verdict)'),
  has_signing_authority_defined: TriState(
    'a signing rule is visible (decides the verdict); never false: absence is unknown',
  ),
  not_bankrupt: TriState('transparency'),
  not_under_dissolution: TriState('transparency'),
  not_forcibly_dissolved: TriState('transparency'),
  mva_registered: TriState('transparency'),
  has_filed_annual_accounts: TriState('transparency'),
})

export const Verification = Type.Object({
  org_number: Type.String(),
  name: Type.String(),
  org_form: Type.String(),
  registry_status: Lit(['active', 'deleted'] as const),
  verification_status: Type.Union(
    [Type.Literal('pass'), Type.Literal('fail'), Type.Literal('unknown'), Type.Literal('warn')],
    {
      description:
        '`pass` = active and a signing rule visible; `fail` = not active; `unknown` otherwise. `warn` is reserved and never emitted.',
    },
  ),
  signals: Signals,
  decisive_signals: Type.Array(Type.String()),
  transparency_signals: Type.Array(Type.String(), { description: 'never change the verdict' }),
  summary: Type.String({ description: 'bokmål' }),
  summary_en: Type.String(),
  signing_authority_summary: Nullable(
    Type.Object(
      {
        roles: Type.Array(Type.Object({ code: Type.String(), description: Nullable(Type.String()) })),
        text_nb: Type.String(),
        text_en: Type.String(),
      },
      { description: 'the roles involved, not the joint rule' },
    ),
  ),
  last_accounts_year: Nullable(Type.Integer()),
  ...WithSubUnit,
})

const Holder = Type.Object({
  name: Type.String(),
  role_code: Nullable(Type.String()),
  role_description: Nullable(Type.String()),
})

export const SigningAuthority = Type.Object({
  org_number: Type.String(),
  name: Type.String(),
  org_form: Type.String(),
  classification: Lit(['sole', 'joint', 'by_role', 'prokura_only', 'no_authority', 'unknown'] as const),
  rule: Lit(
    ['coded', 'free_text_only', 'none', 'not_supported', 'unavailable'] as const,
    'how the register states the signing rule',
  ),
  combinations: Type.Array(
    Type.Object({
      kombinasjons_id: Type.String(),
      code: Nullable(Type.String()),
      description: Nullable(Type.String()),
      role_codes: Type.Array(Type.String()),
      signers: Type.Array(Holder),
      sufficient_alone: Type.Boolean(),
    }),
    { description: 'each is one sufficient set of signers: any one combination, all of its signers' },
  ),
  signaturrett_holders: Type.Array(Holder),
  prokura_holders: Type.Array(Holder),
  kombinasjon_available: Type.Boolean({
    description:
      'false only when the signature lookup was unreachable (then `degraded` says why); true whenever it answered, also when it shows no rule or does not cover the organisation form',
  }),
  free_text: Nullable(Type.String({ description: 'the rule in the register’s own words, when it has them' })),
  coded_authority: Nullable(
    Type.Object({
      routine_status: Nullable(Type.String()),
      combination_status: Nullable(Type.String()),
      rule_status: Nullable(Type.String()),
      rule_id: Nullable(Type.String()),
      basis_code: Nullable(Type.String()),
      combination_codes: Type.Array(Type.String()),
    }),
  ),
  degraded: Nullable(Type.Object({ reason: Type.String(), error_code: Type.String() })),
  notice_nb: Type.String(),
  notice_en: Type.String(),
  ...WithSubUnit,
})

export const AccountsSnapshot = Type.Object({
  org_number: Type.String(),
  has_filed_annual_accounts: TriState('true = a record exists; false = none for a unit that must file'),
  last_accounts_year: Nullable(Type.Integer()),
  key_figures: Nullable(
    Type.Object({
      currency: Type.String(),
      period_from: Day(),
      period_to: Day(),
      accounts_type: Nullable(Type.String()),
      presentation_basis: Nullable(Type.String({ description: 'oppstillingsplan: store, smaa or oevrige' })),
      accounting_rules: Nullable(Type.String()),
      small_company: Nullable(Type.Boolean()),
      audited: Nullable(Type.Boolean()),
      total_assets: Nullable(Type.Number()),
      total_equity_and_liabilities: Nullable(Type.Number()),
      total_equity: Nullable(Type.Number()),
      total_liabilities: Nullable(Type.Number()),
      operating_revenue: Nullable(Type.Number()),
      operating_result: Nullable(Type.Number()),
      result_before_tax: Nullable(Type.Number()),
      annual_result: Nullable(Type.Number()),
    }),
  ),
  filing_obligation_known: Nullable(
    Type.Boolean({ description: 'the form always files annual accounts; null for an unknown unit' }),
  ),
  coverage_note_nb: Type.String(),
  coverage_note_en: Type.String(),
  ...WithSubUnit,
})

const SectionError = Type.Object({
  error_code: Type.String(),
  retryable: Type.Boolean(),
  message: Type.String(),
  message_en: Type.String(),
})
const Degraded = Type.Object({ status: Type.Literal('degraded'), error: SectionError })
const Section = (ok: TSchema) => Type.Union([ok, Degraded])

export const UnifiedSnapshot = Type.Object({
  org_number: Type.String(),
  name: Type.String(),
  sections: Type.Object({
    verify: Section(Type.Intersect([Type.Object({ status: Type.Literal('ok') }), Verification])),
    roles: Section(
      Type.Object({
        status: Type.Literal('ok'),
        roles: Type.Array(
          Type.Object({
            group: Type.String(),
            group_description: Nullable(Type.String()),
            role: Type.String(),
            role_description: Nullable(Type.String()),
            holder: Type.Object({
              kind: Lit(['person', 'entity'] as const),
              name: Type.String(),
              org_number: Nullable(Type.String()),
            }),
            liability_share: Nullable(Type.String()),
          }),
        ),
      }),
    ),
    vat: Section(
      Type.Object({
        status: Type.Literal('ok'),
        mva_registered: TriState('VAT registered'),
        registered_date: Nullable(Day()),
        voluntary_registrations: Type.Array(Type.String()),
      }),
    ),
    employer: Section(
      Type.Object({
        status: Type.Literal('ok'),
        available: Type.Boolean(),
        reason: Lit(['DELEGATION_MISSING', 'SCOPE_NOT_YET_APPROVED', 'UPSTREAM_UNAVAILABLE'] as const),
        scope: Type.Optional(Type.String()),
        explanation_nb: Type.String(),
        explanation_en: Type.String(),
      }),
    ),
    risk: Section(
      Type.Object({
        status: Type.Literal('ok'),
        level: Lit(['clear', 'elevated', 'unknown'] as const, 'transparency only, not a credit score'),
        factors: Type.Array(
          Type.Object({
            signal: Type.String(),
            value: Nullable(Type.Boolean()),
            note_nb: Type.String(),
            note_en: Type.String(),
          }),
        ),
        disclaimer_nb: Type.String(),
        disclaimer_en: Type.String(),
      }),
    ),
  }),
  ...WithSubUnit,
})

const Coverage = Type.Object({
  covered: Type.Boolean({
    description: 'false for forms the rulebook does not cover and for deleted units: no evaluations then',
  }),
  org_form: Type.String(),
  reason_nb: Nullable(Type.String()),
  reason_en: Nullable(Type.String()),
})

export const CompanyObligations = Type.Object({
  org_number: Type.String(),
  entity_type: Nullable(Lit(ENTITY_TYPES)),
  org_form: Type.String(),
  data_tier: Lit(['tier_1', 'tier_2'] as const),
  coverage: Coverage,
  obligations: Type.Array(CompanyObligationEvaluation, {
    description: 'one per rule whose entity types match, by rule_id',
  }),
  ...WithSubUnit,
})

export const DeadlinesQuery = Type.Object(
  {
    from_date: Type.Optional(Day('default today in Europe/Oslo')),
    horizon_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'default 12' })),
  },
  { additionalProperties: false },
)

export const CompanyDeadlines = Type.Object({
  org_number: Type.String(),
  entity_type: Nullable(Lit(ENTITY_TYPES)),
  org_form: Type.String(),
  data_tier: Lit(['tier_1', 'tier_2'] as const),
  coverage: Coverage,
  horizon_months: Type.Integer(),
  from_date: Day(),
  to_date: Day(),
  deadlines: Type.Array(CompanyDeadlineEntry, {
    description: 'by due_at ascending, undated last; deadlines up to 3 months before from_date stay as `overdue`',
  }),
  undecided_rules: Type.Array(Type.String(), {
    description: 'rules needing Tier 2 data to decide; their deadlines are not listed',
  }),
  ...WithSubUnit,
})

export const CompanySummary = Type.Object({
  org_number: Type.String(),
  entity_type: Nullable(Lit(ENTITY_TYPES)),
  org_form: Type.String(),
  nace_codes: Type.Array(Type.String()),
  mva_registered: TriState('VAT registered'),
  data_tier: Lit(['tier_1', 'tier_2'] as const),
  coverage: Coverage,
  obligations: Type.Array(CompanyObligationEvaluation),
  deadlines: Type.Array(CompanyDeadlineEntry),
  undecided_rules: Type.Array(Type.String()),
  upgrade_path: Nullable(
    Type.String({ description: 'bokmål pointer to the delegation flow on tier_1; null on tier_2' }),
  ),
  ...WithSubUnit,
})

export const FilingHistoryQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 20' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: '`pagination.next_cursor` of the previous page' }),
    ),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        deprecated: true,
        description: 'deprecated: use `cursor`; answered with a `Deprecation` header',
      }),
    ),
  },
  { additionalProperties: false },
)

export const FilingHistory = Type.Object({
  org_number: Type.String(),
  filings: Type.Array(
    Type.Object({
      instance_id: Type.String({ description: 'portal instance `partyId/guid`' }),
      form_code: Type.String(),
      app_id: Type.String(),
      title: Type.String(),
      title_en: Type.String(),
      receiving_agency: Type.String(),
      submitted_at: Type.String({ format: 'date-time', description: 'Europe/Oslo offset' }),
      status: Lit(['submitted', 'in_progress', 'deleted'] as const),
      filed_via_service: Type.Boolean({
        description: 'the caller submitted it through Plikt; false does not prove a direct filing',
      }),
      service_record: Nullable(Type.Object({ audit_log_id: Type.String(), correlation_id: Nullable(Type.String()) })),
    }),
  ),
  pagination: Type.Object({
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    next_cursor: Nullable(Type.String()),
    offset: Type.Optional(Type.Integer()),
    next_offset: Type.Optional(Nullable(Type.Integer())),
  }),
  total: Type.Integer(),
  audit_pairing: Lit(
    ['ok', 'unavailable'] as const,
    '`unavailable`: the audit trail could not be read and every flag is false',
  ),
})

export const ProfileBody = Type.Object({ org_number: OrgNumber }, { additionalProperties: false })

export const CompanyProfile = Type.Object({
  org_number: Type.String(),
  display_name: Type.String(),
  org_form: Coded,
  nace_codes: Type.Array(Coded),
  registered_address: Nullable(Address),
  business_address: Nullable(Address),
  registration_date: Nullable(Day()),
  founded_date: Nullable(Day()),
  dissolution_date: Nullable(Day()),
  status: Lit(['active', 'dissolved'] as const),
  mva_registered: TriState('VAT registered'),
  role_codes: Nullable(
    Type.Array(Type.String(), {
      description:
        'codes of the roles registered (DAGL, LEDE …), never who holds them; null when the roles lookup failed',
    }),
  ),
  roles_available: Type.Boolean(),
  ...WithSubUnit,
})

export const CompanyStatusQuery = Type.Object(
  {
    org_numbers: Type.String({
      minLength: 9,
      maxLength: 1099,
      description: 'comma-separated organisation numbers, up to 100',
    }),
  },
  { additionalProperties: false },
)

export const CompanyStatusRows = Type.Object({
  count: Type.Integer(),
  rows: Type.Array(
    Type.Object({
      org_number: Type.String(),
      found: Type.Boolean(),
      name: Type.Optional(Type.String()),
      registry_status: Lit(['active', 'deleted', 'not_found', 'error'] as const),
      entity_type: Type.Optional(Type.String({ description: 'the organisation form code' })),
      mva_registered: Type.Optional(TriState('VAT registered')),
      konkurs: Type.Optional(TriState('bankrupt')),
      under_avvikling: Type.Optional(TriState('being wound up')),
      under_tvangsavvikling: Type.Optional(TriState('under forced dissolution')),
      annual_accounts: Type.Optional(
        Type.Object({
          last_submitted_year: Nullable(Type.Integer()),
          has_submitted: TriState('the register has received annual accounts'),
        }),
      ),
      error: Nullable(
        Type.Object(
          { error_code: Type.String(), message: Type.String(), message_en: Type.String(), retryable: Type.Boolean() },
          { description: 'why this row could not be answered; null when found or simply unknown to the register' },
        ),
      ),
      sub_unit: Type.Optional(
        Type.Object(SubUnit.properties, {
          description:
            'Only when the number is a sub-unit’s: `org_number` stays the number given, the other fields are its legal entity’s (`sub_unit.parent_org_number`); a deleted sub-unit that names no parent is a `deleted` row with its own name and form.',
        }),
      ),
    }),
    { description: 'one per organisation number, in the order given' },
  ),
})
