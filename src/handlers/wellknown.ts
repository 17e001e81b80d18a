/**
 * The well-known documents, the agent-readiness probe and the comparison matrix. The documents are
 * functions of the registry and the configuration, so each is made, serialised and tagged once per
 * instance (security.txt once per day, for its Expires) and kept by any cache (pipeline/caching.ts);
 * the probe is computed per request from this instance's telemetry (domain/wellknown).
 */
import {
  agentCard,
  aiPlugin,
  apiCatalog,
  dataSovereignty,
  kept,
  securityTxt,
  timed,
  type Retention,
  type ToolSkill,
} from '../domain/wellknown/documents.ts'
import { COMPARISON_METHODOLOGY, COMPARISON_SOURCE, DIMENSIONS } from '../domain/wellknown/comparison.ts'
import { serviceLinks } from '../domain/wellknown/links.ts'
import { readinessReport, type McpCounts, type ReadinessSource } from '../domain/wellknown/readiness.ts'
import { mcpCounts } from '../domain/discovery/mcp-offer.ts'
import { APPROVAL_TOKEN_LIFETIME_MS } from '../domain/actions/approval.ts'
import { publishedReceiptKeys, receiptSigner } from '../domain/actions/receipt-keys.ts'
import { MAGIC_LINK_TTL_MS, SESSION_TTL_MS } from '../domain/access/signin.ts'
import { allOperations, isKeyless } from '../operations/index.ts'
import { IDEMPOTENCY_TTL_MS } from '../pipeline/idempotency.ts'
import type { AppDeps, Handler } from '../pipeline/context.ts'
import { cachedDocument, jsonDocument, perInstance, type CachedDocument } from '../pipeline/caching.ts'
import { precompute } from '../pipeline/envelope.ts'
import { SERVICE_NAME } from '../lib/service.ts'
import { RETENTION_MS } from '../store/sweeps.ts'

/** One skill per MCP tool name (a tool offered by a production and a sandbox operation is one skill: the production one). */
function toolSkills(): ToolSkill[] {
  const seen = new Map<string, ToolSkill>()
  for (const o of allOperations) {
    if (o.mcpTool === null || (seen.has(o.mcpTool) && o.category === 'sandbox')) continue
    seen.set(o.mcpTool, {
      tool: o.mcpTool,
      summary: o.summary,
      description: o.description ?? null,
      tag: o.tag,
      scope: o.scope,
      keyless: isKeyless(o),
    })
  }
  return [...seen.values()]
}

const SKILLS = toolSkills()

/** What the service keeps and for how long: the sweep's table, the lifetimes of credentials, and the append-only records. */
const RETENTION: readonly Retention[] = [
  timed(
    'Sign-in links',
    MAGIC_LINK_TTL_MS + RETENTION_MS.magic_links,
    'valid for their lifetime, then deleted by the expiry sweep a day after they expired',
  ),
  timed(
    'Browser sessions',
    SESSION_TTL_MS + RETENTION_MS.sessions,
    'valid for their lifetime (or until signed out), then deleted a day after they ended',
  ),
  timed(
    'Approval tokens',
    APPROVAL_TOKEN_LIFETIME_MS + RETENTION_MS.approval_tokens,
    'valid for their lifetime; kept a day after expiry so a late retry hears APPROVAL_TOKEN_USED or _EXPIRED',
  ),
  timed(
    'Idempotency records (the first answer to an Idempotency-Key)',
    IDEMPOTENCY_TTL_MS,
    'replayed to retries, then deleted',
  ),
  timed('Operator outbox mail', RETENTION_MS.outbox_emails, 'read by the operator when no SMTP relay is configured'),
  timed('Queued mail, after it was sent', RETENTION_MS.mail_sent, 'the address is kept only until the mail is sent'),
  timed('Queued mail given up on', RETENTION_MS.mail_failed, 'for the operator to see why it failed'),
  timed('Sandbox audit rows', RETENTION_MS.sandbox_audit, 'a rehearsal’s audit trail; synthetic data only'),
  kept('Audit log', 'append-only record of who did what (keys, delegations, filings, refused credentials)'),
  kept('Credit ledger', 'append-only record of every charge, refund and top-up'),
  kept(
    'Change archive and the upstream snapshot archive',
    'provenance of every answer and change; a unit the register removes for legal reasons is purged and only its hashes are kept',
  ),
  kept(
    'Delegations and filings made through Plikt, with their signed receipts',
    'proof of what was authorised and filed',
  ),
]

