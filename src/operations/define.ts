/**
 * How a registry entry is written: the `Operation` shape, `op()` with its defaults, and the error
 * codes an entry's own declarations imply (`impliedErrors`), so an entry lists by hand only the
 * codes its handler throws itself.
 */
import type { TObject, TSchema } from '@sinclair/typebox'
import type { ErrorCode } from '../errors/catalogue/index.ts'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/**
 * How a caller proves who it is: nothing; an API key (Category B: with `scope`, or any valid key
 * when `scope` is null); the browser session cookie (every `/api/v1/account/*` management route);
 * the operator's ADMIN_TOKEN; or either a session or a key. `feed`: no header at all — the secret
 * token in the path (`:feed_token`) of a portfolio's calendar feed stands for its owner, who is
 * charged; an unknown or revoked token is 404 NOT_FOUND (domain/portfolios/feeds.ts).
 */
export type AuthMode = 'none' | 'key' | 'session' | 'admin' | 'key_or_session' | 'sandbox' | 'metrics' | 'feed'

/** An operation's own rate limit, on top of the plan limits every keyed call has. */
export interface OperationLimit {
  /** operations naming the same group share one budget; default: the operation's own */
  group?: string
  /** `feed`: per calendar feed (an operation whose `auth` is `feed`) */
  per: 'ip' | 'key' | 'consumer' | 'feed'
  max: number
  window: 'minute' | 'hour' | 'day'
  code: 'RATE_LIMIT_EXCEEDED' | 'RATE_LIMITED' | 'FEED_RATE_LIMITED'
}

/** The schemas a route validates its input with. */
export interface RequestShape {
  params?: TObject
  query?: TObject
  body?: TSchema
}

export interface Operation {
  /** OpenAPI operationId */
  id: string
  method: HttpMethod
  /** Elysia-style template, `:name` for path parameters */
  path: string
  /** A = no key; B = API key with scope; admin = ADMIN_TOKEN; session = browser session; discovery = documents */
  category: 'A' | 'B' | 'admin' | 'session' | 'discovery' | 'sandbox'
  /**
   * How the body is rendered: the spec envelope, plain JSON, HTML, or Markdown text (the handler
   * answers the text itself). `sandbox`: the sandbox envelope (its own `_meta`, errors included),
   * built by the handler. An HTML page with a `response` schema also answers that JSON to a caller
   * that asks for `application/json`.
   */
  format: 'envelope' | 'json' | 'html' | 'sandbox' | 'markdown'
  auth: AuthMode
  limits: OperationLimit[]
  /** limits itself inside (MCP: the key's plan limits, or 100 keyless calls an hour per IP), so the
   * generic per-IP soft limit of Category A does not apply */
  selfLimited: boolean
  /**
   * a health probe (liveness, readiness): never under the per-IP soft limit, since a load
   * balancer checks every instance from one address and a refused check takes the instance out
   */
  probe: boolean
  /** `Idempotency-Key` handling (pipeline/idempotency.ts): required, optional, or not offered */
  idempotency: 'required' | 'optional' | null
  /**
   * A live call (anything but `?dry_run=true`) spends a person's single-use approval token:
   * `X-Approval-Token` on REST, the `approval_token` argument on MCP (pipeline/approval.ts)
   */
  approval: boolean
  /** request body encoding: JSON (API), an HTML form (pages), or raw (read by the handler: MCP) */
  bodyType: 'json' | 'form' | 'raw'
  /**
   * Changes nothing (HTTP's "safe"; a metered read's charge aside): every GET by default, and a
   * POST that only reads because its input travels in a body. An MCP tool's readOnlyHint.
   */
  safe: boolean
  /**
   * Cannot be undone (an MCP tool's destructiveHint, so a host asks a person first): every DELETE
   * and every write that needs an approval token by default, and a POST that ends something for
   * good (a revocation).
   */
  destructive: boolean
  /**
   * How a test key (`svc_test_…`) is answered: `mirror` (default) — with synthetic data when the
   * entry names a sandbox mirror, else TEST_KEY_PRODUCTION_ONLY; `own-account` — as any key, for an
   * operation about the key's own account (spec: balance "any key", top-ups "any valid key").
   */
  testKeys: 'mirror' | 'own-account'
  summary: string
  /**
   * The summary in bokmål: the capabilities document's `name_nb` when the entry has no `capability`
   * block (test/domain/discovery/capabilities.test.ts fails on a capability whose `name_nb` is its
   * English name, proper names aside)
   */
  summaryNb?: string
  description?: string
  tag: string
  /** the key scope a caller needs (category B) */
  scope: string | null
  planMinimum: 'free' | 'professional' | null
  /** metered price per successful call, whole øre */
  costOre: number
  /**
   * how the price applies when a call is not simply one read (a portfolio's deadlines: one price
   * for many companies, and when it is refunded); the price list and the capabilities document show it
   */
  priceNote?: string
  mcpTool: string | null
  /**
   * The MCP resource (or resource template) that reads this operation (src/mcp/resources.ts): its
   * URI in Plikt's own `plikt://` scheme — each `{name}` a required input under its tool argument
   * name (`org_number` for `:org`), each `{?a,b}` an optional query input — and a short `name`.
   * Only a GET. Reading it runs this operation through the orchestrator as its tool would.
   */
  mcpResource: McpResource | null
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
  request: RequestShape
  /** schema of `data` (envelope) or of the whole body (json, and an HTML page's JSON alternative); null for HTML and Markdown */
  response: TSchema | null
  successStatus: 200 | 201
  /**
   * The error codes this operation documents besides COMMON_ERRORS: those its declarations imply
   * (`impliedErrors`) and its `ownErrors`.
   */
  errors: ErrorCode[]
  /** the codes the entry lists itself: what its handler (or a step only it has) throws */
  ownErrors: ErrorCode[]
  /**
   * How long a shared cache (the deploy guide's HAProxy, a CDN, the agent's own HTTP client) may
   * keep a success answer: only a keyless GET whose answer is the same for every caller. Its
   * answers carry a strong `ETag` and answer `304` to `If-None-Match` (pipeline/caching.ts). null:
   * no policy; a keyed operation's answers are then `Cache-Control: private, no-store`.
   */
  cache: CachePolicy | null
  /** response headers worth documenting */
  responseHeaders?: Record<string, string>
  /** the success body's media type when it is not JSON's (security.txt, a linkset); default application/json */
  responseType?: string
  /** other media types the success answer comes in when `Accept` asks for them (a portfolio's CSV), with what each holds */
  alternateTypes?: Record<string, string>
  /**
   * the handler answers `304 Not Modified` to `If-None-Match` itself (a metered answer whose 304 is
   * free: a calendar feed); documented in OpenAPI as a `cache` policy's 304 is
   */
  notModified?: true
}

