/**
 * The HTTP surface's routes: every operation of the registry mounted as an Elysia route (the only
 * Elysia code besides the edge, http/server.ts), with the REST codec around the pipeline — the
 * inputs read and bounded, admission, the test-key kinds, idempotency and metering (http/execute.ts),
 * the handler, and the answer rendered with its cache headers. The composition root (src/app.ts)
 * hands it the operations, their handlers and the MCP transport.
 */
import { Elysia } from 'elysia'
import type { Operation } from '../operations/index.ts'
import {
  inputHeaders,
  type AppDeps,
  type Handler,
  type HandlerOutput,
  type RequestState,
  type ToolBinding,
} from '../pipeline/context.ts'
import { softLimited } from '../pipeline/admission.ts'
import { corkedResponse } from '../lib/corked-response.ts'
import { credentialsOf } from '../pipeline/credentials.ts'
import { restAnswers, restIdempotency } from './execute.ts'
import { checkSameSite } from './same-site.ts'
import { buildMeta, precomputedBlob, precomputedBody, responseHash } from '../pipeline/envelope.ts'
import {
  answerTag,
  cacheControl,
  cacheControlOf,
  ifNoneMatch,
  notModified,
  precomputedTag,
  strongTag,
} from '../pipeline/caching.ts'
import { sha256Hex } from '../lib/hash.ts'
import { renderError } from './errors.ts'
import { hasBoundedStrings, oversizedFields } from '../schemas/bounds.ts'
import { checkInput, readIntegerDigits } from '../pipeline/validation.ts'
import { validationError } from '../errors/app-error.ts'
import { stateOf } from './request-state.ts'
import { docsAsset, favicon } from './discovery.ts'
import { sandboxMeta, sandboxState } from '../pipeline/sandbox.ts'
import { runCall, type Call, type Codec } from '../pipeline/run.ts'

const JSON_TYPE = 'application/json; charset=utf-8'

/** The numeric query parameters of an operation, found once (not per request). */
const numericParams = new WeakMap<Operation, string[]>()

function numericQuery(op: Operation): string[] {
  let names = numericParams.get(op)
  if (!names) {
    const props = op.request.query?.properties ?? {}
    names = Object.keys(props).filter((n) => ['integer', 'number'].includes((props[n] as { type?: string }).type ?? ''))
    numericParams.set(op, names)
  }
  return names
}

/** Query strings arrive as text; numeric parameters are converted before validation sees them. */
function coerceQuery(op: Operation, query: Record<string, unknown>): void {
  for (const name of numericQuery(op)) {
    const v = query[name]
    if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) query[name] = Number(v)
  }
}

/**
 * An answer a cache may keep (the operation's `cache` policy, pipeline/caching.ts): its tag and
 * `Cache-Control` (and `Vary`) go on `headers`; a request that already holds the tag is answered
 * 304 here, with those headers and no body.
 */
function conditional(
  op: Operation,
  etag: string,
  out: HandlerOutput,
  request: Request,
  headers: Record<string, string>,
): Response | null {
  const policy = op.cache!
  headers.etag = etag
  headers['cache-control'] = out.maxAge === undefined ? cacheControlOf(op)! : cacheControl(policy, out.maxAge)
  if (policy.vary) headers.vary = policy.vary
  if (!ifNoneMatch(request.headers.get('if-none-match'), etag)) return null
  const kept: Record<string, string> = {
    etag,
    'cache-control': headers['cache-control'],
    'x-correlation-id': headers['x-correlation-id']!,
  }
  if (policy.vary) kept.vary = policy.vary
  return notModified(kept)
}

/**
 * `afterIo`: the answer is made after an await on I/O, so it is sent as one write
 * (lib/corked-response.ts). Not an idempotent operation's: its answer is cloned to be stored
 * (http/execute.ts), and a clone of that stream would be sent chunked.
 */
