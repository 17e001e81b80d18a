/**
 * THE operation registry: every operation once. Routes, the OpenAPI document and (later) MCP
 * tools/list, /pricing, /capabilities and llms.txt are generated from it, and tests fail when any
 * of them lists something this file does not.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import type { ErrorCode } from './errors/catalogue/index.ts'
import { ErrorList, ExplainBody, ExplainResult, Health } from './schemas/common.ts'
import { PublicDeadlines, PublicDeadlinesQuery, PublicObligations, PublicObligationsQuery } from './schemas/rulebook.ts'
import * as A from './schemas/access.ts'
import * as P from './schemas/pages.ts'
import * as C from './schemas/company.ts'
import * as T from './schemas/tools.ts'
import * as S from './schemas/sandbox.ts'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/**
 * How a caller proves who it is: nothing; an API key (Category B: with `scope`, or any valid key
 * when `scope` is null); the browser session cookie (every `/api/v1/account/*` management route);
 * the operator's ADMIN_TOKEN; or either a session or a key.
 */
export type AuthMode = 'none' | 'key' | 'session' | 'admin' | 'key_or_session' | 'sandbox'

/** An operation's own rate limit, on top of the tier limits every keyed call has. */
export interface OperationLimit {
  /** operations naming the same group share one budget; default: the operation's own */
  group?: string
  per: 'ip' | 'key' | 'consumer'
  max: number
  window: 'minute' | 'hour'
  code: 'RATE_LIMIT_EXCEEDED' | 'RATE_LIMITED'
}

export interface Operation {
  /** OpenAPI operationId */
  id: string
  method: HttpMethod
  /** Elysia-style template, `:name` for path parameters */
  path: string
  /** A = no key; B = API key with scope; admin = ADMIN_TOKEN; session = browser session; discovery = documents */
  category: 'A' | 'B' | 'admin' | 'session' | 'discovery' | 'sandbox'
  /** how the body is rendered: the spec envelope, plain JSON, or HTML */
  /** `sandbox`: the sandbox envelope (its own `_meta`, errors included), built by the handler */
  format: 'envelope' | 'json' | 'html' | 'sandbox'
  auth: AuthMode
  limits: OperationLimit[]
  /** limits itself inside (MCP: the key's tier limits, or 100 keyless calls an hour per IP), so the
   * generic per-IP soft limit of Category A does not apply */
  selfLimited: boolean
  /** `Idempotency-Key` handling (DESIGN §5): required, optional, or not offered */
  idempotency: 'required' | 'optional' | null
  /** request body encoding: JSON (API), an HTML form (pages), or raw (read by the handler: MCP) */
  bodyType: 'json' | 'form' | 'raw'
  summary: string
  description?: string
  tag: string
  /** the key scope a caller needs (category B) */
  scope: string | null
  tierMinimum: 'free' | 'professional' | null
  /** metered price per successful call, whole øre */
  costOre: number
  mcpTool: string | null
  sandboxMirror: string | null
  capability: {
    name_en: string
    name_nb: string
    description_en: string
    description_nb: string
    data_sources: string[]
    freshness: 'static' | 'cached' | 'live'
    status: 'live' | 'dry-run' | 'gated'
  } | null
  request: { params?: TObject; query?: TObject; body?: TSchema }
  /** schema of `data` (envelope) or of the whole body (json); null for HTML */
  response: TSchema | null
  successStatus: 200 | 201
  /** the error codes this operation documents besides the ones every route can give */
  errors: ErrorCode[]
  /** response headers worth documenting */
  responseHeaders?: Record<string, string>
}

type Defaulted = 'selfLimited' | 'scope' | 'tierMinimum' | 'costOre' | 'mcpTool' | 'sandboxMirror' | 'capability' | 'request' | 'successStatus' | 'errors' | 'auth' | 'limits' | 'idempotency' | 'bodyType'
type Def = Omit<Operation, Defaulted> & Partial<Pick<Operation, Defaulted>>

const AUTH_BY_CATEGORY: Record<Operation['category'], AuthMode> = { A: 'none', B: 'key', admin: 'admin', session: 'session', discovery: 'none', sandbox: 'sandbox' }

export function op<const Id extends string>(def: Def & { id: Id }): Operation & { id: Id } {
  return {
    scope: null,
    tierMinimum: null,
    costOre: 0,
    mcpTool: null,
    sandboxMirror: null,
    capability: null,
    request: {},
    successStatus: 200,
    errors: [],
    auth: AUTH_BY_CATEGORY[def.category],
    limits: [],
    selfLimited: false,
    idempotency: null,
    bodyType: 'json',
    ...def,
  }
}

/** Metered Category B company reads: key with a scope (default read:register), 50 øre per successful call. */
const COMPANY_ERRORS: ErrorCode[] = [
  'AUTH_MISSING',
  'AUTH_INVALID_KEY',
  'AUTH_CONSUMER_INACTIVE',
  'SCOPE_INSUFFICIENT',
  'RATE_LIMIT_EXCEEDED',
  'VALIDATION_FAILED',
  'ORG_NUMBER_INVALID_CHECKSUM',
  'INSUFFICIENT_CREDITS',
  'CREDIT_CHECK_UNAVAILABLE',
]
const COMPANY_READ_ERRORS: ErrorCode[] = ['COMPANY_NOT_FOUND', 'REGISTER_DOWN', 'COMPANY_LOOKUP_FAILED', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'GOVERNMENT_API_ERROR', 'GOVERNMENT_RATE_LIMITED']

function companyOp<const Id extends string>(d: {
  id: Id
  path: string
  method?: HttpMethod
  scope?: string
  summary: string
  description: string
  request?: Operation['request']
  response: TSchema
  mcpTool?: string
  sandboxMirror?: string
  errors?: ErrorCode[]
  responseHeaders?: Record<string, string>
  sources: string[]
  freshness?: 'cached' | 'live'
  capabilityNames: [string, string, string, string]
}) {
  const [name_en, name_nb, description_en, description_nb] = d.capabilityNames
  return op({
    id: d.id,
    method: d.method ?? 'GET',
    path: d.path,
    category: 'B',
    format: 'envelope',
    tag: 'Company data',
    summary: d.summary,
    description: `${d.description} Metered: 50 øre per successful call; nothing is charged when the call fails.`,
    request: d.path.includes(':org') ? { params: C.OrgParams, ...d.request } : (d.request ?? {}),
    response: d.response,
    scope: d.scope ?? 'read:register',
    costOre: 50,
    mcpTool: d.mcpTool ?? null,
    sandboxMirror: d.sandboxMirror ?? null,
    errors: [...COMPANY_ERRORS, ...(d.id === 'getFilingHistory' ? [] : COMPANY_READ_ERRORS), ...(d.errors ?? [])],
    ...(d.responseHeaders ? { responseHeaders: d.responseHeaders } : {}),
    capability: { name_en, name_nb, description_en, description_nb, data_sources: d.sources, freshness: d.freshness ?? 'cached', status: 'live' },
  })
}

