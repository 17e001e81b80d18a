/**
 * The OpenAPI 3.1 document, generated from the operation registry and the error catalogue so it
 * cannot drift from the routes: each path comes from `operations`, each schema is the TypeBox
 * schema the route validates with, and `ErrorCode` is the catalogue's key list.
 */
import { MAX_ASKED_PER_READ, MAX_OPEN_REQUESTS } from '../domain/delegation/fullmakt.ts'
import type { TObject, TSchema } from '@sinclair/typebox'
import { CATALOGUE, ERROR_CODES, type ErrorCode } from '../errors/catalogue/index.ts'
import { SCHEMA_VERSION } from '../lib/service.ts'
import { cacheControlOf } from '../pipeline/caching.ts'
import { COMMON_ERRORS, allOperations as operations, openApiPath, type Operation } from '../operations/index.ts'

export { openApiPath }
import { SandboxMetadata } from '../schemas/sandbox.ts'
import { Explanation, TrustMetadata } from '../schemas/common.ts'
import { jsonSchema } from '../schemas/json-schema.ts'

type Json = Record<string, unknown>

function parameters(schema: TObject | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return []
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties).map(([name, s]) => {
    const { description, ...rest } = jsonSchema(s as TSchema)
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    }
  })
}

const CORRELATION_HEADER = {
  'X-Correlation-ID': {
    description: 'Echo of the caller’s id when it matched `^[A-Za-z0-9._:-]{8,128}$`, otherwise a new UUID.',
    schema: { type: 'string' },
  },
}

/** The two sandbox codes the spec answers with a short body `{success, error_code, message}` (spec Errors). */
const SHORT_SANDBOX_BODY: ErrorCode[] = ['AGENT_LOOP_DETECTED', 'SANDBOX_TEMPORARILY_UNAVAILABLE']

/** An error answer's schema: the envelope of the operation's kind, with `error_code` narrowed to `codes`. */
function errorSchema(op: Operation, codes: ErrorCode[]): Json {
  const narrowed = (envelope: string, list: ErrorCode[]) => ({
    allOf: [
      { $ref: `#/components/schemas/${envelope}` },
      { type: 'object', properties: { error_code: { enum: list } } },
    ],
  })
  if (op.format !== 'sandbox') return narrowed('ErrorEnvelope', codes)
  // Sandbox routes answer with the sandbox `_meta` (spec: Sandbox error envelope), two codes with the short body.
  const short = codes.filter((c) => SHORT_SANDBOX_BODY.includes(c))
  const full = codes.filter((c) => !SHORT_SANDBOX_BODY.includes(c))
  const schemas = [
    ...(full.length ? [narrowed('SandboxErrorEnvelope', full)] : []),
    ...(short.length ? [narrowed('SandboxShortError', short)] : []),
  ]
  return schemas.length === 1 ? schemas[0]! : { oneOf: schemas }
}

function errorResponses(op: Operation): Json {
  const codes = new Set<ErrorCode>([...op.errors, ...(op.path.startsWith('/api/v1') ? COMMON_ERRORS : [])])
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) {
    const status = CATALOGUE[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const out: Json = {}
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    list.sort()
    out[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      headers: {
        ...CORRELATION_HEADER,
        ...(list.includes('METHOD_NOT_ALLOWED')
          ? { Allow: { description: 'methods the path supports', schema: { type: 'string' } } }
          : {}),
      },
      content: { 'application/json': { schema: errorSchema(op, list) } },
    }
  }
  return out
}

/** What a cacheable answer (the operation's `cache` policy) and a keyed one say about caching. */
function cachingHeaders(op: Operation): Json {
  // An answer that makes its own validators (a calendar feed) documents them in `responseHeaders`.
  if (op.notModified) return {}
  const control = cacheControlOf(op)
  if (!op.cache)
    return control
      ? { 'Cache-Control': { description: 'for this caller only; no cache keeps it', schema: { const: control } } }
      : {}
  return {
    'Cache-Control': { description: 'how long any cache may keep this answer', schema: { const: control } },
    ETag: {
      description:
        'strong validator of the answer (its data, and the rulebook and service versions); send it back in `If-None-Match`',
      schema: { type: 'string' },
    },
    ...(op.cache.vary
      ? { Vary: { description: 'the answer depends on this request header', schema: { const: op.cache.vary } } }
      : {}),
    Age: {
      description:
        'set by a cache that answered from its copy: seconds since the origin made it (the copy is as old as its `_meta.response_timestamp`)',
      schema: { type: 'integer' },
    },
  }
}

