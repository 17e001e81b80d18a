/** Delegation and actions (production): fullmakt, the authorisation snapshot, approval tokens, execute. */
import { Type, type TSchema } from '@sinclair/typebox'
import { Uuid, Lit } from './common.ts'
import { OrgNumber } from './company.ts'
import { DryRunOutcome } from './sandbox.ts'

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
const OsloTime = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}; RFC 3339 with the Europe/Oslo offset` })
const UtcTime = (description: string) => Type.String({ format: 'date-time', description: `${description}; UTC` })

const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: 10,
  description: 'delegated scopes: `skatteetaten:mva-melding` (VAT returns), `altinn:a-melding` (payroll reporting)',
})

export const OrgOnlyParams = Type.Object({ org: OrgNumber })

export const DelegateBody = Type.Object({ org_number: OrgNumber, scopes: Scopes }, { additionalProperties: false })
export const FullmaktRequestBody = Type.Object(
  {
    agent_principal_id: Uuid(
      'the agent’s own id (a uuid it keeps); bound to one organisation and, once approved, one system user',
    ),
    org_number: OrgNumber,
    scopes: Scopes,
  },
  { additionalProperties: false },
)
export const FullmaktRevokeBody = Type.Object(
  {
    agent_principal_id: Uuid('the principal to revoke; revocation is terminal'),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
)

const Warnings = Type.Array(
  Lit([
    'delegation_record_failed',
    'principal_activation_failed',
    'receipt_generation_failed',
    'principal_revoke_failed',
    'delegation_not_found',
    'upstream_revoke_unconfirmed',
  ] as const),
  {
    description:
      'non-empty: the delegation exists upstream (or is revoked) but a local follow-up degraded — reconcile with GET /api/v1/fullmakt/{org}, never blind-retry with a new principal',
  },
)

/** The service's Ed25519 signature over a whole receipt (domain/actions/receipt-keys.ts). */
const Ed25519KeyId = Type.String({
  pattern: '^[A-Za-z0-9_-]{43}$',
  description:
    'the `kid` of the published key that made `signature_ed25519` (/.well-known/receipt-keys.json): its RFC 7638 thumbprint',
})
const Ed25519Signature = Type.String({
  pattern: '^[A-Za-z0-9_-]{86}$',
  description:
    'Ed25519 over the UTF-8 of the RFC 8785 canonical JSON of this receipt without `signature_ed25519`, base64url without padding; anyone can check it with the public key at /.well-known/receipt-keys.json (docs/receipt-signature.md). Absent only on delegation receipts issued before Ed25519 signing began.',
})

export const DelegationReceipt = Type.Object({
  receipt_id: Type.String({ format: 'uuid' }),
  event: Lit(['delegation_granted', 'delegation_revoked'] as const),
  timestamp: OsloTime('when the receipt was signed; millisecond precision'),
  consumer_id: Type.String({ format: 'uuid' }),
  agent_principal_id: Type.String({ format: 'uuid' }),
  delegation_id: Type.String({ format: 'uuid' }),
  org_number: Type.String(),
  system_user_id: Type.String({ description: 'empty until the organisation has approved' }),
  scopes: Type.String({ description: 'the delegated scopes, sorted, separated by one space' }),
  delegation_status: Lit(['pending', 'active', 'revoked'] as const),
  key_id: Type.String({ description: 'which of your receipt keys signed it (GET /api/v1/auth/receipt-key)' }),
  signature: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'HMAC-SHA-256; see docs/receipt-signature.md' }),
  signature_algorithm: Type.Literal('HMAC-SHA256-v1'),
  signature_ed25519_key_id: Type.Optional(Ed25519KeyId),
  signature_ed25519: Type.Optional(Ed25519Signature),
})

export const DelegationGrant = Type.Object({
  agent_principal_id: Type.String({ format: 'uuid' }),
  org_number: Type.String(),
  scopes: Type.Array(Type.String()),
  access_packages: Type.Array(Type.String(), { description: 'what the digital agency is asked for, per scope' }),
  delegation_id: Type.String({ format: 'uuid' }),
  delegation_status: Lit(['requesting', 'pending', 'active', 'rejected', 'expired'] as const),
  delegation_url: Nullable(
    Type.String({ description: 'where a person with signing authority approves; null once decided' }),
  ),
  principal_state: Lit(['pending', 'active', 'revoked'] as const),
  system_user_id: Nullable(Type.String({ format: 'uuid' })),
  warnings: Warnings,
  signed_receipt: Nullable(DelegationReceipt),
})

export const Revocation = Type.Object({
  agent_principal_id: Type.String({ format: 'uuid' }),
  principal_state: Type.Literal('revoked'),
  revoked_at: Nullable(UtcTime('when the principal was revoked')),
  already_revoked: Type.Boolean({ description: 'true: it was revoked before; nothing changed (200, no-op)' }),
  revoked_delegations: Type.Array(Type.String({ format: 'uuid' }), {
    description: 'grants this call superseded with a revocation marker',
  }),
  warnings: Warnings,
  signed_receipt: Nullable(DelegationReceipt),
})

export const FullmaktState = Type.Object({
  org_number: Type.String(),
  overall_status: Lit(['full', 'partial', 'none'] as const),
  principals: Type.Array(
    Type.Object({
      agent_principal_id: Type.String({ format: 'uuid' }),
      principal_state: Lit(['pending', 'active'] as const),
      system_user_id: Nullable(Type.String({ format: 'uuid' })),
      delegation_id: Type.String({ format: 'uuid' }),
      delegation: Lit(['active', 'pending'] as const),
      delegation_url: Nullable(Type.String()),
      scopes: Type.Array(Type.String()),
      missing_scopes: Type.Array(Type.String(), {
        description: 'what the tier baseline needs that this principal does not carry',
      }),
      since: UtcTime('when the delegation was requested or, once active, approved'),
    }),
  ),
  fix_steps: Type.Array(Type.String(), { description: 'bokmål; empty when the state is full' }),
})

const Breadcrumb = Type.Object({
  kind: Lit(['consumer', 'agent_principal', 'system_user', 'organisation'] as const),
  id: Nullable(Type.String()),
})

export const PermissionsSnapshot = Type.Object({
  org_number: Type.String(),
  status: Lit(['full', 'partial', 'none'] as const),
  active_scopes: Type.Array(Type.String()),
  missing_scopes: Type.Array(Type.String(), { description: 'empty on full' }),
  delegated_rights: Type.Array(
    Type.Object({
      delegation_id: Type.String({ format: 'uuid' }),
      agent_principal_id: Type.String({ format: 'uuid' }),
      system_user_id: Nullable(Type.String({ format: 'uuid' })),
      scopes: Type.Array(Type.String()),
      access_packages: Type.Array(Type.String()),
      since: UtcTime('when the organisation approved'),
    }),
  ),
  pending_delegations: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'requests awaiting the organisation, with their delegation_url',
  }),
  breadcrumbs: Type.Array(Type.Array(Breadcrumb), {
    description: 'one delegation chain per right: consumer → agent principal → system user → organisation',
  }),
  tier_baseline: Type.Array(Type.String(), { description: 'the scopes your tier’s `full` requires' }),
})

export const ReceiptsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    before: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description: 'with before_id: the issued_at of the last entry of the previous page',
      }),
    ),
    before_id: Type.Optional(Uuid('with before: the id of the last entry of the previous page')),
  },
  { additionalProperties: false },
)

export const ReceiptsPage = Type.Object({
  receipts: Type.Array(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      event: Type.String(),
      issued_at: UtcTime('when it was signed'),
      receipt: DelegationReceipt,
    }),
  ),
  pagination: Type.Object({
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    next_before: Nullable(Type.String()),
    next_before_id: Nullable(Type.String()),
  }),
})

export const ReceiptKey = Type.Object({
  key_id: Type.String(),
  key_hex: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'HMAC-SHA-256 key for your production receipts: hex-decode it, then follow docs/receipt-signature.md',
  }),
  signature_algorithm: Type.Literal('HMAC-SHA256-v1'),
  recipe_url: Type.String(),
})

export const ApprovalTokenBody = Type.Object(
  {
    org_number: OrgNumber,
    action_id: Type.String({
      pattern: '^act_[0-9a-f]{32}$',
      description: 'the dry run’s action id: a digest of org_number, action_type, period and payload',
    }),
    action_type: Type.Union([Type.Literal('mva_melding'), Type.Literal('a_melding')], {
      description: 'the dry run’s action_type: the person confirming sees it',
    }),
    period: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'the dry run’s period: the person confirming sees it',
      examples: ['2026-T1'],
    }),
    payload: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'the dry run’s payload, at most 64 KiB of UTF-8 JSON: the person confirming sees its amounts. With org_number and action_type it must hash to action_id.',
        examples: [{ total_revenue_nok: 125000, output_vat_nok: 31250 }],
      },
    ),
  },
  { additionalProperties: false },
)
export const ApprovalToken = Type.Object({
  approval_token: Type.String({
    description: 'shown once; send it as `X-Approval-Token` once the person has confirmed',
  }),
  header: Type.Literal('X-Approval-Token'),
  org_number: Type.String(),
  action_id: Type.String(),
  expires_at: UtcTime('15 minutes after minting; the person confirms before then'),
  single_use: Type.Literal(true),
  confirmation_state: Type.Literal('awaiting_confirmation', {
    description:
      'the token is unusable (403 `APPROVAL_TOKEN_UNCONFIRMED`) until the account’s owner confirms at `confirmation_url`',
  }),
  confirmation_url: Type.String({
    format: 'uri',
    description:
      'the page where the account’s owner, signed in, sees this action (organisation, period, amounts, the five checks) and confirms or declines it; give it to the person',
  }),
  ask_the_person: Type.Object(
    { nb: Type.String(), en: Type.String() },
    { description: 'what to tell the person, in bokmål and English' },
  ),
})

export const ExecuteQuery = Type.Object(
  {
    dry_run: Type.Optional(
      Type.String({
        maxLength: 10,
        description: '`true` runs the five checks and submits nothing; anything else is live mode',
      }),
    ),
  },
  { additionalProperties: false },
)

export const ActionBody = Type.Object(
  {
    org_number: OrgNumber,
    action_type: Lit(['mva_melding', 'a_melding'] as const),
    period: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'mva_melding: YYYY-T1…YYYY-T6, YYYY-A or YYYY-MM; a_melding: YYYY-MM',
    }),
    payload: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'echoed verbatim as `would_be_payload`. mva_melding: `total_revenue_nok` (required), `output_vat_nok`, `input_vat_nok` (integers ≥ 0, kroner); optionally the tax authority’s own fields, passed on: `mvaSpesifikasjonslinje[]` (`mvaKode`, `grunnlag`, `sats`, `merverdiavgift`, `merknad`), `fastsattMerverdiavgift`, `meldingskategori`, `kundeIdentifikasjonsnummer` (KID), `merknad`. A `merknad` is a text (a free-text remark) or an object naming exactly one of `utvalgtMerknad` (from the code list) and `beskrivelse` (free text): the return takes one, so naming both is 400 VALIDATION_FAILED naming the field. Amounts beyond ±10 000 000 000 000 kr, and texts over 4 000 characters, are refused the same way; amounts are written as decimals. a_melding: `employee_count`, `gross_salary_nok` (required), `tax_withheld_nok`, `employer_contribution_nok`.',
      },
    ),
  },
  { additionalProperties: false },
)

export const ExecuteReceipt = Type.Object({
  altinn_receipt_id: Type.String({ description: 'the portal’s receipt id; the mock portal’s start with `MOCK-`' }),
  audit_log_id: Type.String({ format: 'uuid' }),
  timestamp: OsloTime('when the filing was accepted; millisecond precision'),
  org_number: Type.String(),
  filing_type: Type.String(),
  rule_version: Type.String(),
  government_response_raw: Type.Object({}, { additionalProperties: true }),
  signature: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'HMAC-SHA-256 with your receipt key; see docs/receipt-signature.md',
  }),
  signature_algorithm: Type.Literal('HMAC-SHA256-v1'),
  signature_ed25519_key_id: Ed25519KeyId,
  signature_ed25519: Ed25519Signature,
})

export const ExecuteResult = Type.Union([
  Type.Intersect([DryRunOutcome, Type.Object({ action_id: Type.String() })]),
  Type.Object({
    dry_run: Type.Literal(false),
    action_id: Type.String(),
    receipt: ExecuteReceipt,
    receipt_key_id: Type.String(),
  }),
])