/** Codes any /api/v1 route can answer with, documented once rather than per operation. */
/** Errors every sandbox route can give (spec: SandboxEnvelopeError), besides its own. */
const SANDBOX_ERRORS: ErrorCode[] = [
  'VALIDATION_FAILED',
  'AUTH_INVALID_KEY',
  'AUTH_MISSING_DELEGATION',
  'AUTH_EXPIRED_TOKEN',
  'SCOPE_MISSING',
  'INTERNAL_ERROR',
  'SANDBOX_TEST_KEY_REQUIRED',
  'RATE_LIMIT_EXCEEDED',
  'EXECUTION_DEADLINE_EXCEEDED',
]
const PUBLIC_SANDBOX_ERRORS: ErrorCode[] = ['PUBLIC_SANDBOX_ORG_NOT_PERMITTED', 'PUBLIC_SANDBOX_BODY_TOO_LARGE', 'AGENT_LOOP_DETECTED', 'SANDBOX_TEMPORARILY_UNAVAILABLE']

/** Requests per minute per client address on the public mirror (spec: per-IP bucket, value not shown). */
export const PUBLIC_SANDBOX_PER_MINUTE = 60

const SANDBOX_DESCRIPTION =
  'Sandbox: no key needed; deterministic synthetic data (`GET /api/v1/sandbox/fixtures`). Optional bearer ' +
  '`svc_sandbox_test_<suffix>` namespaces your writes; a real key is accepted and the answer is still mock. Knobs: ' +
  '`simulate_error`, `simulate_latency` (0–30000 ms), `mock_date`, header `X-Service-Simulate` (`error_500` → 500 ' +
  '`INTERNAL_ERROR`, `timeout` → 504 `EXECUTION_DEADLINE_EXCEEDED`, `rate_limit` → 429 `RATE_LIMIT_EXCEEDED`; synthetic ' +
  'bearer only). Reserved orgs 999000901–999000904 answer `AUTH_MISSING_DELEGATION`, `AUTH_EXPIRED_TOKEN`, ' +
  '`VALIDATION_FAILED`, `SCOPE_MISSING`. CORS is open.'

/**
 * A sandbox operation and its public-mirror twin (`/api/v1/sandbox/public/…`: org 999999999 only,
 * POST bodies ≤ 32 KiB, a per-IP bucket).
 */
