/** TypeBox schemas shared by REST validation, the OpenAPI document and MCP tool input schemas. */
import { Type } from '@sinclair/typebox'
import { PLACEHOLDERS } from '../errors/catalogue/index.ts'
import { digitString } from './formats.ts'

export const Handover = Type.Object(
  {
    who: Type.Union([
      Type.Literal('company_admin'),
      Type.Literal('accountant'),
      Type.Literal('portal_user'),
      Type.Literal('service_support'),
    ]),
    where: Type.String({ description: 'URL or location where the person acts' }),
    what: Type.String({ description: 'what the person must do (bokmål)' }),
    what_en: Type.String(),
    why: Type.String({ description: 'why an agent cannot do it (bokmål)' }),
    why_en: Type.String(),
  },
  { title: 'Handover' },
)

/**
 * An e-mail address. Each character of the domain is either a dot or part of a label, so the
 * pattern has one way to match and runs in linear time (a domain of `[^\s@]+\.[^\s@]+` took
 * quadratic time on a long run of dots).
 */
/** A string that is one of `values` (an enum the OpenAPI document lists value by value). */
export const Lit = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  )

export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+$'
export const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: EMAIL_PATTERN,
  description: 'an e-mail address',
})

export const Uuid = (description?: string) =>
  Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    ...(description ? { description } : {}),
  })

export const FieldIssue = Type.Object({
  field: Type.String({ description: 'dotted path into the input, e.g. `context.org_number`' }),
  message: Type.String(),
})

export const Explanation = Type.Object(
  {
    summary: Type.String({ maxLength: 140, description: 'bokmål' }),
    summary_en: Type.String({ maxLength: 140 }),
    why: Type.String({ maxLength: 240, description: 'bokmål' }),
    why_en: Type.String({ maxLength: 240 }),
    fix_steps: Type.Array(Type.String(), { minItems: 2, maxItems: 5, description: 'imperative steps, bokmål' }),
    fix_steps_en: Type.Array(Type.String(), { minItems: 2, maxItems: 5 }),
    relevant_link: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
    legal_basis: Type.Union([Type.String(), Type.Null()], { description: 'legal-database style reference' }),
    handover: Type.Union([Handover, Type.Null()], { description: 'null when an agent can resolve the error' }),
    details: Type.Optional(Type.Array(FieldIssue, { description: 'filled on VALIDATION_FAILED' })),
  },
  { title: 'Explanation' },
)

const contextValue = Type.String({ minLength: 1, maxLength: 64 })

export const ExplainContext = Type.Object(
  {
    org_number: Type.Optional(digitString(9, { description: '9-digit organisation number' })),
    role: Type.Optional(contextValue),
    scope: Type.Optional(contextValue),
    field: Type.Optional(contextValue),
    upstream_system: Type.Optional(contextValue),
    parent_org_number: Type.Optional(digitString(9, { description: 'the legal entity a sub-unit belongs to' })),
  },
  { additionalProperties: false },
)
// Keep the explainer's context keys and the catalogue's placeholders the same set.
void (PLACEHOLDERS satisfies readonly (keyof typeof ExplainContext.properties)[])

export const ExplainBody = Type.Object(
  {
    error_code: Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'an error code, matched case-insensitively; any text within the length bound is explained, an uncatalogued one as `UNKNOWN` (spec: Error explainer)',
    }),
    context: Type.Optional(ExplainContext),
  },
  { additionalProperties: false },
)

/** The spec's explain_compliance_error input: the REST body with its context flattened. */
export const ExplainToolInput = Type.Object(
  {
    error_code: ExplainBody.properties.error_code,
    ...Object.fromEntries(Object.entries(ExplainContext.properties).map(([k, v]) => [`context_${k}`, v])),
  },
  { additionalProperties: false },
)

export const ErrorRegistryEntry = Type.Object({
  code: Type.String(),
  retryable: Type.Boolean(),
  fix_hint_en: Type.String(),
  fix_hint_nb: Type.String(),
  docs_url: Type.String({ format: 'uri' }),
  category: Type.Union(
    ['auth', 'scope', 'validation', 'not_found', 'rate_limit', 'upstream', 'internal', 'billing'].map((c) =>
      Type.Literal(c),
    ),
  ),
})

export const ErrorList = Type.Object({
  errors: Type.Array(ErrorRegistryEntry, { description: 'every catalogued code, sorted by code' }),
})

