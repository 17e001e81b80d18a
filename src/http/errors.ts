/**
 * One place that turns anything thrown while serving a request into the spec's error envelope:
 * our AppError, Elysia's validation/parse/not-found errors, and unexpected exceptions (500, logged
 * with the correlation id, nothing internal in the body).
 */
import { AppError, validationError } from '../errors/app-error.ts'
import { checksumError, issuesFromValidation } from '../pipeline/validation.ts'
import { databaseUnavailable } from '../pipeline/unavailable.ts'
import type { AppDeps } from '../pipeline/context.ts'
import { errorResponse } from '../pipeline/envelope.ts'
import { sandboxErrorResponse } from '../pipeline/sandbox.ts'
import { stateOf } from './request-state.ts'
import { allowedMethods } from './route-match.ts'
import { explain } from '../errors/explain.ts'
import { esc, htmlResponse, page, redirect } from './html.ts'

export function toAppError(code: string | number, error: unknown, request: Request): AppError | null {
  if (error instanceof AppError) return error
  switch (code) {
    case 'VALIDATION':
      return checksumError(error) ?? validationError(issuesFromValidation(error))
    case 'PARSE':
      return validationError([{ field: 'body', message: 'is not valid JSON' }])
    case 'INVALID_COOKIE_SIGNATURE':
    case 'INVALID_FILE_TYPE':
      return validationError([{ field: 'request', message: 'is malformed' }])
    case 'NOT_FOUND': {
      const allowed = allowedMethods(new URL(request.url).pathname)
      if (allowed.length > 0 && !allowed.includes(request.method as never)) {
        return new AppError('METHOD_NOT_ALLOWED', { headers: { allow: allowed.join(', ') } })
      }
      return new AppError('NOT_FOUND')
    }
    default:
      return null
  }
}

export function renderError(code: string | number, error: unknown, request: Request, deps: AppDeps): Response {
  const unavailable = databaseUnavailable(error)
  const known = toAppError(code, error, request) ?? unavailable
  const state = stateOf(request)
  if (unavailable)
    deps.logger.warn('database unavailable; answered 503', {
      correlation_id: state.correlationId,
      route: state.route,
      error: (error as Error).message,
    })
  state.correlationStamped = true
  if (state.format === 'html' && known)
    return errorPage(known, state.correlationId, state.principal.kind === 'session' ? state.principal.csrfToken : null)
  if (state.sandbox) {
    if (!known) logUnhandled(error, state, deps)
    return sandboxErrorResponse(
      known ?? new AppError('INTERNAL_ERROR'),
      deps.clock.now(),
      deps.config.baseUrl,
      state.sandbox,
      state.correlationId,
    )
  }
  if (known)
    return withExtraHeaders(
      errorResponse(known, deps.clock.now(), deps.config.baseUrl, state.correlationId),
      state.extraHeaders,
    )
  logUnhandled(error, state, deps)
  return errorResponse(new AppError('INTERNAL_ERROR'), deps.clock.now(), deps.config.baseUrl, state.correlationId)
}

function logUnhandled(error: unknown, state: ReturnType<typeof stateOf>, deps: AppDeps): void {
  const err = error instanceof Error ? error : new Error(String(error))
  deps.logger.error('unhandled error', {
    correlation_id: state.correlationId,
    route: state.route,
    error: err.message,
    stack: err.stack,
  })
}

function withExtraHeaders(response: Response, extra: Record<string, string> | null): Response {
  if (extra) for (const [k, v] of Object.entries(extra)) if (!response.headers.has(k)) response.headers.set(k, v)
  return response
}

/**
 * Pages answer in HTML: a signed-out visitor goes to the sign-in page, anything else gets the
 * explanation, with a way back that exists for the visitor (the dashboard only when signed in).
 */
function errorPage(err: AppError, correlationId: string, sessionCsrf: string | null): Response {
  if (err.code === 'AUTH_MISSING' || err.code === 'AUTH_SESSION_REQUIRED')
    return redirect('/login', { 'x-correlation-id': correlationId })
  const x = explain(err.code, err.options.context)
  const details = err.options.details?.length
    ? `<ul>${err.options.details.map((d) => `<li><code>${esc(d.field)}</code>: ${esc(d.message)}</li>`).join('')}</ul>`
    : ''
  const html = page(
    x.summary,
    `<h1>${esc(x.summary)}</h1><p lang="en">${esc(x.summary_en)}</p>
<div class="error"><p>${esc(x.why)}</p><p lang="en">${esc(x.why_en)}</p>${details}</div>
<ol>${x.fix_steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>
<p class="note">Feilkode / error code <code>${esc(err.code)}</code> · ref. <code>${esc(correlationId)}</code></p>
<p>${sessionCsrf !== null ? '<a href="/dashboard">Til dashbordet / To the dashboard</a>' : '<a href="/">Til forsiden / To the front page</a>'}</p>`,
    sessionCsrf !== null ? { signedIn: { csrf: sessionCsrf } } : {},
  )
  return htmlResponse(html, err.status, { 'x-correlation-id': correlationId, ...err.options.headers })
}
