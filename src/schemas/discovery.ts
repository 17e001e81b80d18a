/** The discovery documents: the capabilities document, the workflows and the front door's index. */
import { Type } from '@sinclair/typebox'

const Str = (description?: string) => Type.String(description ? { description } : {})

export const ExampleRequest = Type.Object(
  {
    runnable: Type.Boolean({
      description:
        'true: send it as it stands and it is answered; false: it holds a stand-in (`<…>`, or the all-zero id) for a credential or id only you have',
    }),
    method: Str(),
    path: Str('the path with its parameters filled in'),
    url: Str('the base URL and the path, with the query string'),
    headers: Type.Record(Type.String(), Type.String(), {
      description: 'what to send besides Content-Type; `<…>` marks a credential you supply',
    }),
    query: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    body: Type.Optional(Type.Unknown()),
  },
  {
    description:
      'a request that the operation accepts as it stands (sandbox and keyless operations answer it without setup)',
  },
)

export const Capability = Type.Object({
  id: Str('the operation’s registry id'),
  name_en: Str(),
  name_nb: Str('bokmål'),
  description_en: Str(),
  description_nb: Str(),
  endpoint: Type.Object({ method: Str(), path: Str('OpenAPI path template') }),
  auth: Type.Union([Type.Literal('none'), Type.Literal('api_key'), Type.Literal('admin_api_key')], {
    description:
      'the credential an agent sends: none, an API key (a route a browser session may also use takes a key), or the operator’s ADMIN_TOKEN',
  }),
  tier_minimum: Type.Union([Type.Literal('free'), Type.Literal('professional'), Type.Null()]),
  category: Type.Union(
    ['public-tool', 'company-data', 'auth', 'actions', 'account', 'admin', 'discovery'].map((c) => Type.Literal(c)),
  ),
  openapi_operation_id: Str(),
  mcp_tool: Type.Union([Type.String(), Type.Null()]),
  scope: Type.Union([Type.String(), Type.Null()]),
  price_ore: Type.Integer({ minimum: 0 }),
  price_note: Type.Optional(
    Type.String({ description: 'how the price applies when a call is more than one read (a portfolio’s deadlines)' }),
  ),
  example_request: ExampleRequest,
  data_sources: Type.Array(Type.String()),
  freshness: Type.Union([Type.Literal('static'), Type.Literal('cached'), Type.Literal('live')]),
  status: Type.Union([Type.Literal('live'), Type.Literal('dry-run'), Type.Literal('gated')]),
})

/** What the MCP server offers besides tools (domain/discovery/mcp-offer.ts), in the capabilities document and the MCP manifest. */
export const McpOfferFields = {
  uri_scheme: Str('the scheme of every resource URI: `plikt://`'),
  resources: Type.Array(
    Type.Object({ uri: Str(), name: Str(), title: Str(), mime_type: Str(), keyless: Type.Boolean() }),
    { description: 'the concrete resources `resources/list` names (keyless: readable with no credential)' },
  ),
  resource_templates: Type.Array(
    Type.Object({
      uri_template: Str('RFC 6570: `{name}` a required input, `{?a,b}` optional query inputs'),
      name: Str(),
      title: Str(),
      mime_type: Str(),
      keyless: Type.Boolean(),
      operation_id: Str('the operation a read runs, charged and refused as its tool'),
      price_ore: Type.Integer(),
    }),
    { description: 'the templates `resources/templates/list` names, the keyed ones to a key with their scope' },
  ),
  prompts: Type.Array(
    Type.Object({
      name: Str('the workflow’s id in /workflows.json'),
      title: Str(),
      arguments: Type.Array(Type.Object({ name: Str(), required: Type.Boolean() })),
    }),
  ),
  completions: Type.Record(Type.String(), Type.String(), {
    description: 'each argument `completion/complete` completes, with where its values come from and what it costs',
  }),
  change_signalling: Str('how a host learns that a resource changed (the server is stateless)'),
}

