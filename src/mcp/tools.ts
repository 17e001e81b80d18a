/**
 * MCP tools: one per registry operation that names one (`mcpTool`), each running the same handler
 * as its REST twin (src/handlers) with the tool's arguments mapped to the handler's inputs. A
 * tool's input is its REST inputs flattened (the path's `org` is `org_number`), unless the spec
 * gives the tool its own shape (explain_compliance_error flattens the context; get_exchange_rate
 * takes a currency pair). Tools whose capability does not exist yet are not listed.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import { coreHandlers, toolBindings } from '../handlers/index.ts'
import { allOperations, isKeyless, toolArgumentName, type Operation } from '../operations/index.ts'
import type { Handler, HandlerInput, HandlerOutput, ToolBinding } from '../pipeline/context.ts'
import type { MetaInput, PrecomputedData } from '../pipeline/envelope.ts'
import type { CachedDocument } from '../pipeline/caching.ts'
import { scopeGranted, type Principal } from '../domain/access/types.ts'

export interface ToolOutput {
  result: unknown
  /** members beside `result` (a sandbox receipt's `_sandbox_marker`) */
  top?: Record<string, unknown>
  justification: string
  /** provenance for `_meta` (served_from, data_freshness, source_snapshot_id …) */
  meta?: MetaInput
  /** `response_hash` of `result` when the REST twin already computed it (memoised answers) */
  hash?: string
  /** the REST twin's memoised answer, `result` serialised once (never stored with an idempotent answer) */
  precomputed?: PrecomputedData
  /** a whole body that is not an envelope (a resource read of workflows.json or llms-full.txt) */
  document?: CachedDocument
}

export interface Tool {
  name: string
  /** the registry entry it mirrors: scope, description, cost */
  operation: Operation
  /** callable with no Authorization header at all */
  keyless: boolean
  input: TSchema
  /** the handler's inputs from the call's (validated) arguments, its write arguments included */
  toInput(args: Record<string, unknown>): HandlerInput
  /** the REST twin's handler */
  handler: Handler<any>
  /** the handler's output as the tool's result: `result` is the REST twin's `data`, with why it is what it is */
  output(out: HandlerOutput): ToolOutput
}

const props = (s: TSchema | undefined) => ((s as TObject | undefined)?.properties ?? {}) as Record<string, TSchema>

/** The REST inputs as one flat object of arguments: path parameters (renamed), query, body. */
export function flatInput(op: Operation): TSchema {
  const params = Object.fromEntries(Object.entries(props(op.request.params)).map(([k, v]) => [toolArgumentName(k), v]))
  return Type.Object(
    { ...params, ...props(op.request.query), ...props(op.request.body) },
    { additionalProperties: false },
  )
}

/**
 * A tool call carries its Idempotency-Key and its approval token as arguments: one HTTP request
 * may carry several calls, so a header cannot be the call's. Declared by the operation, as on REST.
 */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key'
export const APPROVAL_ARGUMENT = 'approval_token'

function writeArguments(op: Operation): Record<string, TSchema> {
  const out: Record<string, TSchema> = {}
  if (op.idempotency) {
    const key = Type.String({
      minLength: 36,
      maxLength: 36,
      description:
        'a UUID; a retry with the same key and the same arguments replays the first answer without running it again',
    })
    out[IDEMPOTENCY_ARGUMENT] = op.idempotency === 'required' ? key : Type.Optional(key)
  }
  if (op.approval) {
    out[APPROVAL_ARGUMENT] = Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          'the single-use approval token for exactly this action (X-Approval-Token on REST); in production usable only once the account’s owner has confirmed it at the mint answer’s confirmation_url; spent only when the checks pass',
      }),
    )
  }
  return out
}

/** The tool's input: its own shape or the REST inputs flattened, with the write arguments its operation declares. */
function toolInput(op: Operation, own: TSchema | undefined): TSchema {
  const base = own ?? flatInput(op)
  const extra = writeArguments(op)
  if (Object.keys(extra).length === 0) return base
  return Type.Object(
    { ...props(base), ...extra },
    { additionalProperties: false, ...(base.description ? { description: base.description } : {}) },
  )
}

/** The handler's inputs from flat arguments: each argument goes back where its REST twin takes it. */
export function unflatten(op: Operation, args: Record<string, unknown>): HandlerInput {
  const pick = (names: string[], rename: (n: string) => string = (n) => n) =>
    Object.fromEntries(names.filter((n) => rename(n) in args).map((n) => [n, args[rename(n)]]))
  return {
    params: pick(Object.keys(props(op.request.params)), toolArgumentName),
    query: pick(Object.keys(props(op.request.query))),
    ...(op.request.body ? { body: pick(Object.keys(props(op.request.body))) } : {}),
  }
}

function toolOf(
  op: Operation & { mcpTool: string },
  handlers: Record<string, Handler<any>>,
  bindings: Record<string, ToolBinding>,
): Tool {
  const binding = bindings[op.id]
  if (!binding)
    throw new Error(
      `operation ${op.id} names the MCP tool ${op.mcpTool} but its handler's area exports no binding for it`,
    )
  const handler = handlers[op.id]
  if (!handler) throw new Error(`operation ${op.id} names an MCP tool but has no surface-neutral handler`)
  return {
    name: op.mcpTool,
    operation: op,
    keyless: isKeyless(op),
    input: toolInput(op, binding.input),
    // A binding of its own sees the write arguments too (whether a token came may decide the mode).
    toInput: (args) => (binding.toInput ? binding.toInput(args) : unflatten(op, args)),
    handler,
    output: (out) => {
      const result = out.precomputed ? out.precomputed.data : out.data
      return {
        result,
        justification: binding.justification(result),
        meta: out.meta ?? {},
        ...(out.top ? { top: out.top } : {}),
        ...(out.precomputed ? { hash: out.precomputed.hash, precomputed: out.precomputed } : {}),
      }
    },
  }
}

/** The tools of a registry: one per operation that names one, with its handler and binding. */
export function buildTools(
  operations: readonly Operation[],
  handlers: Record<string, Handler<any>>,
  bindings: Record<string, ToolBinding>,
): Tool[] {
  return operations
    .filter((op): op is Operation & { mcpTool: string } => op.mcpTool !== null)
    .map((op) => toolOf(op, handlers, bindings))
}

/**
 * Whether a credential is offered an operation's tool or resource: without one, only the keyless
 * ones; under the sandbox bearer every one (an operation without a sandbox mirror answers
 * SANDBOX_TOOL_UNAVAILABLE, which tells an agent why); a key those its scopes grant.
 */
export function offeredTo(principal: Principal, op: Operation): boolean {
  if (principal.kind === 'anonymous') return isKeyless(op)
  if (principal.kind === 'sandbox') return true
  if (principal.kind !== 'key') return false
  return op.scope === null || scopeGranted(principal.scopes, op.scope)
}

export const TOOLS: Tool[] = buildTools(allOperations, coreHandlers, toolBindings)
