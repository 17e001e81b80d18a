/**
 * Documents about the service: the front door, the capabilities document, llms.txt, the workflows
 * and their recipes, the OpenAPI document, the API reference, the error pages. All generated from
 * the registry (src/domain/discovery), so they cannot name what does not exist.
 */
import { Type } from '@sinclair/typebox'
import * as D from '../schemas/discovery.ts'
import { CACHE, op, type Operation } from './define.ts'

export const discoveryOperations = [
  op({
    id: 'getFrontDoor',
    cache: CACHE.negotiated,
    summaryNb: 'Inngangen: en landingsside for nettlesere, en oversikt over oppdagelsesdokumentene for agenter',
    method: 'GET',
    path: '/',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'The front door: a landing page for a browser, an index of the discovery documents for an agent',
    description:
      'A browser (`Accept: text/html`, or no `Accept`) gets the landing page: what Plikt is, the two-minute sandbox tour, links to the ' +
      'API reference, the recipes, llms.txt and sign-in. `Accept: application/json` gets a small JSON index of the discovery documents (absolute URLs).',
    response: D.FrontDoor,
  }),
  op({
    id: 'getCapabilities',
    cache: CACHE.discovery,
    method: 'GET',
    path: '/api/v1/capabilities',
    category: 'A',
    format: 'envelope',
    tag: 'Discovery',
    summary:
      'The capabilities document: every operation for agents, scopes, filing, sandbox, MCP, conflict locks, discovery paths',
    description:
      'One capability per operation an agent calls (its `openapi_operation_id` is this document’s operationId), each with a ' +
      '`example_request` the operation accepts as it stands; `auth` is `none`, `api_key` or `admin_api_key`. People’s pages (sign-in, ' +
      'dashboard, approvals, consent), the browser-session-only account routes and `/metrics` are left out: no agent credential opens them. ' +
      'While OAuth is off the protected-resource metadata is listed `gated`, its example not runnable (it answers 404 `OAUTH_DISABLED`). ' +
      '`mcp.schema_version` is 2026.8.1, the version this document lists by the spec; the tool manifest’s own (2026.10.0) is ' +
      '`mcp.manifest_schema_version`. `multi_agent_safety.conflict_lock_ttls` gives every conflict lock’s TTL in seconds; ' +
      '`conflict_locks_taken` the ones taken today. `_meta.schema_version` is the document’s own (1.1.0) and `data.version` 1. ' +
      '`actions.execute_supported` is true only when filings reach the real filing portal (GOVERNMENT_MODE=live); with the mock submitter a ' +
      'live execute answers a mock receipt and the filing capability says `gated`. The strong `ETag` validates `data`; send it back in ' +
      '`If-None-Match` to get `304 Not Modified`.',
    response: D.Capabilities,
    capability: {
      name_en: 'Capabilities document',
      name_nb: 'Oversikt over tjenestens muligheter',
      description_en:
        'Everything the service can do, how to authenticate, what it costs and how to rehearse it, from the registry.',
      description_nb:
        'Alt tjenesten kan gjøre, hvordan du autentiserer deg, hva det koster og hvordan du øver, hentet fra registeret.',
      data_sources: ['plikt'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'getLlmsTxt',
    cache: CACHE.discovery,
    summaryNb: 'llms.txt (llmstxt.org): der en agent begynner — dokumentene, hvordan du får en nøkkel, arbeidsflytene',
    method: 'GET',
    path: '/llms.txt',
    category: 'discovery',
    format: 'markdown',
    tag: 'Discovery',
    summary: 'llms.txt (llmstxt.org): where an agent starts — the documents, how to get a key, the workflows',
    response: null,
  }),
  op({
    id: 'getLlmsFullTxt',
    mcpResource: { uri: 'plikt://llms-full.txt', name: 'llms-full' },
    cache: CACHE.discovery,
    summaryNb:
      'llms-full.txt: llms.txt med det viktigste tatt inn — kallkonvensjoner, stegene i hver arbeidsflyt, hver operasjon, hver feilkode',
    method: 'GET',
    path: '/llms-full.txt',
    category: 'discovery',
    format: 'markdown',
    tag: 'Discovery',
    summary:
      'llms-full.txt: llms.txt with the essentials inlined — calling conventions, every workflow’s steps, every operation, every error code',
    response: null,
  }),
  op({
    id: 'getWorkflows',
    mcpResource: { uri: 'plikt://workflows', name: 'workflows' },
    cache: CACHE.discovery,
    summaryNb:
      'Arbeidsflytene for agenter: REST-operasjonen (operationId, metode, sti) og MCP-verktøyet for hvert steg',
    method: 'GET',
    path: '/workflows.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary: 'The agent workflows: each step’s REST operation (operationId, method, path) and MCP tool',
    description:
      '`version` is this document’s own. A step with `person: true` is taken by a person (approving a delegation or a filing), not the agent.',
    response: D.Workflows,
  }),
  op({
    id: 'getRecipes',
    cache: CACHE.discovery,
    summaryNb: 'Oppskrifter: én del per arbeidsflyt med kjørbare curl- og MCP-skript',
    method: 'GET',
    path: '/recipes',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Recipes: one section per workflow with runnable curl and MCP scripts',
    description:
      'The sandbox recipes run as they stand against this service; the production ones need a key in `PLIKT_KEY` (the page says how to get one).',
    response: null,
  }),
  op({
    id: 'getOpenApi',
    cache: CACHE.discovery,
    summaryNb: 'Dette OpenAPI 3.1-dokumentet',
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
    cache: CACHE.discovery,
    summaryNb: 'Interaktiv API-referanse (virker uten nett)',
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
    cache: CACHE.discovery,
    summaryNb: 'Alle feilkoder forklart; målet for hver `docs_url`',
    method: 'GET',
    path: '/docs/errors',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Every error code explained; the target of each `docs_url`',
    response: null,
  }),
  op({
    id: 'getReceiptDocs',
    cache: CACHE.discovery,
    summaryNb:
      'Slik verifiserer du en kvitteringssignatur uten nett (innsendings- og fullmaktskvitteringer), som Markdown',
    method: 'GET',
    path: '/docs/receipt-signature',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'How to verify a receipt signature offline (filing and delegation receipts)',
    response: null,
  }),
] as const satisfies readonly Operation[]
