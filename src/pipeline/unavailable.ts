/**
 * A request that failed because the database was unreachable is not a bug: it is answered 503
 * SERVER_ERROR (retryable) with `Retry-After`, on every surface, and logged as a warning. The
 * metering step has refunded whatever it charged, since the handler threw.
 */
import { AppError } from '../errors/app-error.ts'
import { isDatabaseUnavailable } from '../store/db.ts'

export const DATABASE_RETRY_AFTER_S = 5

export function databaseUnavailable(e: unknown): AppError | null {
  if (!isDatabaseUnavailable(e)) return null
  return new AppError('SERVER_ERROR', {
    status: 503,
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
    extra: { reason: 'database_unavailable' },
    cause: e,
  })
}
