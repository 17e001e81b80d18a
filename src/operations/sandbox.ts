/** The sandbox: every operation twice, under /api/v1/sandbox and its public mirror. */
import type { TObject, TSchema } from '@sinclair/typebox'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import * as S from '../schemas/sandbox.ts'
import { op, type HttpMethod, type Operation, type OperationLimit, type RequestShape } from './define.ts'

/**
 * Errors every sandbox route can give (spec: SandboxEnvelopeError), besides its own: the reserved
 * orgs and the knobs. VALIDATION_FAILED, AUTH_INVALID_KEY and RATE_LIMIT_EXCEEDED are implied (a
 * request schema; a real key is checked; the refused-credential budget), so they are not written here.
 */
const SANDBOX_ERRORS: ErrorCode[] = [
  'AUTH_MISSING_DELEGATION',
  'AUTH_EXPIRED_TOKEN',
  'SCOPE_MISSING',
  'INTERNAL_ERROR',
  'SANDBOX_TEST_KEY_REQUIRED',
  'EXECUTION_DEADLINE_EXCEEDED',
]
const PUBLIC_SANDBOX_ERRORS: ErrorCode[] = [
  'PUBLIC_SANDBOX_ORG_NOT_PERMITTED',
  'PUBLIC_SANDBOX_BODY_TOO_LARGE',
  'AGENT_LOOP_DETECTED',
  'SANDBOX_TEMPORARILY_UNAVAILABLE',
]

/** Requests per minute per client address on the public mirror (spec: per-IP bucket, value not shown). */
export const PUBLIC_SANDBOX_PER_MINUTE = 60

const PUBLIC_SANDBOX_LIMIT: OperationLimit = {
  group: 'sandbox-public',
  per: 'ip',
  max: PUBLIC_SANDBOX_PER_MINUTE,
  window: 'minute',
  code: 'RATE_LIMIT_EXCEEDED',
}

/**
 * The sandbox's write side (plan, approval token, execute — every sandbox POST, private and public
 * mirror alike) shares one budget per client address: a minute's burst and a day's total. Mints and
 * live executes keep rows (tokens, audit rows) for up to 30 days, so the day's total bounds what an
 * address can store. The spec names no value; these follow the registry's other per-IP limits
 * (60 a minute as the public mirror and bulk company status, 1 000 a day as a free key).
 */
