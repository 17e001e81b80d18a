/**
 * How the sandbox answers (spec: Sandbox resources, Sandbox isolation): who the caller is and which
 * namespace its writes live in, the knobs, the sandbox `_meta` and envelopes. The answers
 * themselves come from domain/sandbox, which runs the production domain over synthetic data.
 */
import {
  ANONYMOUS_SANDBOX_NAMESPACE,
  consumerSandboxNamespace,
  syntheticNamespace,
} from '../domain/sandbox/namespaces.ts'
import { AppError, validationError } from '../errors/app-error.ts'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import { errorBody } from './envelope.ts'
import { explain } from '../errors/explain.ts'
import { osloTimestamp } from '../lib/oslo-time.ts'
import { SCHEMA_VERSION, SERVICE_NAME } from '../lib/service.ts'
import { isLocalDate, type LocalDate } from '../lib/local-date.ts'
import { principalForKey } from '../domain/access/keys.ts'
import { SANDBOX_BEARER_PREFIX, type Principal } from '../domain/access/types.ts'
import type { Sql } from '../store/db.ts'

/** Per request, for the sandbox renderer and error envelope. */
export interface SandboxState {
  /** write-side and execute routes: errors carry `execution_guarantee` and `outcome` */
  writeSide: boolean
  /** the public mirror (/api/v1/sandbox/public/…): errors of its own, org 999999999 only */
  public: boolean
  asOf: LocalDate | null
  simulated: boolean
  /** a live execute consumed its approval token before it failed */
  tokenConsumed: boolean
}

export const SANDBOX_PREFIX = '/api/v1/sandbox'
export const PUBLIC_PREFIX = '/api/v1/sandbox/public'

const isPublicSandboxPath = (path: string) => path === PUBLIC_PREFIX || path.startsWith(`${PUBLIC_PREFIX}/`)

/** A sandbox request's state before anything happened: write-side by method, public by path. */
export function sandboxState(method: string, path: string): SandboxState {
  return {
    writeSide: method === 'POST',
    public: isPublicSandboxPath(path),
    asOf: null,
    simulated: false,
    tokenConsumed: false,
  }
}

/** The instant every sandbox answer is as of, and the date the sandbox takes as today. */
export const SANDBOX_PINNED = '2026-01-01T00:00:00+01:00'
export const SANDBOX_TODAY: LocalDate = '2026-01-01'

export const SANDBOX_NOTICE =
  'Sandkasse: syntetiske data fra en intern etterligning. Ingenting sendes til offentlige systemer, og et svar her er ingen garanti for at det samme godtas i produksjon. / ' +
  'Sandbox: synthetic data from an internal mock. Nothing reaches a government system, and an answer here is no guarantee the same is accepted in production.'

export const EXECUTION_GUARANTEE = 'nothing_submitted'

const SUFFIX = /^[A-Za-z0-9_-]{1,64}$/

/**
 * No credential: the shared anonymous namespace. The synthetic bearer: its suffix names the namespace.
 * A real key is checked like anywhere else and gets its consumer's namespace; the answer is still mock.
 */
export async function sandboxPrincipal(
  bearer: string | null,
  sql: Sql,
): Promise<Extract<Principal, { kind: 'sandbox' }>> {
  if (bearer === null) return { kind: 'sandbox', namespace: ANONYMOUS_SANDBOX_NAMESPACE, synthetic: false }
  if (bearer.startsWith(SANDBOX_BEARER_PREFIX)) {
    const suffix = bearer.slice(SANDBOX_BEARER_PREFIX.length)
    // The bytes are not echoed: a mistyped real secret must not come back in a response or a log.
    if (!SUFFIX.test(suffix))
      throw validationError([
        {
          field: 'Authorization',
          message: 'the suffix of svc_sandbox_test_<suffix> must be 1 to 64 characters of A-Z, a-z, 0-9, _ or -',
        },
      ])
    return { kind: 'sandbox', namespace: syntheticNamespace(suffix), synthetic: true }
  }
  const key = await principalForKey(sql, bearer)
  return {
    kind: 'sandbox',
    namespace: consumerSandboxNamespace(key.consumerId),
    synthetic: false,
    key: { scopes: [...key.scopes], test: key.test },
  }
}

export function sandboxCaller(p: Principal): Extract<Principal, { kind: 'sandbox' }> {
  return p.kind === 'sandbox' ? p : { kind: 'sandbox', namespace: ANONYMOUS_SANDBOX_NAMESPACE, synthetic: false }
}

