/** The service's own name, as reported in `_meta.source`, the MCP server info and every well-known document. */
export const SERVICE_NAME = 'plikt'
/** OpenAPI `info.version`; every /api/v1 response carries it as `_meta.schema_version`. */
export const SCHEMA_VERSION = '1.0.7'
/** The MCP tool manifest's `schema_version`; the manifest's `version` and `initialize`'s server version equal it. */
export const MCP_SCHEMA_VERSION = '2026.10.0'
/**
 * The MCP `schema_version` the capabilities document lists (spec Versioning: "the capabilities
 * document lists MCP `schema_version` 2026.8.1", while the manifest says 2026.10.0). The two differ by
 * the spec's word; the document also names the manifest's own version (`mcp.manifest_schema_version`).
 */
export const CAPABILITIES_MCP_SCHEMA_VERSION = '2026.8.1'
/** How the service presents itself to people and agents (agent card, plugin manifest, OpenAPI title). */
export const SERVICE_TITLE = 'Plikt'
export const SERVICE_DESCRIPTION =
  'Machine-readable, trustworthy answers about Norwegian regulatory obligations for software agents: what a company must do, who may act for it, when things fall due — over REST and MCP.'
export const SERVICE_DESCRIPTION_NB =
  'Maskinlesbare, etterprøvbare svar om norske regulatoriske plikter for programvareagenter: hva et selskap må gjøre, hvem som kan handle for det, og når fristene går ut — over REST og MCP.'