export const SANDBOX_WRITES = { per_minute: 60, per_day: 1_000 } as const
export const SANDBOX_WRITE_LIMITS: OperationLimit[] = [
  { group: 'sandbox-writes', per: 'ip', max: SANDBOX_WRITES.per_minute, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' },
  { group: 'sandbox-writes', per: 'ip', max: SANDBOX_WRITES.per_day, window: 'day', code: 'RATE_LIMIT_EXCEEDED' },
]

const SANDBOX_DESCRIPTION =
  'Sandbox: no key needed; deterministic synthetic data (`GET /api/v1/sandbox/fixtures`). Valid orgs are the series ' +
  '818…, 99966…, 99977… and 999000002: a listed fixture answers with its hand-written data, any other nine-digit number ' +
  'of a series with a synthetic company generated from the number (the same number, the same company). Optional bearer ' +
  '`svc_sandbox_test_<suffix>` namespaces your writes; a real key is accepted and the answer is still mock. Knobs: ' +
  '`simulate_error`, `simulate_latency` (0–30000 ms), `mock_date`, header `X-Service-Simulate` (`error_500` → 500 ' +
  '`INTERNAL_ERROR`, `timeout` → 504 `EXECUTION_DEADLINE_EXCEEDED`, `rate_limit` → 429 `RATE_LIMIT_EXCEEDED`; synthetic ' +
  'bearer only). Reserved orgs 999000901–999000904 answer `AUTH_MISSING_DELEGATION`, `AUTH_EXPIRED_TOKEN`, ' +
  '`VALIDATION_FAILED`, `SCOPE_MISSING`. CORS is open. Like every keyless route, at most 1000 requests a minute per ' +
  'client address (soft), then 429 `RATE_LIMIT_EXCEEDED` with `Retry-After`.'

const SANDBOX_WRITE_DESCRIPTION = `Write side: every sandbox POST (plan, approval token, execute, on the sandbox and its public mirror) counts against one budget per client address — ${SANDBOX_WRITES.per_minute} a minute and ${SANDBOX_WRITES.per_day} a day (UTC) — then 429 \`RATE_LIMIT_EXCEEDED\` with \`Retry-After\`.`

/**
 * A sandbox operation and its public-mirror twin (`/api/v1/sandbox/public/…`: org 999999999 only,
 * POST bodies ≤ 32 KiB, a per-IP bucket).
 */
function sandboxOps<const Id extends string, const R extends RequestShape>(d: {
  id: Id
  method: HttpMethod
  path: string
  summary: string
  summaryNb: string
  description?: string
  request: R
  response: TSchema
  errors?: ErrorCode[]
  successStatus?: 200 | 201
  idempotency?: 'optional'
  approval?: boolean
  /** the MCP tool that runs it under the synthetic sandbox bearer (not on the public mirror) */
  mcpTool?: string
}) {
  const write = d.method === 'POST'
  const description = [d.description, write ? SANDBOX_WRITE_DESCRIPTION : null, SANDBOX_DESCRIPTION]
    .filter((x) => x)
    .join('\n\n')
  const writeLimits = write ? SANDBOX_WRITE_LIMITS : []
  const common = {
    method: d.method,
    category: 'sandbox',
    format: 'sandbox',
    summary: d.summary,
    summaryNb: d.summaryNb,
    description,
    request: d.request,
    response: d.response,
    successStatus: d.successStatus ?? 200,
    idempotency: d.idempotency ?? null,
    approval: d.approval ?? false,
  } as const
  const publicId = `public${d.id.charAt(0).toUpperCase()}${d.id.slice(1)}` as `public${Capitalize<Id>}`
  return [
    op({
      ...common,
      id: d.id,
      path: `/api/v1/sandbox${d.path}`,
      tag: 'Sandbox',
      errors: [...SANDBOX_ERRORS, ...(d.errors ?? [])],
      limits: writeLimits,
      mcpTool: d.mcpTool ?? null,
    }),
    op({
      ...common,
      id: publicId,
      path: `/api/v1/sandbox/public${d.path}`,
      tag: 'Sandbox (public mirror)',
      summary: `${d.summary} (public mirror)`,
      summaryNb: `${d.summaryNb} (offentlig speiling)`,
      errors: [...SANDBOX_ERRORS, ...(d.errors ?? []), ...PUBLIC_SANDBOX_ERRORS],
      limits: [PUBLIC_SANDBOX_LIMIT, ...writeLimits],
    }),
  ] as const
}

const sandboxOrgRoute = <const Id extends string, const Q extends TObject>(
  id: Id,
  route: string,
  [summary, summaryNb]: [string, string],
  query: Q,
  response: TSchema,
  description?: string,
) =>
  sandboxOps({
    id,
    method: 'GET',
    path: `/company/:org/${route}`,
    summary,
    summaryNb,
    request: { params: S.SandboxOrgParams, query },
    response,
    errors: ['COMPANY_NOT_FOUND'],
    ...(description ? { description } : {}),
  })

export const sandboxOperations = [
  ...sandboxOps({
    id: 'getSandboxFixtures',
    method: 'GET',
    path: '/fixtures',
    summary: 'The sandbox catalogue: valid series, companies, magic scenarios, reserved error orgs, knobs',
    summaryNb:
      'Sandkassens katalog: gyldige nummerserier, selskaper, magiske scenarioer, reserverte feilnumre og knotter',
    request: { query: S.KnobsQuery },
    response: S.SandboxFixtures,
  }),
  ...sandboxOrgRoute(
    'getSandboxContext',
    'context',
    ['Sandbox company context', 'Selskapsopplysninger i sandkassen'],
    S.KnobsQuery,
    S.SandboxContext,
  ),
  ...sandboxOrgRoute(
    'getSandboxObligations',
    'obligations',
    ['Sandbox obligations, evaluated by the rulebook', 'Plikter i sandkassen, vurdert etter regelboken'],
    S.TimeTravelQuery,
    S.SandboxObligations,
    '`as_of` (synthetic bearer) evaluates on another date.',
  ),
  ...sandboxOrgRoute(
    'getSandboxDeadlines',
    'deadlines',
    ['Sandbox deadlines for twelve months', 'Frister i sandkassen for tolv måneder'],
    S.TimeTravelQuery,
    S.SandboxDeadlines,
    '`as_of` (synthetic bearer) moves the calendar; the sandbox has no horizon knob.',
  ),
  ...sandboxOrgRoute(
    'getSandboxSummary',
    'summary',
    ['Sandbox obligations and deadlines together', 'Plikter og frister samlet i sandkassen'],
    S.TimeTravelQuery,
    S.SandboxSummary,
  ),
  ...sandboxOrgRoute(
    'getSandboxAudit',
    'audit',
    [
      'Sandbox audit trail (fixture history plus your namespace’s rows)',
      'Revisjonslogg i sandkassen (fast historikk pluss radene i ditt navnerom)',
    ],
    S.AuditQuery,
    S.SandboxAudit,
    `The newest \`limit\` entries (default ${S.SANDBOX_AUDIT_LIMIT.default}, at most ${S.SANDBOX_AUDIT_LIMIT.max}): your namespace's rows newest first, then the fixture history. Never paginates: older entries are not returned, \`pagination.limit\` echoes 50 and \`has_more\` is false. Without the synthetic bearer only the fixture history is shown.`,
  ),
  ...sandboxOrgRoute(
    'getSandboxVerification',
    'verify',
    ['Sandbox verification verdict and signals', 'Verifiseringsresultat og signaler i sandkassen'],
    S.KnobsQuery,
    S.SandboxVerification,
  ),
  ...sandboxOrgRoute(
    'getSandboxAuthority',
    'authority',
    ['Sandbox signing authority (no coded_authority)', 'Signaturrett og prokura i sandkassen (uten coded_authority)'],
    S.KnobsQuery,
    S.SandboxAuthority,
  ),
  ...sandboxOrgRoute(
    'getSandboxAccounts',
    'accounts',
    ['Sandbox annual-accounts snapshot', 'Årsregnskapsoversikt i sandkassen'],
    S.KnobsQuery,
    S.SandboxAccounts,
  ),
  ...sandboxOps({
    id: 'planSandboxAction',
    method: 'POST',
    path: '/actions/plan',
    summary: 'Plan a filing: its action id, the five checks, and the steps that would file it',
    summaryNb: 'Planlegg en innsending: handlings-ID, de fem kontrollene og stegene som ville sendt den inn',
    request: { query: S.KnobsQuery, body: S.ActionBody },
    response: S.SandboxPlan,
    errors: ['REQUEST_TOO_LARGE'],
  }),
  ...sandboxOps({
    id: 'createSandboxApprovalToken',
    method: 'POST',
    path: '/auth/approval-token',
    summary: 'Mint a single-use approval token for one action of one organisation',
    summaryNb: 'Lag et engangs godkjenningstoken for én handling i én virksomhet',
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
    summaryNb: 'Prøvekjør (`?dry_run=true`) eller øv på en ekte innsending; ingenting sendes noen gang inn',
    description:
      'Live mode needs `Idempotency-Key` and `X-Approval-Token`; the five checks run as preconditions (422, token kept); ' +
      'only `mva_melding` is live (`a_melding` → 403 `PLAN_INSUFFICIENT`); a dry run never claims the `Idempotency-Key`. The receipt is signed with the public sandbox ' +
      'key (docs/receipt-signature.md). Magic values: `payload.total_revenue_nok` 0 → 400, 99999999 → 422 ' +
      '`GOVERNMENT_VALIDATION_REJECTED`; `payload.period` (YYYY-MM) before the effective month → `filed_late: true`.',
    request: { query: S.ExecuteQuery, body: S.ActionBody },
    response: S.SandboxExecuteResult,
    idempotency: 'optional',
    approval: true,
    mcpTool: 'submit_vat_return',
    errors: [
      'REQUEST_TOO_LARGE',
      // optional for the pipeline (a dry run needs none); the handler demands one in live mode
      'IDEMPOTENCY_KEY_REQUIRED',
      'PLAN_INSUFFICIENT',
      'COMPANY_NOT_FOUND',
      'COMPANY_INACTIVE',
      'DEADLINE_PASSED',
      'GOVERNMENT_VALIDATION_REJECTED',
    ],
  }),
] as const satisfies readonly Operation[]
