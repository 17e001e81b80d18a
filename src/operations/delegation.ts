/**
 * Delegation and actions (production keys): the authorisation snapshot, brokering fullmakt through
 * the digital agency, signed delegation receipts, approval tokens and the execute route.
 */
import type { ErrorCode } from '../errors/catalogue/index.ts'
import * as D from '../schemas/delegation.ts'
import { op } from './define.ts'

const UPSTREAM: ErrorCode[] = ['UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'GOVERNMENT_API_ERROR']
const BROKERING: ErrorCode[] = [
  'ORG_NUMBER_INVALID_CHECKSUM',
  'COMPANY_NOT_FOUND',
  'ORG_NUMBER_IS_SUB_UNIT',
  'SUB_UNIT_DELETED',
  'SCOPE_RESERVED',
  'AGENT_PRINCIPAL_REVOKED',
  'AGENT_PRINCIPAL_CONFLICT',
  'DELEGATION_REQUESTS_LIMIT',
  'TOKEN_SERVICE_AUTH_FAILED',
  'EXECUTION_CIRCUIT_OPEN',
  ...UPSTREAM,
]

const DELEGATION = { category: 'B', format: 'envelope', tag: 'Delegation and actions', scope: 'read:portal' } as const

export const delegationOperations = [
  op({
    ...DELEGATION,
    id: 'getPermissions',
    summaryNb: 'Tilgangsoversikt: hva virksomheten har delegert til deg',
    method: 'GET',
    path: '/api/v1/auth/permissions/:org',
    summary: 'Authorisation snapshot: what the organisation has delegated to you',
    description:
      'Always 200. `status`: `full` (your tier baseline is delegated and approved), `partial` (something is), `none` (nothing is). Pending requests are asked about at the digital agency first, so an approval made a moment ago shows here. `breadcrumbs` holds one delegation chain per right.',
    request: { params: D.OrgOnlyParams },
    response: D.PermissionsSnapshot,
    mcpTool: 'check_authorization',
    errors: ['ORG_NUMBER_INVALID_CHECKSUM'],
  }),
  op({
    ...DELEGATION,
    id: 'delegateSystemUser',
    method: 'POST',
    path: '/api/v1/auth/system-user/delegate',
    summary: 'Ask an organisation to approve Plikt’s system user for you (gated: a person must approve)',
    description:
      'Brokers a system-user request at the digital agency for your default agent principal and returns `delegation_url`, where a person with signing authority in the organisation approves. Nothing is usable until they do (`delegation_status` `pending`). A retry finds the first request; it never makes a second. The route keeps a principal of its own per organisation: after that principal is revoked (terminal), the next call makes a new one; a call for scopes beyond its delegation asks for all of them under a new principal (the earlier delegation works until revoked), and a call for scopes it already covers is that delegation.' +
      ' Only a legal entity is party to it: a sub-unit’s number (underenhet) is 422 `ORG_NUMBER_IS_SUB_UNIT`, whose `parent_org_number` and fix name the entity to use.',
    request: { body: D.DelegateBody },
    response: D.DelegationGrant,
    successStatus: 201,
    idempotency: 'optional',
    capability: {
      name_en: 'System-user delegation',
      name_nb: 'Delegering til systembruker',
      description_en:
        'Ask an organisation to approve Plikt’s system user; a person with signing authority must approve.',
      description_nb: 'Be en virksomhet godkjenne systembrukeren til Plikt; en person med signaturrett må godkjenne.',
      data_sources: ['Digdir (Altinn systembruker)'],
      freshness: 'live',
      status: 'gated',
    },
    errors: BROKERING,
  }),
  op({
    ...DELEGATION,
    id: 'requestFullmakt',
    summaryNb: 'Be om fullmakt for en agentprinsipal',
    method: 'POST',
    path: '/api/v1/fullmakt/request',
    summary: 'Request a delegation (fullmakt) for an agent principal',
    description:
      '201 with `delegation_url` for the organisation’s signing authority and a signed `delegation_granted` receipt (state `pending`; another, `active`, is signed when they approve). Non-empty `warnings` mean the delegation exists upstream but a local follow-up write degraded: reconcile with `GET /api/v1/fullmakt/{org}`; a retry with the same principal completes it and never creates a second delegation. A principal acts for one organisation; a revoked one is never used again. Limits: at most 100 open (requesting or pending) requests per account and organisation — a new principal beyond that is 409 `DELEGATION_REQUESTS_LIMIT` (a retry for a principal that already has its request is not refused); a permissions read, dry run or live filing asks the agency about at most 10 pending requests, the least recently asked first, and reports the rest as recorded.' +
      ' Only a legal entity is party to it: a sub-unit’s number (underenhet) is 422 `ORG_NUMBER_IS_SUB_UNIT`, whose `parent_org_number` and fix name the entity to use.',
    request: { body: D.FullmaktRequestBody },
    response: D.DelegationGrant,
    successStatus: 201,
    idempotency: 'optional',
    mcpTool: 'request_fullmakt',
    errors: BROKERING,
  }),
  op({
    ...DELEGATION,
    id: 'listFullmaktReceipts',
    summaryNb: 'Dine signerte fullmaktskvitteringer, nyeste først',
    method: 'GET',
    path: '/api/v1/fullmakt/receipts',
    summary: 'Your signed delegation receipts, newest first',
    description:
      'Keyset pagination: pass the last entry’s `issued_at` as `before` and its `id` as `before_id` (both or neither). Only your own receipts.',
    request: { query: D.ReceiptsQuery },
    response: D.ReceiptsPage,
  }),
  op({
    ...DELEGATION,
    id: 'getFullmakt',
    summaryNb: 'Fullmaktsstatus: dine agentprinsipaler for virksomheten, slik de er registrert',
    method: 'GET',
    path: '/api/v1/fullmakt/:org',
    summary: 'Fullmakt state: your agent principals for the organisation, as recorded',
    description:
      'Reports the state Plikt recorded, not a live decision (the authorisation snapshot asks the agency). `none` is 200 with empty `principals` and Norwegian `fix_steps`, never 404.',
    request: { params: D.OrgOnlyParams },
    response: D.FullmaktState,
    mcpTool: 'check_fullmakt',
    errors: ['ORG_NUMBER_INVALID_CHECKSUM'],
  }),
  op({
    ...DELEGATION,
    id: 'revokeFullmakt',
    summaryNb: 'Trekk tilbake en agentprinsipal og fullmaktene dens (endelig)',
    method: 'POST',
    destructive: true,
    path: '/api/v1/fullmakt/revoke',
    summary: 'Revoke an agent principal and its delegations (terminal)',
    description:
      'A revocation marker supersedes each delegation, the digital agency is told, and the principal becomes `revoked` for good. Revoking again is a 200 no-op (`already_revoked: true`). Warnings: `delegation_not_found` (it had none), `upstream_revoke_unconfirmed` (the agency did not confirm, or — against the live agency, which lets only the organisation delete a system user it approved — the system user remains until the organisation’s administrator deletes it in Altinn; either way it is revoked here and Plikt never uses it again), `principal_revoke_failed` (the delegations are revoked but the principal row was not updated: revoke again).',
    request: { body: D.FullmaktRevokeBody },
    response: D.Revocation,
    idempotency: 'optional',
    mcpTool: 'revoke_fullmakt',
    errors: ['NOT_FOUND'],
  }),
  op({
    ...DELEGATION,
    id: 'getReceiptKey',
    summaryNb: 'Din nøkkel for å verifisere produksjonskvitteringer uten nett',
    method: 'GET',
    path: '/api/v1/auth/receipt-key',
    scope: null,
    summary: 'Your key for verifying production receipts offline',
    description:
      'Production receipts (filings and delegations) are signed with HMAC-SHA-256 under a key of your own, derived from the service secret: with it you verify them offline (docs/receipt-signature.md). No other consumer’s key verifies your receipts. Treat it as a secret. Whoever holds it can also make receipts that verify, so to prove a receipt to someone else use its `signature_ed25519`, which anyone checks with the public keys at /.well-known/receipt-keys.json.',
    response: D.ReceiptKey,
  }),
  op({
    ...DELEGATION,
    id: 'createApprovalToken',
    summaryNb: 'Lag et engangs godkjenningstoken for én handling i én virksomhet (en person bekrefter)',
    method: 'POST',
    path: '/api/v1/auth/approval-token',
    scope: 'read:actions',
    summary: 'Mint a single-use approval token for one action of one organisation (a person confirms)',
    description:
      'Shown once; valid 15 minutes; bound to `action_id` (from the dry run) and `org_number`. Send the dry run’s `action_type`, `period` and `payload` with them (they must hash to `action_id`; 400 `VALIDATION_FAILED` otherwise): they are what a person confirms. ' +
      'The token is minted **awaiting confirmation** (`confirmation_state`): it is unusable — the live execute answers 403 `APPROVAL_TOKEN_UNCONFIRMED` and spends nothing — until the account’s owner, signed in to Plikt, opens `confirmation_url`, sees the organisation, the action, the period, the amounts and the five checks, and confirms. Give the person `confirmation_url` (`ask_the_person` says it in bokmål and English), then send the live execute with `X-Approval-Token`; a declined token is 403 `APPROVAL_TOKEN_DECLINED` for good. An agent with a key cannot confirm: the page needs the owner’s browser session. The sandbox’s token (`/api/v1/sandbox/auth/approval-token`) is usable at once: the sandbox never files.',
    request: { body: D.ApprovalTokenBody },
    response: D.ApprovalToken,
    successStatus: 201,
    errors: ['ORG_NUMBER_INVALID_CHECKSUM'],
  }),
  op({
    ...DELEGATION,
    id: 'executeAction',
    method: 'POST',
    path: '/api/v1/actions/execute',
    scope: 'read:actions',
    summary: 'Dry-run (`?dry_run=true`) or file an action for an organisation',
    description:
      'Dry run: the five checks, nothing submitted, both action types. Live: only `mva_melding` (`a_melding` → 403 `PLAN_INSUFFICIENT`); needs `Idempotency-Key` and `X-Approval-Token` — a token the account’s owner has confirmed at its `confirmation_url` (before that 403 `APPROVAL_TOKEN_UNCONFIRMED` naming the page, after a decline 403 `APPROVAL_TOKEN_DECLINED`; either spends nothing); a failed check is 422 and leaves the token usable; the token is spent once every check passed and the conflict lock, the government token and the tax authority’s validation are in hand; one 8-second budget covers every upstream call. After the token is spent, an answer that is not a receipt says what is known: 504 `EXECUTION_TIMEOUT` when a write to the portal went unanswered and no read could confirm it (reconcile before filing again: the same `Idempotency-Key` resumes the same instance), 422 `FOLLOWUP_REQUIRED` when the portal’s process waits for a person (`outcome.followup_action` names the step), 503 `GOVERNMENT_UNAVAILABLE` when the portal said it is down, 502 `EXECUTION_FAILED` for a failure that says nothing about the filing’s fate. ' +
      'The lock (VAT return: 600 s) lets one agent at a time file an organisation’s period: another gets 409 `EXECUTION_CONFLICT` with `Retry-After`. The receipt is signed with your receipt key (GET /api/v1/auth/receipt-key). The body, payload included, is bounded by the write-body cap (256 KB); the 64 KiB payload cap is `validate_action`’s (spec Limits).' +
      ' Only a legal entity is party to it: a sub-unit’s number (underenhet) is 422 `ORG_NUMBER_IS_SUB_UNIT`, whose `parent_org_number` and fix name the entity to use.',
    request: { query: D.ExecuteQuery, body: D.ActionBody },
    response: D.ExecuteResult,
    idempotency: 'optional',
    approval: true,
    mcpTool: 'submit_vat_return',
    capability: {
      name_en: 'File a VAT return',
      name_nb: 'Send inn mva-melding',
      description_en: 'Dry-run any action; file a VAT return live with a person’s approval token; signed receipt.',
      description_nb:
        'Prøvekjør en handling; send inn mva-melding med godkjenningstoken fra en person; signert kvittering.',
      data_sources: ['Altinn', 'Skatteetaten', 'Maskinporten'],
      freshness: 'live',
      status: 'live',
    },
    errors: [
      'ORG_NUMBER_INVALID_CHECKSUM',
      'IDEMPOTENCY_KEY_REQUIRED',
      'APPROVAL_TOKEN_UNCONFIRMED',
      'APPROVAL_TOKEN_DECLINED',
      'PLAN_INSUFFICIENT',
      'COMPANY_NOT_FOUND',
      'ORG_NUMBER_IS_SUB_UNIT',
      'SUB_UNIT_DELETED',
      'COMPANY_INACTIVE',
      'AUTH_NO_DELEGATION',
      'SCOPE_INSUFFICIENT_FOR_ACTION',
      'DEADLINE_PASSED',
      'EXECUTION_CONFLICT',
      'EXECUTION_CIRCUIT_OPEN',
      'EXECUTION_DEADLINE_EXCEEDED',
      'RETRY_BUDGET_EXHAUSTED',
      'EXECUTION_TIMEOUT',
      'EXECUTION_FAILED',
      'FOLLOWUP_REQUIRED',
      'TOKEN_SERVICE_AUTH_FAILED',
      'GOVERNMENT_VALIDATION_REJECTED',
      'GOVERNMENT_UNAVAILABLE',
      'PORTAL_DELEGATION_MISSING',
      'PORTAL_ACK_UNPARSEABLE',
      ...UPSTREAM,
    ],
  }),
  op({
    ...DELEGATION,
    id: 'validateAction',
    summaryNb: 'De fem kontrollene av en handling uten innsending (prøvekjøringen som egen rute)',
    method: 'POST',
    path: '/api/v1/actions/validate',
    scope: 'read:actions',
    safe: true,
    summary: 'The five checks of an action, nothing submitted (the dry run as its own route)',
    description:
      'Equal to `POST /api/v1/actions/execute?dry_run=true`; the MCP tool `validate_action`. `payload` is at most 64 KiB of UTF-8 JSON.' +
      ' Only a legal entity is party to it: a sub-unit’s number (underenhet) is 422 `ORG_NUMBER_IS_SUB_UNIT`, whose `parent_org_number` and fix name the entity to use.',
    request: { body: D.ActionBody },
    response: D.ExecuteResult,
    mcpTool: 'validate_action',
    errors: ['ORG_NUMBER_INVALID_CHECKSUM', 'ORG_NUMBER_IS_SUB_UNIT', 'SUB_UNIT_DELETED', ...UPSTREAM],
  }),
] as const
