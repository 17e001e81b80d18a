/**
 * The handlers every surface runs: REST routes and MCP tools call these same functions (pages,
 * OAuth consent and discovery documents are HTML or HTTP-only and live in src/http).
 */
import { serviceHandlers } from './service.ts'
import { errorHandlers, errorTools } from './errors.ts'
import { publicHandlers, rulebookTools } from './rulebook.ts'
import { accountHandlers, accountTools } from './account.ts'
import { adminHandlers } from './admin.ts'
import { billingHandlers, billingTools } from './billing.ts'
import { companyHandlers, companyTools } from './company.ts'
import { portalHandlers, portalTools } from './portal.ts'
import { profilesHandlers } from './profiles.ts'
import { portfolioFeedHandlers, portfoliosHandlers, portfoliosTools } from './portfolios.ts'
import { changesHandlers } from './changes.ts'
import { webhooksHandlers } from './webhooks.ts'
import { anchorsHandlers } from './anchors.ts'
import { toolHandlers, toolTools } from './tools.ts'
import { delegationHandlers, delegationTools } from './delegation.ts'
import { sandboxCompanyHandlers } from './sandbox/company.ts'
import { sandboxActionHandlers, sandboxActionTools } from './sandbox/actions.ts'
import { sandboxFixtureHandlers } from './sandbox/fixtures.ts'
import { wellknownHandlers } from './wellknown.ts'

const sandboxHandlers = { ...sandboxFixtureHandlers, ...sandboxCompanyHandlers, ...sandboxActionHandlers }
type SandboxId = keyof typeof sandboxHandlers
/** The public mirror answers with the same handlers; its limits and org rule come from its registry entries. */
const publicSandboxHandlers = Object.fromEntries(
  Object.entries(sandboxHandlers).map(([id, h]) => [`public${id.charAt(0).toUpperCase()}${id.slice(1)}`, h]),
) as { [K in SandboxId as `public${Capitalize<K>}`]: (typeof sandboxHandlers)[K] }

export const coreHandlers = {
  ...serviceHandlers,
  ...errorHandlers,
  ...publicHandlers,
  ...accountHandlers,
  ...billingHandlers,
  ...adminHandlers,
  ...companyHandlers,
  ...portalHandlers,
  ...profilesHandlers,
  ...portfoliosHandlers,
  ...portfolioFeedHandlers,
  ...changesHandlers,
  ...webhooksHandlers,
  ...anchorsHandlers,
  ...toolHandlers,
  ...delegationHandlers,
  ...sandboxHandlers,
  ...publicSandboxHandlers,
  ...wellknownHandlers,
}
export type CoreOperationId = keyof typeof coreHandlers

/** How the operations that name an MCP tool are offered there (src/mcp/tools.ts), by operation id. */
export const toolBindings = {
  ...rulebookTools,
  ...errorTools,
  ...billingTools,
  ...accountTools,
  ...toolTools,
  ...companyTools,
  ...portfoliosTools,
  ...portalTools,
  ...delegationTools,
  ...sandboxActionTools,
}
