/**
 * The outermost layer, around Elysia, so it sees every response — including the ones Elysia makes
 * itself: correlation id, the 256 KB body limit, and one structured log line per request.
 */
import { AppError } from '../errors/app-error.ts'
import type { AppDeps } from './context.ts'
import { errorResponse } from './envelope.ts'
import { beginRequest, shareState } from './request-state.ts'

export const BODY_LIMIT_BYTES = 256 * 1024

async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw new AppError('REQUEST_TOO_LARGE')
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/**
 * Refuses bodies over the limit without reading more than limit + one chunk. Only a body without
 * Content-Length needs reading here (Bun never delivers more than a declared length).
 */
function needsBuffering(request: Request): boolean {
  if (request.body === null) return false
  const declared = request.headers.get('content-length')
  if (declared === null) return true
  if (Number(declared) > BODY_LIMIT_BYTES) throw new AppError('REQUEST_TOO_LARGE')
  return false
}

async function bufferBody(request: Request & { body: ReadableStream<Uint8Array> }): Promise<Request> {
  const body = await readCapped(request.body, BODY_LIMIT_BYTES)
  const copy = new Request(request.url, { method: request.method, headers: request.headers, body })
  shareState(request, copy)
  return copy
}

type Server = { requestIP(request: Request): { address: string } | null }

function clientIp(request: Request, server: Server | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}

export function createFetch(app: { handle(request: Request): Promise<Response> }, deps: AppDeps) {
  return async function fetch(request: Request, server?: Server): Promise<Response> {
    const state = beginRequest(request)
    state.ip = clientIp(request, server, deps.config.trustProxy)
    let response: Response
    try {
      response = await app.handle(needsBuffering(request) ? await bufferBody(request as Request & { body: ReadableStream<Uint8Array> }) : request)
    } catch (e) {
      if (!(e instanceof AppError)) {
        deps.logger.error('unhandled error outside routing', {
          correlation_id: state.correlationId,
          error: e instanceof Error ? e.message : String(e),
          stack: e instanceof Error ? e.stack : undefined,
        })
      }
      response = errorResponse(e instanceof AppError ? e : new AppError('INTERNAL_ERROR'), deps.clock.now(), deps.config.baseUrl, state.correlationId)
      state.correlationStamped = true
    }
    // Routes and the error renderer stamp it when they build the response; reading
    // `response.headers` otherwise would make Bun materialise a Headers object per request.
    if (!state.correlationStamped) response.headers.set('x-correlation-id', state.correlationId)
    deps.logger.info('request', {
      method: request.method,
      route: state.route,
      status: response.status,
      duration_ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
      correlation_id: state.correlationId,
      consumer_id: state.consumerId,
    })
    return response
  }
}
