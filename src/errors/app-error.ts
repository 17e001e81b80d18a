import { CATALOGUE, type ErrorCode } from './catalogue/index.ts'
import type { ExplainContext } from './explain.ts'

export interface FieldIssue {
  /** dotted path into the input, e.g. `context.org_number` */
  field: string
  message: string
}

export interface AppErrorOptions {
  /** filled on VALIDATION_FAILED */
  details?: FieldIssue[]
  /** values substituted into the explanation texts */
  context?: ExplainContext
  headers?: Record<string, string>
  /** extra top-level members of the error body (e.g. `top_up_url` on INSUFFICIENT_CREDITS) */
  extra?: Record<string, unknown>
  /** overrides the catalogue status where the spec gives a route-specific one */
  status?: number
  cause?: unknown
}

/** The one error type domain and route code throws; the envelope layer renders it. */
export class AppError extends Error {
  override name = 'AppError'
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    readonly options: AppErrorOptions = {},
  ) {
    super(code, options.cause === undefined ? undefined : { cause: options.cause })
    this.status = options.status ?? CATALOGUE[code].status
  }
}

export function validationError(details: FieldIssue[]): AppError {
  return new AppError('VALIDATION_FAILED', {
    details,
    ...(details[0] ? { context: { field: details[0].field } } : {}),
  })
}