/** How an operation is offered as an MCP resource: see `Operation.mcpResource`. */
export interface McpResource {
  /** an RFC 6570 URI template (levels 1 and 3's `{?…}` only) in the `plikt://` scheme */
  uri: string
  /** the resource's programmatic name, unique among resources */
  name: string
}

/** `Cache-Control` of a keyless, deterministic answer (issue 34); see `CACHE` for the choices. */
export interface CachePolicy {
  /** seconds a cache may answer with its copy without asking */
  maxAge: number
  /** seconds after that a cache may still answer with it while it asks again: only where a stale answer is harmless */
  staleWhileRevalidate: number | null
  /** the request header the answer depends on (`Accept`), for `Vary` */
  vary: string | null
}

/**
 * The policies the registry chooses from. A new rulebook or release changes every `ETag`, and the
 * deploy guide's proxy is emptied on a deploy, so `maxAge` bounds how long an agent's own cache or
 * a CDN may answer from the previous one.
 */
export const CACHE = {
  /**
   * Documents about the service itself (capabilities, OpenAPI, llms files, workflows, recipes, the
   * error catalogue, the well-known documents, the docs): a copy one deploy old describes the
   * same operations with older words, which is harmless for a day while the cache asks again.
   */
  discovery: { maxAge: 3600, staleWhileRevalidate: 86_400, vary: null },
  /** The front door: HTML or a JSON index, by `Accept`. */
  negotiated: { maxAge: 3600, staleWhileRevalidate: 86_400, vary: 'Accept' },
  /**
   * Rulebook answers (public deadlines and obligations): an hour, and never stale — after a new
   * rulebook an old deadline is not harmless.
   */
  rulebook: { maxAge: 3600, staleWhileRevalidate: null, vary: null },
  /** The price list: five minutes, never stale — a price is what the next call costs. */
  pricing: { maxAge: 300, staleWhileRevalidate: null, vary: null },
  /**
   * Anchors of closed days and their proofs: a day's root never changes; the list gains a day
   * once a day and an anchor its timestamp once. A copy that lacks the newest is still true.
   */
  anchors: { maxAge: 300, staleWhileRevalidate: 3600, vary: null },
  /**
   * The receipt-signing public keys: five minutes, never stale. A rotation publishes the new key
   * ten minutes before it signs (ROTATION_LEAD_MS in domain/actions/receipt-keys.ts), longer than
   * this, so a verifier's copy holds a key before the first receipt it signs.
   */
  receiptKeys: { maxAge: 300, staleWhileRevalidate: null, vary: null },
} as const satisfies Record<string, CachePolicy>

