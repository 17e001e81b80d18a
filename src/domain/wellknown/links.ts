/**
 * Where everything an agent may look for lives, from one base URL: the well-known documents, the
 * MCP manifest and the capabilities document all take their URLs from here, so none of them can
 * name a path the others do not.
 */
export function serviceLinks(baseUrl: string) {
  return {
    base: baseUrl,
    api: `${baseUrl}/api/v1`,
    mcp: `${baseUrl}/api/mcp`,
    mcp_manifest: `${baseUrl}/.well-known/mcp.json`,
    openapi: `${baseUrl}/openapi.json`,
    docs: `${baseUrl}/docs`,
    error_docs: `${baseUrl}/docs/errors`,
    errors: `${baseUrl}/api/v1/errors`,
    pricing: `${baseUrl}/api/v1/pricing`,
    capabilities: `${baseUrl}/api/v1/capabilities`,
    agent_readiness: `${baseUrl}/api/v1/health/agent-readiness`,
    comparison: `${baseUrl}/api/v1/comparison/direct-integration`,
    health: `${baseUrl}/api/health`,
    llms: `${baseUrl}/llms.txt`,
    llms_full: `${baseUrl}/llms-full.txt`,
    workflows: `${baseUrl}/workflows.json`,
    recipes: `${baseUrl}/recipes`,
    login: `${baseUrl}/login`,
    sandbox: `${baseUrl}/api/v1/sandbox`,
    sandbox_fixtures: `${baseUrl}/api/v1/sandbox/fixtures`,
    agent_card: `${baseUrl}/.well-known/agent-card.json`,
    ai_plugin: `${baseUrl}/.well-known/ai-plugin.json`,
    security_txt: `${baseUrl}/.well-known/security.txt`,
    data_sovereignty: `${baseUrl}/.well-known/data-sovereignty`,
    api_catalog: `${baseUrl}/.well-known/api-catalog`,
    receipt_keys: `${baseUrl}/.well-known/receipt-keys.json`,
    oauth_resource_metadata: `${baseUrl}/.well-known/oauth-protected-resource/api/mcp`,
  }
}

export type ServiceLinks = ReturnType<typeof serviceLinks>
