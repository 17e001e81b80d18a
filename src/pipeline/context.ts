import type { KeyCache } from '../domain/access/key-cache.ts'
import type { ProofCache } from '../domain/anchors/proof-cache.ts'
import type { DelegationReturns } from '../domain/delegation/refresh.ts'
import type { SoftLimiter } from './soft-limit.ts'
import type { RefusalBudget } from '../domain/access/refusals.ts'
import type { AnswerCache } from './answer-cache.ts'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { Config } from '../config.ts'
import type { Clock } from '../lib/clock.ts'
import type { Logger } from '../lib/log.ts'
import type { Sql } from '../store/db.ts'
import type { Principal } from '../domain/access/types.ts'
import type { Mailer } from '../upstream/mail/port.ts'
import type { PaymentProvider } from '../upstream/payments/port.ts'
import type { ChargeBatcher, HoldSettler } from '../domain/billing/metering.ts'
import type { Verifier } from '../domain/access/oauth.ts'
import type { CachedDocument, Documents } from './caching.ts'
import type { MetaInput, PrecomputedData } from './envelope.ts'
import type { UpstreamReads } from '../domain/sources.ts'
import type { ActiveGrants } from '../domain/company/tier2.ts'
import type { FilingPortal } from '../upstream/filing-portal/port.ts'
import type { BusinessRegister } from '../upstream/business-register/port.ts'
import type { SandboxState } from './sandbox.ts'
import type { ApprovalGate } from '../domain/actions/approval.ts'
import type { ServerKeys } from '../lib/server-secret.ts'
import type { Lifecycle } from './lifecycle.ts'
import type { Metrics } from './metrics.ts'
import type { RequestTelemetry } from './telemetry.ts'
import type { DigitalAgency } from '../upstream/digital-agency/port.ts'
import type { Government } from '../upstream/government.ts'
import type { AccountsRegister } from '../upstream/accounts-register/port.ts'
import type { WebhookTransport } from '../upstream/webhooks/port.ts'
import type { TimestampAuthority } from '../upstream/timestamp-authority/port.ts'
import type { TargetPolicy } from '../domain/webhooks/target.ts'
import type { JobControl } from '../domain/jobs.ts'

/** What the composition root hands every surface. */
export interface AppDeps {
  config: Config
  sql: Sql
  dbKind: 'postgres' | 'embedded'
  clock: Clock
  logger: Logger
  /** when this process loaded its code: the freshness of data computed from code */
  startedAt: Date
  mailer: Mailer
  /** null: card checkout is not configured (BILLING_NOT_CONFIGURED) */
  payments: PaymentProvider | null
  settler: HoldSettler
  charger: ChargeBatcher
  /** keys this process has resolved (never the authority: see domain/access/key-cache.ts) */
  keyCache: KeyCache
  /** this instance's count of keyless requests per address (the Category A soft limit) */
  softLimiter: SoftLimiter
  /** refused credentials: counted and audited boundedly; the addresses over their budget */
  refusals: RefusalBudget
  /** rulebook answers already evaluated, serialised and hashed, per snapshot and question */
  answers: AnswerCache
  /** the documents this instance derives once (pipeline/caching.ts): pages, OpenAPI, the public rulebook answers, the well-known documents */
  documents: Documents
  /** verifies OAuth access tokens for MCP; null when OAuth is disabled */
  oauthVerifier: Verifier | null
  /** the business register's adapter (also read directly by the update-feed job) */
  register: BusinessRegister
  /** cached, archived reads of the open registers */
  reads: UpstreamReads
  /** who holds an active delegation from which organisation (Tier 2's gate), batched */
  grants: ActiveGrants
  filingPortal: FilingPortal
  /** the digital agency's system-user API (the mock, with its approval page, unless GOVERNMENT_MODE=live) */
  digitalAgency: DigitalAgency
  /** the token service, the tax authority, the portal's submission and the labour register (digitalAgency: see above) */
  government: Omit<Government, 'digitalAgency'>
  /** embedded database: a consistent copy of its data directory (the operator's backup); null on PostgreSQL */
  backup: (() => Promise<Blob>) | null
  /** this instance's Prometheus metrics (GET /metrics) */
  metrics: Metrics
  /** this instance's per-workflow-class success and latency over the last minutes (the agent-readiness probe) */
  telemetry: RequestTelemetry
  /** serving or draining (main.ts flips it on SIGTERM; readiness reads it) */
  lifecycle: Lifecycle
  /** keys derived from the server secret (fnr HMAC, receipt signing, session-less form tokens, webhook secrets) */
  serverKeys: ServerKeys
  /** the accounts register with a breaker of its own, for the accounts diff: a long run's failures never open the one reads use */
  accountsRegister: AccountsRegister
  /** where webhooks are sent, and what they may reach (domain/webhooks/target.ts) */
  webhooks: { transport: WebhookTransport; policy: TargetPolicy }
  /** TSA_URL's time-stamping authority for the anchor roots; null without it */
  tsa: TimestampAuthority | null
  /** this instance's inclusion proofs, kept once computed (they never change) */
  anchorProofs: ProofCache
  /** this instance's sweeps of young pending delegations when a person returns from the agency (domain/delegation/refresh.ts) */
  delegationReturns: DelegationReturns
  /** the scheduled jobs, for the operator routes */
  jobs: JobControl
}

