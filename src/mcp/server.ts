/**
 * The MCP server at /api/mcp: JSON-RPC 2.0 over stateless streamable HTTP with JSON responses.
 * A new low-level Server and transport per request (a stateless transport cannot be reused), with
 * only the tools the caller's credential allows registered — so a hidden tool is simply unknown
 * (-32602). No Authorization header at all means keyless: only the keyless tools, limited to 100
 * calls an hour per IP; a call of a keyed tool without one is asked to authenticate (401 with the
 * challenge), as the spec's Authentication section says. A header that is present but bad is
 * refused, never treated as keyless.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CallToolRequestSchema,
  ErrorCode as RpcError,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import { cachedPrincipalForKey, principalForKey } from '../domain/access/keys.ts'
import { looksLikeJwt, principalForToken } from '../domain/access/oauth.ts'
import type { Limit } from '../domain/access/limits.ts'
import type { KeyPrincipal, Principal } from '../domain/access/types.ts'
import { AppError, validationError, type FieldIssue } from '../errors/app-error.ts'
import { CATALOGUE } from '../errors/catalogue/index.ts'
import { explain } from '../errors/explain.ts'
import { docsUrl } from '../errors/registry.ts'
import { buildMeta, responseHash } from '../pipeline/envelope.ts'
import { checkArguments } from '../pipeline/validation.ts'
import { bearerOf } from '../pipeline/credentials.ts'
import { admitMessages } from '../pipeline/admission.ts'
import { audited, settle, unconfirmedKey } from '../pipeline/key-confirmation.ts'
import { runCall, type Call, type Codec, type Served } from '../pipeline/run.ts'
import type { MetaInput, PrecomputedData } from '../pipeline/envelope.ts'
import {
  inputHeaders,
  type AppDeps,
  type HandlerOutput,
  type InputHeaders,
  type RequestState,
} from '../pipeline/context.ts'
import { MCP_SCHEMA_VERSION, SERVICE_NAME } from '../lib/service.ts'
import { serviceLinks } from '../domain/wellknown/links.ts'
import { databaseUnavailable } from '../pipeline/unavailable.ts'
import { APPROVAL_ARGUMENT, IDEMPOTENCY_ARGUMENT, offeredTo, TOOLS, type Tool, type ToolOutput } from './tools.ts'
import { OPERATION_REFUSED, resourceOf, serveResources, visibleResources, type Resource } from './resources.ts'
import { mcpOffer } from '../domain/discovery/mcp-offer.ts'
import { servePrompts } from './prompts.ts'
import { listedTool } from './listing.ts'
import { isDryRun, type AnswerCodec } from '../pipeline/idempotency.ts'
import { canonicalJson } from '../lib/canonical-json.ts'
import { corkedResponse } from '../lib/corked-response.ts'
import { perInstance } from '../pipeline/caching.ts'
import { sha256Hex } from '../lib/hash.ts'
import type { ErrorCode } from '../errors/catalogue/index.ts'
import { SandboxToolInput } from '../schemas/sandbox.ts'
import { rehearsable } from '../pipeline/rehearsal.ts'
import {
  SANDBOX_PREFIX,
  sandboxMeta,
  sandboxPrincipal,
  sandboxState,
  writeSideOutcome,
  type SandboxState,
} from '../pipeline/sandbox.ts'
import { SANDBOX_BEARER_PREFIX } from '../domain/access/types.ts'
import type { McpToolsSummary } from '../domain/discovery/capabilities.ts'

/** What the MCP server serves: the tools and the resources of one registry, with their handlers. */
export interface McpSurface {
  tools: Tool[]
  resources: Resource[]
}

/** A tool call's answer as the idempotency step stores it: what it returned (and how it was served), or the final failure. */
type ToolAnswer = { output: ToolOutput; served: Served; replayed?: boolean } | { error: AppError }

