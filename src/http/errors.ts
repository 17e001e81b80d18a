/**
 * One place that turns anything thrown while serving a request into the spec's error envelope:
 * our AppError, Elysia's validation/parse/not-found errors, and unexpected exceptions (500, logged
 * with the correlation id, nothing internal in the body).
 */
import { AppError, validationError, type FieldIssue } from '../errors/app-error.ts'
import type { AppDeps } from './context.ts'
import { errorResponse } from './envelope.ts'
import { sandboxErrorResponse } from './sandbox.ts'
import { stateOf } from './request-state.ts'
import { allowedMethods } from './route-match.ts'
import { explain } from '../errors/explain.ts'
import { esc, htmlResponse, page, redirect } from './html.ts'
import { ORG_NUMBER_FORMAT } from '../schemas/formats.ts'

interface TypeBoxIssue {
  path: string
  message: string
  value: unknown
}

function fieldOf(path: string, location: string): string {
  const dotted = path.replace(/^\//, '').split('/').filter(Boolean).join('.')
  return dotted === '' ? location : dotted
}

export function issuesFromValidation(error: unknown): FieldIssue[] {
  const e = error as { all?: TypeBoxIssue[]; type?: string }
  const location = e.type ?? 'body'
  const seen = new Set<string>()
  const out: FieldIssue[] = []
  for (const issue of e.all ?? []) {
    const field = fieldOf(issue.path, location)
    const message = issue.value === undefined && issue.path !== '' ? 'is required' : issue.message
    const key = `${field}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ field, message })
  }
  return out.length > 0 ? out : [{ field: location, message: 'is invalid' }]
}

/**
 * A well-formed organisation number whose check digit is wrong has its own code (spec: Conventions);
 * only when that is the whole complaint — any other fault in the input makes it VALIDATION_FAILED.
 */
export function checksumError(error: unknown): AppError | null {
  const all = (error as { all?: (TypeBoxIssue & { schema?: { format?: string } })[] }).all ?? []
  if (all.length === 0) return null
  const bad = all.every((i) => i.schema?.format === ORG_NUMBER_FORMAT && typeof i.value === 'string' && /^\d{9}$/.test(i.value))
  if (!bad) return null
  const org = all[0]!.value as string
  return new AppError('ORG_NUMBER_INVALID_CHECKSUM', { context: { org_number: org }, extra: { org_number: org } })
}

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
  const known = toAppError(code, error, request)
  const state = stateOf(request)
  state.correlationStamped = true
  if (state.format === 'html' && known) return errorPage(known, state.correlationId)
  if (state.sandbox) {
    if (!known) logUnhandled(error, state, deps)
    return sandboxErrorResponse(known ?? new AppError('INTERNAL_ERROR'), deps.clock.now(), deps.config.baseUrl, state.sandbox, state.correlationId)
  }
  if (known) return withExtraHeaders(errorResponse(known, deps.clock.now(), deps.config.baseUrl, state.correlationId), state.extraHeaders)
  logUnhandled(error, state, deps)
  return errorResponse(new AppError('INTERNAL_ERROR'), deps.clock.now(), deps.config.baseUrl, state.correlationId)
}

function logUnhandled(error: unknown, state: ReturnType<typeof stateOf>, deps: AppDeps): void {
  const err = error instanceof Error ? error : new Error(String(error))
  deps.logger.error('unhandled error', { correlation_id: state.correlationId, route: state.route, error: err.message, stack: err.stack })
}

function withExtraHeaders(response: Response, extra: Record<string, string> | null): Response {
  if (extra) for (const [k, v] of Object.entries(extra)) if (!response.headers.has(k)) response.headers.set(k, v)
  return response
}

/** Pages answer in HTML: a signed-out visitor goes to the sign-in page, anything else gets the explanation. */
function errorPage(err: AppError, correlationId: string): Response {
  if (err.code === 'AUTH_MISSING') return redirect('/login', { 'x-correlation-id': correlationId })
  const x = explain(err.code, err.options.context)
  const details = err.options.details?.length ? `<ul>${err.options.details.map((d) => `<li><code>${esc(d.field)}</code>: ${esc(d.message)}</li>`).join('')}</ul>` : ''
  const html = page(
    x.summary,
    `<h1>${esc(x.summary)}</h1><p lang="en">${esc(x.summary_en)}</p>
<div class="error"><p>${esc(x.why)}</p><p lang="en">${esc(x.why_en)}</p>${details}</div>
<ol>${x.fix_steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>
<p class="note">Feilkode / error code <code>${esc(err.code)}</code> · ref. <code>${esc(correlationId)}</code></p>
<p><a href="/dashboard">Til dashbordet / To the dashboard</a></p>`,
  )
  return htmlResponse(html, err.status, { 'x-correlation-id': correlationId, ...err.options.headers })
}
