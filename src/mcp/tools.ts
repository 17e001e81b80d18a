/**
 * MCP tools: one per registry operation that names one (`mcpTool`), each running the same handler
 * as its REST twin (src/handlers) with the tool's arguments mapped to the handler's inputs. A
 * tool's input is its REST inputs flattened (the path's `org` is `org_number`), unless the spec
 * gives the tool its own shape (explain_compliance_error flattens the context; get_exchange_rate
 * takes a currency pair). Tools whose capability does not exist yet are not listed.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import type { Principal } from '../domain/access/types.ts'
import { resolvePair } from '../domain/tools/exchange-rate.ts'
import { RULEBOOK_VERSION } from '../domain/rulebook/version.ts'
import { coreHandlers, type CoreOperationId } from '../handlers/index.ts'
import { allOperations, type Operation } from '../operations.ts'
import type { AppDeps, Handler, HandlerOutput, InputHeaders, RequestState } from '../pipeline/context.ts'
import type { MetaInput } from '../pipeline/envelope.ts'
import { ExchangeRatePairInput } from '../schemas/tools.ts'

export interface ToolContext {
  deps: AppDeps
  signal: AbortSignal
  headers: InputHeaders
  principal: Principal
  correlationId: string
  now: Date
  state: RequestState
}

interface ToolOutput {
  result: unknown
  justification: string
  /** provenance for `_meta` (served_from, data_freshness, source_snapshot_id …) */
  meta?: MetaInput
  /** `response_hash` of `result` when the REST twin already computed it (memoised answers) */
  hash?: string
}

export interface Tool {
  name: string
  /** the registry entry it mirrors: scope, description, cost */
  operation: Operation
  /** callable with no Authorization header at all */
  keyless: boolean
  input: TSchema
  run(args: any, ctx: ToolContext): Promise<ToolOutput>
}

const contextValue = Type.String({ minLength: 1, maxLength: 64 })

/** The spec's explain_compliance_error input: the REST context, flattened. */
export const ExplainToolInput = Type.Object(
  {
    error_code: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }),
    context_org_number: Type.Optional(Type.String({ pattern: '^[0-9]{9}$' })),
    context_scope: Type.Optional(contextValue),
    context_role: Type.Optional(contextValue),
    context_field: Type.Optional(contextValue),
    context_upstream_system: Type.Optional(contextValue),
  },
  { additionalProperties: false },
)


/** A tool argument named otherwise than the REST path parameter it fills. */
const ARGUMENT_OF_PARAM: Record<string, string> = { org: 'org_number' }

type HandlerInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown }

interface Binding {
  /** the tool's own input shape, when the spec gives one; otherwise the REST inputs, flattened */
  input?: TSchema
  /** the handler's inputs from such a tool's arguments */
  toInput?: (args: any) => HandlerInput
  justification: (result: any) => string
}

const same = (text: string) => () => text

