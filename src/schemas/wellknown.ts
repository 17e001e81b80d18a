/**
 * Response schemas of the well-known documents, the agent-readiness probe and the comparison matrix
 * (src/operations/wellknown.ts). The documents follow outside formats (A2A, the plugin manifest,
 * RFC 9264 linksets) that allow more members than we list, so they stay open.
 */
import { Type } from '@sinclair/typebox'
import { WORKFLOW_CLASSES } from '../domain/wellknown/readiness.ts'

const Open = { additionalProperties: true }
const Link = Type.Object({ href: Type.String({ format: 'uri' }), type: Type.Optional(Type.String()) }, Open)

export const AgentCard = Type.Object(
  {
    protocolVersion: Type.String(),
    name: Type.String(),
    description: Type.String(),
    url: Type.String({ format: 'uri' }),
    version: Type.String(),
    capabilities: Type.Object({ streaming: Type.Boolean(), pushNotifications: Type.Boolean() }, Open),
    securitySchemes: Type.Record(Type.String(), Type.Object({}, Open)),
    defaultInputModes: Type.Array(Type.String()),
    defaultOutputModes: Type.Array(Type.String()),
    skills: Type.Array(
      Type.Object(
        { id: Type.String(), name: Type.String(), description: Type.String(), tags: Type.Array(Type.String()) },
        Open,
      ),
      { description: 'one per MCP tool' },
    ),
  },
  { ...Open, description: 'A2A AgentCard (protocol 0.3.0)' },
)

export const AiPlugin = Type.Object(
  {
    schema_version: Type.Literal('v1'),
    name_for_human: Type.String(),
    name_for_model: Type.String(),
    description_for_human: Type.String(),
    description_for_model: Type.String(),
    auth: Type.Object({ type: Type.String() }, Open),
    api: Type.Object({ type: Type.Literal('openapi'), url: Type.String({ format: 'uri' }) }, Open),
  },
  Open,
)

const RetentionRule = Type.Object({
  data: Type.String(),
  kept_for: Type.String({ description: 'e.g. `30 days`, or `indefinitely`' }),
  seconds: Type.Union([Type.Integer(), Type.Null()], { description: 'null: kept as long as the service runs' }),
  why: Type.String(),
})

export const DataSovereignty = Type.Object({
  service: Type.String(),
  canonical: Type.String({ format: 'uri' }),
  storage: Type.Object({
    database: Type.String(),
    kind: Type.Union([Type.Literal('embedded'), Type.Literal('postgres')]),
    location: Type.String(),
    secrets_at_rest: Type.String(),
  }),
  processing: Type.Object({
    location: Type.String(),
    subprocessors: Type.Array(Type.Object({ service: Type.String(), receives: Type.String() })),
  }),
  upstreams: Type.Array(
    Type.Object({
      system: Type.String(),
      operator: Type.String(),
      base_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
        description: 'null: answered by an in-process mock; nothing leaves the service',
      }),
      jurisdiction: Type.Literal('NO'),
      mode: Type.Union([Type.Literal('live'), Type.Literal('fixtures'), Type.Literal('mock')]),
      receives: Type.String(),
    }),
  ),
  retention: Type.Array(RetentionRule),
  privacy_requests: Type.String({ format: 'uri' }),
  security_contact: Type.String(),
})

export const ApiCatalog = Type.Object(
  {
    linkset: Type.Array(
      Type.Object(
        {
          anchor: Type.String({ format: 'uri' }),
          item: Type.Optional(Type.Array(Link)),
          'service-desc': Type.Optional(Type.Array(Link)),
          'service-doc': Type.Optional(Type.Array(Link)),
        },
        Open,
      ),
    ),
  },
  { description: 'RFC 9264 linkset (`application/linkset+json`)' },
)

const WorkflowClass = Type.Union(WORKFLOW_CLASSES.map((c) => Type.Literal(c)))

export const AgentReadiness = Type.Object({
  source: Type.Union([
    Type.Literal('telemetry'),
    Type.Literal('static_defaults'),
    Type.Literal('telemetry_and_static_defaults'),
  ]),
  window_minutes: Type.Integer(),
  min_samples: Type.Integer({
    description: 'below this many requests in the window a class reports its static default',
  }),
  success_definition: Type.String(),
  scope: Type.String(),
  classes: Type.Array(
    Type.Object({
      class: WorkflowClass,
      description: Type.String(),
      source: Type.Union([Type.Literal('telemetry'), Type.Literal('static_default')]),
      success_rate: Type.Number({ minimum: 0, maximum: 1 }),
      p95_latency_ms: Type.Integer({
        description: 'telemetry: the upper bound of the latency bucket the 95th percentile falls in',
      }),
      samples: Type.Integer({ minimum: 0 }),
    }),
  ),
  token_service: Type.Object({
    breaker_state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
    mock: Type.Boolean(),
  }),
  mcp: Type.Object(
    {
      tools: Type.Integer({ minimum: 0 }),
      keyless_tools: Type.Integer({ minimum: 0 }),
      resources: Type.Integer({ minimum: 0, description: 'concrete resources `resources/list` names with no key' }),
      resource_templates: Type.Integer({ minimum: 0 }),
      keyless_resource_templates: Type.Integer({ minimum: 0 }),
      prompts: Type.Integer({ minimum: 0, description: 'one per workflow of /workflows.json' }),
      completions: Type.Integer({ minimum: 0, description: 'the arguments `completion/complete` completes' }),
    },
    { description: 'what an MCP host finds on the server at /api/mcp' },
  ),
})

export const Comparison = Type.Object({
  subject: Type.String(),
  dimensions: Type.Array(
    Type.Object({
      dimension: Type.String(),
      name_en: Type.String(),
      name_nb: Type.String(),
      direct_integration_en: Type.String(),
      direct_integration_nb: Type.String(),
      plikt_en: Type.String(),
      plikt_nb: Type.String(),
      evidence: Type.Array(Type.Object({ operation_id: Type.String(), method: Type.String(), path: Type.String() })),
    }),
  ),
  methodology: Type.String(),
  methodology_nb: Type.String(),
  source: Type.String(),
})

export const ReceiptKeys = Type.Object(
  {
    keys: Type.Array(
      Type.Object(
        {
          kty: Type.Literal('OKP'),
          crv: Type.Literal('Ed25519'),
          x: Type.String({
            pattern: '^[A-Za-z0-9_-]{43}$',
            description: 'the 32-byte public key, base64url without padding (RFC 8037)',
          }),
          kid: Type.String({
            pattern: '^[A-Za-z0-9_-]{43}$',
            description: 'RFC 7638 thumbprint (SHA-256, base64url); a receipt names it in `signature_ed25519_key_id`',
          }),
          use: Type.Literal('sig'),
          alg: Type.Literal('EdDSA'),
          valid_from: Type.String({
            format: 'date-time',
            description: 'the key signs receipts whose `timestamp` is at or after this (UTC)',
          }),
          valid_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description:
              'and before this; null: the current (or announced next) key. A retired key stays listed so the receipts it signed keep verifying.',
          }),
        },
        Open,
      ),
      { description: 'every key that has signed or will sign receipts, oldest window first' },
    ),
  },
  { ...Open, description: 'JWK Set (RFC 7517) of the Ed25519 keys that sign receipts, with their validity windows' },
)
