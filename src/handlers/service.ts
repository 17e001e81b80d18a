import type { Handler } from '../pipeline/context.ts'
import { SCHEMA_VERSION, SERVICE_NAME } from '../lib/service.ts'
import { pingDatabase } from '../store/health.ts'

/** How long health waits for the database before calling it down. */
const DB_PROBE_TIMEOUT_MS = 2000

export const serviceHandlers = {
  getHealth: (async ({ deps, now }) => {
    const latency = await pingDatabase(deps.sql, DB_PROBE_TIMEOUT_MS)
    const up = latency !== null
    return {
      status: up ? 200 : 503,
      headers: (up ? {} : { 'retry-after': '5' }) as Record<string, string>,
      data: {
        status: up ? 'ok' : 'degraded',
        service: SERVICE_NAME,
        version: SCHEMA_VERSION,
        database: { status: up ? 'up' : 'down', kind: deps.dbKind, latency_ms: latency },
        time: now.toISOString(),
      },
    }
  }) satisfies Handler,
}