function successResponse(op: Operation): Json {
  const headers: Json = { ...CORRELATION_HEADER, ...cachingHeaders(op) }
  for (const [name, description] of Object.entries(op.responseHeaders ?? {}))
    headers[name] = { description, schema: { type: 'string' } }
  if (op.format === 'html') {
    const json = op.response ? { 'application/json': { schema: jsonSchema(op.response) } } : {}
    return {
      description: op.response ? 'HTML page; the JSON alternative to `Accept: application/json`' : 'HTML page',
      headers,
      content: { 'text/html': { schema: { type: 'string' } }, ...json },
    }
  }
  if (op.format === 'markdown') {
    return { description: op.summary, headers, content: { 'text/markdown': { schema: { type: 'string' } } } }
  }
  const body =
    op.format === 'envelope' || op.format === 'sandbox'
      ? {
          type: 'object',
          required: ['success', 'data', '_meta'],
          properties: {
            success: { const: true },
            data: op.response ? jsonSchema(op.response) : {},
            _meta: { $ref: `#/components/schemas/${op.format === 'sandbox' ? 'SandboxMetadata' : 'TrustMetadata'}` },
          },
        }
      : op.response
        ? jsonSchema(op.response)
        : {}
  const alternates = Object.fromEntries(
    Object.entries(op.alternateTypes ?? {}).map(([type, description]) => [
      type,
      { schema: { type: 'string', description } },
    ]),
  )
  return {
    description: op.summary,
    headers,
    content: { [op.responseType ?? 'application/json']: { schema: body }, ...alternates },
  }
}

const SECURITY: Record<Operation['auth'], Json[]> = {
  none: [],
  key: [{ apiKey: [] }],
  admin: [{ adminToken: [] }],
  metrics: [{ metricsToken: [] }],
  session: [{ session: [] }],
  key_or_session: [{ apiKey: [] }, { session: [] }],
  // No credential, the synthetic bearer, or a real key (the answer is still mock).
  sandbox: [{}, { sandboxBearer: [] }, { apiKey: [] }],
  // The secret token in the path is the credential: no header (a calendar program sends none).
  feed: [],
}

function operationObject(op: Operation): Json {
  const responses: Json = { [String(op.successStatus)]: successResponse(op) }
  if (op.cache || op.notModified) {
    const { Age: _age, ...validators } = cachingHeaders(op) as Record<string, Json>
    const own = Object.fromEntries(
      Object.entries(op.responseHeaders ?? {}).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    )
    responses['304'] = {
      description: 'Not modified: `If-None-Match` named the current `ETag`; the copy you hold is current. No body.',
      headers: { ...CORRELATION_HEADER, ...(op.cache ? validators : own) },
    }
  }
  if (op.id === 'getHealth') {
    responses['503'] = {
      description: 'The database does not answer; same body with `status: degraded`.',
      content: (successResponse(op) as { content: Json }).content,
    }
  }
  Object.assign(responses, errorResponses(op))
  const params = [...parameters(op.request.params, 'path'), ...parameters(op.request.query, 'query')]
  if (op.cache || op.notModified) {
    params.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'the `ETag` of the copy you hold: 304 while it is current',
    })
  }
  if (op.idempotency) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: op.idempotency === 'required',
      schema: { type: 'string', format: 'uuid' },
      description:
        'a UUID; a retry with the same key and the same request replays the first answer (`Idempotent-Replayed: true`) without running it again; the same key with another request is 422 `IDEMPOTENCY_KEY_MISMATCH`; kept 24 hours',
    })
  }
  if (op.approval) {
    params.push({
      name: 'X-Approval-Token',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 128 },
      description:
        'live mode: the single-use approval token a person obtained for exactly this action and organisation; spent only when the preconditions pass (a dry run needs none)',
    })
  }
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: SECURITY[op.auth],
    ...(params.length ? { parameters: params } : {}),
    ...(op.request.body
      ? {
          requestBody: {
            required: true,
            content: {
              [op.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: {
                schema: jsonSchema(op.request.body),
              },
            },
          },
        }
      : {}),
    responses,
    ...(op.scope ? { 'x-scope': op.scope } : {}),
    ...(op.costOre ? { 'x-cost-ore': op.costOre } : {}),
    ...(op.mcpTool ? { 'x-mcp-tool': op.mcpTool } : {}),
  }
}