/** What each tool says about its answer; every operation that names a tool has exactly one. */
const BINDINGS: Record<string, Binding> = {
  getPublicObligations: { justification: (r) => `Rulebook ${RULEBOOK_VERSION}: the obligations whose rules concern ${r.entity_type}, each with its legal reference.` },
  getPublicDeadlines: {
    justification: (r) => `Rulebook ${RULEBOOK_VERSION}: every statutory deadline falling in ${r.year} (Europe/Oslo), moved off weekends and public holidays where the law says so.`,
  },
  explainError: {
    input: ExplainToolInput,
    toInput: (a: { error_code: string; context_org_number?: string; context_scope?: string; context_role?: string; context_field?: string; context_upstream_system?: string }) => ({
      body: {
        error_code: a.error_code,
        context: {
          ...(a.context_org_number ? { org_number: a.context_org_number } : {}),
          ...(a.context_scope ? { scope: a.context_scope } : {}),
          ...(a.context_role ? { role: a.context_role } : {}),
          ...(a.context_field ? { field: a.context_field } : {}),
          ...(a.context_upstream_system ? { upstream_system: a.context_upstream_system } : {}),
        },
      },
    }),
    justification: same('From the service’s error catalogue; no upstream system was called.'),
  },
  getPricing: { justification: same('The current price list of this deployment.') },
  redeemIssuanceToken: { justification: same('The issuance token was valid: a read:* key was issued and the token used up. The key is shown this once.') },
  getCreditBalance: { justification: same('The prepaid balance of the account that owns this key, read now.') },
  getExchangeRate: {
    input: ExchangeRatePairInput,
    // The answer is always NOK per one unit of the other currency, whichever side NOK is on.
    toInput: (a: { base: string; quote: string; date?: string }) => ({ query: { currency: resolvePair(a.base, a.quote).currency, ...(a.date !== undefined ? { date: a.date } : {}) } }),
    justification: (r) => `Norges Bank’s published rate for ${r.currency}, as NOK per one unit, for the date stated in the result.`,
  },
  getCompanySummary: { justification: same('The register unit evaluated by the rulebook: obligations and the next 12 months of deadlines (Tier 1).') },
  getCompanyContext: { justification: same('The open register’s Tier 1 fields for the organisation.') },
  getCompanyProfile: { justification: same('The profile from Enhetsregisteret, with role codes only.') },
  getCompanyObligations: { justification: same('Every rule of the rulebook evaluated on the register’s Tier 1 facts.') },
  getCompanyDeadlines: { justification: same('The deadlines of the applicable obligations from today (Europe/Oslo).') },
  verifyCompany: { justification: same('Register status and the visible signing rule decide the verdict; the other signals are for transparency.') },
  getCompanyAuthority: { justification: same('Signature and procuration as Brønnøysundregistrene register them; not a legal opinion.') },
  getCompanyAccounts: { justification: same('The newest approved annual accounts in Regnskapsregisteret.') },
  getFilingHistory: { justification: same('The organisation’s portal submissions, paired with this account’s own submissions where they match.') },
  searchCompanies: { justification: same('Candidates by name from Enhetsregisteret.') },
}

const props = (s: TSchema | undefined) => ((s as TObject | undefined)?.properties ?? {}) as Record<string, TSchema>

/** The REST inputs as one flat object of arguments: path parameters (renamed), query, body. */
export function flatInput(op: Operation): TSchema {
  const params = Object.fromEntries(Object.entries(props(op.request.params)).map(([k, v]) => [ARGUMENT_OF_PARAM[k] ?? k, v]))
  return Type.Object({ ...params, ...props(op.request.query), ...props(op.request.body) }, { additionalProperties: false })
}

/** The handler's inputs from flat arguments: each argument goes back where its REST twin takes it. */
function unflatten(op: Operation, args: Record<string, unknown>): HandlerInput {
  const pick = (names: string[], rename: (n: string) => string = (n) => n) => Object.fromEntries(names.filter((n) => rename(n) in args).map((n) => [n, args[rename(n)]]))
  return {
    params: pick(Object.keys(props(op.request.params)), (n) => ARGUMENT_OF_PARAM[n] ?? n),
    query: pick(Object.keys(props(op.request.query))),
    ...(op.request.body ? { body: pick(Object.keys(props(op.request.body))) } : {}),
  }
}

function toolOf(op: Operation & { mcpTool: string }): Tool {
  const binding = BINDINGS[op.id]
  if (!binding) throw new Error(`operation ${op.id} names the MCP tool ${op.mcpTool} but has no binding in src/mcp/tools.ts`)
  const handler = coreHandlers[op.id as CoreOperationId] as Handler<any> | undefined
  if (!handler) throw new Error(`operation ${op.id} names an MCP tool but has no surface-neutral handler`)
  return {
    name: op.mcpTool,
    operation: op,
    keyless: op.auth === 'none',
    input: binding.input ?? flatInput(op),
    run: async (args, ctx) => {
      const input = binding.toInput ? binding.toInput(args) : unflatten(op, args)
      const out = (await handler({ params: input.params ?? {}, query: input.query ?? {}, body: input.body, headers: ctx.headers, signal: ctx.signal, deps: ctx.deps, state: ctx.state, now: ctx.now, principal: ctx.principal })) as HandlerOutput
      const result = out.precomputed ? out.precomputed.data : out.data
      return { result, justification: binding.justification(result), meta: out.meta ?? {}, ...(out.precomputed ? { hash: out.precomputed.hash } : {}) }
    },
  }
}

export const TOOLS: Tool[] = allOperations.filter((op): op is Operation & { mcpTool: string } => op.mcpTool !== null).map(toolOf)