function render(
  op: Operation,
  out: HandlerOutput,
  now: Date,
  request: Request,
  state: RequestState,
  afterIo: boolean,
): Response {
  const status = out.status ?? op.successStatus
  const correlationId = state.correlationId
  const cacheable = op.cache !== null && status === 200
  if (out.document) {
    const doc = out.document
    const headers: Record<string, string> = { ...doc.headers, 'x-correlation-id': correlationId }
    if (cacheable) {
      const unchanged = conditional(op, doc.etag, out, request, headers)
      if (unchanged) return unchanged
    } else {
      const control = cacheControlOf(op)
      if (control) headers['cache-control'] = control
    }
    return new Response(doc.blob, { status, headers })
  }
  const headers: Record<string, string> = {
    'content-type': JSON_TYPE,
    'x-correlation-id': correlationId,
    ...state.extraHeaders,
    ...out.headers,
  }
  if (!cacheable) {
    const control = cacheControlOf(op)
    if (control) headers['cache-control'] = control
  }
  if (op.format === 'json') {
    const body = JSON.stringify(out.data)
    // A cacheable JSON document is served as out.document (made and tagged once); this tags per request.
    const unchanged = cacheable ? conditional(op, strongTag(sha256Hex(body)), out, request, headers) : null
    return unchanged ?? new Response(body, { status, headers })
  }
  if (op.format === 'sandbox')
    return new Response(
      JSON.stringify({ success: true, data: out.data, _meta: sandboxMeta(now, state.sandbox), ...out.top }),
      { status, headers },
    )
  const hash = out.precomputed?.hash ?? responseHash(out.data)
  const meta = out.meta ?? {}
  if (cacheable) {
    // The tag validates `data` and the stable `_meta`; `_meta.response_timestamp` is per response and not part of it.
    const unchanged = conditional(
      op,
      out.precomputed ? precomputedTag(out.precomputed, meta) : answerTag(hash, meta),
      out,
      request,
      headers,
    )
    if (unchanged) return unchanged
  }
  const corked = afterIo && !op.idempotency && request.method !== 'HEAD'
  if (out.precomputed) {
    return corked
      ? corkedResponse(precomputedBody(out.precomputed, meta, now), { status, headers })
      : new Response(precomputedBlob(out.precomputed, meta, now), { status, headers })
  }
  const body = `{"success":true,"data":${JSON.stringify(out.data)},"_meta":${JSON.stringify(buildMeta(meta, now, hash))}}`
  return corked ? corkedResponse(body, { status, headers }) : new Response(body, { status, headers })
}

/** Extra operations and handlers: how tests register an operation the product does not have yet. */
export interface Extension {
  operations: Operation[]
  handlers: Record<string, Handler<any>>
  /** MCP bindings of extension operations that name a tool */
  tools?: Record<string, ToolBinding>
}

type Input = 'params' | 'query' | 'body'
const checkedInputs = new WeakMap<Operation, Input[]>()

/**
 * Input too deep or with strings longer than their schema allows is refused before Elysia
 * validates it (schemas/bounds.ts): the validator's report would otherwise run every pattern on it.
 */
function refuseOversized(op: Operation, ctx: Record<Input, unknown>): void {
  let inputs = checkedInputs.get(op)
  if (!inputs) {
    inputs = (['params', 'query', 'body'] as const).filter((i) =>
      i === 'body' ? op.request.body !== undefined : hasBoundedStrings(op.request[i]),
    )
    checkedInputs.set(op, inputs)
  }
  for (const input of inputs) {
    const issues = oversizedFields(op.request[input]!, ctx[input], input)
    if (issues.length > 0) throw validationError(issues)
  }
}

function prepare(
  op: Operation,
  ctx: { request: Request; query: Record<string, unknown>; body?: unknown },
  baseUrl: string,
): RequestState {
  const state = stateOf(ctx.request)
  state.route = op.path
  state.operationId = op.id
  state.format = op.format
  // The edge (http/server.ts) sets it for every sandbox path; this covers the app used without the edge.
  if (op.format === 'sandbox') state.sandbox ??= sandboxState(op.method, op.path)
  coerceQuery(op, ctx.query)
  if (op.bodyType === 'json') readIntegerDigits(op.request.body, ctx.body)
  if (op.bodyType === 'form') checkSameSite(ctx.request, baseUrl)
  return state
}