/** A registry entry as `op()` builds it: its literal id, and its request schemas as written. */
export type Op<Id extends string, R extends RequestShape> = Omit<Operation, 'id' | 'request'> & { id: Id; request: R }

type Defaulted =
  | 'cache'
  | 'selfLimited'
  | 'probe'
  | 'scope'
  | 'planMinimum'
  | 'costOre'
  | 'mcpTool'
  | 'mcpResource'
  | 'sandboxMirror'
  | 'capability'
  | 'successStatus'
  | 'auth'
  | 'limits'
  | 'idempotency'
  | 'approval'
  | 'bodyType'
  | 'safe'
  | 'destructive'
  | 'testKeys'
/** What an entry writes: `errors` are its own codes only (the test of test/operations/define.test.ts keeps implied ones out). */
export type Def = Omit<Operation, Defaulted | 'request' | 'errors' | 'ownErrors'> &
  Partial<Pick<Operation, Defaulted>> & { errors?: ErrorCode[] }

const AUTH_BY_CATEGORY: Record<Operation['category'], AuthMode> = {
  A: 'none',
  B: 'key',
  admin: 'admin',
  session: 'session',
  discovery: 'none',
  sandbox: 'sandbox',
}

/** `/api/v1/company/:org/context` → `/api/v1/company/{org}/context`, as the OpenAPI document writes a path. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}')
}

/** A path parameter's name as an MCP tool argument or resource variable: `org` is `org_number`, every other its own. */
export function toolArgumentName(param: string): string {
  return param === 'org' ? 'org_number' : param
}

/** Callable with no credential at all: such an operation's MCP tool is a keyless tool. */
export const isKeyless = (o: Pick<Operation, 'auth'>): boolean => o.auth === 'none'

/** Codes any /api/v1 route can answer with, documented once rather than per operation. */
export const COMMON_ERRORS: ErrorCode[] = [
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TOO_LARGE',
  'INTERNAL_ERROR',
  'SERVER_ERROR',
]

/** The steps of the pipeline (pipeline/run.ts) and what each can refuse with, by the declaration that turns it on. */
const KEY: ErrorCode[] = ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE', 'RATE_LIMIT_EXCEEDED']
/**
 * Every mode that reads a credential also answers RATE_LIMIT_EXCEEDED to an address that had too
 * many refused this minute (domain/access/refusals.ts), before any lookup.
 */
const BY_AUTH: Record<AuthMode, ErrorCode[]> = {
  none: [],
  // no bearer; unknown or revoked key; inactive consumer; the plan's per-minute and per-day ceilings
  key: KEY,
  key_or_session: KEY,
  // no bearer; not the ADMIN_TOKEN
  admin: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'RATE_LIMIT_EXCEEDED'],
  // no bearer; not the METRICS_TOKEN (or none configured)
  metrics: ['AUTH_MISSING', 'AUTH_INVALID_KEY', 'RATE_LIMIT_EXCEEDED'],
  // no session (a key or nothing is refused the same way); the session's consumer deactivated
  session: ['AUTH_SESSION_REQUIRED', 'AUTH_CONSUMER_INACTIVE', 'RATE_LIMIT_EXCEEDED'],
  // no credential is fine; a real key is checked like anywhere else (the answer is still mock)
  sandbox: ['AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE', 'RATE_LIMIT_EXCEEDED'],
  // an unknown or revoked token is NOT_FOUND (common); the owner's plan below the entry's minimum
  feed: ['PLAN_INSUFFICIENT'],
}
const IDEMPOTENCY: ErrorCode[] = [
  'IDEMPOTENCY_KEY_INVALID_FORMAT',
  'IDEMPOTENCY_KEY_MISMATCH',
  'IDEMPOTENCY_IN_PROGRESS',
]
const METERED: ErrorCode[] = ['INSUFFICIENT_CREDITS', 'CREDIT_CHECK_UNAVAILABLE']
const APPROVAL: ErrorCode[] = [
  'APPROVAL_TOKEN_REQUIRED',
  'APPROVAL_TOKEN_INVALID',
  'APPROVAL_TOKEN_USED',
  'APPROVAL_TOKEN_EXPIRED',
  'APPROVAL_TOKEN_MISMATCH',
]

