/**
 * `GET /api/v1/capabilities`: one capability per registry operation, and what the instance can do
 * beside them — scopes, filing, the sandbox, MCP, conflict locks, the discovery documents. Built from
 * the registry and the constants the code runs on; the caller supplies what only the composition
 * root knows (the MCP tools list, OAuth, whether filings reach the real portal).
 */
import { AVAILABLE_SCOPES, RESERVED_SCOPE_PREFIXES } from '../access/types.ts'
import { ACTION_TYPES } from '../actions/period.ts'
import { LIVE_ACTION_TYPES } from '../actions/execute.ts'
import { CONFLICT_LOCK_TTL_SECONDS, LOCK_TTL_SECONDS } from '../actions/production.ts'
import { RULEBOOK_VERSION } from '../rulebook/version.ts'
import { CAPABILITIES_MCP_SCHEMA_VERSION, SERVICE_NAME } from '../../lib/service.ts'
import { allOperations, openApiPath, type Operation } from '../../operations/index.ts'
import { exampleRequest } from './examples.ts'
import { mcpOffer } from './mcp-offer.ts'
import { serviceLinks } from '../wellknown/links.ts'

/** The document's own versions (spec Versioning): `_meta.schema_version` and `data.version`. */
export const CAPABILITIES_SCHEMA_VERSION = '1.1.0'
export const CAPABILITIES_VERSION = 1

/** What the MCP server lists, from its tools (src/mcp). */
export interface McpToolsSummary {
  schema_version: string
  /** every tool name, once */
  names: string[]
  /** the tools listed with no credential */
  keyless: string[]
}

export interface CapabilitiesInput {
  baseUrl: string
  /** the filing portal is the real one (GOVERNMENT_MODE=live), not the mock submitter */
  executeLive: boolean
  oauth: { authorization_servers: string[] } | null
  mcp: McpToolsSummary
  /** the sandbox block, from the sandbox's own catalogue */
  sandbox: Record<string, unknown>
}

/**
 * The documents an agent discovers the service through, by name. The spec names most; an entry is
 * listed only while its path is a registered operation, so the block never points at a 404.
 */
const PATHS = serviceLinks('')
const DISCOVERY_DOCUMENTS: Record<string, string> = {
  openapi: PATHS.openapi,
  llms_txt: PATHS.llms,
  llms_full_txt: PATHS.llms_full,
  mcp_manifest: PATHS.mcp_manifest,
  agent_card: PATHS.agent_card,
  ai_plugin: PATHS.ai_plugin,
  security_txt: PATHS.security_txt,
  data_sovereignty: PATHS.data_sovereignty,
  api_catalog: PATHS.api_catalog,
  receipt_keys: PATHS.receipt_keys,
  workflows: PATHS.workflows,
  recipes: PATHS.recipes,
  capabilities: PATHS.capabilities,
  api_reference: PATHS.docs,
  error_registry: PATHS.errors,
  mcp: PATHS.mcp,
}

export function discoveryPaths(ops: readonly Operation[] = allOperations): Record<string, string> {
  const registered = new Set(ops.map((o) => o.path))
  return Object.fromEntries(Object.entries(DISCOVERY_DOCUMENTS).filter(([, path]) => registered.has(path)))
}

/** The front door's answer to an agent: what this is, and where each discovery document is. */
export function frontDoorIndex(baseUrl: string) {
  return {
    service: SERVICE_NAME,
    summary_en:
      'Machine-readable answers about Norwegian regulatory obligations for software agents. Start with llms_txt, or capabilities.',
    documents: Object.fromEntries(Object.entries(discoveryPaths()).map(([name, path]) => [name, `${baseUrl}${path}`])),
  }
}

type Category = 'public-tool' | 'company-data' | 'auth' | 'actions' | 'account' | 'admin' | 'discovery'

const COMPANY_TAGS = new Set(['Company data', 'Portfolios', 'Change archive', 'Webhooks', 'Anchors'])
const ACCOUNT_TAGS = new Set(['Account', 'Billing', 'Saved profiles', 'Privacy', 'Pages'])

/** The spec's capability categories, read off the registry entry's category, tag and path. */
function categoryOf(op: Operation): Category {
  if (op.category === 'admin') return 'admin'
  if (op.category === 'discovery' || op.tag === 'MCP' || op.tag === 'Service') return 'discovery'
  if (/\/actions\/|approval-token/.test(op.path)) return 'actions'
  if (op.tag === 'Delegation and actions') return 'auth'
  if (op.category === 'sandbox') return 'public-tool'
  if (op.category === 'session' || (ACCOUNT_TAGS.has(op.tag) && op.auth !== 'none')) return 'account'
  if (op.tag === 'Account') return 'account'
  if (COMPANY_TAGS.has(op.tag)) return 'company-data'
  return 'public-tool'
}

/**
 * The document is for agents (spec "Capabilities document": `auth` is `none`, `api_key` or
 * `admin_api_key`), so it leaves out what only a person or the operator's scraper can use: a
 * person's page (tag `Pages`: sign-in, dashboard, approvals, consent), a browser-session-only route
 * (`/api/v1/account/me`, `/api/v1/account/keys`), `/metrics` (METRICS_TOKEN), and a portfolio's
 * calendar feed (`auth: feed`): its reader is a calendar program holding a secret URL, never an
 * agent (an agent reads the same deadlines as JSON, `get_portfolio_deadlines`), and its `auth` is
 * none of the document's three; the agent who creates a feed (`createPortfolioFeed`, listed) finds
 * its price there. The OpenAPI document and the price list still describe them all.
 */
