import type { Handler } from '../pipeline/context.ts'
import { SCHEMA_VERSION, SERVICE_NAME } from '../lib/service.ts'
import { missingMigrations, pingDatabase } from '../store/health.ts'

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

  getReadiness: (async ({ deps, now }) => {
    const latency = await pingDatabase(deps.sql, DB_PROBE_TIMEOUT_MS)
    const missing = latency === null ? null : await missingMigrations(deps.sql, await deps.lifecycle.knownMigrations()).catch(() => null)
    const draining = deps.lifecycle.draining
    const ready = latency !== null && missing !== null && missing.length === 0 && !draining
    return {
      status: ready ? 200 : 503,
      headers: (ready ? {} : { 'retry-after': '5' }) as Record<string, string>,
      data: {
        status: ready ? 'ready' : 'not_ready',
        checks: {
          database: { status: latency === null ? 'down' : 'up', kind: deps.dbKind, latency_ms: latency },
          migrations: { status: missing === null ? 'unknown' : missing.length === 0 ? 'current' : 'behind', missing: missing ?? [] },
          draining,
        },
        time: now.toISOString(),
      },
    }
  }) satisfies Handler,

  getMetrics: (async ({ deps }) => new Response(await deps.metrics.exposition(), { headers: { 'content-type': deps.metrics.contentType, 'cache-control': 'private, no-store' } })) satisfies Handler,
}
