/**
 * THE operation registry: every operation once. Routes, the OpenAPI document and (later) MCP
 * tools/list, /pricing, /capabilities and llms.txt are generated from it, and tests fail when any
 * of them lists something this file does not.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import type { ErrorCode } from './errors/catalogue.ts'
import { ErrorList, ExplainBody, ExplainResult, Health } from './schemas/common.ts'
import { PublicDeadlines, PublicDeadlinesQuery, PublicObligations, PublicObligationsQuery } from './schemas/rulebook.ts'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/**
 * How a caller proves who it is: nothing; an API key (Category B: with `scope`, or any valid key
 * when `scope` is null); the browser session cookie (every `/api/v1/account/*` management route);
 * the operator's ADMIN_TOKEN; or either a session or a key.
 */
export type AuthMode = 'none' | 'key' | 'session' | 'admin' | 'key_or_session'

/** An operation's own rate limit, on top of the tier limits every keyed call has. */
export interface OperationLimit {
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
  category: 'A' | 'B' | 'admin' | 'session' | 'discovery'
  /** how the body is rendered: the spec envelope, plain JSON, or HTML */
  format: 'envelope' | 'json' | 'html'
  auth: AuthMode
  limits: OperationLimit[]
  /** `Idempotency-Key` handling (DESIGN §5): required, optional, or not offered */
  idempotency: 'required' | 'optional' | null
  /** request body encoding: JSON (API) or an HTML form (pages) */
  bodyType: 'json' | 'form'
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

type Defaulted = 'scope' | 'tierMinimum' | 'costOre' | 'mcpTool' | 'sandboxMirror' | 'capability' | 'request' | 'successStatus' | 'errors' | 'auth' | 'limits' | 'idempotency' | 'bodyType'
type Def = Omit<Operation, Defaulted> & Partial<Pick<Operation, Defaulted>>

const AUTH_BY_CATEGORY: Record<Operation['category'], AuthMode> = { A: 'none', B: 'key', admin: 'admin', session: 'session', discovery: 'none' }

function op<const Id extends string>(def: Def & { id: Id }): Operation & { id: Id } {
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
    idempotency: null,
    bodyType: 'json',
    ...def,
  }
}

/** Codes any /api/v1 route can answer with, documented once rather than per operation. */
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

export function operationById(id: OperationId): Operation {
  return allOperations.find((o) => o.id === id)!
}