type Declarations = Pick<
  Operation,
  | 'format'
  | 'auth'
  | 'scope'
  | 'planMinimum'
  | 'idempotency'
  | 'approval'
  | 'costOre'
  | 'limits'
  | 'request'
  | 'bodyType'
  | 'sandboxMirror'
  | 'testKeys'
>

/**
 * The codes an entry's declarations imply, because the pipeline refuses with them before (or
 * around) the handler:
 * - `auth`: see BY_AUTH; a key (`key`, `key_or_session`) also SCOPE_INSUFFICIENT with a `scope`
 *   and PLAN_INSUFFICIENT with a `planMinimum`;
 * - `idempotency`: IDEMPOTENCY_KEY_INVALID_FORMAT, _MISMATCH, IDEMPOTENCY_IN_PROGRESS, and
 *   IDEMPOTENCY_KEY_REQUIRED when `required`;
 * - `approval`: APPROVAL_TOKEN_REQUIRED, _INVALID, _USED, _EXPIRED, _MISMATCH;
 * - `costOre > 0`: INSUFFICIENT_CREDITS, CREDIT_CHECK_UNAVAILABLE;
 * - a key without a `sandboxMirror`: TEST_KEY_PRODUCTION_ONLY (a test key has no synthetic answer there);
 * - each of `limits`: its `code`;
 * - a request schema the route validates (params, query, or a body that is not `raw`): VALIDATION_FAILED.
 * An HTML page answers its errors as pages, not as error envelopes: it documents none.
 */
export function impliedErrors(d: Declarations): ErrorCode[] {
  if (d.format === 'html') return []
  const keyed = d.auth === 'key' || d.auth === 'key_or_session'
  const out: ErrorCode[] = [...BY_AUTH[d.auth]]
  if (keyed && d.scope) out.push('SCOPE_INSUFFICIENT')
  if (keyed && d.planMinimum) out.push('PLAN_INSUFFICIENT')
  if (keyed && d.sandboxMirror === null && d.testKeys !== 'own-account') out.push('TEST_KEY_PRODUCTION_ONLY')
  if (d.idempotency) out.push(...IDEMPOTENCY)
  if (d.idempotency === 'required') out.push('IDEMPOTENCY_KEY_REQUIRED')
  if (d.approval) out.push(...APPROVAL)
  if (d.costOre > 0) out.push(...METERED)
  for (const l of d.limits) out.push(l.code)
  if (d.request.params || d.request.query || (d.request.body && d.bodyType !== 'raw')) out.push('VALIDATION_FAILED')
  return [...new Set(out)]
}

export function op<const Id extends string, const R extends RequestShape = {}>(
  def: Def & { id: Id; request?: R },
): Op<Id, NoInfer<R>> {
  const { errors: own = [], ...rest } = def
  const entry = {
    scope: null,
    planMinimum: null,
    costOre: 0,
    mcpTool: null,
    mcpResource: null,
    sandboxMirror: null,
    capability: null,
    request: {} as R,
    successStatus: 200 as const,
    auth: AUTH_BY_CATEGORY[def.category],
    limits: [],
    selfLimited: false,
    probe: false,
    idempotency: null,
    approval: false,
    bodyType: 'json' as const,
    safe: def.method === 'GET',
    destructive: def.method === 'DELETE' || def.approval === true,
    testKeys: 'mirror' as const,
    cache: null,
    ...rest,
  }
  if (entry.cache && (entry.method !== 'GET' || entry.auth !== 'none' || entry.costOre > 0)) {
    throw new Error(`${def.id}: only a keyless, free GET may be kept by a shared cache`)
  }
  if (entry.mcpResource && entry.method !== 'GET') throw new Error(`${def.id}: only a GET is read as an MCP resource`)
  return { ...entry, errors: [...new Set([...impliedErrors(entry), ...own])], ownErrors: own }
}