/** `_meta.source` of the probe: the service's name and where its figures come from. */
const READINESS_SOURCE: Record<ReadinessSource, string> = {
  telemetry: `${SERVICE_NAME}:telemetry`,
  static_defaults: `${SERVICE_NAME}:static-defaults`,
  telemetry_and_static_defaults: `${SERVICE_NAME}:telemetry+static-defaults`,
}

const byId = new Map(allOperations.map((o) => [o.id, o]))

/** What an MCP host finds at /api/mcp, counted once (the probe reports it beside the measurements). */
const MCP_COUNTS: McpCounts = mcpCounts()

/** Built at start-up: evidence naming an operation the registry lacks stops the process (and every test) at once. */
const COMPARISON = {
  subject: 'Integrating the Norwegian government systems directly, compared with using Plikt',
  dimensions: DIMENSIONS.map((d) => ({
    ...d,
    evidence: d.evidence.map((id) => {
      const o = byId.get(id)
      if (!o) throw new Error(`comparison evidence names ${id}, which is not in the registry`)
      return { operation_id: o.id, method: o.method, path: o.path }
    }),
  })),
  methodology: COMPARISON_METHODOLOGY.en,
  methodology_nb: COMPARISON_METHODOLOGY.nb,
  source: COMPARISON_SOURCE,
}

const COMPARISON_ANSWER = precompute(COMPARISON)

const documents = perInstance('well-known', (deps: AppDeps) => ({
  agentCard: jsonDocument(agentCard(deps.config.baseUrl, SKILLS)),
  aiPlugin: jsonDocument(aiPlugin(deps.config)),
  dataSovereignty: jsonDocument(dataSovereignty(deps.config, deps.dbKind, RETENTION)),
  apiCatalog: jsonDocument(apiCatalog(deps.config.baseUrl, deps.config.oauth !== null), 'application/linkset+json', {
    link: `<${serviceLinks(deps.config.baseUrl).api_catalog}>; rel="api-catalog"`,
  }),
  /** security.txt of the day it was made (its Expires counts from the start of that UTC day) */
  securityTxt: null as { day: number; doc: CachedDocument } | null,
}))

const DAY_MS = 86_400_000

export const wellknownHandlers = {
  getAgentCard: (({ deps }) => ({ data: undefined, document: documents(deps).agentCard })) satisfies Handler,

  getAiPlugin: (({ deps }) => ({ data: undefined, document: documents(deps).aiPlugin })) satisfies Handler,

  getSecurityTxt: (({ deps, now }) => {
    const d = documents(deps)
    const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS
    if (d.securityTxt?.day !== day)
      d.securityTxt = {
        day,
        doc: cachedDocument(securityTxt(deps.config, new Date(day)), { 'content-type': 'text/plain; charset=utf-8' }),
      }
    return { data: undefined, document: d.securityTxt.doc }
  }) satisfies Handler,

  getDataSovereignty: (({ deps }) => ({
    data: undefined,
    document: documents(deps).dataSovereignty,
  })) satisfies Handler,

  getApiCatalog: (({ deps }) => ({ data: undefined, document: documents(deps).apiCatalog })) satisfies Handler,

  /** Read per request (a rotation adds a key); the first key is made here if no receipt has needed one yet. */
  getReceiptKeys: (async ({ deps }) => {
    let set = await publishedReceiptKeys(deps.sql)
    if (set.keys.length === 0) {
      await receiptSigner(deps.sql, deps.serverKeys.receiptEd25519, () => deps.clock.now()).keyAt(deps.clock.now())
      set = await publishedReceiptKeys(deps.sql)
    }
    return { data: set }
  }) satisfies Handler,

  getAgentReadiness: (({ deps, now }) => {
    const tokenService = deps.government.tokenService
    const data = readinessReport(
      deps.telemetry.snapshot(now.getTime()),
      { state: tokenService.breakerState(), mock: tokenService.mock },
      MCP_COUNTS,
    )
    return { data, meta: { source: READINESS_SOURCE[data.source] } }
  }) satisfies Handler,

  getDirectIntegrationComparison: (({ deps }) => ({
    data: undefined,
    precomputed: COMPARISON_ANSWER,
    meta: { served_from: 'static', data_freshness: deps.startedAt },
  })) satisfies Handler,
}
