/**
 * Composition root: chooses the adapters, builds the per-instance state (`composeDeps`), joins the
 * handler table, and hands both surfaces — the HTTP routes (http/app.ts) and the MCP transport
 * (mcp/server.ts) — what they serve. Exported for tests; nothing listens at import.
 */
import { allOperations, type OperationId, type OperationRequest } from './operations/index.ts'
import type { AppDeps, Handler, HandlerContext } from './pipeline/context.ts'
import type { Config } from './config.ts'
import type { Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import { poolState, type Sql } from './store/db.ts'
import { SoftLimiter } from './pipeline/soft-limit.ts'
import { AnswerCache } from './pipeline/answer-cache.ts'
import { ChargeBatcher, HoldSettler } from './domain/billing/metering.ts'
import { createVerifier } from './domain/access/oauth.ts'
import { KeyCache } from './domain/access/key-cache.ts'
import { RefusalBudget } from './domain/access/refusals.ts'
import { smtpMailer } from './upstream/mail/smtp.ts'
import { outboxMailer } from './upstream/mail/outbox.ts'
import { Documents, jsonDocument, perInstance } from './pipeline/caching.ts'
import { createFetch } from './http/server.ts'
import { mountRoutes, type Extension } from './http/app.ts'

export type { Extension } from './http/app.ts'
import { discoveryHandlers } from './http/discovery.ts'
import { pageHandlers } from './http/pages/account.ts'
import { portfolioPageHandlers } from './http/pages/portfolios.ts'
import { handleMcp, mcpManifest, mcpToolsSummary, type McpSurface } from './mcp/server.ts'
import { buildResources } from './mcp/resources.ts'
import { oauthHandlers } from './http/pages/oauth.ts'
import { returnSweeps } from './domain/delegation/refresh.ts'
import { ProofCache } from './domain/anchors/proof-cache.ts'
import { delegationApprovalHandlers } from './http/pages/delegation-approval.ts'
import { approvalConfirmationHandlers } from './http/pages/approval-confirmation.ts'
import { delegationReturnHandlers } from './http/pages/delegation-return.ts'
import { coreHandlers, toolBindings } from './handlers/index.ts'
import { discoveryDocumentHandlers } from './handlers/discovery.ts'
import { discoveryPageHandlers } from './http/pages/discovery.ts'
import { buildTools, TOOLS } from './mcp/tools.ts'
import { UpstreamReads } from './domain/sources.ts'
import { ActiveGrants } from './domain/company/tier2.ts'
import { READ_POLICY, UpstreamClient } from './upstream/http.ts'
import { LiveBusinessRegister } from './upstream/business-register/live.ts'
import { LiveAccountsRegister } from './upstream/accounts-register/live.ts'
import { mockFilingPortal, mockFilingPortalWithFilings } from './upstream/filing-portal/mock.ts'
import { buildGovernment } from './upstream/government.ts'
import { MockDigitalAgency } from './upstream/digital-agency/mock.ts'
import { CentralBankClient } from './upstream/central-bank/live.ts'
import { serverKeys } from './lib/server-secret.ts'
import { Lifecycle } from './pipeline/lifecycle.ts'
import { Metrics } from './pipeline/metrics.ts'
import { RequestTelemetry } from './pipeline/telemetry.ts'
import { liveWebhookTransport } from './upstream/webhooks/live.ts'
import { liveTimestampAuthority } from './upstream/timestamp-authority/live.ts'
import { jobControl } from '../jobs/runner.ts'

/**
 * What the handler of an operation is given: its inputs typed by the schemas its registry entry
 * declares. Spelled out as an object type on purpose: tsc takes HandlerContext<A> for assignable to
 * HandlerContext<B> whatever A and B are (its inputs are conditional types of R, whose variance
 * tsc cannot measure), so comparing two instances would check nothing.
 */
type ContextFor<K extends OperationId> = {
  [P in keyof HandlerContext<OperationRequest<K>>]: HandlerContext<OperationRequest<K>>[P]
}

/** The handler of an operation; a handler declared for other inputs is not one. */
export type HandlerFor<K extends OperationId> = (ctx: ContextFor<K>) => ReturnType<Handler>

/** The MCP manifest, made and tagged once per instance. */
const mcpManifestDocument = perInstance('mcp-manifest', (deps: AppDeps) => jsonDocument(mcpManifest(deps)))

/** Every operation's handler (MCP is a surface of its own); one whose input types do not match its entry's schemas fails the typecheck. */
export const handlers: { [K in Exclude<OperationId, 'mcp'>]: HandlerFor<K> } = {
  getMcpManifest: ({ deps }) => ({ data: undefined, document: mcpManifestDocument(deps) }),
  ...coreHandlers,
  ...pageHandlers,
  ...portfolioPageHandlers,
  ...oauthHandlers,
  ...delegationApprovalHandlers,
  ...approvalConfirmationHandlers,
  ...delegationReturnHandlers,
  ...discoveryHandlers,
  // the MCP surface's tools list, which handlers cannot import, handed in here
  ...discoveryDocumentHandlers(mcpToolsSummary()),
  ...discoveryPageHandlers,
}

/** Everything the surfaces need, chosen once: the composition root for main, tests and benchmarks. */
export function composeDeps(
  base: {
    config: Config
    sql: Sql
    dbKind: AppDeps['dbKind']
    clock: Clock
    logger: Logger
    startedAt?: Date
    /** Database.chargeSql; default `sql` */
    chargeSql?: Sql
    /** Database.dumpDataDir of the embedded database */
    dumpDataDir?: () => Promise<Blob>
  },
  overrides: Partial<AppDeps> = {},
): AppDeps {
  const mailer = base.config.smtpUrl
    ? smtpMailer(base.config.smtpUrl, base.config.mailFrom)
    : outboxMailer(base.sql, base.logger)
  const settler = new HoldSettler(base.sql, (e) =>
    base.logger.error('settling credit holds failed; trying again in a second', { error: String(e) }),
  )
  // One client (and so one circuit breaker) per upstream system.
  const policy = { ...READ_POLICY, timeoutMs: base.config.upstreamTimeoutMs }
  const metrics = new Metrics()
  const client = (system: string) => {
    const c = new UpstreamClient(system, policy, base.clock)
    metrics.watch(c)
    return c
  }
  const register =
    overrides.register ??
    new LiveBusinessRegister(
      base.config.businessRegisterUrl,
      client('Enhetsregisteret'),
      client('Fullmakttjenesten'),
      base.clock,
    )
  const accounts = new LiveAccountsRegister(base.config.businessRegisterUrl, client('Regnskapsregisteret'), base.clock)
  const centralBank = new CentralBankClient(base.config.centralBankUrl, client('Norges Bank'), base.clock)
  const { digitalAgency: liveAgency, ...government } = {
    ...buildGovernment(base.config, base.clock, (c) => metrics.watch(c)),
    ...overrides.government,
  }
  const charger = new ChargeBatcher(base.chargeSql ?? base.sql)
  metrics.watchCharges(charger)
  metrics.watchPools({
    main: () => poolState(base.sql),
    ...(base.chargeSql && base.chargeSql !== base.sql ? { charge: () => poolState(base.chargeSql!) } : {}),
  })
  const reads = new UpstreamReads({
    sql: base.sql,
    clock: base.clock,
    logger: base.logger,
    register,
    accounts,
    centralBank,
    metrics,
  })
  const deps = {
    ...base,
    startedAt: base.startedAt ?? new Date(),
    mailer,
    payments: null,
    settler,
    charger,
    keyCache: new KeyCache(),
    softLimiter: new SoftLimiter(),
    refusals: new RefusalBudget(),
    answers: new AnswerCache(),
    documents: new Documents(),
    oauthVerifier: base.config.oauth ? createVerifier(base.config.oauth) : null,
    register,
    reads,
    grants: new ActiveGrants(base.sql),
    // The mock portal lists what the mock submitter filed; a live portal lists its own instances.
    filingPortal: government.filingSubmitter.mock ? mockFilingPortalWithFilings(base.sql) : mockFilingPortal,
    // GOVERNMENT_MODE=mock (the default): the database-backed agency whose approval page this service serves.
    digitalAgency: liveAgency ?? new MockDigitalAgency(base.sql, base.config.baseUrl, base.clock),
    government,
    // Without SERVER_SECRET (tests, benchmarks) the keys live as long as the process; main.ts
    // always passes one (configured, or kept in DATA_DIR).
    lifecycle: new Lifecycle(),
    metrics,
    telemetry: new RequestTelemetry(allOperations),
    backup: base.dumpDataDir ?? null,
    serverKeys: serverKeys(base.config.serverSecret ?? crypto.randomUUID() + crypto.randomUUID()),
    accountsRegister: new LiveAccountsRegister(
      base.config.businessRegisterUrl,
      client('Regnskapsregisteret (diff)'),
      base.clock,
    ),
    webhooks: { transport: liveWebhookTransport(), policy: { allowLoopback: base.config.webhookAllowLoopback } },
    tsa: base.config.tsaUrl ? liveTimestampAuthority(base.config.tsaUrl) : null,
    anchorProofs: new ProofCache(),
    ...overrides,
  } as Omit<AppDeps, 'jobs' | 'delegationReturns'>
  const withReturns: Omit<AppDeps, 'jobs'> = {
    ...deps,
    delegationReturns: overrides.delegationReturns ?? returnSweeps(deps),
  }
  return { ...withReturns, jobs: overrides.jobs ?? jobControl(withReturns) }
}

/** The HTTP application: every operation (and an extension's) mounted, MCP among them. */
export function createApp(deps: AppDeps, extension?: Extension) {
  const operations = extension ? [...allOperations, ...extension.operations] : allOperations
  const table: Record<string, Handler<any>> = extension ? { ...handlers, ...extension.handlers } : handlers
  const surface: McpSurface = {
    tools: extension ? buildTools(operations, table, { ...toolBindings, ...extension.tools }) : TOOLS,
    resources: buildResources(operations, table),
  }
  return mountRoutes(deps, {
    operations,
    handlers: table,
    mcp: (request, state) => handleMcp(request, deps, state, surface),
  })
}

/** The request handler Bun.serve runs: Elysia wrapped in the outer layer (correlation id, limits, logs). */
export function createHandler(
  deps: AppDeps,
  extension?: Extension,
): (request: Request, server?: { requestIP(r: Request): { address: string } | null }) => Promise<Response> {
  const app = createApp(deps, extension)
  app.compile()
  return createFetch(app, deps)
}
