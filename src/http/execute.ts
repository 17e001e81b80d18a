/**
 * The REST codec's idempotency: the request's Idempotency-Key and fingerprint are read here, and
 * answers are stored and replayed as HTTP responses; the step itself (pipeline/idempotency.ts) is
 * the one every surface runs, from the orchestrator (pipeline/run.ts).
 */
import type { AppError } from '../errors/app-error.ts'
import { canonicalJson } from '../lib/canonical-json.ts'
import { sha256Hex } from '../lib/hash.ts'
import type { Operation } from '../operations/index.ts'
import type { AppDeps, RequestState } from '../pipeline/context.ts'
import { isDryRun, type AnswerCodec, type IdempotentRequest } from '../pipeline/idempotency.ts'
import { cacheControlOf } from '../pipeline/caching.ts'
import { renderError } from './errors.ts'

/** A REST answer that is a failure: nothing is charged for it, and its Idempotency-Key is released. */
const failed = (r: Response) => r.status >= 400

/** A call of an operation without idempotency: only metering asks, and only which answers failed. */
const UNSTORED: AnswerCodec<Response> = {
  store: () => Promise.reject(new Error('an operation without idempotency stores no answer')),
  replay: () => {
    throw new Error('an operation without idempotency replays no answer')
  },
  failed,
  finalFailure: (e) => {
    throw e
  },
}

/** How REST answers are stored and replayed. */
export function restAnswers(
  op: Operation,
  request: Request,
  state: RequestState,
  deps: AppDeps,
): AnswerCodec<Response> {
  if (!op.idempotency) return UNSTORED
  const control = cacheControlOf(op)
  return {
    store: async (r) => ({ status: r.status, body: await r.clone().text() }),
    replay: (s) => {
      state.correlationStamped = true
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'idempotent-replayed': 'true',
        'x-correlation-id': state.correlationId,
      }
      if (control) headers['cache-control'] = control
      return new Response(s.body, { status: s.status, headers })
    },
    failed,
    finalFailure: (e: AppError) => renderError('APP', e, request, deps),
  }
}

/** What a REST request's Idempotency-Key stands for: the operation, the path, the sorted query and the body. */
export function restIdempotency(op: Operation, request: Request, body: unknown): IdempotentRequest {
  const url = new URL(request.url)
  url.searchParams.sort()
  return {
    key: request.headers.get('idempotency-key'),
    dryRun: isDryRun(url.searchParams.get('dry_run')),
    // The query is part of the request: `?dry_run=true` and a live call with one key are different requests.
    fingerprint: sha256Hex(`${op.id}\n${url.pathname}\n${url.searchParams.toString()}\n${canonicalJson(body ?? null)}`),
  }
}
