/** Request and response schemas of the sandbox routes (spec: Sandbox resources and knobs). */
import { Type, type TSchema } from '@sinclair/typebox'
import { AccountsSnapshot, SigningAuthority, Verification } from './company.ts'
import { digitString } from './formats.ts'
import { Lit } from './common.ts'

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])
const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description })
const OsloTime = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}; RFC 3339 with the Europe/Oslo offset` })

export const SIMULATED_ERRORS = [
  'missing_delegation',
  'invalid_token',
  'validation_error',
  'scope_missing',
  'portal_timeout',
  'invalid_certificate',
  'malformed_payload',
  'upstream_5xx',
] as const
export type SimulatedError = (typeof SIMULATED_ERRORS)[number]

/** Sandbox organisation numbers are nine digits; the reserved 999000XXX series deliberately fails MOD-11. */
export const SandboxOrg = digitString(9, {
  description: 'a sandbox organisation number (nine digits; no MOD-11 check)',
})
export const SandboxOrgParams = Type.Object({ org: SandboxOrg })
/** A production company tool's input under the sandbox bearer (pipeline/rehearsal.ts): sandbox org numbers skip MOD-11 (the reserved 999000XXX series fails it on purpose). */
export const SandboxToolInput = Type.Object(
  {
    org_number: SandboxOrg,
    horizon_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'ignored by the sandbox' })),
  },
  { additionalProperties: false },
)

const knobs = {
  simulate_error: Type.Optional(
    Lit(SIMULATED_ERRORS, 'inject one failure; the last four add a government-shaped `upstream` object'),
  ),
  simulate_latency: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 30000, description: 'answer after this many milliseconds' }),
  ),
  mock_date: Type.Optional(Day('the date (Europe/Oslo) the sandbox takes as today; default 2026-01-01')),
}
const asOf = {
  as_of: Type.Optional(
    Day('time travel for obligations and deadlines; echoed in `_meta.as_of`; needs the synthetic bearer'),
  ),
}

export const KnobsQuery = Type.Object(knobs, { additionalProperties: false })
export const TimeTravelQuery = Type.Object({ ...knobs, ...asOf }, { additionalProperties: false })
/** How many audit entries one read answers with (spec: Sandbox audit page, `limit` 1 to 200). */
export const SANDBOX_AUDIT_LIMIT = { default: 50, max: 200 } as const
export const AuditQuery = Type.Object(
  {
    ...knobs,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SANDBOX_AUDIT_LIMIT.max,
        description: `how many entries, newest first (default ${SANDBOX_AUDIT_LIMIT.default}); older ones are not returned — the sandbox audit never paginates and \`pagination.limit\` always echoes 50`,
      }),
    ),
  },
  { additionalProperties: false },
)
export const ExecuteQuery = Type.Object(
  {
    ...knobs,
    dry_run: Type.Optional(
      Type.String({ description: '`true` runs the five checks and submits nothing; anything else is live mode' }),
    ),
  },
  { additionalProperties: false },
)

export const SandboxObligation = Type.Object({
  obligation_id: Type.String(),
  title: Type.String(),
  category: Lit(['tax', 'reporting', 'registration', 'audit'] as const),
  status: Lit(['applicable', 'not_applicable', 'insufficient_data'] as const),
  required: Lit(['always', 'conditionally', 'never'] as const),
  frequency: Lit(['annual', 'quarterly', 'monthly', 'bimonthly', 'one_time'] as const),
  legal_reference: Type.String(),
  deadline_at: Nullable(OsloTime('the next deadline on or after the effective date')),
})

export const SandboxDeadline = Type.Object({
  deadline_id: Type.String(),
  obligation_id: Type.String(),
  title: Type.String(),
  deadline_at: Nullable(OsloTime('end of the due day')),
  status: Lit(['upcoming', 'overdue', 'filed'] as const),
  category: Lit(['tax', 'reporting', 'registration', 'audit'] as const),
  legal_reference: Type.String(),
})

const Tier = Lit(['tier_1', 'tier_1_2'] as const)
const Head = { org_number: Type.String(), entity_type: Lit(['AS', 'ENK'] as const), data_tier: Tier }
const Person = Type.Object({ role: Nullable(Type.String()), name: Type.String() })
const Unavailable = (scope: string) =>
  Type.Object({
    available: Type.Literal(false),
    reason: Type.Literal('DELEGATION_MISSING'),
    scope: Type.Literal(scope),
  })

export const SandboxContext = Type.Object({
  ...Head,
  name: Type.String(),
  nace_codes: Type.Array(Type.String()),
  status: Lit(['ACTIVE', 'INACTIVE'] as const),
  municipality: Type.String(),
  registration_date: Type.String({ format: 'date' }),
  signaturrett: Type.Array(Person),
  prokura: Type.Array(Person),
  tier_2: Nullable(
    Type.Object({
      employee_count: Nullable(Type.Integer()),
      annual_turnover: Nullable(Type.Integer()),
      total_assets: Nullable(Type.Integer()),
      mva_registered: Nullable(Type.Boolean()),
      mva_registration_date: Nullable(Type.String({ format: 'date' })),
    }),
  ),
  tier_2_note: Type.String(),
  upgrade_path: Nullable(Type.String()),
  labour_register: Type.Object({
    available: Type.Literal(false),
    reason: Type.Literal('DELEGATION_MISSING_LABOUR_REGISTER'),
    note: Type.String(),
  }),
  tax_authority: Type.Object({
    mva_register: Type.Null({ deprecated: true }),
    mva_meldinger: Unavailable('tax_authority:mva-melding-list-read'),
    skatteoppgjor: Unavailable('tax_authority:skatteoppgjor-read'),
  }),
})

