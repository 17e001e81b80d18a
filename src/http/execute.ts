/**
 * The REST side of the pipeline after validation: the request's Idempotency-Key and fingerprint
 * are read here, and answers are stored and replayed as HTTP responses; the steps themselves
 * (pipeline/idempotency.ts, pipeline/metering.ts) are the ones every surface runs.
 */
import type { AppError } from '../errors/app-error.ts'
import { canonicalJson } from '../lib/canonical-json.ts'
import { sha256Hex } from '../lib/hash.ts'
import type { Operation } from '../operations/index.ts'
import { limitsFor } from '../pipeline/admission.ts'
import type { AppDeps, RequestState } from '../pipeline/context.ts'
import { idempotent, isDryRun, type AnswerCodec } from '../pipeline/idempotency.ts'
import { cacheControlOf } from '../pipeline/caching.ts'
import { metered } from '../pipeline/metering.ts'
import { renderError } from './errors.ts'

function responses(op: Operation, request: Request, state: RequestState, deps: AppDeps): AnswerCodec<Response> {
  const control = cacheControlOf(op)
  return {
    store: async (r) => ({ status: r.status, body: await r.clone().text() }),
    replay: (s) => {
      state.correlationStamped = true
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true', 'x-correlation-id': state.correlationId }
      if (control) headers['cache-control'] = control
      return new Response(s.body, { status: s.status, headers })
    },
    failed: (r) => r.status >= 400,
    finalFailure: (e: AppError) => renderError('APP', e, request, deps),
  }
}

/**
 * Runs the handler behind idempotency and metering. Nothing is charged for a call that fails, and
 * a replayed Idempotency-Key returns the stored answer without running anything again.
 */
export function execute(op: Operation, ctx: { request: Request; body: unknown; state: RequestState }, deps: AppDeps, run: () => Promise<Response>): Promise<Response> {
  const { request, state } = ctx
  const charged = () => metered(op, state, deps, (p) => limitsFor(op, p, state.ip), run, (r) => r.status >= 400)
  // Most metered reads declare no idempotency: they need no URL parse and no fingerprint.
  if (!op.idempotency) return charged()
  const url = new URL(request.url)
  url.searchParams.sort()
  const req = {
    key: request.headers.get('idempotency-key'),
    dryRun: isDryRun(url.searchParams.get('dry_run')),
    // The query is part of the request: `?dry_run=true` and a live call with one key are different requests.
    fingerprint: sha256Hex(`${op.id}\n${url.pathname}\n${url.searchParams.toString()}\n${canonicalJson(ctx.body ?? null)}`),
  }
  return idempotent(op, req, state, deps, responses(op, request, state, deps), charged)
}