export function forAgents(
  op: Operation,
): op is Operation & { auth: Exclude<Operation['auth'], 'session' | 'metrics' | 'feed'> } {
  return op.tag !== 'Pages' && op.auth !== 'session' && op.auth !== 'metrics' && op.auth !== 'feed'
}

/** An agent's credential for each way an operation listed here is called (`key_or_session`: a key will do). */
const AUTH: Record<Exclude<Operation['auth'], 'session' | 'metrics' | 'feed'>, 'none' | 'api_key' | 'admin_api_key'> = {
  none: 'none',
  sandbox: 'none',
  key: 'api_key',
  key_or_session: 'api_key',
  admin: 'admin_api_key',
}

/** An operation that answers 404 `OAUTH_DISABLED` unless OAuth is on (the protected-resource metadata). */
const needsOAuth = (op: Operation): boolean => op.ownErrors.includes('OAUTH_DISABLED')

function capabilityOf(op: Operation & { auth: keyof typeof AUTH }, input: CapabilitiesInput) {
  const c = op.capability
  const own = op.category === 'discovery' || op.category === 'sandbox' || op.format === 'html'
  // A live filing is gated until the filing portal is the real one: the mock submitter answers mock
  // receipts. The OAuth metadata is gated while OAuth is off (it answers 404 OAUTH_DISABLED then).
  const oauthOff = needsOAuth(op) && input.oauth === null
  const status =
    (op.approval && op.category !== 'sandbox' && !input.executeLive) || oauthOff ? 'gated' : (c?.status ?? 'live')
  const example = exampleRequest(op, input.baseUrl)
  return {
    id: op.id,
    name_en: c?.name_en ?? op.summary,
    name_nb: c?.name_nb ?? op.summaryNb ?? op.summary,
    description_en: c?.description_en ?? op.description ?? op.summary,
    description_nb: c?.description_nb ?? op.description ?? op.summary,
    endpoint: { method: op.method, path: openApiPath(op.path) },
    auth: AUTH[op.auth],
    tier_minimum: op.planMinimum ?? (op.auth === 'key' || op.auth === 'key_or_session' ? ('free' as const) : null),
    category: categoryOf(op),
    openapi_operation_id: op.id,
    mcp_tool: op.mcpTool,
    scope: op.scope,
    price_ore: op.costOre,
    ...(op.priceNote ? { price_note: op.priceNote } : {}),
    example_request: oauthOff ? { ...example, runnable: false } : example,
    data_sources: c?.data_sources ?? [SERVICE_NAME],
    freshness: c?.freshness ?? (own || op.method === 'GET' ? ('static' as const) : ('live' as const)),
    status,
  }
}

export function capabilitiesDocument(input: CapabilitiesInput, ops: readonly Operation[] = allOperations) {
  const base = input.baseUrl
  return {
    service: SERVICE_NAME,
    version: CAPABILITIES_VERSION,
    rulebook_version: RULEBOOK_VERSION,
    locale: { default: 'nb-NO', available: ['nb-NO', 'en'], time_zone: 'Europe/Oslo' },
    capabilities: ops.filter(forAgents).map((op) => capabilityOf(op, input)),
    available_scopes: [...AVAILABLE_SCOPES],
    reserved_scope_prefixes: [...RESERVED_SCOPE_PREFIXES],
    actions: {
      dry_run_supported: true,
      execute_supported: input.executeLive,
      execute_backend: input.executeLive ? ('live' as const) : ('mock' as const),
      action_types: [...ACTION_TYPES],
      live_action_types: [...LIVE_ACTION_TYPES],
    },
    sandbox: input.sandbox,
    mcp: {
      available: true,
      server_url: `${base}${PATHS.mcp}`,
      manifest_url: `${base}${PATHS.mcp_manifest}`,
      // spec Versioning: the capabilities document lists 2026.8.1; the manifest (manifest_url) says its own
      schema_version: CAPABILITIES_MCP_SCHEMA_VERSION,
      manifest_schema_version: input.mcp.schema_version,
      protocol: 'json-rpc-2.0',
      transport: 'streamable-http',
      // every tool the registry names is built: none is planned without being listed
      tool_counts: {
        initial: input.mcp.keyless.length,
        active: input.mcp.names.length,
        planned: input.mcp.names.length,
      },
      keyless_tools: input.mcp.keyless,
      tools: input.mcp.names,
      // resources, resource templates, prompts and completions, from the registry and the workflows
      ...mcpOffer(ops),
      oauth: input.oauth
        ? {
            enabled: true,
            protected_resource_metadata: PATHS.oauth_resource_metadata,
            authorization_servers: input.oauth.authorization_servers,
          }
        : { enabled: false, protected_resource_metadata: null, authorization_servers: [] },
    },
    multi_agent_safety: {
      write_conflict_detection: true,
      conflict_lock_ttls: { ...CONFLICT_LOCK_TTL_SECONDS },
      conflict_locks_taken: Object.keys(LOCK_TTL_SECONDS),
    },
    discovery: discoveryPaths(ops),
  }
}