export function sandboxMeta(now: Date, s: SandboxState | null) {
  return {
    is_sandbox: true as const,
    rulebook_version: 'sandbox',
    data_freshness: SANDBOX_PINNED,
    last_verified: SANDBOX_PINNED,
    source: SERVICE_NAME,
    schema_version: SCHEMA_VERSION,
    response_timestamp: osloTimestamp(now),
    sandbox_notice: SANDBOX_NOTICE,
    ...(s?.asOf ? { as_of: s.asOf } : {}),
    ...(s?.simulated ? { simulated: true as const } : {}),
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** The two codes the spec gives a short body without explanation or `_meta`. */
const SHORT_BODY: ErrorCode[] = ['AGENT_LOOP_DETECTED', 'SANDBOX_TEMPORARILY_UNAVAILABLE']

export function sandboxErrorResponse(
  err: AppError,
  now: Date,
  baseUrl: string,
  s: SandboxState | null,
  correlationId: string,
): Response {
  const headers = new Headers({ 'content-type': JSON_TYPE, 'x-correlation-id': correlationId, ...err.options.headers })
  if (SHORT_BODY.includes(err.code)) {
    return new Response(
      JSON.stringify({
        success: false,
        error_code: err.code,
        message: explain(err.code, err.options.context).summary_en,
      }),
      { status: err.status, headers },
    )
  }
  // Production's error body, with the sandbox `_meta` and, on write-side routes, what happened.
  const { _meta: _production, ...body } = errorBody(err, now, baseUrl)
  return new Response(JSON.stringify({ ...body, ...(s ? writeSideOutcome(s) : {}), _meta: sandboxMeta(now, s) }), {
    status: err.status,
    headers,
  })
}

/** What a failed write-side call tells: nothing was submitted, and whether its approval token is gone. */
export function writeSideOutcome(s: SandboxState) {
  if (!s.writeSide) return {}
  return {
    execution_guarantee: EXECUTION_GUARANTEE,
    outcome: {
      submitted: false,
      status: s.tokenConsumed ? 'rejected' : 'not_attempted',
      approval_token_consumed: s.tokenConsumed,
    },
  }
}

/** `simulate_error` → the code it injects and, for the last four, what the government side said. */
const SIMULATIONS: Record<string, { code: ErrorCode; upstream?: Record<string, unknown> }> = {
  missing_delegation: { code: 'AUTH_MISSING_DELEGATION' },
  invalid_token: { code: 'AUTH_EXPIRED_TOKEN' },
  validation_error: { code: 'VALIDATION_FAILED' },
  scope_missing: { code: 'SCOPE_MISSING' },
  portal_timeout: {
    code: 'EXECUTION_DEADLINE_EXCEEDED',
    upstream: {
      system: 'Altinn 3',
      http_status: null,
      error: 'timeout',
      error_description: 'Altinn svarte ikke innen 8 sekunder.',
      elapsed_ms: 8000,
    },
  },
  invalid_certificate: {
    code: 'AUTH_EXPIRED_TOKEN',
    upstream: {
      system: 'Maskinporten',
      http_status: 400,
      error: 'invalid_client',
      error_description: 'Invalid client authentication: the certificate is expired or not trusted.',
    },
  },
  malformed_payload: {
    code: 'VALIDATION_FAILED',
    upstream: {
      system: 'Skatteetaten',
      http_status: 400,
      error: 'UGYLDIG_MELDING',
      error_description: 'Meldingen validerer ikke mot skjemaet.',
      validation_errors: ['/mvaMeldingDto/skattegrunnlagOgBeregnetSkatt mangler'],
    },
  },
  upstream_5xx: {
    code: 'INTERNAL_ERROR',
    upstream: {
      system: 'Altinn 3',
      http_status: 502,
      error: 'Bad Gateway',
      error_description: 'The portal answered 502 Bad Gateway.',
    },
  },
}

/** `simulate_error` → the code it injects, for the capabilities document's sandbox block. */
export const SIMULATED_ERROR_CODES: Record<string, ErrorCode> = Object.fromEntries(
  Object.entries(SIMULATIONS).map(([knob, s]) => [knob, s.code]),
)

/** `X-Service-Simulate` values (documented in the OpenAPI document and the fixtures catalogue). */
export const SERVICE_SIMULATIONS: Record<string, ErrorCode> = {
  error_500: 'INTERNAL_ERROR',
  timeout: 'EXECUTION_DEADLINE_EXCEEDED',
  rate_limit: 'RATE_LIMIT_EXCEEDED',
}

export function simulatedError(knob: string): AppError {
  const s = SIMULATIONS[knob]!
  return new AppError(s.code, {
    ...(s.code === 'VALIDATION_FAILED'
      ? { details: [{ field: 'simulate_error', message: `simulated: ${knob}` }] }
      : {}),
    extra: { simulated_error: knob, ...(s.upstream ? { upstream: s.upstream } : {}) },
  })
}

export function serviceSimulation(value: string): AppError {
  const code = SERVICE_SIMULATIONS[value]
  if (!code) {
    throw validationError([
      { field: 'X-Service-Simulate', message: `must be one of ${Object.keys(SERVICE_SIMULATIONS).join(', ')}` },
    ])
  }
  return new AppError(code, code === 'RATE_LIMIT_EXCEEDED' ? { headers: { 'retry-after': '60' } } : {})
}

export function checkDateKnob(field: string, value: string | undefined): LocalDate | null {
  if (value === undefined) return null
  if (!isLocalDate(value)) throw validationError([{ field, message: 'is not a calendar date (YYYY-MM-DD)' }])
  if (value < '2020-01-01' || value > '2099-12-31')
    throw validationError([{ field, message: 'must be between 2020-01-01 and 2099-12-31' }])
  return value
}