/** Tool answers are stored as their JSON and replayed as they were; a final failure replays as the same error. */
const TOOL_ANSWERS: AnswerCodec<ToolAnswer> = {
  store: async (a) =>
    'error' in a
      ? {
          status: a.error.status,
          body: JSON.stringify({
            error_code: a.error.code,
            details: a.error.options.details ?? null,
            extra: a.error.options.extra ?? null,
          }),
        }
      : { status: 200, body: JSON.stringify({ ...a.output, precomputed: undefined }) },
  replay: (s) => {
    const stored = JSON.parse(s.body) as
      | ToolOutput
      | { error_code: ErrorCode; details: FieldIssue[] | null; extra: Record<string, unknown> | null }
    if ('error_code' in stored)
      return {
        error: new AppError(stored.error_code, {
          ...(stored.details ? { details: stored.details } : {}),
          ...(stored.extra ? { extra: stored.extra } : {}),
        }),
      }
    return { output: stored, served: 'production', replayed: true }
  },
  failed: () => false,
  finalFailure: (e) => ({ error: e }),
}

export const KEYLESS_CALLS_PER_HOUR = 100

/** Calls an hour per client address under the synthetic sandbox bearer (rehearsals are chatty). */
export const SANDBOX_CALLS_PER_HOUR = 1000

/** A tool of the sandbox itself (submit_vat_return): it rehearses, so only the sandbox bearer sees it. */
export const isSandboxTool = (t: Tool) => t.operation.category === 'sandbox'

/**
 * A production tool the sandbox has a tool of its own for, under the same name (submit_vat_return):
 * the sandbox bearer gets the sandbox's, a key the production one.
 */
const rehearsedBySandbox = (t: Tool, all: readonly Tool[]) =>
  !isSandboxTool(t) && all.some((s) => isSandboxTool(s) && s.name === t.name)

/** A sandbox tool only under the sandbox bearer, which gets it instead of production's tool of the same name. */
function visibleTools(principal: Principal, all: Tool[]): Tool[] {
  return all.filter(
    (t) =>
      offeredTo(principal, t.operation) &&
      (principal.kind === 'sandbox' ? !rehearsedBySandbox(t, all) : !isSandboxTool(t)),
  )
}

function envelope(
  result: unknown,
  justification: string,
  metadata: Record<string, unknown>,
  now: Date,
  failed: boolean,
  meta: MetaInput = {},
  sandbox: SandboxState | null = null,
  hash?: string,
  top: Record<string, unknown> = {},
) {
  return {
    result,
    justification,
    metadata,
    ...top,
    // Sandbox answers carry the sandbox `_meta` (no hash, no snapshot), as on the sandbox routes.
    // A memoised REST answer brings its hash: canonicalising a large result per call costs more than the rest of the call.
    _meta: sandbox
      ? sandboxMeta(now, sandbox)
      : buildMeta(meta, now, failed ? undefined : (hash ?? responseHash(result))),
  }
}

/**
 * A memoised answer's result is JSON already: serialised once, with its REST answer. The SDK's
 * transport would serialise the whole message again, the result object a second time and the text
 * content (the same JSON inside a string) escaped character by character: together a third of an
 * MCP company call's CPU (bench/RESULTS.md). So the structured `result` and the text go in as
 * placeholder strings, which `fillTexts` replaces in the serialised answer: the result with its
 * JSON, the text with the text already escaped (the result part escaped once per memoised answer,
 * kept on it; the rest per call). A placeholder carries a token drawn when the process starts, so
 * no data can contain one. (`JSON.rawJSON` would do it without placeholders, but takes only primitives.)
 */
const TEXT_TOKEN = `plikt-text-${crypto.randomUUID()}`

/** What the placeholders in a request's tool results stand for, by placeholder as serialised (quoted): JSON text. */
type PendingTexts = Map<string, string>

/**
 * The tool result's structured content and text: `result` as the JSON its memoised REST answer was
 * serialised to once, when there is one.
 */
function toolContent(body: ReturnType<typeof envelope>, memoised: PrecomputedData | undefined, texts: PendingTexts) {
  if (memoised === undefined)
    return { structuredContent: body, content: [{ type: 'text' as const, text: JSON.stringify(body) }] }
  const { result: _, ...rest } = body
  const escaped = (memoised.escapedJson ??= JSON.stringify(memoised.json).slice(1, -1))
  // JSON.stringify(a + b) is JSON.stringify(a) and JSON.stringify(b) joined: escaping works character by character.
  const text = `"{\\"result\\":${escaped},${JSON.stringify(JSON.stringify(rest)).slice(2)}`
  const textPlaceholder = `${TEXT_TOKEN}:${texts.size}`
  texts.set(`"${textPlaceholder}"`, text)
  const resultPlaceholder = `${TEXT_TOKEN}:${texts.size}`
  texts.set(`"${resultPlaceholder}"`, memoised.json)
  return {
    structuredContent: { ...body, result: resultPlaceholder },
    content: [{ type: 'text' as const, text: textPlaceholder }],
  }
}