export const Capabilities = Type.Object({
  service: Str(),
  version: Type.Integer({ description: 'the document’s own version (1)' }),
  rulebook_version: Str(),
  locale: Type.Object({ default: Str(), available: Type.Array(Type.String()), time_zone: Str() }),
  capabilities: Type.Array(Capability, {
    description:
      'every operation an agent (or the operator’s tooling) calls; people’s pages, browser-session-only routes and /metrics are in the OpenAPI document only',
  }),
  available_scopes: Type.Array(Type.String()),
  reserved_scope_prefixes: Type.Array(Type.String()),
  actions: Type.Object({
    dry_run_supported: Type.Boolean(),
    execute_supported: Type.Boolean({
      description:
        'true only when filings reach the real filing portal (GOVERNMENT_MODE=live); the mock submitter answers deterministic mock receipts',
    }),
    execute_backend: Type.Union([Type.Literal('mock'), Type.Literal('live')]),
    action_types: Type.Array(Type.String()),
    live_action_types: Type.Array(
      Type.String({ description: 'the action types POST /api/v1/actions/execute files (the others dry-run only)' }),
    ),
  }),
  sandbox: Type.Object(
    {
      reserved_test_org_numbers: Type.Object(
        {
          pattern: Str('999000XXX'),
          mod11_valid: Type.Literal(false, { description: 'true of every number in `org_numbers`' }),
          org_numbers: Type.Array(Type.String(), {
            description: 'the reserved numbers that fail MOD-11 (the reserved error orgs)',
          }),
          mod11_valid_org_numbers: Type.Array(Type.String(), {
            description:
              'numbers of the pattern that pass MOD-11: 999000002, a valid sandbox company (the webhook rehearsal’s subject)',
          }),
        },
        { additionalProperties: true },
      ),
    },
    { additionalProperties: true },
  ),
  mcp: Type.Object(
    {
      schema_version: Str(
        '2026.8.1: the MCP schema version the capabilities document lists, by the spec (Versioning); the tool manifest at `manifest_url` carries its own',
      ),
      manifest_schema_version: Str(
        'the tool manifest’s `schema_version` (`/.well-known/mcp.json`, 2026.10.0), which `initialize` reports as the server version',
      ),
      ...McpOfferFields,
    },
    { additionalProperties: true },
  ),
  multi_agent_safety: Type.Object({
    write_conflict_detection: Type.Boolean(),
    conflict_lock_ttls: Type.Record(Type.String(), Type.Integer(), {
      description:
        'seconds, per write the spec names: `mva_melding` 600, `a_melding` 300, `tax_return` 1200, `annual_accounts` 1800, `token_service_delegate` 60',
    }),
    conflict_locks_taken: Type.Array(Type.String(), {
      description:
        'the writes that take their lock today (the live filings); the others are not made through Plikt yet, or (a delegate call) take none',
    }),
  }),
  discovery: Type.Record(Type.String(), Type.String(), {
    description: 'name → path of each discovery document this instance serves',
  }),
})

export const WorkflowStep = Type.Object({
  step: Str(),
  purpose_en: Str(),
  purpose_nb: Str(),
  operation_id: Str('the OpenAPI operationId'),
  method: Str(),
  path: Str(),
  mcp_tool: Type.Union([Type.String(), Type.Null()], {
    description: 'the MCP tool that does the same, or null when the step is REST only',
  }),
  person: Type.Boolean({ description: 'a person (not the agent) takes this step' }),
})

export const Workflows = Type.Object({
  version: Str('this document’s own version'),
  workflows: Type.Array(
    Type.Object({
      id: Str(),
      title_en: Str(),
      title_nb: Str(),
      summary_en: Str(),
      summary_nb: Str(),
      environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
      recipe_url: Str(),
      steps: Type.Array(WorkflowStep),
    }),
  ),
})

export const FrontDoor = Type.Object({
  service: Str(),
  summary_en: Str(),
  documents: Type.Record(Type.String(), Type.String(), { description: 'name → absolute URL' }),
})