const ErrorEnvelope = {
  type: 'object',
  title: 'ErrorEnvelope',
  required: ['success', 'error_code', 'explanation', '_meta', 'retryable', 'fix_hint', 'fix_hint_en', 'docs_url'],
  properties: {
    success: { const: false },
    error_code: { $ref: '#/components/schemas/ErrorCode' },
    explanation: { $ref: '#/components/schemas/Explanation' },
    retryable: {
      type: 'boolean',
      description: 'true: an identical retry after a short backoff (or `Retry-After`) can succeed',
    },
    fix_hint: { type: 'string', description: 'English; equals `fix_hint_en`' },
    fix_hint_en: { type: 'string' },
    docs_url: { type: 'string', format: 'uri' },
    _meta: { $ref: '#/components/schemas/TrustMetadata' },
  },
  additionalProperties: true,
  description:
    'The error answer of every production route. Some codes add members, e.g. `top_up_url`, `balance_ore` and `cost_ore` on ' +
    '`INSUFFICIENT_CREDITS`. Sandbox routes answer `SandboxErrorEnvelope` instead.',
}

/**
 * A sandbox route's error answer (spec: Sandbox error envelope): production's members with the
 * sandbox `_meta` (Europe/Oslo `response_timestamp`, `simulated: true` on an injected failure).
 */
const SandboxErrorEnvelope = {
  type: 'object',
  title: 'SandboxErrorEnvelope',
  required: ErrorEnvelope.required,
  properties: {
    ...ErrorEnvelope.properties,
    _meta: { $ref: '#/components/schemas/SandboxMetadata' },
    execution_guarantee: {
      const: 'nothing_submitted',
      description: 'write-side routes (every sandbox POST): nothing reached a government system',
    },
    outcome: {
      type: 'object',
      description: 'write-side routes: what happened to the call',
      required: ['submitted', 'status', 'approval_token_consumed'],
      properties: {
        submitted: { const: false },
        status: {
          enum: ['not_attempted', 'rejected'],
          description: '`rejected`: a live execute spent its approval token before it failed',
        },
        approval_token_consumed: { type: 'boolean' },
      },
    },
    simulated_error: { type: 'string', description: 'the `simulate_error` knob that injected this failure' },
    upstream: {
      type: 'object',
      additionalProperties: true,
      description:
        'the government-shaped answer of an injected upstream failure (`portal_timeout`, `invalid_certificate`, `malformed_payload`, `upstream_5xx`)',
    },
  },
  additionalProperties: true,
  description:
    'The error answer of every sandbox route: `ErrorEnvelope`’s members with the sandbox `_meta` (`SandboxMetadata`: a Europe/Oslo ' +
    '`response_timestamp`, no `response_hash`; `simulated: true` on a failure a knob injected). Write-side routes (every sandbox POST) add ' +
    '`execution_guarantee` and `outcome`. `AGENT_LOOP_DETECTED` and `SANDBOX_TEMPORARILY_UNAVAILABLE` answer `SandboxShortError` instead.',
}

/** The short body of AGENT_LOOP_DETECTED and SANDBOX_TEMPORARILY_UNAVAILABLE (spec Errors): no explanation, no `_meta`. */
const SandboxShortError = {
  type: 'object',
  title: 'SandboxShortError',
  required: ['success', 'error_code', 'message'],
  properties: {
    success: { const: false },
    error_code: { $ref: '#/components/schemas/ErrorCode' },
    message: { type: 'string' },
  },
  additionalProperties: false,
}