/** The serialised answer with each placeholder replaced by its text. */
function fillTexts(serialised: string, texts: PendingTexts): string {
  let out = serialised
  for (const [placeholder, text] of texts) {
    const at = out.indexOf(placeholder)
    if (at >= 0) out = `${out.slice(0, at)}${text}${out.slice(at + placeholder.length)}`
  }
  return out
}

function failure(err: AppError, tool: Tool, deps: AppDeps, now: Date, sandbox: SandboxState | null) {
  const entry = CATALOGUE[err.code]
  const x = explain(err.code, err.options.context)
  const body = envelope(
    null,
    x.summary_en,
    {
      tool: tool.name,
      error_code: err.code,
      retryable: entry.retryable,
      remediation: {
        fix_hint_en: entry.fix_hint_en,
        fix_hint_nb: entry.fix_hint_nb,
        docs_url: docsUrl(deps.config.baseUrl, err.code),
        explanation: err.options.details ? { ...x, details: err.options.details } : x,
      },
      ...err.options.extra,
    },
    now,
    true,
    {},
    sandbox,
    undefined,
    sandbox ? writeSideOutcome(sandbox) : {},
  )
  return { isError: true, structuredContent: body, content: [{ type: 'text' as const, text: JSON.stringify(body) }] }
}

// A server is built per request, and without a validator of its own each would build a new Ajv
// (with its formats and vocabularies): 6 % of an MCP tool call's CPU. One per instance is shared by
// its requests; it is used only for elicitation schemas, which this server never sends.
const validatorOf = perInstance('mcp-json-schema-validator', () => new AjvJsonSchemaValidator())

/** What a key found no longer live is refused with; for a key from the cache the whole request is refused so, as a fresh lookup would have. */
const KEY_REFUSALS: readonly ErrorCode[] = ['AUTH_INVALID_KEY', 'AUTH_CONSUMER_INACTIVE']

const stringArgument = (args: Record<string, unknown>, name: string) =>
  typeof args[name] === 'string' ? (args[name] as string) : null

/** What only the MCP codec needs of a call: the tool and its arguments as they came. */
type Mcp = { tool: Tool; args: Record<string, unknown> }

/**
 * The MCP codec (pipeline/run.ts runs the steps): the budgets MCP's spec gives calls without a key
 * and under the sandbox bearer, the tool's arguments validated as one object and mapped back to
 * the handler's inputs, an Idempotency-Key from the call's argument (one HTTP request may carry
 * several calls), and answers kept as the tool's output.
 */
function mcpCodec(principal: Principal, ip: string): Codec<Mcp, ToolAnswer> {
  const keylessBudget: Limit = {
    bucket: `ip:${ip}:mcp-keyless`,
    max: KEYLESS_CALLS_PER_HOUR,
    window: 'hour',
    code: 'RATE_LIMIT_EXCEEDED',
  }
  // The sandbox bearer buys a larger budget for rehearsals, not for production's keyless tools.
  const sandboxBudget: Limit = {
    bucket: `ip:${ip}:mcp-sandbox`,
    max: SANDBOX_CALLS_PER_HOUR,
    window: 'hour',
    code: 'RATE_LIMIT_EXCEEDED',
  }
  return {
    budgets: ({ via }) =>
      principal.kind === 'anonymous'
        ? [keylessBudget]
        : principal.kind === 'sandbox'
          ? via.tool.keyless
            ? [sandboxBudget, keylessBudget]
            : [sandboxBudget]
          : [],
    validate(call, served) {
      const { tool, args } = call.via
      if (served === 'rehearsal') {
        checkArguments(SandboxToolInput, args)
        call.params = { org: args.org_number }
        return
      }
      checkArguments(tool.input, args)
      const input = tool.toInput(args)
      call.params = input.params ?? {}
      call.query = input.query ?? {}
      call.body = input.body
    },
    idempotency({ op, query, via }) {
      // Like a header on REST, the approval token is not part of what the key stands for.
      const { [IDEMPOTENCY_ARGUMENT]: key, [APPROVAL_ARGUMENT]: _token, ...rest } = via.args
      return {
        key: typeof key === 'string' ? key : null,
        dryRun: isDryRun(query.dry_run),
        fingerprint: sha256Hex(`${op.id}\n${canonicalJson(rest)}`),
      }
    },
    answer: ({ via }, out, served) => ({ output: via.tool.output(out as HandlerOutput), served }),
    answers: () => TOOL_ANSWERS,
  }
}

