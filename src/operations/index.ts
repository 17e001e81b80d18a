/**
 * THE operation registry: every operation once, one file per area. Routes, the OpenAPI document,
 * MCP tools/list, /pricing, /api/v1/capabilities, llms.txt, /workflows.json and /recipes are generated from it, and tests
 * fail when any of them lists something the registry does not.
 *
 * To add an area, write its file (entries built with `op()` from define.ts) and spread it below:
 * the order here is the order of the routes and of the OpenAPI document.
 */
import { accountOperations } from './account.ts'
import { adminOperations } from './admin.ts'
import { anchorsOperations } from './anchors.ts'
import { billingOperations } from './billing.ts'
import { changesOperations } from './changes.ts'
import { companyOperations } from './company.ts'
import { isKeyless, type Operation } from './define.ts'
import { delegationOperations } from './delegation.ts'
import { discoveryOperations } from './discovery.ts'
import { mcpDescription, mcpOperations } from './mcp.ts'
import { pagesOperations } from './pages.ts'
import { portalOperations } from './portal.ts'
import { privacyOperations } from './privacy.ts'
import { profilesOperations } from './profiles.ts'
import { portfoliosOperations } from './portfolios.ts'
import { rulebookOperations } from './rulebook.ts'
import { sandboxOperations } from './sandbox.ts'
import { serviceOperations } from './service.ts'
import { toolsOperations } from './tools.ts'
import { webhooksOperations } from './webhooks.ts'
import { wellknownOperations } from './wellknown.ts'

export { CACHE, COMMON_ERRORS, impliedErrors, isKeyless, op, openApiPath, toolArgumentName } from './define.ts'
export type { CachePolicy, McpResource } from './define.ts'
export type { AuthMode, HttpMethod, Op, Operation, OperationLimit, RequestShape } from './define.ts'
export { PUBLIC_SANDBOX_PER_MINUTE, SANDBOX_WRITES } from './sandbox.ts'

export const operations = [
  ...serviceOperations,
  ...rulebookOperations,
  ...accountOperations,
  ...billingOperations,
  ...privacyOperations,
  ...companyOperations,
  ...changesOperations,
  ...webhooksOperations,
  ...anchorsOperations,
  ...portalOperations,
  ...profilesOperations,
  ...portfoliosOperations,
  ...toolsOperations,
  ...delegationOperations,
  ...sandboxOperations,
  ...adminOperations,
  ...pagesOperations,
  ...mcpOperations,
  ...discoveryOperations,
  ...wellknownOperations,
] as const satisfies readonly Operation[]

/** The tools callable with no credential: those of operations that need none (as mcp/tools.ts builds them). */
export function keylessToolNames(ops: readonly Operation[]): string[] {
  return ops.flatMap((o) => (o.mcpTool !== null && isKeyless(o) ? [o.mcpTool] : []))
}

// The MCP entry's text names the keyless tools: set once the registry is joined, it cannot drift from tools/list.
operations.find((o) => o.id === 'mcp')!.description = mcpDescription(keylessToolNames(operations))

export type OperationId = (typeof operations)[number]['id']

type RequestById = { [O in (typeof operations)[number] as O['id']]: O['request'] }

/** The request schemas of an operation, as its entry declares them (for its handler's input types). */
export type OperationRequest<K extends OperationId> = RequestById[K]

/** The registry as plain `Operation`s, for code that walks every entry. */
export const allOperations: readonly Operation[] = operations
