/**
 * The orchestrator: one call of an operation, the same assembled steps whichever surface it came
 * by. REST (http/app.ts) and MCP (mcp/server.ts) are codecs around it: each reads its request into
 * a `Call` and says, through its `Codec`, how the input is validated as it arrived and how an
 * answer is written, stored and replayed. The steps, in order:
 *
 *   admission (credential → scope and plan → CSRF → every declared limit and the surface's
 *   budgets: pipeline/admission.ts) → bounds and validation (the codec's) → the kind of principal
 *   (a test key: pipeline/test-keys.ts; the sandbox bearer on a production operation:
 *   pipeline/rehearsal.ts; anyone else: production) → idempotency → metering → the handler (which
 *   takes the approval step itself, after its preconditions: pipeline/approval.ts) → the answer.
 *
 * A failure of a call whose key was never confirmed is answered as the key's refusal when the key
 * is no longer live (pipeline/key-confirmation.ts `settle`), here, for both surfaces.
 */
import type { Limit } from '../domain/access/limits.ts'
import type { Operation } from '../operations/index.ts'
import { admitCall, isPublic, type Caller } from './admission.ts'
import { approvalStep } from './approval.ts'
import type { AppDeps, Handler, HandlerOutput, InputHeaders, RequestState } from './context.ts'
import { idempotent, type AnswerCodec, type IdempotentRequest } from './idempotency.ts'
import { settle } from './key-confirmation.ts'
import { metered } from './metering.ts'
import { rehearsable, rehearse } from './rehearsal.ts'
import { AppError } from '../errors/app-error.ts'
import { TEST_KEY_META, testKeyDeps, testKeyRoute } from './test-keys.ts'

/** One call of an operation, as a surface read it from its request. `via`: what only that surface needs. */
export interface Call<Via> {
  op: Operation
  handler: Handler<any>
  caller: Caller
  /**
   * the handler's inputs as read, not yet validated; a surface whose input arrives in another
   * shape (MCP's flat arguments) fills them when it validates
   */
  params: Record<string, unknown>
  query: Record<string, unknown>
  body: unknown
  headers: InputHeaders
  /** the approval token the call carries (REST `X-Approval-Token`, MCP `approval_token`) */
  approvalToken: string | null
  /** read on access: Bun makes a request's AbortSignal on first access, and only a handler that waits asks */
  readonly signal: AbortSignal
  state: RequestState
  now: Date
  via: Via
}

/**
 * How an answer was made, for the codec that writes it: by the operation's handler for anyone
 * (`production`); for a test key over the synthetic companies (`test-key-synthetic`) or about its
 * own account (`test-key-own-account`); under the sandbox bearer from the sandbox (`rehearsal`).
 */
export type Served = 'production' | 'test-key-synthetic' | 'test-key-own-account' | 'rehearsal'

/** What a surface says about its calls. One per surface and operation; `T` is its answer. */
export interface Codec<Via, T> {
  /** the surface's own budgets for this call, counted at admission (MCP's calls an hour without a key or under the sandbox bearer) */
  budgets?(call: Call<Via>): readonly Limit[]
  /** refuses input too long, too deep or against the schema, as the surface received it; a rehearsal's input is the sandbox's */
  validate(call: Call<Via>, served: 'call' | 'rehearsal'): void
  /** what an Idempotency-Key stands for in this call (asked only of an operation that declares idempotency) */
  idempotency(call: Call<Via>): IdempotentRequest
  /** the answer to a handler's output; `afterIo`: it was made after an await */
  answer(call: Call<Via>, out: HandlerOutput | Response, served: Served, afterIo: boolean): T
  /** how the idempotency step stores and replays this surface's answers, and which of them are failures (refunded, the key released) */
  answers(call: Call<Via>): AnswerCodec<T>
}

function invoke(call: Call<unknown>, deps: AppDeps): HandlerOutput | Response | Promise<HandlerOutput | Response> {
  const { op, state } = call
  return call.handler({
    params: call.params,
    query: call.query,
    body: call.body,
    headers: call.headers,
    get signal() {
      return call.signal
    },
    deps,
    state,
    now: call.now,
    principal: state.principal,
    get approval() {
      return approvalStep(op, call.approvalToken, state, deps)
    },
  })
}

/**
 * Runs one call. A keyless operation with no limits, called with no credential at all, takes no
 * step that needs the database: it is answered synchronously when its handler is (a promise per
 * request is measurable on the hot public routes).
 */
export function runCall<Via, T>(call: Call<Via>, deps: AppDeps, codec: Codec<Via, T>): T | Promise<T> {
  const { caller } = call
  if (
    isPublic(call.op) &&
    'credentials' in caller &&
    caller.credentials.bearer === null &&
    codec.budgets === undefined
  ) {
    codec.validate(call, 'call')
    const out = invoke(call as Call<unknown>, deps)
    return out instanceof Promise
      ? out.then((o) => codec.answer(call, o, 'production', true))
      : codec.answer(call, out, 'production', false)
  }
  return admitted(call, deps, codec)
}

async function admitted<Via, T>(call: Call<Via>, deps: AppDeps, codec: Codec<Via, T>): Promise<T> {
  const { op, state } = call
  try {
    await admitCall(op, call.caller, state, deps, codec.budgets?.(call))
    const principal = state.principal
    const keyed = op.auth !== 'none'
    if (principal.kind === 'sandbox' && keyed && op.category !== 'sandbox') {
      if (!rehearsable(op)) throw new AppError('SANDBOX_TOOL_UNAVAILABLE', { extra: { tool: op.mcpTool } })
      codec.validate(call, 'rehearsal')
      const data = await rehearse(op, String(call.params.org), state.sandbox!)
      return codec.answer(call, { data }, 'rehearsal', true)
    }
    codec.validate(call, 'call')
    if (principal.kind === 'key' && principal.test && keyed) {
      // Never metering, the idempotency store or an upstream: the production handler over the
      // synthetic companies, or the account's own handler (pipeline/test-keys.ts).
      const route = testKeyRoute(op)
      const synthetic = route === 'synthetic'
      const out = await invoke(call as Call<unknown>, synthetic ? testKeyDeps(deps) : deps)
      const marked =
        out instanceof Response
          ? out
          : { ...out, meta: { ...out.meta, ...(synthetic ? TEST_KEY_META : { is_test: true as const }) } }
      return codec.answer(call, marked, synthetic ? 'test-key-synthetic' : 'test-key-own-account', true)
    }
    const answers = codec.answers(call)
    const run = async () => codec.answer(call, await invoke(call as Call<unknown>, deps), 'production', true)
    const charged = () => metered(op, state, deps, run, answers.failed)
    return op.idempotency
      ? await idempotent(op, codec.idempotency(call), state, deps, answers, charged)
      : await charged()
  } catch (e) {
    throw await settle(e, state, deps)
  }
}