/** Why a test key's or a rehearsal's answer is what it is. */
function justificationOf(answer: { output: ToolOutput; served: Served }, org: unknown): string {
  switch (answer.served) {
    case 'rehearsal':
      return `Sandbox: synthetic data for ${String(org)}, computed by the production rulebook and checks; nothing is real.`
    case 'test-key-synthetic':
      return `Test key: synthetic sandbox data in the production shape, computed by the production rulebook and checks; nothing is real and nothing was charged. ${answer.output.justification}`
    default:
      return answer.output.justification
  }
}

/** A call of an operation as the orchestrator left it: its answer, or the refusal (never thrown), with when and under which sandbox state. */
export type Ran = { now: Date; sandbox: SandboxState | null } & (
  | { answer: { output: ToolOutput; served: Served; replayed?: boolean } }
  | { error: AppError }
)

/** Runs one operation's call through the orchestrator with the MCP codec: a tool call, a resource read, a completion's search. */
export type RunCall = (binding: Tool, args: Record<string, unknown>, signal: AbortSignal) => Promise<Ran>

function buildServer(
  principal: Principal,
  deps: AppDeps,
  state: RequestState,
  headers: InputHeaders,
  surface: McpSurface,
  keyRefused: (e: AppError) => void,
  texts: PendingTexts,
): Server {
  const server = new Server(
    { name: SERVICE_NAME, version: MCP_SCHEMA_VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      jsonSchemaValidator: validatorOf(deps),
    },
  )
  const tools = visibleTools(principal, surface.tools)
  const codec = mcpCodec(principal, state.ip)
  const run: RunCall = async (binding, args, signal) => {
    const now = deps.clock.now()
    // Each call has its own state: one call's spent approval token must not make another's failure final.
    const callState: RequestState = {
      ...state,
      operationId: binding.operation.id,
      failureIsFinal: false,
      sandbox:
        principal.kind === 'sandbox' ? sandboxState(isSandboxTool(binding) ? 'POST' : 'GET', SANDBOX_PREFIX) : null,
    }
    const sandbox = callState.sandbox
    const approvalToken = stringArgument(args, APPROVAL_ARGUMENT)
    const call: Call<Mcp> = {
      op: binding.operation,
      handler: binding.handler,
      caller: { principal: state.principal },
      params: {},
      query: {},
      body: undefined,
      headers: {
        idempotencyKey: stringArgument(args, IDEMPOTENCY_ARGUMENT),
        approvalToken,
        simulate: headers.simulate,
        ifNoneMatch: null,
        accept: null,
      },
      approvalToken,
      signal,
      state: callState,
      now,
      via: { tool: binding, args },
    }
    try {
      const answer = await runCall(call, deps, codec)
      if ('error' in answer) throw answer.error
      return { now, sandbox, answer }
    } catch (e) {
      if (e instanceof AppError && KEY_REFUSALS.includes(e.code)) keyRefused(e)
      if (e instanceof AppError) return { now, sandbox, error: e }
      const unavailable = databaseUnavailable(e)
      if (unavailable) return { now, sandbox, error: unavailable }
      deps.logger.error('mcp call failed', {
        correlation_id: state.correlationId,
        operation_id: binding.operation.id,
        error: e instanceof Error ? e.message : String(e),
      })
      return { now, sandbox, error: new AppError('INTERNAL_ERROR') }
    } finally {
      // The response's headers (balance, rate-limit state) are the HTTP request's, whichever call set
      // them; so is the key's confirmation.
      if (callState.extraHeaders !== state.extraHeaders)
        state.extraHeaders = { ...state.extraHeaders, ...callState.extraHeaders }
      state.principal = callState.principal
    }
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => listedTool(t, principal.kind === 'sandbox')),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = tools.find((t) => t.name === req.params.name)
    if (!tool) throw new McpError(RpcError.InvalidParams, `Unknown tool: ${req.params.name}`)
    const args = req.params.arguments ?? {}
    const ran = await run(tool, args, extra.signal)
    const { now, sandbox } = ran
    if ('error' in ran) return failure(ran.error, tool, deps, now, sandbox)
    const { answer } = ran
    const { result, meta, hash, precomputed, top } = answer.output
    const metadata = {
      tool: tool.name,
      operation_id: answer.served === 'rehearsal' ? tool.operation.sandboxMirror : tool.operation.id,
      correlation_id: state.correlationId,
      ...(answer.replayed === true ? { idempotent_replayed: true } : {}),
    }
    // Production tools answer with production `_meta` under any bearer; a sandbox tool and a rehearsal with the sandbox's.
    const body = envelope(
      result,
      justificationOf(answer, args.org_number),
      metadata,
      now,
      false,
      meta,
      isSandboxTool(tool) || answer.served === 'rehearsal' ? sandbox : null,
      hash,
      top,
    )
    return toolContent(body, precomputed, texts)
  })
  serveResources(server, { principal, deps, resources: visibleResources(principal, surface.resources), run })
  servePrompts(server, {
    principal,
    deps,
    tools,
    allTools: surface.tools,
    resources: visibleResources(principal, surface.resources),
    run,
  })
  return server
}

