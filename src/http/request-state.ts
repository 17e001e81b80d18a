import type { RequestState } from './context.ts'

const states = new WeakMap<Request, RequestState>()

/** A sane client-sent id is echoed; anything else is replaced so logs stay parseable. */
const SANE_CORRELATION_ID = /^[A-Za-z0-9._:-]{8,128}$/

export function beginRequest(request: Request): RequestState {
  const sent = request.headers.get('x-correlation-id')
  const state: RequestState = {
    correlationId: sent && SANE_CORRELATION_ID.test(sent) ? sent : crypto.randomUUID(),
    startedAt: performance.now(),
    route: null,
    consumerId: null,
  }
  states.set(request, state)
  return state
}

export function stateOf(request: Request): RequestState {
  return states.get(request) ?? beginRequest(request)
}

/** The wrapper hands Elysia a copy of the request (with the buffered body); both share one state. */
export function shareState(from: Request, to: Request): void {
  const s = states.get(from)
  if (s) states.set(to, s)
}