/** Per-request facts the outer layer and the routes share (see request-state.ts). */
export interface RequestState {
  correlationId: string
  startedAt: number
  /** the matched route template, for logs */
  route: string | null
  /** the registry operation serving the request (audit rows name it) */
  operationId: string | null
  /** how the matched operation answers: errors on a page are pages too */
  format: 'envelope' | 'json' | 'html' | 'sandbox' | 'markdown' | null
  /** set on sandbox routes: how their answers and errors are shaped */
  sandbox: SandboxState | null
  consumerId: string | null
  /** set once the response was built with X-Correlation-ID, so the outer layer need not touch its headers */
  correlationStamped: boolean
  /** the client address (X-Forwarded-For only with TRUST_PROXY) */
  ip: string
  principal: Principal
  /** headers every response to this request carries (rate-limit state, low-balance warning) */
  extraHeaders: Record<string, string> | null
  /**
   * set by a handler whose successful answer is not to be charged (a portfolio read that answered
   * no client): the metering step refunds it as it refunds a failure, with this reason
   */
  refundReason?: string
  /** set by a handler once something irreversible happened (an approval token spent): a failure from then on is final, and an Idempotency-Key replays it */
  failureIsFinal: boolean
}

type In<S, Fallback> = S extends TSchema ? Static<S> : Fallback

/** The validated inputs a handler declares it reads, by the schemas its registry entry names. */
export interface RequestSchemas {
  params?: TSchema
  query?: TSchema
  body?: TSchema
}

/**
 * The request headers a handler may read. Each surface passes them in explicitly, so a handler
 * never sees a Request and runs the same on both: REST from the HTTP request; MCP takes a call's
 * own Idempotency-Key and approval token from its arguments (one HTTP request may carry several
 * calls) and the rest from the HTTP request.
 */
export interface InputHeaders {
  idempotencyKey: string | null
  /** X-Approval-Token */
  approvalToken: string | null
  /** X-Service-Simulate (sandbox) */
  simulate: string | null
  ifNoneMatch: string | null
  /** what the caller accepts: a page that also answers JSON (the front door) reads it */
  accept: string | null
}

/** Read on access: most handlers read none of them, and a hot route should not pay for four lookups. */
class HeadersOf implements InputHeaders {
  constructor(private readonly h: Headers) {}
  get idempotencyKey() {
    return this.h.get('idempotency-key')
  }
  get approvalToken() {
    return this.h.get('x-approval-token')
  }
  get simulate() {
    return this.h.get('x-service-simulate')
  }
  get ifNoneMatch() {
    return this.h.get('if-none-match')
  }
  get accept() {
    return this.h.get('accept')
  }
}

export function inputHeaders(h: Headers): InputHeaders {
  return new HeadersOf(h)
}

export interface HandlerContext<R extends RequestSchemas = RequestSchemas> {
  params: In<R['params'], Record<string, string>>
  query: In<R['query'], Record<string, unknown>>
  body: In<R['body'], unknown>
  headers: InputHeaders
  /** aborted when the caller has gone: long waits end early */
  signal: AbortSignal
  deps: AppDeps
  state: RequestState
  now: Date
  principal: Principal
  /** the approval step (pipeline/approval.ts) for an operation that declares `approval`; otherwise null */
  approval: ApprovalGate | null
}

export interface HandlerOutput {
  data: unknown
  meta?: MetaInput
  status?: number
  headers?: Record<string, string>
  /** `data` already serialised, hashed and encoded, for hot static answers (then `data` is ignored) */
  precomputed?: PrecomputedData
  /** sandbox answers: members beside `success`, `data` and `_meta` (the receipt's `_sandbox_marker`) */
  top?: Record<string, unknown>
  /** a whole body that is not an envelope (a page, llms.txt, a well-known document), made and tagged once; then `data` is ignored */
  document?: CachedDocument
  /** a shorter `max-age` than the operation's policy, for an answer that changes sooner (the current year's deadlines near New Year) */
  maxAge?: number
}

export type Handler<R extends RequestSchemas = RequestSchemas> = (
  ctx: HandlerContext<R>,
) => HandlerOutput | Response | Promise<HandlerOutput | Response>

export type { TObject }

/** A handler's inputs, as a surface other than REST hands them over. */
export interface HandlerInput {
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
}

/**
 * How an operation that names an MCP tool is offered there; kept beside its handler. By default the
 * tool takes the REST inputs flattened (mcp/tools.ts); a tool the spec gives its own shape declares
 * it with `input` and maps it back with `toInput`.
 */
export interface ToolBinding {
  input?: TSchema
  toInput?: (args: any) => HandlerInput
  /** the tool result's `justification`: why the answer is what it is */
  justification: (result: any) => string
}