export function buildOpenApi(baseUrl: string): Json {
  const paths: Record<string, Json> = {}
  for (const op of operations) {
    const p = openApiPath(op.path)
    paths[p] = { ...paths[p], [op.method.toLowerCase()]: operationObject(op) }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plikt',
      version: SCHEMA_VERSION,
      description:
        'Machine-readable, trustworthy answers about Norwegian regulatory obligations for software agents.\n\n' +
        'Every `/api/v1` response uses an envelope: `{success: true, data, _meta}` or `{success: false, error_code, ' +
        'explanation, _meta, retryable, fix_hint, fix_hint_en, docs_url}`. `_meta.response_hash` is `sha256:` + the hex ' +
        'SHA-256 of the RFC 8785 JSON Canonicalization Scheme (JCS) serialisation of `data`, so a client can verify ' +
        'the payload it received. Times a Norwegian reads are Europe/Oslo; `_meta` times are UTC with `Z` (the sandbox’s `_meta`, ' +
        '`SandboxMetadata`, is in Europe/Oslo time, on its errors too: `SandboxErrorEnvelope`). Branch on ' +
        '`error_code`, never on the text; the closed list is the `ErrorCode` schema and `GET /api/v1/errors`.\n\n' +
        '**Caching.** A keyless answer that is the same for every caller (public deadlines and obligations, pricing, the error ' +
        'registry, the capabilities document, this document, llms.txt, llms-full.txt, workflows.json, the recipes, the well-known ' +
        'documents, anchors and their proofs) says in `Cache-Control` how long any cache may keep it (`public, max-age=…`, with ' +
        '`stale-while-revalidate` only where a stale copy is harmless: never on rulebook answers or prices), carries a strong `ETag` and ' +
        'answers `304 Not Modified` to an `If-None-Match` naming it. The tag covers `data` and the rest of `_meta` with the rulebook and ' +
        'service versions, not the per-response `_meta.response_timestamp`: a new rulebook or release changes it. A copy from a cache is ' +
        'as old as the HTTP `Age` header says (added by the cache that answered; absent from the origin); `_meta.response_timestamp` ' +
        'stays the time the origin made it, so now − `response_timestamp` is the age too. Errors are `no-store`. Every keyed answer is ' +
        '`Cache-Control: private, no-store`; metered answers carry no `ETag` and never answer 304, so every successful metered call is ' +
        'a fresh, charged answer (see `GET /api/v1/pricing`, `caching`).\n\n' +
        `**Limits** beyond the spec's table: at most ${MAX_OPEN_REQUESTS} open (requesting or pending) delegation requests per account and organisation ` +
        `(409 \`DELEGATION_REQUESTS_LIMIT\` beyond); a permissions read, dry run or live filing asks the digital agency about at most ${MAX_ASKED_PER_READ} ` +
        'of its pending requests, the least recently asked first; pending requests are asked about by the service every 5 seconds for their first 15 minutes, then every minute.',
    },
    servers: [{ url: baseUrl }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        ErrorCode: {
          type: 'string',
          enum: [...ERROR_CODES],
          description: 'The closed list of error codes; identical to `GET /api/v1/errors`.',
        },
        ErrorEnvelope,
        SandboxErrorEnvelope,
        SandboxShortError,
        Explanation: jsonSchema(Explanation),
        TrustMetadata: jsonSchema(TrustMetadata),
        SandboxMetadata: jsonSchema(SandboxMetadata),
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key (`svc_free_…`, `svc_live_…`, `svc_test_…`). A test key (`svc_test_…`, minted with `test: true` by the operator or in the dashboard) calls the same routes but gets the sandbox fixtures’ synthetic answers: ' +
            'an operation with a sandbox mirror (the company reads) answers from the sandbox with `_meta.is_test: true` and `_meta.is_sandbox: true`, is never charged and never reaches an upstream; ' +
            'every other keyed operation answers 403 `TEST_KEY_PRODUCTION_ONLY`. Keyless routes ignore the key. Rate limits are the key’s tier’s, as for any key.',
        },
        sandboxBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The synthetic sandbox bearer `svc_sandbox_test_<suffix>` (suffix `^[A-Za-z0-9_-]{1,64}$`): no sign-up; the suffix namespaces your sandbox writes. Needed for `as_of` and `X-Service-Simulate`.',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The operator’s ADMIN_TOKEN.' },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'METRICS_TOKEN, what a Prometheus scrape config sends as `authorization: { credentials: … }`.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'plikt_session',
          description: 'The browser session from magic-link sign-in; writes also need `X-CSRF-Token`.',
        },
      },
    },
  }
}
