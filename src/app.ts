/**
 * Composition root: builds the HTTP application from the operation registry. Exported for tests;
 * nothing listens at import.
 */
import { Elysia } from 'elysia'
import type { TObject } from '@sinclair/typebox'
import { allOperations, type Operation, type OperationId } from './operations.ts'
import type { AppDeps, Handler, HandlerOutput } from './http/context.ts'
import { buildMeta, precomputedBody, responseHash } from './http/envelope.ts'
import { ifNoneMatch, notModified } from './http/etag.ts'
import { renderError } from './http/errors.ts'
import { stateOf } from './http/request-state.ts'
import { createFetch } from './http/server.ts'
import { discoveryHandlers, docsAsset } from './http/routes/discovery.ts'
import { serviceHandlers } from './http/routes/service.ts'
import { errorHandlers } from './http/routes/v1/errors.ts'
import { publicHandlers } from './http/routes/v1/public.ts'

export const handlers: Record<OperationId, Handler<any>> = {
  ...serviceHandlers,
  ...errorHandlers,
  ...publicHandlers,
  ...discoveryHandlers,
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** Query strings arrive as text; numeric parameters are converted before validation sees them. */
function coerceQuery(schema: TObject | undefined, query: Record<string, unknown>): void {
  if (!schema) return
  for (const [name, prop] of Object.entries(schema.properties)) {
    const v = query[name]
    const type = (prop as { type?: string }).type
    if (typeof v === 'string' && (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(v)) query[name] = Number(v)
  }
}

function render(op: Operation, out: HandlerOutput, now: Date, request: Request, correlationId: string): Response {
  const status = out.status ?? op.successStatus
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-correlation-id': correlationId, ...out.headers }
  if (op.format === 'html') {
    return new Response(String(out.data), { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } })
  }
  if (op.format === 'json') return new Response(JSON.stringify(out.data), { status, headers })
  const hash = out.precomputed?.hash ?? responseHash(out.data)
  if (op.responseHeaders?.ETag) {
    // The tag validates `data`; `_meta.response_timestamp` is per response and not part of it.
    const etag = `"${hash.slice('sha256:'.length)}"`
    if (ifNoneMatch(request, etag)) return notModified(etag, { 'x-correlation-id': correlationId })
    headers.etag = etag
    headers['cache-control'] = 'no-cache'
  }
  const meta = out.meta ?? {}
  const body = out.precomputed
    ? precomputedBody(out.precomputed, meta, now)
    : `{"success":true,"data":${JSON.stringify(out.data)},"_meta":${JSON.stringify(buildMeta(meta, now, hash))}}`
  return new Response(body, { status, headers })
}

export function createApp(deps: AppDeps) {
  const app = new Elysia({ normalize: false })
  app.onError(({ code, error, request }) => renderError(code, error, request, deps))
  for (const op of allOperations) {
    const handler = handlers[op.id as OperationId]!
    app.route(
      op.method,
      op.path,
      (ctx: { params: any; query: any; body: any; request: Request }) => {
        const now = deps.clock.now()
        const state = stateOf(ctx.request)
        const out = handler({ params: ctx.params, query: ctx.query, body: ctx.body, request: ctx.request, deps, state, now })
        const finish = (o: HandlerOutput | Response) => {
          if (o instanceof Response) return o
          state.correlationStamped = true
          return render(op, o, now, ctx.request, state.correlationId)
        }
        // Synchronous handlers stay synchronous: a promise per request is measurable on hot static routes.
        return out instanceof Promise ? out.then(finish) : finish(out)
      },
      {
        ...(op.request.params ? { params: op.request.params } : {}),
        ...(op.request.query ? { query: op.request.query } : {}),
        ...(op.request.body ? { body: op.request.body } : {}),
        transform: (ctx: { request: Request; query: Record<string, unknown> }) => {
          stateOf(ctx.request).route = op.path
          coerceQuery(op.request.query, ctx.query)
        },
      } as never,
    )
  }
  app.get('/docs/assets/:name', ({ params, request }) => {
    stateOf(request).route = '/docs/assets/:name'
    return docsAsset(params.name) ?? renderError('NOT_FOUND', null, request, deps)
  })
  return app
}

/** The request handler Bun.serve runs: Elysia wrapped in the outer layer (correlation id, limits, logs). */
export function createHandler(deps: AppDeps): (request: Request) => Promise<Response> {
  const app = createApp(deps)
  app.compile()
  return createFetch(app, deps)
}