/** What tools/list offers, for the manifest and the capabilities document: every tool name once, and the keyless ones. */
export function mcpToolsSummary(tools: readonly Tool[] = TOOLS): McpToolsSummary {
  return {
    schema_version: MCP_SCHEMA_VERSION,
    names: [...new Set(tools.map((t) => t.name))],
    keyless: tools.filter((t) => t.keyless).map((t) => t.name),
  }
}

/** `/.well-known/mcp.json`: where the server is, how to talk to it and what it needs. */
export function mcpManifest(deps: AppDeps) {
  const links = serviceLinks(deps.config.baseUrl)
  const summary = mcpToolsSummary()
  return {
    name: SERVICE_NAME,
    version: MCP_SCHEMA_VERSION,
    schema_version: MCP_SCHEMA_VERSION,
    url: links.mcp,
    transport: { type: 'streamable-http', response: 'application/json', stateless: true },
    protocol: 'json-rpc-2.0',
    authentication: {
      api_key: { header: 'Authorization', scheme: 'Bearer', how_to_get: links.login },
      oauth: deps.config.oauth
        ? { resource_metadata: links.oauth_resource_metadata, authorization_servers: [deps.config.oauth.issuer] }
        : null,
      keyless: { tools: summary.keyless, calls_per_hour_per_ip: KEYLESS_CALLS_PER_HOUR },
      sandbox: {
        bearer: 'svc_sandbox_test_<suffix>',
        mirrored_tools: TOOLS.filter((t) => rehearsable(t.operation) || rehearsedBySandbox(t, TOOLS)).map(
          (t) => t.name,
        ),
        sandbox_only_tools: TOOLS.filter(
          (t) => isSandboxTool(t) && !TOOLS.some((p) => rehearsedBySandbox(p, TOOLS) && p.name === t.name),
        ).map((t) => t.name),
        unavailable_tools: TOOLS.filter(
          (t) => !t.keyless && !rehearsable(t.operation) && !isSandboxTool(t) && !rehearsedBySandbox(t, TOOLS),
        ).map((t) => t.name),
        unavailable_error_code: 'SANDBOX_TOOL_UNAVAILABLE',
        calls_per_hour_per_ip: SANDBOX_CALLS_PER_HOUR,
      },
    },
    tools: { keyless: summary.keyless.length, total: summary.names.length, names: summary.names },
    // resources, resource templates, prompts and completions (src/mcp/resources.ts, src/mcp/prompts.ts)
    ...mcpOffer(),
    resource_errors: {
      invalid_params: RpcError.InvalidParams,
      operation_refused: OPERATION_REFUSED,
      data: 'the REST error body: error_code, explanation, retryable, fix hints, _meta',
    },
    documentation: links.docs,
  }
}

/** Where an MCP host learns how to get a token (RFC 9728). */
export function resourceMetadataUrl(baseUrl: string): string {
  return serviceLinks(baseUrl).oauth_resource_metadata
}

