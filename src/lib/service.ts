/** The service's own name, as reported in `_meta.source` and the MCP server info. */
export const SERVICE_NAME = 'plikt'
/** OpenAPI `info.version`; every /api/v1 response carries it as `_meta.schema_version`. */
export const SCHEMA_VERSION = '1.0.7'
