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
    summary: 'The capabilities document: every operation, scopes, filing, sandbox, MCP, conflict locks, discovery paths',
    description:
      'One capability per operation of the registry (its `openapi_operation_id` is this document’s operationId), each with a ' +
      '`example_request` the operation accepts as it stands. `_meta.schema_version` is the document’s own (1.1.0) and `data.version` 1. ' +
      '`actions.execute_supported` is true only when filings reach the real filing portal (GOVERNMENT_MODE=live); with the mock submitter a ' +
      'live execute answers a mock receipt and the filing capability says `gated`. The strong `ETag` validates `data`; send it back in ' +
      '`If-None-Match` to get `304 Not Modified`.',
    response: D.Capabilities,
    capability: {
      name_en: 'Capabilities document',
      name_nb: 'Oversikt over tjenestens muligheter',
      description_en: 'Everything the service can do, how to authenticate, what it costs and how to rehearse it, from the registry.',
      description_nb: 'Alt tjenesten kan gjøre, hvordan du autentiserer deg, hva det koster og hvordan du øver, hentet fra registeret.',
      data_sources: ['plikt'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'getLlmsTxt',
    cache: CACHE.discovery,
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
    cache: CACHE.discovery,
    method: 'GET',
    path: '/llms-full.txt',
    category: 'discovery',
    format: 'markdown',
    tag: 'Discovery',
    summary: 'llms-full.txt: llms.txt with the essentials inlined — calling conventions, every workflow’s steps, every operation, every error code',
    response: null,
  }),
  op({
    id: 'getWorkflows',
    cache: CACHE.discovery,
    method: 'GET',
    path: '/workflows.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary: 'The agent workflows: each step’s REST operation (operationId, method, path) and MCP tool',
    description: '`version` is this document’s own. A step with `person: true` is taken by a person (approving a delegation or a filing), not the agent.',
    response: D.Workflows,
  }),
  op({
    id: 'getRecipes',
    cache: CACHE.discovery,
    method: 'GET',
    path: '/recipes',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Recipes: one section per workflow with runnable curl and MCP scripts',
    description: 'The sandbox recipes run as they stand against this service; the production ones need a key in `PLIKT_KEY` (the page says how to get one).',
    response: null,
  }),
  op({
    id: 'getOpenApi',
    cache: CACHE.discovery,
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
    method: 'GET',
    path: '/docs/receipt-signature',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'How to verify a receipt signature offline (filing and delegation receipts)',
    response: null,
  }),
] as const satisfies readonly Operation[]
