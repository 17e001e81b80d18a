/**
 * The well-known documents an agent or a security researcher looks for (agent card, plugin
 * manifest, security.txt, data sovereignty, API catalog), the agent-readiness probe and the
 * comparison with integrating directly: all keyless, under the Category A soft limit.
 */
import { Type } from '@sinclair/typebox'
import * as W from '../schemas/wellknown.ts'
import { CACHE, op, type Operation } from './define.ts'

export const wellknownOperations = [
  op({
    id: 'getAgentCard',
    cache: CACHE.discovery,
    summaryNb: 'A2A-agentkort: tjenesten, sikkerhetsordningene og én ferdighet per MCP-verktøy',
    method: 'GET',
    path: '/.well-known/agent-card.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary: 'A2A agent card: the service, its security schemes, and one skill per MCP tool',
    description:
      'Plikt speaks REST and MCP rather than A2A’s task protocol: `url` is the REST API (`HTTP+JSON`), the MCP server is declared in `capabilities.extensions`, and `name` and the MCP URL are those of `/.well-known/mcp.json`.',
    response: W.AgentCard,
  }),
  op({
    id: 'getAiPlugin',
    cache: CACHE.discovery,
    summaryNb: 'Tilleggsmanifest (skjema v1) som peker på OpenAPI-dokumentet',
    method: 'GET',
    path: '/.well-known/ai-plugin.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary: 'Plugin manifest (schema v1) pointing at the OpenAPI document',
    response: W.AiPlugin,
  }),
  op({
    id: 'getSecurityTxt',
    cache: CACHE.discovery,
    summaryNb:
      'RFC 9116 security.txt: Contact (SECURITY_CONTACT), Expires (et halvt år fra forespørselen), Canonical, Preferred-Languages',
    method: 'GET',
    path: '/.well-known/security.txt',
    category: 'discovery',
    format: 'json',
    responseType: 'text/plain; charset=utf-8',
    tag: 'Discovery',
    summary:
      'RFC 9116 security.txt: Contact (SECURITY_CONTACT), Expires (half a year from the request), Canonical, Preferred-Languages',
    response: Type.String(),
  }),
  op({
    id: 'getDataSovereignty',
    cache: CACHE.discovery,
    summaryNb:
      'Hvor data lagres og behandles, hvilke eksterne systemer som mottar hva, og hvor lenge hver type data beholdes',
    method: 'GET',
    path: '/.well-known/data-sovereignty',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary:
      'Where data is stored and processed, which upstream systems receive what, and how long each kind of data is kept',
    description:
      'Computed from this deployment’s configuration (embedded database or PostgreSQL; live registers, fixtures or mocks) and the retention the expiry sweep applies.',
    response: W.DataSovereignty,
  }),
  op({
    id: 'getApiCatalog',
    cache: CACHE.discovery,
    summaryNb:
      'RFC 9727 API-katalog: et lenkesett over REST-API-et og MCP-serveren med beskrivelser, dokumentasjon og status',
    method: 'GET',
    path: '/.well-known/api-catalog',
    category: 'discovery',
    format: 'json',
    responseType: 'application/linkset+json',
    tag: 'Discovery',
    summary:
      'RFC 9727 API catalog: a linkset of the REST API and the MCP server with their descriptions, documentation and status',
    response: W.ApiCatalog,
  }),
  op({
    id: 'getReceiptKeys',
    cache: CACHE.receiptKeys,
    summaryNb:
      'De offentlige Ed25519-nøklene som signerer kvitteringer (JWK-sett), med gyldighetsvindu; gamle nøkler blir stående',
    method: 'GET',
    path: '/.well-known/receipt-keys.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary:
      'The public Ed25519 keys that sign receipts (a JWK Set) with their validity windows; retired keys stay listed',
    description:
      'Every production receipt — a live filing’s and a delegation receipt — carries `signature_ed25519` by one of these keys (named by `signature_ed25519_key_id`, the key’s `kid`) over the RFC 8785 canonical JSON of the receipt without `signature_ed25519`. Anyone can check it offline with the key alone: docs/receipt-signature.md. A key signs receipts whose `timestamp` lies in [`valid_from`, `valid_until`); a rotation lists the next key ten minutes before it signs. Sandbox receipts carry no Ed25519 signature: they prove nothing was filed.',
    response: W.ReceiptKeys,
  }),
  op({
    id: 'getAgentReadiness',
    summaryNb:
      'Per arbeidsflytklasse: andelen vellykkede kall og p95-svartid de siste minuttene, og kretsbryteren til tokentjenesten',
    method: 'GET',
    path: '/api/v1/health/agent-readiness',
    category: 'A',
    format: 'envelope',
    tag: 'Service',
    summary:
      'Per workflow class, the success rate and p95 latency of the last minutes, and the token service’s breaker',
    description:
      'Measured by this instance in memory over a sliding window of one-minute buckets (nothing is written per request). A class with fewer than `min_samples` requests in the window reports its conservative static default instead; each class says which in `source`, and `_meta.source` says it for the answer: `plikt` + `:telemetry`, `:static-defaults` or `:telemetry+static-defaults`.',
    response: W.AgentReadiness,
  }),
  op({
    id: 'getDirectIntegrationComparison',
    cache: CACHE.discovery,
    summaryNb:
      'Hva direkte integrasjon mot de offentlige systemene krever, mot hva Plikt gir, over ni dimensjoner; kvalitativt, uten tall',
    method: 'GET',
    path: '/api/v1/comparison/direct-integration',
    category: 'A',
    format: 'envelope',
    tag: 'Service',
    summary:
      'What integrating the government systems directly needs against what Plikt gives, over nine dimensions; qualitative, no figures',
    response: W.Comparison,
  }),
] as const satisfies readonly Operation[]