function sandboxOps<const Id extends string>(d: {
  id: Id
  method: HttpMethod
  path: string
  summary: string
  description?: string
  request: Operation['request']
  response: TSchema
  errors?: ErrorCode[]
  successStatus?: 200 | 201
  idempotency?: 'optional'
}) {
  const description = d.description ? `${d.description}\n\n${SANDBOX_DESCRIPTION}` : SANDBOX_DESCRIPTION
  const common = {
    method: d.method,
    category: 'sandbox',
    format: 'sandbox',
    summary: d.summary,
    description,
    request: d.request,
    response: d.response,
    successStatus: d.successStatus ?? 200,
    idempotency: d.idempotency ?? null,
  } as const
  const publicId = `public${d.id.charAt(0).toUpperCase()}${d.id.slice(1)}` as `public${Capitalize<Id>}`
  return [
    op({ ...common, id: d.id, path: `/api/v1/sandbox${d.path}`, tag: 'Sandbox', errors: [...SANDBOX_ERRORS, ...(d.errors ?? [])] }),
    op({
      ...common,
      id: publicId,
      path: `/api/v1/sandbox/public${d.path}`,
      tag: 'Sandbox (public mirror)',
      summary: `${d.summary} (public mirror)`,
      errors: [...SANDBOX_ERRORS, ...(d.errors ?? []), ...PUBLIC_SANDBOX_ERRORS],
      limits: [{ group: 'sandbox-public', per: 'ip', max: PUBLIC_SANDBOX_PER_MINUTE, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' }],
    }),
  ] as const
}

const sandboxOrgRoute = <const Id extends string>(id: Id, route: string, summary: string, query: TObject, response: TSchema, description?: string) =>
  sandboxOps({ id, method: 'GET', path: `/company/:org/${route}`, summary, request: { params: S.SandboxOrgParams, query }, response, errors: ['COMPANY_NOT_FOUND'], ...(description ? { description } : {}) })

export const COMMON_ERRORS: ErrorCode[] = ['NOT_FOUND', 'METHOD_NOT_ALLOWED', 'REQUEST_TOO_LARGE', 'INTERNAL_ERROR']

export const operations = [
  op({
    id: 'getHealth',
    method: 'GET',
    path: '/api/health',
    category: 'A',
    format: 'json',
    tag: 'Service',
    summary: 'Liveness and database check',
    description: 'Plain JSON outside the envelope. 200 when the database answers, 503 when it does not.',
    response: Health,
  }),
  op({
    id: 'listErrors',
    method: 'GET',
    path: '/api/v1/errors',
    category: 'A',
    format: 'envelope',
    tag: 'Errors',
    summary: 'The error registry',
    description:
      'Every error code the service can answer with, sorted by code. The strong `ETag` validates `data` ' +
      '(it is derived from `_meta.response_hash`; `_meta.response_timestamp` differs per response); send it ' +
      'back in `If-None-Match` to get `304 Not Modified`.',
    response: ErrorList,
    responseHeaders: { ETag: 'strong validator of `data`' },
    capability: {
      name_en: 'Error registry',
      name_nb: 'Feilkoderegister',
      description_en: 'Every error code with retry advice, fix hints in English and Norwegian, and a docs link.',
      description_nb: 'Alle feilkoder med råd om nye forsøk, tips til retting på norsk og engelsk, og lenke til dokumentasjon.',
      data_sources: ['plikt'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'explainError',
    method: 'POST',
    path: '/api/v1/explain',
    category: 'A',
    format: 'envelope',
    tag: 'Errors',
    summary: 'Explain an error code in Norwegian and English',
    description:
      'The full bilingual explanation of a code, with the optional context substituted into the texts (a neutral ' +
      'noun stands in for a missing value). The code is matched case-insensitively; an uncatalogued code is ' +
      'explained as `UNKNOWN`. No upstream is called and nothing is stored.',
    request: { body: ExplainBody },
    response: ExplainResult,
    errors: ['VALIDATION_FAILED'],
    mcpTool: 'explain_compliance_error',
    capability: {
      name_en: 'Error explainer',
      name_nb: 'Forklaring av feilkoder',
      description_en: 'Explains any error code: what happened, why, what to do, and who must act when an agent cannot.',
      description_nb: 'Forklarer en feilkode: hva som skjedde, hvorfor, hva du gjør, og hvem som må gjøre noe når en agent ikke kan.',
      data_sources: ['plikt'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'getPublicDeadlines',
    method: 'GET',
    path: '/api/v1/public/deadlines',
    category: 'A',
    format: 'envelope',
    tag: 'Rulebook',
    summary: 'Every statutory deadline falling in a year',
    description:
      'The universal Norwegian deadline calendar for a calendar year (Europe/Oslo): one entry per period and ' +
      'obligation, with the date after any weekend/holiday shift, the legal date it moved from and why, and the ' +
      'law. Deterministic for a rulebook version. Each due date is the whole Oslo day (`T23:59:59` with the ' +
      "day's offset). An entry belongs to the year its deadline falls in: `mva-termin-6-2025` is listed under 2026.",
    request: { query: PublicDeadlinesQuery },
    response: PublicDeadlines,
    errors: ['VALIDATION_FAILED'],
    scope: 'read:rulebook',
    mcpTool: 'get_public_deadlines',
    capability: {
      name_en: 'Deadline calendar',
      name_nb: 'Fristkalender',
      description_en: 'Every statutory filing and payment deadline of a year, moved off weekends and holidays where the law says so.',
      description_nb: 'Alle lovbestemte frister for levering og betaling i et år, flyttet fra helg og helligdag der loven sier det.',
      data_sources: ['rulebook'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'getPublicObligations',
    method: 'GET',
    path: '/api/v1/public/obligations',
    category: 'A',
    format: 'envelope',
    tag: 'Rulebook',
    summary: 'The obligations a company of a given type may have',
    description:
      'Each rule of the rulebook that concerns the entity type, with the condition in words and `tier_2_required`: ' +
      'true when deciding it for a specific company needs commercial data (employees, turnover, balance) that the ' +
      'open registers do not give.',
    request: { query: PublicObligationsQuery },
    response: PublicObligations,
    errors: ['VALIDATION_FAILED'],
    scope: 'read:rulebook',
    mcpTool: 'get_public_obligations',
    capability: {
      name_en: 'Obligations by company type',
      name_nb: 'Plikter etter selskapsform',
      description_en: 'What an AS, ENK, ANS, DA or NUF must do, with the law and what data decides it.',
      description_nb: 'Hva et AS, ENK, ANS, DA eller NUF må gjøre, med lovhjemmel og hvilke opplysninger som avgjør det.',
      data_sources: ['rulebook'],
      freshness: 'static',
      status: 'live',
    },
  }),
  // -- accounts and keys ------------------------------------------------------------------------
  op({
    id: 'signup',
    method: 'POST',
    path: '/api/v1/account/signup',
    category: 'A',
    format: 'envelope',
    tag: 'Account',
    summary: 'Sign up, or sign in again, by e-mailed magic link',
    description:
      '`{email, company_name, consent: true}` signs up; `{email}` alone asks for a sign-in link for an existing ' +
      'account. The answer is always `{ok: true}`, whether or not the e-mail is known; no key is issued here. ' +
      'Opening the link (valid 15 minutes, single use) creates the account with a free-tier key, shown once. ' +
      'Limited to 5 requests an hour per IP address.',
    request: { body: A.SignupBody },
    response: A.SignupResult,
    errors: ['VALIDATION_FAILED', 'RATE_LIMITED'],
    limits: [{ per: 'ip', max: 5, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'redeemIssuanceToken',
    method: 'POST',
    path: '/api/v1/account/issuance-tokens/redeem',
    category: 'A',
    format: 'envelope',
    tag: 'Account',
    summary: 'Redeem an issuance token for a read:* key',
    description:
      'The headless path to a key: the account owner mints a one-time token in the dashboard and hands it to the ' +
      'agent. The key is returned once. Every failure — unknown, expired, used or revoked token — is the same 401 ' +
      '`ISSUANCE_TOKEN_INVALID`; with three active keys the answer is 409 `MAX_KEYS_REACHED` and the token stays valid. ' +
      'Limited to 20 attempts an hour per IP address.',
    request: { body: A.RedeemBody },
    response: A.PlaintextKey,
    successStatus: 201,
    errors: ['VALIDATION_FAILED', 'ISSUANCE_TOKEN_INVALID', 'MAX_KEYS_REACHED', 'RATE_LIMITED'],
    limits: [{ per: 'ip', max: 20, window: 'hour', code: 'RATE_LIMITED' }],
    mcpTool: 'redeem_issuance_token',
  }),
  op({
    id: 'getAccount',
    method: 'GET',
    path: '/api/v1/account/me',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'The signed-in account and its CSRF token',
    description: 'Browser session only. `csrf_token` must accompany session-authenticated writes as `X-CSRF-Token`.',
    response: A.Me,
    errors: ['AUTH_MISSING', 'AUTH_CONSUMER_INACTIVE'],
  }),
  op({
    id: 'listAccountKeys',
    method: 'GET',
    path: '/api/v1/account/keys',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'The account’s API keys (metadata only)',
    response: A.KeyList,
    errors: ['AUTH_MISSING', 'AUTH_CONSUMER_INACTIVE'],
  }),
  op({
    id: 'createAccountKey',
    method: 'POST',
    path: '/api/v1/account/keys',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'Mint an API key (browser session)',
    description:
      'Scopes default to `read:*`; `write:`, `act:` and `delegate:` are reserved (`SCOPE_RESERVED`). At most three ' +
      'active keys (`MAX_KEYS_REACHED`): to rotate, mint the new key, switch, then revoke the old one. The key is ' +
      'returned once. Needs `X-CSRF-Token` (from `GET /api/v1/account/me`). 30 account writes (keys, tokens, approvals) an hour per account.',
    request: { body: A.MintKeyBody },
    response: A.PlaintextKey,
    successStatus: 201,
    errors: ['AUTH_MISSING', 'VALIDATION_FAILED', 'SCOPE_RESERVED', 'MAX_KEYS_REACHED', 'RATE_LIMITED'],
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'revokeAccountKey',
    method: 'DELETE',
    path: '/api/v1/account/keys/:id',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'Revoke an API key (browser session; irreversible, effective at once)',
    request: { params: A.IdParam },
    response: A.RevokedKey,
    errors: ['AUTH_MISSING', 'VALIDATION_FAILED', 'RATE_LIMITED'],
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'getUsage',
    method: 'GET',
    path: '/api/v1/account/usage',
    category: 'B',
    auth: 'key_or_session',
    format: 'envelope',
    tag: 'Account',
    summary: 'Per-minute and per-day ceilings and what has been used',
    description:
      'With a key: that key’s counters; with the browser session: every active key of the account. Ceilings by ' +
      'tier — free 30/min and 1 000/day, starter 150/min and 20 000/day, professional 300/min and 100 000/day, ' +
      'enterprise unlimited; days are UTC.',
    response: A.Usage,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE', 'RATE_LIMIT_EXCEEDED'],
  }),
  op({
    id: 'getCreditBalance',
    method: 'GET',
    path: '/api/v1/account/credits/balance',
    category: 'B',
    format: 'envelope',
    tag: 'Billing',
    summary: 'The prepaid credit balance of the key’s account',
    description: 'Any valid key; no scope needed. Read only.',
    response: A.Balance,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE', 'RATE_LIMIT_EXCEEDED'],
    mcpTool: 'get_credit_balance',
  }),
  op({
    id: 'createTopupRequest',
    method: 'POST',
    path: '/api/v1/billing/topup-requests',
    category: 'B',
    format: 'envelope',
    tag: 'Billing',
    summary: 'Ask a person to approve a top-up',
    description:
      'Any valid key, no scope. Nothing is charged: the answer carries `approval_url`, where the signed-in owner ' +
      'approves. Minimum 1000 øre, ceiling 100000 øre at launch; at most 3 pending per account; 5 requests an hour ' +
      'per key; a request expires after 24 hours. Supports `Idempotency-Key`.',
    request: { body: A.TopupBody },
    response: A.Topup,
    successStatus: 201,
    idempotency: 'optional',
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED', 'TOPUP_BELOW_MINIMUM', 'TOPUP_CEILING_EXCEEDED', 'RATE_LIMITED', 'IDEMPOTENCY_KEY_INVALID_FORMAT', 'IDEMPOTENCY_KEY_MISMATCH', 'IDEMPOTENCY_IN_PROGRESS'],
    limits: [{ per: 'key', max: 5, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'getPricing',
    method: 'GET',
    path: '/api/v1/pricing',
    category: 'A',
    format: 'envelope',
    tag: 'Billing',
    summary: 'Prices of metered operations, top-up bounds and the 402 recovery contract',
    response: A.Pricing,
    mcpTool: 'get_pricing',
  }),
  op({
    id: 'submitPrivacyRequest',
    method: 'POST',
    path: '/api/v1/privacy/dsr',
    category: 'A',
    format: 'envelope',
    tag: 'Privacy',
    summary: 'Exercise a data-protection right (access, rectification, erasure, restriction, portability, objection)',
    description:
      'Records the request and answers with a reference and the date by which a person will reply by e-mail ' +
      '(one month, GDPR art. 12 (3)). Nothing is changed or deleted automatically. Limited to 10 requests a minute per IP.',
    request: { body: A.PrivacyRequestBody },
    response: A.PrivacyRequestReceipt,
    successStatus: 201,
    errors: ['VALIDATION_FAILED', 'RATE_LIMIT_EXCEEDED'],
    limits: [{ per: 'ip', max: 10, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' }],
  }),
  // -- company data (Category B, metered) ------------------------------------------------------
  companyOp({
    id: 'searchCompanies',
    path: '/api/v1/company/search',
    summary: 'Find companies by name',
    description:
      'Up to 10 candidates from Enhetsregisteret by name (2 to 100 characters after trimming; the register matches ' +
      'on the start of words). Deleted units are not returned. Zero hits is 404 `NOT_FOUND`.',
    request: { query: C.SearchQuery },
    response: C.SearchResult,
    mcpTool: 'search_companies',
    capabilityNames: ['Company search', 'Søk etter virksomheter', 'Candidates by name from the business register.', 'Kandidater etter navn fra Enhetsregisteret.'],
    sources: ['enhetsregisteret'],
  }),
  companyOp({
    id: 'getCompanyContext',
    sandboxMirror: 'getSandboxContext',
    path: '/api/v1/company/:org/context',
    summary: 'Registry identity of a company (Tier 1)',
    description:
      'The open register’s fields: name, form, addresses, NACE codes, VAT registration, distress flags, last accounts ' +
      'year. Tier 2 figures (employees, turnover, balance-sheet total) need an active delegation from the company; ' +
      'until one exists `data_tier` is `tier_1`, `tier_2` is null and `upgrade_path` says how to get it.',
    response: C.CompanyContext,
    mcpTool: 'get_company_context',
    capabilityNames: ['Company context', 'Virksomhetsopplysninger', 'Who the company is, from the open register.', 'Hvem virksomheten er, fra Enhetsregisteret.'],
    sources: ['enhetsregisteret'],
  }),
  companyOp({
    id: 'verifyCompany',
    sandboxMirror: 'getSandboxVerification',
    path: '/api/v1/company/:org/verify',
    summary: 'Verify a company: active, and is a signing rule visible?',
    description:
      'Seven tri-state signals (true, false, null = unknown). The verdict reads only `is_active` and ' +
      '`has_signing_authority_defined`: `pass` = active with a visible signing rule, `fail` = not active (deleted, bankrupt, ' +
      'or under dissolution or forced dissolution: `is_active` is false), `unknown` ' +
      'otherwise. The other five signals are for transparency and never change it; `warn` is never emitted.',
    response: C.Verification,
    mcpTool: 'get_company_verification',
    capabilityNames: ['Company verification', 'Verifisering av virksomhet', 'Active, signing rule visible, distress flags, VAT and accounts.', 'Aktiv, synlig signaturregel, registerflagg, mva og regnskap.'],
    sources: ['enhetsregisteret', 'fullmakt', 'regnskapsregisteret'],
  }),
  companyOp({
    id: 'getCompanySnapshot',
    path: '/api/v1/company/:org/snapshot',
    summary: 'Unified snapshot: verification, roles, VAT, employer and risk',
    description:
      'A section that cannot be composed degrades to `{status: "degraded", error}` while the others stay populated ' +
      'and the call returns 200. 404 for an unknown organisation; 503 `REGISTER_DOWN` when the register is down and ' +
      'nothing is cached. `risk` is transparency about register flags, not a credit score.',
    response: C.UnifiedSnapshot,
    errors: ['REGISTER_DOWN'],
    sources: ['enhetsregisteret', 'fullmakt', 'regnskapsregisteret'],
    capabilityNames: ['Unified snapshot', 'Samlet øyeblikksbilde', 'Verification, roles, VAT, employer and risk in one call.', 'Verifisering, roller, mva, arbeidsgiver og risiko i ett kall.'],
  }),
  companyOp({
    id: 'getCompanyAccounts',
    sandboxMirror: 'getSandboxAccounts',
    path: '/api/v1/company/:org/accounts',
    summary: 'Latest annual accounts: filed or not, and the key figures',
    description:
      '`has_filed_annual_accounts`: true = Regnskapsregisteret has a record; false = it has none for a form that must ' +
      'file; null = unknown, or a form that files only above thresholds (ENK, ANS, DA). Key figures of the newest year ' +
      'in its own currency. An unknown organisation number answers 200 with nulls.',
    response: C.AccountsSnapshot,
    mcpTool: 'get_company_accounts',
    sources: ['enhetsregisteret', 'regnskapsregisteret'],
    capabilityNames: ['Annual accounts', 'Årsregnskap', 'Whether accounts are filed, with the latest key figures.', 'Om årsregnskap er levert, med siste nøkkeltall.'],
  }),
  companyOp({
    id: 'getCompanyAuthority',
    sandboxMirror: 'getSandboxAuthority',
    path: '/api/v1/company/:org/authority',
    summary: 'Who may sign: signature and procuration as registered',
    description:
      'Classification `sole`, `joint`, `by_role`, `prokura_only`, `no_authority` or `unknown`, with every registered ' +
      'combination (any one combination suffices; all its signers together). When the signature lookup is ' +
      'unreachable, `kombinasjon_available` is false and the answer degrades to the holders the roles register shows ' +
      'plus procuration; when nothing can be read, 503 `UPSTREAM_UNAVAILABLE`. No legal citation is asserted.',
    response: C.SigningAuthority,
    mcpTool: 'get_company_authority',
    sources: ['enhetsregisteret', 'fullmakt'],
    capabilityNames: ['Signing authority', 'Signaturrett og prokura', 'Who may sign for the company, as the register shows it.', 'Hvem som kan signere for virksomheten, slik registeret viser det.'],
  }),
  companyOp({
    id: 'getCompanySummary',
    sandboxMirror: 'getSandboxSummary',
    path: '/api/v1/company/:org/summary',
    summary: 'Obligations and deadlines together: the first call when orienting',
    description:
      'Entity type, NACE codes, VAT registration, every obligation evaluation and the next 12 months of deadlines ' +
      '(from today in Europe/Oslo). No name, status, signing rights or role holders. On tier_1 `upgrade_path` points ' +
      'to the delegation flow. Forms the rulebook does not cover (e.g. ASA) and deleted units get `coverage.covered: false` and no evaluations.',
    response: C.CompanySummary,
    mcpTool: 'get_company_summary',
    sources: ['enhetsregisteret', 'rulebook'],
    capabilityNames: ['Company summary', 'Sammendrag for virksomheten', 'What the company must do and when, in one answer.', 'Hva virksomheten må gjøre og når, i ett svar.'],
  }),
  companyOp({
    id: 'getCompanyObligations',
    sandboxMirror: 'getSandboxObligations',
    path: '/api/v1/company/:org/obligations',
    summary: 'Every rule evaluated for the company',
    description:
      'One evaluation per rule whose entity types match, by `rule_id`: `applicable`, `not_applicable`, or ' +
      '`insufficient_data` when a Tier 2 fact the rule reads is unknown. `_meta` counts the results.',
    response: C.CompanyObligations,
    mcpTool: 'get_company_obligations',
    sources: ['enhetsregisteret', 'rulebook'],
    capabilityNames: ['Company obligations', 'Plikter for virksomheten', 'Each obligation decided for this company, with the law.', 'Hver plikt vurdert for denne virksomheten, med lovhjemmel.'],
  }),
  companyOp({
    id: 'getCompanyDeadlines',
    sandboxMirror: 'getSandboxDeadlines',
    path: '/api/v1/company/:org/deadlines',
    summary: 'The company’s deadlines in a horizon',
    description:
      'Deadlines of the applicable obligations from `from_date` (default today, Europe/Oslo) for `horizon_months` ' +
      '(1 to 60, default 12); deadlines up to 3 months before `from_date` stay listed as `overdue`. Weekend and ' +
      'holiday shifts are shown with the legal date.',
    request: { query: C.DeadlinesQuery },
    response: C.CompanyDeadlines,
    mcpTool: 'get_company_deadlines',
    sources: ['enhetsregisteret', 'rulebook'],
    capabilityNames: ['Company deadlines', 'Frister for virksomheten', 'The company’s due dates, shifted off weekends and holidays.', 'Virksomhetens frister, flyttet fra helg og helligdag.'],
  }),
  companyOp({
    id: 'getFilingHistory',
    path: '/api/v1/company/:org/filing-history',
    scope: 'read:portal',
    summary: 'What the company has filed in the portal',
    description:
      'Portal instances newest first, with form, agency, submission time (Europe/Oslo) and status; ' +
      '`filed_via_service` is true when your account submitted it through Plikt (best effort; false does not prove a ' +
      'direct filing). `limit` 1 to 100 (default 20) and `cursor` from `pagination.next_cursor`; the deprecated ' +
      '`offset` still works and is answered with a `Deprecation` header. Served from deterministic fixtures until ' +
      'portal access is approved (`_meta.data_source` says so).',
    request: { query: C.FilingHistoryQuery },
    response: C.FilingHistory,
    mcpTool: 'get_company_filing_history',
    responseHeaders: { Deprecation: 'present when the deprecated `offset` was used' },
    sources: ['altinn'],
    freshness: 'live',
    capabilityNames: ['Filing history', 'Innsendingshistorikk', 'The company’s submissions to the portal.', 'Virksomhetens innsendinger i Altinn.'],
  }),
  companyOp({
    id: 'getCompanyProfile',
    method: 'POST',
    path: '/api/v1/register/company-profile',
    summary: 'The company profile: identity, form, activity, addresses, status and role codes',
    description:
      'Role codes only (DAGL, LEDE, MEDL …), never who holds them. `status` is `active` or `dissolved` (deleted from ' +
      'the register). Nothing is written: POST only because the organisation number travels in the body.',
    request: { body: C.ProfileBody },
    response: C.CompanyProfile,
    mcpTool: 'get_company_profile',
    sources: ['enhetsregisteret'],
    capabilityNames: ['Company profile', 'Virksomhetsprofil', 'Identity, form, activity, addresses, status and role codes.', 'Identitet, form, næring, adresser, status og rollekoder.'],
  }),
  op({
    id: 'getCompanyStatus',
    method: 'GET',
    path: '/api/v1/public/company-status',
    category: 'A',
    format: 'envelope',
    tag: 'Company data',
    summary: 'Register status of up to 100 organisations at once',
    description:
      'One row per organisation number (comma-separated, duplicates once, in the order given): status, form, VAT ' +
      'registration, the raw distress flags and annual-accounts filing status. Tier 1 non-personal fields only. A row ' +
      'that fails (invalid number, unknown unit, an upstream fault) says so in its row and never fails the call. ' +
      'Limited to 60 calls a minute per IP address on top of the Category A soft limit, because each call may fan out to 100 register lookups.',
    request: { query: C.CompanyStatusQuery },
    response: C.CompanyStatusRows,
    errors: ['VALIDATION_FAILED', 'RATE_LIMIT_EXCEEDED'],
    limits: [{ per: 'ip', max: 60, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' }],
    capability: {
      name_en: 'Bulk company status',
      name_nb: 'Status for mange virksomheter',
      description_en: 'Register status, VAT and distress flags of up to 100 organisations, no key needed.',
      description_nb: 'Registerstatus, mva og registerflagg for inntil 100 virksomheter, uten nøkkel.',
      data_sources: ['enhetsregisteret'],
      freshness: 'cached',
      status: 'live',
    },
  }),
  op({
    id: 'getExchangeRate',
    method: 'GET',
    path: '/api/v1/tools/exchange-rate',
    category: 'A',
    format: 'envelope',
    tag: 'Tools',
    summary: 'Norges Bank’s exchange rate: NOK per one unit of a currency',
    description:
      '`rate` is NOK per ONE unit (Norges Bank quotes some currencies per 100; the multiplier is applied and shown). ' +
      '`date` is the publication date used, `requested_date` the date asked for: weekends, holidays, days without ' +
      'publication (24 December) and today before 16:00 Europe/Oslo fall back to the prior published day, and ' +
      '`fallback_reason` says why. A gap longer than one unexplained working day answers `NO_RATE_AVAILABLE` rather than an old rate.',
    request: { query: T.ExchangeRateQuery },
    response: T.ExchangeRateResult,
    errors: ['VALIDATION_FAILED', 'INVALID_CURRENCY', 'INVALID_DATE', 'NO_RATE_AVAILABLE', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'GOVERNMENT_API_ERROR'],
    scope: 'read:centralbank',
    mcpTool: 'get_exchange_rate',
    capability: {
      name_en: 'Exchange rates',
      name_nb: 'Valutakurser',
      description_en: 'Norges Bank’s daily rates, with the business-day fallback explained.',
      description_nb: 'Norges Banks daglige kurser, med forklart fallback til forrige virkedag.',
      data_sources: ['norges-bank'],
      freshness: 'cached',
      status: 'live',
    },
  }),
  op({
    id: 'getPortalMigration',
    method: 'GET',
    path: '/api/v1/tools/portal-migration',
    category: 'A',
    format: 'envelope',
    tag: 'Tools',
    summary: 'The Altinn 3 access packages that replace an Altinn 2 role or register role',
    description:
      'Accepts an Altinn 2 role code (e.g. `A0239`, `HADM`, `UTINN`), a register role code (`DAGL`, `REGN` …) or ' +
      'their URN forms. Act on an answer only when `verified === true` (backed by Altinn’s seed data or Digdir); ' +
      'name-only matches are `verified: false`, and general Altinn 2 roles with no one-to-one package answer an ' +
      'empty list. `portal2_status` tells where the Altinn 2 shutdown stands today.',
    request: { query: T.PortalMigrationQuery },
    response: T.PortalMigrationResult,
    errors: ['VALIDATION_FAILED'],
    capability: {
      name_en: 'Altinn 2 → 3 migration',
      name_nb: 'Fra Altinn 2 til Altinn 3',
      description_en: 'Which access packages replace a legacy role, and how sure that is.',
      description_nb: 'Hvilke tilgangspakker som erstatter en gammel rolle, og hvor sikkert det er.',
      data_sources: ['altinn'],
      freshness: 'static',
      status: 'live',
    },
  }),
  // -- sandbox --------------------------------------------------------------------------------------
  ...sandboxOps({
    id: 'getSandboxFixtures',
    method: 'GET',
    path: '/fixtures',
    summary: 'The sandbox catalogue: companies, magic scenarios, reserved error orgs, knobs',
    request: { query: S.KnobsQuery },
    response: S.SandboxFixtures,
  }),
  ...sandboxOrgRoute('getSandboxContext', 'context', 'Sandbox company context', S.KnobsQuery, S.SandboxContext),
  ...sandboxOrgRoute('getSandboxObligations', 'obligations', 'Sandbox obligations, evaluated by the rulebook', S.TimeTravelQuery, S.SandboxObligations, '`as_of` (synthetic bearer) evaluates on another date.'),
  ...sandboxOrgRoute('getSandboxDeadlines', 'deadlines', 'Sandbox deadlines for twelve months', S.TimeTravelQuery, S.SandboxDeadlines, '`as_of` (synthetic bearer) moves the calendar; the sandbox has no horizon knob.'),
  ...sandboxOrgRoute('getSandboxSummary', 'summary', 'Sandbox obligations and deadlines together', S.TimeTravelQuery, S.SandboxSummary),
  ...sandboxOrgRoute('getSandboxAudit', 'audit', 'Sandbox audit trail (fixture history plus your namespace’s rows)', S.AuditQuery, S.SandboxAudit, 'Never paginates: `pagination.limit` echoes 50 and `has_more` is false. Without the synthetic bearer only the fixture history is shown.'),
  ...sandboxOrgRoute('getSandboxVerification', 'verify', 'Sandbox verification verdict and signals', S.KnobsQuery, S.SandboxVerification),
  ...sandboxOrgRoute('getSandboxAuthority', 'authority', 'Sandbox signing authority (no coded_authority)', S.KnobsQuery, S.SandboxAuthority),
  ...sandboxOrgRoute('getSandboxAccounts', 'accounts', 'Sandbox annual-accounts snapshot', S.KnobsQuery, S.SandboxAccounts),
  ...sandboxOps({
    id: 'planSandboxAction',
    method: 'POST',
    path: '/actions/plan',
    summary: 'Plan a filing: its action id, the five checks, and the steps that would file it',
    request: { query: S.KnobsQuery, body: S.ActionBody },
    response: S.SandboxPlan,
    errors: ['REQUEST_TOO_LARGE'],
  }),
  ...sandboxOps({
    id: 'createSandboxApprovalToken',
    method: 'POST',
    path: '/auth/approval-token',
    summary: 'Mint a single-use approval token for one action of one organisation',
    description: 'Shown once; valid 15 minutes; bound to `action_id` and `org_number` within your namespace.',
    request: { query: S.KnobsQuery, body: S.ApprovalTokenBody },
    response: S.SandboxApprovalToken,
    successStatus: 201,
    errors: ['REQUEST_TOO_LARGE'],
  }),
  ...sandboxOps({
    id: 'executeSandboxAction',
    method: 'POST',
    path: '/actions/execute',
    summary: 'Dry-run (`?dry_run=true`) or rehearse a live filing; nothing is ever submitted',
    description:
      'Live mode needs `Idempotency-Key` and `X-Approval-Token`; the five checks run as preconditions (422, token kept); ' +
      'only `mva_melding` is live (`a_melding` → 403 `PLAN_INSUFFICIENT`); a dry run never claims the `Idempotency-Key`. The receipt is signed with the public sandbox ' +
      'key (docs/receipt-signature.md). Magic values: `payload.total_revenue_nok` 0 → 400, 99999999 → 422 ' +
      '`GOVERNMENT_VALIDATION_REJECTED`; `payload.period` (YYYY-MM) before the effective month → `filed_late: true`.',
    request: { query: S.ExecuteQuery, body: S.ActionBody },
    response: S.SandboxExecuteResult,
    idempotency: 'optional',
    errors: [
      'REQUEST_TOO_LARGE',
      'IDEMPOTENCY_KEY_REQUIRED',
      'IDEMPOTENCY_KEY_INVALID_FORMAT',
      'IDEMPOTENCY_KEY_MISMATCH',
      'IDEMPOTENCY_IN_PROGRESS',
      'APPROVAL_TOKEN_REQUIRED',
      'APPROVAL_TOKEN_INVALID',
      'APPROVAL_TOKEN_USED',
      'APPROVAL_TOKEN_EXPIRED',
      'APPROVAL_TOKEN_MISMATCH',
      'PLAN_INSUFFICIENT',
      'COMPANY_NOT_FOUND',
      'DEADLINE_PASSED',
      'GOVERNMENT_VALIDATION_REJECTED',
    ],
  }),
  // -- operator -----------------------------------------------------------------------------------
  op({
    id: 'adminCreateKey',
    method: 'POST',
    path: '/api/v1/admin/keys',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Mint a key for a consumer (plaintext once)',
    request: { body: A.AdminMintKeyBody },
    response: A.PlaintextKey,
    successStatus: 201,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED', 'SCOPE_RESERVED', 'MAX_KEYS_REACHED'],
  }),
  op({
    id: 'adminListKeys',
    method: 'GET',
    path: '/api/v1/admin/keys',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'A consumer’s keys (metadata only, never plaintext)',
    request: { query: A.AdminKeysQuery },
    response: A.AdminKeyList,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  op({
    id: 'adminRevokeKey',
    method: 'DELETE',
    path: '/api/v1/admin/keys/:id',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Revoke any key (irreversible)',
    request: { params: A.IdParam },
    response: A.AdminRevoked,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  op({
    id: 'adminCreateConsumer',
    method: 'POST',
    path: '/api/v1/admin/consumers',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Create a consumer (201), or return the existing one for that e-mail (200)',
    request: { body: A.AdminConsumerBody },
    response: A.AdminConsumer,
    successStatus: 201,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  op({
    id: 'adminUpdateConsumer',
    method: 'PATCH',
    path: '/api/v1/admin/consumers/:id',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Change a consumer’s tier or deactivate it (its keys then answer AUTH_CONSUMER_INACTIVE)',
    request: { params: A.IdParam, body: A.AdminConsumerPatch },
    response: A.AdminConsumer,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  op({
    id: 'adminAddCredits',
    method: 'POST',
    path: '/api/v1/admin/credits',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Credit a consumer’s balance (send Idempotency-Key: a retry must not pay twice)',
    request: { body: A.AdminCreditsBody },
    response: A.AdminCredits,
    idempotency: 'optional',
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED', 'IDEMPOTENCY_KEY_INVALID_FORMAT', 'IDEMPOTENCY_KEY_MISMATCH', 'IDEMPOTENCY_IN_PROGRESS'],
  }),
  op({
    id: 'adminListOutbox',
    method: 'GET',
    path: '/api/v1/admin/outbox',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Mail kept because SMTP_URL is unset (newest first; kept one day)',
    request: { query: A.OutboxQuery },
    response: A.Outbox,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  op({
    id: 'adminListPrivacyRequests',
    method: 'GET',
    path: '/api/v1/admin/privacy-requests',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Open data-subject requests, the one due first first',
    request: { query: A.PrivacyRequestsQuery },
    response: A.PrivacyRequests,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  op({
    id: 'adminApproveTopup',
    method: 'POST',
    path: '/api/v1/admin/topup-requests/:id/approve',
    category: 'admin',
    format: 'envelope',
    tag: 'Operator',
    summary: 'Approve a pending top-up request without card checkout: the amount is credited once',
    request: { params: A.IdParam },
    response: A.ApprovedTopup,
    errors: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'VALIDATION_FAILED'],
  }),
  // -- pages for people --------------------------------------------------------------------------
  op({
    id: 'loginPage',
    method: 'GET',
    path: '/login',
    category: 'discovery',
    format: 'html',
    tag: 'Pages',
    summary: 'Sign-in and sign-up page',
    response: null,
  }),
  op({
    id: 'loginSubmit',
    method: 'POST',
    path: '/login',
    category: 'discovery',
    format: 'html',
    tag: 'Pages',
    summary: 'Ask for a magic link (form)',
    response: null,
    request: { body: P.LoginForm },
    bodyType: 'form',
    limits: [{ per: 'ip', max: 5, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'magicLinkPage',
    method: 'GET',
    path: '/auth/magic',
    category: 'discovery',
    format: 'html',
    tag: 'Pages',
    summary: 'Magic-link landing page: a button finishes sign-in (link scanners cannot use it up)',
    response: null,
    request: { query: P.MagicQuery },
  }),
  op({
    id: 'magicLinkSubmit',
    method: 'POST',
    path: '/auth/magic',
    category: 'discovery',
    format: 'html',
    tag: 'Pages',
    summary: 'Use the magic link: creates the account (first key shown once) or signs in, and sets the session cookie',
    response: null,
    request: { body: P.TokenForm },
    bodyType: 'form',
    limits: [{ per: 'ip', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'dashboardPage',
    method: 'GET',
    path: '/dashboard',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Dashboard: keys, issuance tokens, usage, credits',
    response: null,
  }),
  op({
    id: 'dashboardMintKey',
    method: 'POST',
    path: '/dashboard/keys',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Mint a key (form; shown once)',
    response: null,
    request: { body: P.KeyForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'dashboardRevokeKey',
    method: 'POST',
    path: '/dashboard/keys/:id/revoke',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Revoke a key (form)',
    response: null,
    request: { params: A.IdParam, body: P.CsrfForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'dashboardMintToken',
    method: 'POST',
    path: '/dashboard/issuance-tokens',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Mint an issuance token (form; shown once)',
    response: null,
    request: { body: P.CsrfForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'dashboardRevokeToken',
    method: 'POST',
    path: '/dashboard/issuance-tokens/:id/revoke',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Revoke an issuance token (form)',
    response: null,
    request: { params: A.IdParam, body: P.CsrfForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'topupApprovalPage',
    method: 'GET',
    path: '/billing/topup/:id',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Top-up approval page (the approval_url)',
    response: null,
    request: { params: A.IdParam },
  }),
  op({
    id: 'topupApprove',
    method: 'POST',
    path: '/billing/topup/:id/approve',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Approve a top-up and start card checkout (503 BILLING_NOT_CONFIGURED without a payment provider)',
    response: null,
    request: { params: A.IdParam, body: P.CsrfForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'logout',
    method: 'POST',
    path: '/logout',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Sign out (form)',
    response: null,
    request: { body: P.CsrfForm },
    bodyType: 'form',
  }),
  op({
    id: 'mcp',
    method: 'POST',
    path: '/api/mcp',
    category: 'A',
    format: 'json',
    bodyType: 'raw',
    selfLimited: true,
    tag: 'MCP',
    summary: 'MCP server: JSON-RPC 2.0 over stateless streamable HTTP (JSON responses)',
    description:
      'Tools are listed per credential: with no Authorization header only the keyless tools (get_public_obligations, ' +
      'get_public_deadlines, explain_compliance_error, get_pricing, redeem_issuance_token; 100 calls an hour per IP); ' +
      'with a key, the tools its scopes allow. A hidden or unknown tool is JSON-RPC error -32602. Every result is ' +
      '`{result, justification, metadata, _meta}`; a failure has `result: null` and `metadata.error_code`, ' +
      '`retryable`, `remediation`. A present but invalid Authorization header is refused with 401 and ' +
      '`WWW-Authenticate: Bearer realm="svc-mcp", error="invalid_token"`. Without a key, every JSON-RPC message ' +
      '(tools/list and initialize too) counts against the soft limit of 1 000 requests a minute per IP, and the keyless ' +
      'tools keep their 100-an-hour budget under the sandbox bearer as well. A batch holds at most 10 messages; a larger ' +
      'one is refused whole with 400 `VALIDATION_FAILED`.',
    request: { body: Type.Object({ jsonrpc: Type.Literal('2.0'), method: Type.String(), id: Type.Optional(Type.Union([Type.String(), Type.Number()])), params: Type.Optional(Type.Object({}, { additionalProperties: true })) }, { description: 'a JSON-RPC 2.0 request' }) },
    response: Type.Object({}, { additionalProperties: true, description: 'a JSON-RPC 2.0 response' }),
    errors: ['AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE'],
  }),
  op({
    id: 'getMcpManifest',
    method: 'GET',
    path: '/.well-known/mcp.json',
    category: 'discovery',
    format: 'json',
    tag: 'MCP',
    summary: 'The MCP server: URL, transport, authentication and tools',
    response: Type.Object({ name: Type.String(), version: Type.String(), url: Type.String() }, { additionalProperties: true }),
  }),
  op({
    id: 'getProtectedResourceMetadata',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/api/mcp',
    category: 'discovery',
    format: 'json',
    tag: 'MCP',
    summary: 'OAuth protected-resource metadata of the MCP server (RFC 9728); 404 OAUTH_DISABLED when OAuth is off',
    response: Type.Object({ resource: Type.String(), authorization_servers: Type.Array(Type.String()), bearer_methods_supported: Type.Array(Type.String()), scopes_supported: Type.Array(Type.String()) }, { additionalProperties: true }),
    errors: ['OAUTH_DISABLED'],
  }),
  op({
    id: 'getProtectedResourceMetadataAlias',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    category: 'discovery',
    format: 'json',
    tag: 'MCP',
    summary: 'Alias of /.well-known/oauth-protected-resource/api/mcp',
    response: Type.Object({ resource: Type.String() }, { additionalProperties: true }),
    errors: ['OAUTH_DISABLED'],
  }),
  op({
    id: 'oauthConsentPage',
    method: 'GET',
    path: '/oauth/consent',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Approve an MCP client’s OAuth identity (the consent_url of OAUTH_SUBJECT_UNMAPPED)',
    response: null,
    request: { query: P.ConnectionQuery },
  }),
  op({
    id: 'oauthConsentApprove',
    method: 'POST',
    path: '/oauth/consent',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Approve the connection: one dedicated key (read:register read:portal read:directorate read:centralbank read:changes)',
    response: null,
    request: { body: P.ConnectionForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'dashboardDisconnectOAuth',
    method: 'POST',
    path: '/dashboard/oauth-connections/:id/disconnect',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Disconnect an OAuth connection: the mapping and its key are revoked together',
    response: null,
    request: { params: A.IdParam, body: P.CsrfForm },
    bodyType: 'form',
    limits: [{ group: 'account-writes', per: 'consumer', max: 30, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary: 'This OpenAPI 3.1 document',
    response: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1 document' }),
  }),
  op({
    id: 'getApiDocs',
    method: 'GET',
    path: '/docs',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Interactive API reference (works offline)',
    response: null,
  }),
  op({
    id: 'getErrorDocs',
    method: 'GET',
    path: '/docs/errors',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Every error code explained; the target of each `docs_url`',
    response: null,
  }),
] as const satisfies readonly Operation[]

export type OperationId = (typeof operations)[number]['id']

/** The registry as plain `Operation`s, for code that walks every entry. */
export const allOperations: readonly Operation[] = operations