/**
 * The 401 challenge. A request that sent no credential gets the bare challenge (RFC 6750 §3.1: no
 * error code when the request lacked authentication), with OAuth on naming where the
 * protected-resource metadata is (RFC 9728 §5.1). A credential that was presented and refused gets
 * `error="invalid_token"`: without OAuth the plain one the spec's OAuth section gives, with OAuth
 * also what went wrong and the metadata.
 */
function challenge(deps: AppDeps, code: string, description: string): string {
  const metadata = deps.config.oauth ? `, resource_metadata="${resourceMetadataUrl(deps.config.baseUrl)}"` : ''
  if (code === 'AUTH_MISSING') return `Bearer realm="svc-mcp"${metadata}`
  if (!deps.config.oauth) return 'Bearer realm="svc-mcp", error="invalid_token"'
  const quoted = description.replace(/["\\]/g, "'")
  return `Bearer realm="svc-mcp", error="invalid_token", error_description="${quoted}"${metadata}`
}

function refused(e: AppError, deps: AppDeps): AppError {
  return new AppError(e.code, {
    ...e.options,
    headers: { ...e.options.headers, 'www-authenticate': challenge(deps, e.code, explain(e.code).summary_en) },
  })
}

/**
 * JSON-RPC batches were dropped from MCP in 2025-06-18; older clients may still send small ones.
 * A larger batch is refused whole: one request must not buy a hundred answers.
 */
export const MAX_BATCH_MESSAGES = 10

type RpcMessage = { method?: string; params?: { name?: unknown; uri?: unknown } } | null

/**
 * The body, read and parsed once: we need its messages (batch size, soft limit) and the SDK's
 * transport takes them already parsed. A body that is not JSON goes to the transport as text, so
 * it answers the JSON-RPC parse error itself.
 */
async function bodyOf(request: Request): Promise<{ messages: RpcMessage[]; parsed: unknown; request: Request }> {
  if (request.method !== 'POST') return { messages: [], parsed: undefined, request }
  const text = await request.text()
  try {
    const parsed: unknown = JSON.parse(text)
    return { messages: (Array.isArray(parsed) ? parsed : [parsed]) as RpcMessage[], parsed, request }
  } catch {
    return {
      messages: [],
      parsed: undefined,
      request: new Request(request.url, { method: 'POST', headers: request.headers, body: text }),
    }
  }
}

function refuseLargeBatch(messages: RpcMessage[]): void {
  if (messages.length > MAX_BATCH_MESSAGES) {
    throw validationError([{ field: 'body', message: `a JSON-RPC batch holds at most ${MAX_BATCH_MESSAGES} messages` }])
  }
}

/**
 * Without a key, every message counts as one request against the per-address soft limit (as a
 * Category A call does), whatever its method: `tools/list` and `initialize` cost us work too. A
 * keyed caller is governed by its key's limits, as on REST.
 */
function softLimitMessages(messages: RpcMessage[], state: RequestState, deps: AppDeps): void {
  const now = deps.clock.now()
  for (let i = 0; i < Math.max(1, messages.length); i++) deps.softLimiter.hit(state.ip, now)
}

/** The operation a message runs through the orchestrator, if it is a `tools/call` or a `resources/read` of this surface. */
function operationOfMessage(m: RpcMessage, surface: McpSurface): Tool | null {
  const params = m?.params ?? {}
  if (m?.method === 'tools/call') return surface.tools.find((t) => t.name === params.name) ?? null
  if (m?.method === 'resources/read' && typeof params.uri === 'string')
    return resourceOf(surface.resources, params.uri)?.resource.binding ?? null
  return null
}

/**
 * An anonymous `tools/call` of a keyed tool, or `resources/read` of a keyed resource, is told to
 * authenticate (401 with the challenge: the plain one, or the OAuth one that says where to get a
 * token), not "unknown tool": a host learns it needs a credential. A name no tool has stays -32602.
 */
function callsKeyed(messages: RpcMessage[], surface: McpSurface): boolean {
  return messages.some((m) => {
    const binding = operationOfMessage(m, surface)
    return binding !== null && !binding.keyless
  })
}

/**
 * One `tools/call` of a priced tool, or one `resources/read` of a priced resource: its charge
 * confirms the key in the same statement, as on REST, so the key may come from this process's
 * cache (domain/access/key-cache.ts). Anything else — `tools/list`, a free tool, a batch — writes
 * nothing that would confirm a cached key, so it is answered after a fresh lookup.
 */
function chargesOneCall(messages: RpcMessage[], surface: McpSurface): boolean {
  const [m] = messages
  if (messages.length !== 1) return false
  const binding = operationOfMessage(m ?? null, surface)
  return binding !== null && !binding.keyless && binding.operation.costOre > 0
}

/** The messages the orchestrator admits one by one (each a call of an operation); admission counts the rest. */
const runsAnOperation = (m: RpcMessage) => m?.method === 'tools/call' || m?.method === 'resources/read'

async function keyPrincipal(
  bearer: string,
  messages: RpcMessage[],
  surface: McpSurface,
  deps: AppDeps,
): Promise<KeyPrincipal> {
  if (!chargesOneCall(messages, surface)) return principalForKey(deps.sql, bearer)
  const principal = await cachedPrincipalForKey(deps.sql, deps.keyCache, bearer)
  // A test key is never charged, so nothing would confirm it: look it up afresh.
  return !principal.confirmed && principal.test ? principalForKey(deps.sql, bearer) : principal
}

export async function handleMcp(
  request: Request,
  deps: AppDeps,
  state: RequestState,
  surface: McpSurface,
): Promise<Response> {
  const body = await bodyOf(request)
  const messages = body.messages
  refuseLargeBatch(messages)
  const bearer = bearerOf(request.headers.get('authorization'))
  let principal: Principal = { kind: 'anonymous' }
  if (bearer !== null && bearer.startsWith(SANDBOX_BEARER_PREFIX)) {
    principal = await sandboxPrincipal(bearer, deps.sql)
  } else if (bearer !== null) {
    try {
      // A JWT-shaped bearer is an OAuth access token only when OAuth is on; otherwise an unknown key.
      principal =
        deps.oauthVerifier && looksLikeJwt(bearer)
          ? await principalForToken(deps.sql, deps.oauthVerifier, bearer, deps.config.baseUrl)
          : await keyPrincipal(bearer, messages, surface, deps)
    } catch (e) {
      // A refused credential is audited on every surface (spec: API key states), as admission does on REST.
      throw e instanceof AppError ? refused((await audited(e, state, deps)) as AppError, deps) : e
    }
    state.consumerId = principal.consumerId
  } else if (callsKeyed(messages, surface)) {
    throw refused(new AppError('AUTH_MISSING'), deps)
  }
  state.principal = principal
  if (principal.kind === 'anonymous' || principal.kind === 'sandbox') softLimitMessages(messages, state, deps)
  // A request with no message it could read (a GET, a body that is not JSON) is one request too.
  else
    await admitMessages(
      messages.length === 0 ? 1 : messages.filter((m) => !runsAnOperation(m)).length,
      principal,
      state,
      deps,
    )
  // Only a key from the cache (one priced call, see keyPrincipal) may turn into a refusal of the
  // whole request: a batch's other calls may have been answered and charged.
  const fromCache = unconfirmedKey(principal)
  let keyRefused: AppError | null = null
  const texts: PendingTexts = new Map()
  const server = buildServer(
    principal,
    deps,
    state,
    inputHeaders(request.headers),
    surface,
    (e) => {
      if (fromCache) keyRefused = e
    },
    texts,
  )
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  let response: Response
  try {
    response = await transport.handleRequest(
      body.request,
      body.parsed === undefined ? undefined : { parsedBody: body.parsed },
    )
  } finally {
    void server.close()
  }
  // A cached key that its call's charge found no longer live, or that the call never got to confirm
  // (refused before its charge): the answer is the one a fresh lookup gives, never the call's own.
  if (fromCache && (keyRefused || unconfirmedKey(state.principal))) {
    const refusal = keyRefused ?? ((await settle(null, state, deps)) as AppError | null)
    if (refusal) throw refused(refusal, deps)
  }
  // The answer is made after the call's database work: sent as one write (lib/corked-response.ts).
  // One that holds placeholders is always rewritten.
  if (
    texts.size === 0 &&
    (response.status !== 200 ||
      request.method === 'HEAD' ||
      !response.headers.get('content-type')?.startsWith('application/json'))
  )
    return response
  return corkedResponse(fillTexts(await response.text(), texts), { status: response.status, headers: response.headers })
}
