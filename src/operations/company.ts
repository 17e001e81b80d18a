/** Company data: metered Category B reads of the open registers, and the keyless bulk status. */
import type { TSchema } from '@sinclair/typebox'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import * as C from '../schemas/company.ts'
import { op, type HttpMethod, type McpResource, type Op, type Operation, type RequestShape } from './define.ts'

/** What every metered company read can answer besides the codes its key, price and input imply. */
const COMPANY_ERRORS: ErrorCode[] = ['ORG_NUMBER_INVALID_CHECKSUM']
/** … and what a read of the business register can answer (not the portal's filing history). */
const COMPANY_READ_ERRORS: ErrorCode[] = [
  'COMPANY_NOT_FOUND',
  'SUB_UNIT_DELETED',
  'REGISTER_DOWN',
  'COMPANY_LOOKUP_FAILED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'GOVERNMENT_API_ERROR',
  'GOVERNMENT_RATE_LIMITED',
]

/**
 * How every register read answers a sub-unit's number: as the legal entity (obligations, deadlines
 * and the rest are the entity's; a sub-unit has none of its own), with the sub-unit named.
 */
const SUB_UNIT_NOTE =
  ' A sub-unit’s number (underenhet: a branch, shop or site; form BEDR or AAFY) answers for the legal entity it belongs to: ' +
  '`org_number` and every field are that entity’s, and `sub_unit` names the sub-unit (number, name, address, dates, parent and its status, a note in both languages). ' +
  'A deleted sub-unit whose register entry no longer names its parent is 404 `SUB_UNIT_DELETED`.'

/** A path with `:org` validates it with OrgParams, besides what the entry declares. */
type WithOrg<P extends string, R extends RequestShape> = P extends `${string}:org${string}`
  ? { params: typeof C.OrgParams } & R
  : R

/** Metered Category B company reads: key with a scope (default read:register), 50 øre per successful call. */
function companyOp<const Id extends string, const P extends string, const R extends RequestShape = {}>(d: {
  id: Id
  path: P
  method?: HttpMethod
  scope?: string
  summary: string
  description: string
  request?: R
  response: TSchema
  mcpTool?: string
  mcpResource?: McpResource
  sandboxMirror?: string
  errors?: ErrorCode[]
  /** read errors this operation answers as another code instead */
  notErrors?: ErrorCode[]
  responseHeaders?: Record<string, string>
  sources: string[]
  freshness?: 'cached' | 'live'
  capabilityNames: [string, string, string, string]
}): Op<Id, WithOrg<P, NoInfer<R>>> {
  const [name_en, name_nb, description_en, description_nb] = d.capabilityNames
  const request = (d.path.includes(':org') ? { params: C.OrgParams, ...d.request } : (d.request ?? {})) as WithOrg<P, R>
  return op({
    id: d.id,
    method: d.method ?? 'GET',
    // every company operation is a read, the POST of the profile too
    safe: true,
    path: d.path,
    category: 'B',
    format: 'envelope',
    tag: 'Company data',
    summary: d.summary,
    description: `${d.description}${d.id === 'searchCompanies' || d.id === 'getFilingHistory' ? '' : SUB_UNIT_NOTE} Metered: 50 øre per successful call; nothing is charged when the call fails.`,
    request,
    response: d.response,
    scope: d.scope ?? 'read:register',
    costOre: 50,
    mcpTool: d.mcpTool ?? null,
    mcpResource: d.mcpResource ?? null,
    sandboxMirror: d.sandboxMirror ?? null,
    errors: [
      ...new Set([...COMPANY_ERRORS, ...(d.id === 'getFilingHistory' ? [] : COMPANY_READ_ERRORS), ...(d.errors ?? [])]),
    ].filter((code) => !d.notErrors?.includes(code)),
    ...(d.responseHeaders ? { responseHeaders: d.responseHeaders } : {}),
    capability: {
      name_en,
      name_nb,
      description_en,
      description_nb,
      data_sources: d.sources,
      freshness: d.freshness ?? 'cached',
      status: 'live',
    },
  })
}

