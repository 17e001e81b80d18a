import type { RequestState } from '../pipeline/context.ts'

// Kept on the Request itself under a private symbol: cheaper than a WeakMap lookup on every hop.
const STATE = Symbol('plikt.request-state')
type WithState = Request & { [STATE]?: RequestState }

/** A sane client-sent id is echoed; anything else is replaced so logs stay parseable. */
const SANE_CORRELATION_ID = /^[A-Za-z0-9._:-]{8,128}$/

export function beginRequest(request: Request): RequestState {
  const sent = request.headers.get('x-correlation-id')
  const state: RequestState = {
    correlationId: sent !== null && SANE_CORRELATION_ID.test(sent) ? sent : crypto.randomUUID(),
    startedAt: performance.now(),
    route: null,
    operationId: null,
    format: null,
    sandbox: null,
    consumerId: null,
    correlationStamped: false,
    ip: 'unknown',
    principal: { kind: 'anonymous' },
    extraHeaders: null,
    failureIsFinal: false,
  }
  ;(request as WithState)[STATE] = state
  return state
}

export function stateOf(request: Request): RequestState {
  return (request as WithState)[STATE] ?? beginRequest(request)
}

/** The wrapper hands Elysia a copy of the request (with the buffered body); both share one state. */
export function shareState(from: Request, to: Request): void {
  const s = (from as WithState)[STATE]
  if (s) (to as WithState)[STATE] = s
}