export const ExplainResult = Type.Object({
  explanation: Type.Composite([Explanation, Type.Object({ error_code: Type.String() })]),
  requested_error_code: Type.String({ description: 'the code as asked for' }),
  catalogued: Type.Boolean({ description: 'false when the code is unknown and the explanation is that of UNKNOWN' }),
})

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  service: Type.String(),
  version: Type.String(),
  database: Type.Object({
    status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    kind: Type.Union([Type.Literal('postgres'), Type.Literal('embedded')]),
    latency_ms: Type.Union([Type.Number(), Type.Null()]),
  }),
  time: Type.String({ format: 'date-time' }),
})

export const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({
    database: Type.Object({
      status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
      kind: Type.Union([Type.Literal('postgres'), Type.Literal('embedded')]),
      latency_ms: Type.Union([Type.Number(), Type.Null()]),
    }),
    migrations: Type.Object({
      status: Type.Union([Type.Literal('current'), Type.Literal('behind'), Type.Literal('unknown')], {
        description: '`behind`: a migration this build needs is not applied yet',
      }),
      missing: Type.Array(Type.Integer(), {
        description: 'versions this build knows that the database has not applied',
      }),
    }),
    draining: Type.Boolean({
      description: 'true from SIGTERM on: the instance is finishing its requests and will stop',
    }),
  }),
  time: Type.String({ format: 'date-time' }),
})

export const TrustMetadata = Type.Object(
  {
    rulebook_version: Type.String({ description: 'current rulebook version' }),
    data_freshness: Type.String({ format: 'date-time', description: 'when the data was last fetched (UTC)' }),
    last_verified: Type.String({
      format: 'date-time',
      description: 'when the data was last verified against its source (UTC)',
    }),
    source: Type.String({
      description:
        'the service that answered: `plikt`; the agent-readiness probe says where its figures come from (`plikt:telemetry`, `plikt:static-defaults`, `plikt:telemetry+static-defaults`)',
    }),
    schema_version: Type.String({ description: 'equals the OpenAPI info.version' }),
    data_source: Type.Optional(Type.String({ description: 'authoritative publisher, on registry-backed endpoints' })),
    served_from: Type.Optional(
      Type.Union([Type.Literal('cache'), Type.Literal('live'), Type.Literal('static')], {
        description: '`static` = computed from code with no store or upstream read',
      }),
    ),
    stale: Type.Optional(
      Type.Boolean({ description: 'an upstream was unreachable and a cached row within the limit was served' }),
    ),
    legal_basis: Type.Optional(Type.String()),
    rule_count: Type.Optional(Type.Integer({ minimum: 0 })),
    applicable_count: Type.Optional(Type.Integer({ minimum: 0 })),
    not_applicable_count: Type.Optional(Type.Integer({ minimum: 0 })),
    insufficient_data_count: Type.Optional(Type.Integer({ minimum: 0 })),
    response_timestamp: Type.String({ format: 'date-time', pattern: 'Z$', description: 'UTC with `Z`' }),
    response_hash: Type.Optional(
      Type.String({
        pattern: '^sha256:[0-9a-f]{64}$',
        description:
          '`sha256:` + lowercase hex SHA-256 of the RFC 8785 (JCS) canonical JSON of `data`. Present on every success; ' +
          'absent on errors, which carry no `data`.',
      }),
    ),
    source_snapshot_id: Type.Optional(
      Type.String({
        description:
          'id of the archived upstream answer this response was built from (the primary one when several were used)',
      }),
    ),
    source_snapshot_ids: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'every archived upstream answer used, when more than one (e.g. register unit, signature rule, accounts)',
      }),
    ),
    is_test: Type.Optional(
      Type.Literal(true, {
        description:
          'answered to a test key (`svc_test_…`): synthetic sandbox data, not charged, no upstream read; absent otherwise',
      }),
    ),
    is_sandbox: Type.Optional(
      Type.Literal(true, {
        description: 'the data is the sandbox’s synthetic data (with `is_test`); absent on real answers',
      }),
    ),
    sandbox_notice: Type.Optional(
      Type.String({ description: 'with `is_test`: the sandbox’s notice that nothing here is real' }),
    ),
  },
  { title: 'TrustMetadata', additionalProperties: false },
)
