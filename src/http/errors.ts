/**
 * One place that turns anything thrown while serving a request into the spec's error envelope:
 * our AppError, Elysia's validation/parse/not-found errors, and unexpected exceptions (500, logged
 * with the correlation id, nothing internal in the body).
 */
import { AppError, validationError, type FieldIssue } from '../errors/app-error.ts'
import type { AppDeps } from './context.ts'
import { errorResponse } from './envelope.ts'
import { stateOf } from './request-state.ts'
import { allowedMethods } from './route-match.ts'

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

export function toAppError(code: string | number, error: unknown, request: Request): AppError | null {
  if (error instanceof AppError) return error
  switch (code) {
    case 'VALIDATION':
      return validationError(issuesFromValidation(error))
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
  if (known) return withExtraHeaders(errorResponse(known, deps.clock.now(), deps.config.baseUrl, state.correlationId), state.extraHeaders)
  const err = error instanceof Error ? error : new Error(String(error))
  deps.logger.error('unhandled error', {
    correlation_id: state.correlationId,
    route: state.route,
    error: err.message,
    stack: err.stack,
  })
  return errorResponse(new AppError('INTERNAL_ERROR'), deps.clock.now(), deps.config.baseUrl, state.correlationId)
}

function withExtraHeaders(response: Response, extra: Record<string, string> | null): Response {
  if (extra) for (const [k, v] of Object.entries(extra)) if (!response.headers.has(k)) response.headers.set(k, v)
  return response
}
