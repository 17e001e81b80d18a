/**
 * The well-known documents (issue 15 item 3): the A2A agent card, the plugin manifest, security.txt
 * (RFC 9116), the data-sovereignty statement and the API catalog (RFC 9727). Each is computed from
 * configuration, the registry's tools and the retention table at request time; names, versions and
 * URLs come from lib/service.ts and links.ts, which the MCP manifest reads too.
 */
import type { Config } from '../../config.ts'
import {
  MCP_SCHEMA_VERSION,
  SCHEMA_VERSION,
  SERVICE_DESCRIPTION,
  SERVICE_DESCRIPTION_NB,
  SERVICE_NAME,
  SERVICE_TITLE,
} from '../../lib/service.ts'
import { serviceLinks } from './links.ts'

/** An MCP tool as the registry names it: what a skill of the agent card is built from. */
export interface ToolSkill {
  tool: string
  summary: string
  description: string | null
  tag: string
  /** null: callable without a key */
  scope: string | null
  keyless: boolean
}

const JSON_MODES = ['application/json']

/** The A2A protocol version whose AgentCard fields this card uses. */
export const A2A_PROTOCOL_VERSION = '0.3.0'

/**
 * The A2A agent card. Plikt speaks REST and MCP, not A2A's task protocol: the card points at the
 * REST API (`HTTP+JSON`) and declares the MCP server as an extension, and every skill is one MCP
 * tool (its REST twin has the same inputs).
 */
export function agentCard(baseUrl: string, tools: readonly ToolSkill[]) {
  const links = serviceLinks(baseUrl)
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    url: links.api,
    preferredTransport: 'HTTP+JSON',
    additionalInterfaces: [{ url: links.api, transport: 'HTTP+JSON' }],
    provider: { organization: SERVICE_TITLE, url: links.base },
    version: SCHEMA_VERSION,
    documentationUrl: links.docs,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      stateTransitionHistory: false,
      extensions: [
        {
          uri: links.mcp_manifest,
          description: `The same operations as MCP tools: JSON-RPC 2.0 over stateless streamable HTTP at ${links.mcp} (manifest schema_version ${MCP_SCHEMA_VERSION}).`,
          required: false,
          params: { server_url: links.mcp, schema_version: MCP_SCHEMA_VERSION },
        },
      ],
    },
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description: `An API key (svc_free_…, svc_live_…, or svc_test_… for synthetic answers) from ${links.login}. Keyless skills need none.`,
      },
      sandboxBearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'svc_sandbox_test_<suffix>: no sign-up; company skills answer from the sandbox fixtures.',
      },
    },
    security: [{ apiKey: [] }],
    defaultInputModes: JSON_MODES,
    defaultOutputModes: JSON_MODES,
    skills: tools.map((t) => ({
      id: t.tool,
      name: t.summary,
      description: t.description ?? t.summary,
      tags: [t.tag, t.keyless ? 'keyless' : `scope:${t.scope ?? 'any-key'}`],
      inputModes: JSON_MODES,
      outputModes: JSON_MODES,
    })),
    supportsAuthenticatedExtendedCard: false,
  }
}

/** The plugin manifest (`ai-plugin.json`, schema v1): the OpenAPI document, with a bearer key. */
export function aiPlugin(config: Pick<Config, 'baseUrl' | 'securityContact'>) {
  const links = serviceLinks(config.baseUrl)
  const email = config.securityContact.startsWith('mailto:') ? config.securityContact.slice('mailto:'.length) : null
  return {
    schema_version: 'v1',
    name_for_human: SERVICE_TITLE,
    name_for_model: SERVICE_NAME,
    description_for_human: SERVICE_DESCRIPTION,
    description_for_model:
      `${SERVICE_DESCRIPTION} Norwegian bokmål: ${SERVICE_DESCRIPTION_NB} Public deadlines, obligations, exchange rates, pricing and error explanations need no key; ` +
      `company data needs an API key (Authorization: Bearer svc_…) and prepaid credits. Rehearse without a key in the sandbox (${links.sandbox}, bearer svc_sandbox_test_<suffix>). ` +
      'Branch on `error_code`, never on the text.',
    auth: { type: 'user_http', authorization_type: 'bearer' },
    api: { type: 'openapi', url: links.openapi, is_user_authenticated: false },
    ...(email ? { contact_email: email } : {}),
    legal_info_url: links.docs,
  }
}