export const companyOperations = [
  companyOp({
    id: 'searchCompanies',
    path: '/api/v1/company/search',
    summary: 'Find companies by name',
    description:
      'Up to 10 candidates from Enhetsregisteret by name (2 to 100 characters after trimming; the register matches ' +
      'on the start of words). Deleted units are not returned. Zero hits is 404 `NOT_FOUND`. Priced as a company-data ' +
      'read (spec Limits: 50 øre per call on company data tools) on REST and MCP alike, though the spec’s MCP table ' +
      'does not write “metered” beside `search_companies`; a search with zero hits is a failure and is not charged.',
    request: { query: C.SearchQuery },
    response: C.SearchResult,
    mcpTool: 'search_companies',
    capabilityNames: [
      'Company search',
      'Søk etter virksomheter',
      'Candidates by name from the business register.',
      'Kandidater etter navn fra Enhetsregisteret.',
    ],
    sources: ['enhetsregisteret'],
  }),
  companyOp({
    id: 'getCompanyContext',
    mcpResource: { uri: 'plikt://company/{org_number}/context', name: 'company-context' },
    sandboxMirror: 'getSandboxContext',
    path: '/api/v1/company/:org/context',
    summary: 'Registry identity of a company (Tier 1)',
    description:
      'The open register’s fields: name, form, addresses, NACE codes, VAT registration, distress flags, last accounts ' +
      'year. Tier 2 figures (employees, turnover, balance-sheet total) need an active delegation from the company; ' +
      'until one exists `data_tier` is `tier_1`, `tier_2` is null and `upgrade_path` says how to get it.',
    response: C.CompanyContext,
    mcpTool: 'get_company_context',
    capabilityNames: [
      'Company context',
      'Virksomhetsopplysninger',
      'Who the company is, from the open register.',
      'Hvem virksomheten er, fra Enhetsregisteret.',
    ],
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
    capabilityNames: [
      'Company verification',
      'Verifisering av virksomhet',
      'Active, signing rule visible, distress flags, VAT and accounts.',
      'Aktiv, synlig signaturregel, registerflagg, mva og regnskap.',
    ],
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
    capabilityNames: [
      'Unified snapshot',
      'Samlet øyeblikksbilde',
      'Verification, roles, VAT, employer and risk in one call.',
      'Verifisering, roller, mva, arbeidsgiver og risiko i ett kall.',
    ],
  }),
  companyOp({
    id: 'getCompanyAccounts',
    mcpResource: { uri: 'plikt://company/{org_number}/accounts', name: 'company-accounts' },
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
    capabilityNames: [
      'Annual accounts',
      'Årsregnskap',
      'Whether accounts are filed, with the latest key figures.',
      'Om årsregnskap er levert, med siste nøkkeltall.',
    ],
  }),
  companyOp({
    id: 'getCompanyAuthority',
    mcpResource: { uri: 'plikt://company/{org_number}/authority', name: 'company-authority' },
    sandboxMirror: 'getSandboxAuthority',
    path: '/api/v1/company/:org/authority',
    summary: 'Who may sign: signature and procuration as registered',
    description:
      'Classification `sole`, `joint`, `by_role`, `prokura_only`, `no_authority` or `unknown`, with every registered ' +
      'combination (any one combination suffices; all its signers together). When the signature lookup is ' +
      'unreachable, `kombinasjon_available` is false and the answer degrades to the holders the roles register shows ' +
      'plus procuration; when nothing can be read, 503 `UPSTREAM_UNAVAILABLE`. Whenever the lookup answered, ' +
      '`kombinasjon_available` is true, also when it shows no rule (`no_authority`, `prokura_only`) or does not cover the ' +
      'form (`rule: not_supported`): `combinations` is then known to be empty. When the business register itself is down ' +
      '(and no cached unit is young enough to serve stale), the route fails 503 `UPSTREAM_UNAVAILABLE` with `Retry-After` ' +
      'where known — never `REGISTER_DOWN`, which the other company routes answer; an unreadable register answer is still ' +
      '502 `COMPANY_LOOKUP_FAILED`. No legal citation is asserted.',
    response: C.SigningAuthority,
    notErrors: ['REGISTER_DOWN'],
    mcpTool: 'get_company_authority',
    sources: ['enhetsregisteret', 'fullmakt'],
    capabilityNames: [
      'Signing authority',
      'Signaturrett og prokura',
      'Who may sign for the company, as the register shows it.',
      'Hvem som kan signere for virksomheten, slik registeret viser det.',
    ],
  }),
  companyOp({
    id: 'getCompanySummary',
    mcpResource: { uri: 'plikt://company/{org_number}/summary', name: 'company-summary' },
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
    capabilityNames: [
      'Company summary',
      'Sammendrag for virksomheten',
      'What the company must do and when, in one answer.',
      'Hva virksomheten må gjøre og når, i ett svar.',
    ],
  }),
  companyOp({
    id: 'getCompanyObligations',
    mcpResource: { uri: 'plikt://company/{org_number}/obligations', name: 'company-obligations' },
    sandboxMirror: 'getSandboxObligations',
    path: '/api/v1/company/:org/obligations',
    summary: 'Every rule evaluated for the company',
    description:
      'One evaluation per rule whose entity types match, by `rule_id`: `applicable`, `not_applicable`, or ' +
      '`insufficient_data` when a Tier 2 fact the rule reads is unknown. `_meta` counts the results.',
    response: C.CompanyObligations,
    mcpTool: 'get_company_obligations',
    sources: ['enhetsregisteret', 'rulebook'],
    capabilityNames: [
      'Company obligations',
      'Plikter for virksomheten',
      'Each obligation decided for this company, with the law.',
      'Hver plikt vurdert for denne virksomheten, med lovhjemmel.',
    ],
  }),
  companyOp({
    id: 'getCompanyDeadlines',
    mcpResource: {
      uri: 'plikt://company/{org_number}/deadlines{?from_date,horizon_months}',
      name: 'company-deadlines',
    },
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
    capabilityNames: [
      'Company deadlines',
      'Frister for virksomheten',
      'The company’s due dates, shifted off weekends and holidays.',
      'Virksomhetens frister, flyttet fra helg og helligdag.',
    ],
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
    capabilityNames: [
      'Filing history',
      'Innsendingshistorikk',
      'The company’s submissions to the portal.',
      'Virksomhetens innsendinger i Altinn.',
    ],
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
    capabilityNames: [
      'Company profile',
      'Virksomhetsprofil',
      'Identity, form, activity, addresses, status and role codes.',
      'Identitet, form, næring, adresser, status og rollekoder.',
    ],
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
      'A sub-unit’s row keeps the number given, carries its legal entity’s status and names the sub-unit in `sub_unit`; a deleted sub-unit that names no parent is a `deleted` row with its own name and form. ' +
      'Limited to 60 calls a minute per IP address on top of the Category A soft limit, because each call may fan out to 100 register lookups.',
    request: { query: C.CompanyStatusQuery },
    response: C.CompanyStatusRows,
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
] as const satisfies readonly Operation[]