/**
 * What the composition root hands the HTTP surface: every operation (the registry and any
 * extension), the handler of each, and the MCP transport's handler for the operation whose body the
 * route does not read (http/ and mcp/ never import each other).
 */
export interface Routes {
  operations: readonly Operation[]
  handlers: Record<string, Handler<any>>
  mcp: (request: Request, state: RequestState) => Promise<Response>
}

/** What only the REST codec needs of a call: the HTTP request. */
type Rest = { request: Request }

/**
 * The REST codec of an operation (one per operation, made at mount): the input validated as it
 * arrived (path, query, body: bounds first, then each schema, compiled once), answers rendered as
 * HTTP responses with their cache headers, and stored and replayed as such (http/execute.ts).
 */
function restCodec(op: Operation, deps: AppDeps): Codec<Rest, Response> {
  const inputs = (['params', 'query', 'body'] as const).filter((i) => op.request[i] !== undefined)
  return {
    validate(call) {
      refuseOversized(op, call)
      for (const input of inputs) checkInput(op.request[input]!, call[input], input)
    },
    idempotency: (call) => restIdempotency(op, call.via.request, call.body),
    answer(call, out, _served, afterIo) {
      if (out instanceof Response) return out
      call.state.correlationStamped = true
      return render(op, out, call.now, call.via.request, call.state, afterIo)
    },
    answers: (call) => restAnswers(op, call.via.request, call.state, deps),
  }
}

/**
 * Mounts every operation of the registry as an Elysia route: the REST codec around the
 * orchestrator (pipeline/run.ts), which runs the same steps for MCP.
 */
export function mountRoutes(deps: AppDeps, routes: Routes) {
  const app = new Elysia({ normalize: false })
  app.onError(({ code, error, request }) => renderError(code, error, request, deps))
  const table = routes.handlers
  for (const op of routes.operations) {
    if (op.bodyType === 'raw') {
      // The MCP transport is a surface of its own: it reads the request itself (src/mcp).
      app.route(
        op.method,
        op.path,
        ({ request, query }: { request: Request; query: Record<string, unknown> }) =>
          routes.mcp(request, prepare(op, { request, query }, deps.config.baseUrl)),
        { parse: 'none' } as never,
      )
      continue
    }
    const handler = table[op.id]!
    const soft = softLimited(op)
    const codec = restCodec(op, deps)
    const feedAuth = op.auth === 'feed'
    // The context is destructured, never passed on whole: Elysia reads a handler's source, and a
    // context handed to a function makes it prepare everything for every request (cookie jar,
    // headers object, a second Response around ours).
    app.route(
      op.method,
      op.path,
      ({
        params,
        query,
        body,
        request,
      }: {
        params: Record<string, unknown>
        query: Record<string, unknown>
        body: unknown
        request: Request
      }) => {
        const state = prepare(op, { request, query, body }, deps.config.baseUrl)
        const now = deps.clock.now()
        // The soft per-IP limit is decided first, in this instance, before any database work.
        if (soft) deps.softLimiter.hit(state.ip, now)
        const headers = request.headers
        const call: Call<Rest> = {
          op,
          handler,
          caller: {
            credentials: feedAuth
              ? { ...credentialsOf(headers), feedToken: String(params.feed_token ?? '') }
              : credentialsOf(headers),
            body,
          },
          params,
          query,
          body,
          headers: inputHeaders(headers),
          approvalToken: headers.get('x-approval-token'),
          get signal() {
            return request.signal
          },
          state,
          now,
          via: { request },
        }
        return runCall(call, deps, codec)
      },
    )
  }
  app.get('/docs/assets/:name', ({ params, request }) => {
    stateOf(request).route = '/docs/assets/:name'
    return docsAsset(params.name) ?? renderError('NOT_FOUND', null, request, deps)
  })
  app.get('/favicon.ico', ({ request }) => {
    stateOf(request).route = '/favicon.ico'
    return favicon(request)
  })
  return app
}