export const SandboxObligations = Type.Object({
  ...Head,
  obligations: Type.Array(SandboxObligation),
  upgrade_path: Type.String(),
})
export const SandboxDeadlines = Type.Object({
  ...Head,
  deadlines: Type.Array(SandboxDeadline),
  upgrade_path: Type.String(),
})
export const SandboxSummary = Type.Object({
  ...Head,
  obligations: Type.Array(SandboxObligation),
  deadlines: Type.Array(SandboxDeadline),
  upgrade_path: Type.String(),
})

export const AuditEntry = Type.Object({
  id: Type.String({ format: 'uuid' }),
  timestamp: OsloTime('when it happened'),
  org_number: Type.String(),
  action: Type.String(),
  initiated_by: Type.String(),
  details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
})
export const SandboxAudit = Type.Object({
  data: Type.Array(AuditEntry),
  pagination: Type.Object({ limit: Type.Literal(50), has_more: Type.Literal(false) }),
})

/** Verification and accounts are production's shapes; authority omits `coded_authority` (spec: Signing authority). */
export const SandboxVerification = Verification
export const SandboxAccounts = AccountsSnapshot
export const SandboxAuthority = Type.Omit(SigningAuthority, ['coded_authority'])

export const ApprovalTokenBody = Type.Object(
  {
    org_number: SandboxOrg,
    action_id: Type.String({ pattern: '^act_[0-9a-f]{32}$', description: 'from `POST /api/v1/sandbox/actions/plan`' }),
  },
  { additionalProperties: false },
)
export const SandboxApprovalToken = Type.Object({
  approval_token: Type.String({ description: 'shown once; send it as `X-Approval-Token`' }),
  header: Type.Literal('X-Approval-Token'),
  org_number: Type.String(),
  action_id: Type.String(),
  expires_at: OsloTime('15 minutes after minting'),
  single_use: Type.Literal(true),
})

export const ActionBody = Type.Object(
  {
    org_number: SandboxOrg,
    action_type: Lit(['mva_melding', 'a_melding'] as const),
    period: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'mva_melding: YYYY-T1…YYYY-T6, YYYY-A or YYYY-MM; a_melding: YYYY-MM',
    }),
    payload: Type.Object({}, { additionalProperties: true, description: 'echoed verbatim as `would_be_payload`' }),
  },
  { additionalProperties: false },
)

const CheckSchema = Type.Object({
  name: Lit([
    'company_exists',
    'system_user_authorised',
    'scopes_delegated',
    'data_format_valid',
    'deadline_in_future',
  ] as const),
  passed: Type.Boolean(),
  explanation_summary: Type.String(),
  explanation_summary_en: Type.String(),
})
export const DryRunOutcome = Type.Object({
  dry_run: Type.Literal(true),
  org_number: Type.String(),
  action: Lit(['mva_melding', 'a_melding'] as const),
  validation: Type.Object({
    all_passed: Type.Boolean(),
    checks: Type.Array(CheckSchema, { minItems: 5, maxItems: 5 }),
    disclaimer: Type.String(),
  }),
  would_be_payload: Type.Object({}, { additionalProperties: true }),
  preview_notice: Type.String(),
})
export const SandboxPlan = Type.Object({
  action_id: Type.String(),
  org_number: Type.String(),
  action_type: Type.String(),
  period: Type.String(),
  ready: Type.Boolean({ description: 'every check passed: an approval token and an execute would file it' }),
  dry_run: DryRunOutcome,
  steps: Type.Array(Type.Object({}, { additionalProperties: true })),
})
export const SandboxReceipt = Type.Object({
  altinn_receipt_id: Type.String({ pattern: '^[0-9a-f]{32}$' }),
  audit_log_id: Type.String({ format: 'uuid', description: 'uuid v5, deterministic' }),
  timestamp: OsloTime('pinned to the effective date; millisecond precision'),
  org_number: Type.String(),
  filing_type: Type.String(),
  rule_version: Type.Literal('sandbox'),
  government_response_raw: Type.Object(
    { _sandbox_marker: Type.Literal('SANDBOX_NOT_REAL_GOV_RESPONSE') },
    { additionalProperties: true },
  ),
  signature: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'HMAC-SHA-256; see docs/receipt-signature.md' }),
  signature_algorithm: Type.Literal('HMAC-SHA256-v1'),
})
export const SandboxExecuteResult = Type.Union([
  DryRunOutcome,
  Type.Object({ dry_run: Type.Literal(false), filed_late: Type.Boolean(), receipt: SandboxReceipt }),
])

export const SandboxFixtures = Type.Object({}, { additionalProperties: true })

/** The sandbox `_meta` (spec: Sandbox resources); production's response_hash and source_snapshot_id are omitted. */
export const SandboxMetadata = Type.Object(
  {
    is_sandbox: Type.Literal(true),
    rulebook_version: Type.Literal('sandbox'),
    data_freshness: Type.Literal('2026-01-01T00:00:00+01:00'),
    last_verified: Type.Literal('2026-01-01T00:00:00+01:00'),
    source: Type.String(),
    schema_version: Type.String({ description: 'equals the OpenAPI `info.version`' }),
    response_timestamp: OsloTime('when this response was made; the only field that differs between identical requests'),
    sandbox_notice: Type.String(),
    as_of: Type.Optional(Type.String({ format: 'date', description: 'echo of `as_of` when time travel is active' })),
    simulated: Type.Optional(Type.Literal(true, { description: 'present only on an injected failure' })),
  },
  { title: 'SandboxMetadata' },
)
