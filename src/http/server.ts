/**
 * The outermost layer, around Elysia, so it sees every response — including the ones Elysia makes
 * itself: correlation id, the 256 KB body limit, and one structured log line per request.
 */
import { AppError } from '../errors/app-error.ts'
import { clientAddress } from './client-address.ts'
import type { AppDeps } from '../pipeline/context.ts'
import { errorResponse } from '../pipeline/envelope.ts'
import { beginRequest, shareState } from './request-state.ts'
import { sandboxErrorResponse, sandboxState } from '../pipeline/sandbox.ts'
import { CORS_HEADERS, isSandboxPath, preflight, PUBLIC_BODY_LIMIT_BYTES, PublicSandboxGuard } from './sandbox-edge.ts'

export const BODY_LIMIT_BYTES = 256 * 1024

/**
 * How Bun.serve runs the service (main and the tests alike). Bun's default idle timeout of 10 s
 * would cut legitimate waits short: the sandbox latency knob allows 30 s and an upstream read
 * up to 8 s, so a connection may stay quiet for up to a minute.
 */
export const SERVE_OPTIONS = { idleTimeout: 60, maxRequestBodySize: 8 * 1024 * 1024 } as const

interface BodyLimit {
  bytes: number
  code: 'REQUEST_TOO_LARGE' | 'PUBLIC_SANDBOX_BODY_TOO_LARGE'
}

const DEFAULT_LIMIT: BodyLimit = { bytes: BODY_LIMIT_BYTES, code: 'REQUEST_TOO_LARGE' }
const PUBLIC_SANDBOX_LIMIT: BodyLimit = { bytes: PUBLIC_BODY_LIMIT_BYTES, code: 'PUBLIC_SANDBOX_BODY_TOO_LARGE' }

async function readCapped(body: ReadableStream<Uint8Array>, limit: BodyLimit): Promise<Uint8Array> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit.bytes) {
      await reader.cancel()
      throw new AppError(limit.code)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/**
 * Refuses bodies over the limit without reading more than limit + one chunk. Only a body without
 * Content-Length needs reading here (Bun never delivers more than a declared length).
 */
function needsBuffering(request: Request, limit: BodyLimit): boolean {
  if (request.body === null) return false
  const declared = request.headers.get('content-length')
  if (declared === null) return true
  if (Number(declared) > limit.bytes) throw new AppError(limit.code)
  return false
}

async function bufferBody(request: Request & { body: ReadableStream<Uint8Array> }, limit: BodyLimit): Promise<Request> {
  const body = await readCapped(request.body, limit)
  // The copy keeps the original's signal: handlers learn from it that the client has gone.
  const copy = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
  })
  shareState(request, copy)
  return copy
}

type Server = { requestIP(request: Request): { address: string } | null }

export function createFetch(app: { handle(request: Request): Promise<Response> }, deps: AppDeps) {
  const guard = new PublicSandboxGuard(deps.config.publicSandbox)
  return async function fetch(request: Request, server?: Server): Promise<Response> {
    const state = beginRequest(request)
    state.ip = clientAddress(
      deps.config.trustedProxyHops > 0 ? request.headers.get('x-forwarded-for') : null,
      () => server?.requestIP(request)?.address ?? null,
      deps.config.trustedProxyHops,
    )
    // A substring test first: most requests are not for the sandbox and need no URL parse.
    const path = request.url.includes('/api/v1/sandbox') ? new URL(request.url).pathname : ''
    const sandbox = isSandboxPath(path)
    if (sandbox && request.method === 'OPTIONS') return preflight()
    if (sandbox) state.sandbox = sandboxState(request.method, path)
    const publicMirror = state.sandbox?.public === true
    let admitted = false
    let response: Response
    try {
      if (publicMirror) {
        guard.admit(request, state.ip, deps.clock.now())
        admitted = true
      }
      const limit = publicMirror ? PUBLIC_SANDBOX_LIMIT : DEFAULT_LIMIT
      response = await app.handle(
        needsBuffering(request, limit)
          ? await bufferBody(request as Request & { body: ReadableStream<Uint8Array> }, limit)
          : request,
      )
    } catch (e) {
      if (!(e instanceof AppError)) {
        deps.logger.error('unhandled error outside routing', {
          correlation_id: state.correlationId,
          error: e instanceof Error ? e.message : String(e),
          stack: e instanceof Error ? e.stack : undefined,
        })
      }
      const err = e instanceof AppError ? e : new AppError('INTERNAL_ERROR')
      response = state.sandbox
        ? sandboxErrorResponse(err, deps.clock.now(), deps.config.baseUrl, state.sandbox, state.correlationId)
        : errorResponse(err, deps.clock.now(), deps.config.baseUrl, state.correlationId)
      state.correlationStamped = true
    } finally {
      if (admitted) guard.release()
    }
    if (sandbox) {
      for (const [k, v] of Object.entries(CORS_HEADERS)) response.headers.set(k, v)
      // Sandbox handlers build their own Response, so the public mirror's rate-limit state
      // (RateLimit-Policy, RateLimit) is added here, as render() does for every other route.
      if (state.extraHeaders)
        for (const [k, v] of Object.entries(state.extraHeaders))
          if (!response.headers.has(k)) response.headers.set(k, v)
    }
    // Routes and the error renderer stamp it when they build the response; reading
    // `response.headers` otherwise would make Bun materialise a Headers object per request.
    if (!state.correlationStamped) response.headers.set('x-correlation-id', state.correlationId)
    const elapsedMs = performance.now() - state.startedAt
    deps.metrics.request(state.operationId, request.method, response.status, elapsedMs / 1000)
    deps.telemetry.record(state.operationId, response.status, elapsedMs, deps.clock.now().getTime())
    if (deps.logger.enabled('info'))
      deps.logger.info('request', {
        method: request.method,
        route: state.route,
        status: response.status,
        duration_ms: Math.round(elapsedMs * 100) / 100,
        correlation_id: state.correlationId,
        consumer_id: state.consumerId,
      })
    return response
  }
}