/** A security.txt is valid for at most a year (RFC 9116 §2.5.5); half a year keeps it current between deploys. */
export const SECURITY_TXT_VALIDITY_MS = 182 * 24 * 3600_000

const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * RFC 9116: where to report a vulnerability. `Expires` counts from `now` (the service passes the
 * start of the request's UTC day, so the document is one per day and a cache may keep it), so it
 * is never stale.
 */
export function securityTxt(config: Pick<Config, 'baseUrl' | 'securityContact'>, now: Date): string {
  const links = serviceLinks(config.baseUrl)
  return [
    `Contact: ${config.securityContact}`,
    `Expires: ${rfc3339(new Date(now.getTime() + SECURITY_TXT_VALIDITY_MS))}`,
    `Canonical: ${links.security_txt}`,
    'Preferred-Languages: en, nb',
    '',
  ].join('\n')
}

/** One retention rule: what is kept, for how long (null: as long as the service runs), and why. */
export interface Retention {
  data: string
  kept_for: string
  seconds: number | null
  why: string
}

/** A duration as a person reads it, in days, hours and minutes: `1 day 15 minutes`. */
export function humanDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ]
  const named = parts.filter(([n]) => n > 0).map(([n, one]) => `${n} ${one}${n === 1 ? '' : 's'}`)
  return named.length > 0 ? named.join(' ') : '0 minutes'
}

export function timed(data: string, ms: number, why: string): Retention {
  return { data, kept_for: humanDuration(ms), seconds: ms / 1000, why }
}

export function kept(data: string, why: string): Retention {
  return { data, kept_for: 'indefinitely', seconds: null, why }
}

type Upstream = {
  system: string
  operator: string
  base_url: string | null
  jurisdiction: 'NO'
  mode: 'live' | 'fixtures' | 'mock'
  receives: string
}

/**
 * Which outside systems this deployment sends data to, as configured: the open registers (live, or
 * the local fixture servers), the government systems (in-process mocks unless GOVERNMENT_MODE=live),
 * and the optional mail, time-stamping and OAuth services.
 */
function upstreams(config: Config): Upstream[] {
  const reg = config.upstreamMode === 'fixtures' ? 'fixtures' : 'live'
  const gov = config.government.mode === 'live' ? (config.upstreamMode === 'fixtures' ? 'fixtures' : 'live') : 'mock'
  const g = config.government
  const govUrl = (url: string) => (gov === 'mock' ? null : url)
  const out: Upstream[] = [
    {
      system: 'Enhetsregisteret, Fullmakttjenesten, Regnskapsregisteret',
      operator: 'Brønnøysundregistrene',
      base_url: config.businessRegisterUrl,
      jurisdiction: 'NO',
      mode: reg,
      receives: 'organisation numbers and search terms (open data; no personal data is sent)',
    },
    {
      system: 'Exchange rates',
      operator: 'Norges Bank',
      base_url: config.centralBankUrl,
      jurisdiction: 'NO',
      mode: reg,
      receives: 'currency codes and dates',
    },
    {
      system: 'Maskinporten',
      operator: 'Digitaliseringsdirektoratet',
      base_url: govUrl(g.tokenServiceUrl),
      jurisdiction: 'NO',
      mode: gov,
      receives: 'signed grants for the service’s own client, naming the organisation acted for',
    },
    {
      system: 'Altinn (system users, VAT filing)',
      operator: 'Digitaliseringsdirektoratet',
      base_url: govUrl(g.filingPortalUrl),
      jurisdiction: 'NO',
      mode: gov,
      receives: 'system-user requests and filings a person approved',
    },
    {
      system: 'Skatteetaten (VAT validation)',
      operator: 'Skatteetaten',
      base_url: govUrl(g.taxAuthorityUrl),
      jurisdiction: 'NO',
      mode: gov,
      receives: 'VAT returns to validate before filing',
    },
    {
      system: 'Aa-registeret',
      operator: 'NAV',
      base_url: govUrl(g.labourRegisterUrl),
      jurisdiction: 'NO',
      mode: gov,
      receives: 'organisation numbers of companies that delegated access',
    },
  ]
  return out
}

/** Optional services that only a configured deployment talks to. */
function optionalServices(config: Config) {
  return [
    {
      service: 'SMTP relay (sign-in mail)',
      configured: config.smtpUrl !== null,
      receives: 'the e-mail address signing in and its link',
    },
    {
      service: 'RFC 3161 time-stamping authority',
      configured: config.tsaUrl !== null,
      receives: 'the SHA-256 root of each day’s anchor (no data)',
    },
    {
      service: 'OAuth authorization server (MCP hosts)',
      configured: config.oauth !== null,
      receives: 'nothing: its public keys are fetched to verify tokens',
    },
  ]
}

/** Where data is stored and processed, which upstreams receive what, and how long each kind is kept. */
export function dataSovereignty(config: Config, dbKind: 'postgres' | 'embedded', retention: readonly Retention[]) {
  const links = serviceLinks(config.baseUrl)
  return {
    service: SERVICE_NAME,
    canonical: links.data_sovereignty,
    storage: {
      database:
        dbKind === 'embedded'
          ? 'embedded PostgreSQL (PGlite) in the process’s DATA_DIR, on the host that runs the service'
          : 'the operator’s PostgreSQL server (DATABASE_URL)',
      kind: dbKind,
      location: 'wherever the operator runs this deployment; no data is stored by a third party',
      secrets_at_rest:
        'API keys, sessions and tokens are stored only as SHA-256 hashes; webhook secrets are encrypted (AES-256-GCM) under a key derived from SERVER_SECRET; national identity numbers are never stored, only their HMAC',
    },
    processing: {
      location: 'in the service’s own process; the government systems in mock mode run in that process too',
      subprocessors: optionalServices(config)
        .filter((s) => s.configured)
        .map(({ service, receives }) => ({ service, receives })),
    },
    upstreams: upstreams(config),
    retention,
    privacy_requests: `${links.api}/privacy/dsr`,
    security_contact: config.securityContact,
  }
}

/**
 * RFC 9727's API catalog as an RFC 9264 linkset: the catalog lists the two APIs (`item`), and each
 * API's description, documentation, metadata and status.
 */
export function apiCatalog(baseUrl: string, oauth: boolean) {
  const l = serviceLinks(baseUrl)
  return {
    linkset: [
      { anchor: l.api_catalog, item: [{ href: l.api }, { href: l.mcp }] },
      {
        anchor: l.api,
        'service-desc': [{ href: l.openapi, type: 'application/openapi+json' }],
        'service-doc': [
          { href: l.docs, type: 'text/html' },
          { href: l.llms, type: 'text/plain' },
          { href: l.llms_full, type: 'text/plain' },
          { href: l.recipes, type: 'text/html' },
        ],
        'service-meta': [
          { href: l.capabilities, type: 'application/json' },
          { href: l.workflows, type: 'application/json' },
          { href: l.agent_card, type: 'application/json' },
          { href: l.ai_plugin, type: 'application/json' },
          { href: l.data_sovereignty, type: 'application/json' },
        ],
        status: [
          { href: l.health, type: 'application/json' },
          { href: l.agent_readiness, type: 'application/json' },
        ],
      },
      {
        anchor: l.mcp,
        'service-desc': [{ href: l.mcp_manifest, type: 'application/json' }],
        'service-doc': [{ href: l.docs, type: 'text/html' }],
        // The protected-resource metadata exists only while OAuth is on (404 OAUTH_DISABLED otherwise).
        ...(oauth ? { 'service-meta': [{ href: l.oauth_resource_metadata, type: 'application/json' }] } : {}),
      },
    ],
  }
}
