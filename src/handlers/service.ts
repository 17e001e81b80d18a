import type { Handler } from '../pipeline/context.ts'
import { SCHEMA_VERSION, SERVICE_NAME } from '../lib/service.ts'
import { missingMigrations, pingDatabase } from '../store/health.ts'

/** How long health waits for the database before calling it down. */
const DB_PROBE_TIMEOUT_MS = 2000
/** How long readiness waits for the database: it only reports it, and must answer inside a proxy's check timeout. */
const READY_PROBE_TIMEOUT_MS = 250

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

  /**
   * Readiness means "send me traffic". The database is shared by every instance, so its outage is
   * every instance's: an instance that cannot reach it still answers keyless reads and memoised
   * answers, and answers the rest with a clear, retryable 503 — better than a proxy's "no server
   * is available". So the database's state is reported, not counted; what takes an instance out
   * is draining (SIGTERM) or a schema this build knows to be behind. The probe waits at most
   * READY_PROBE_TIMEOUT_MS, well inside a proxy's check timeout (docs/deploy.md §4).
   */
  getReadiness: (async ({ deps, now }) => {
    deps.lifecycle.readinessChecked()
    const latency = await pingDatabase(deps.sql, READY_PROBE_TIMEOUT_MS)
    const missing =
      latency === null
        ? null
        : await missingMigrations(deps.sql, await deps.lifecycle.knownMigrations()).catch(() => null)
    const draining = deps.lifecycle.draining
    const ready = !draining && (missing === null || missing.length === 0)
    return {
      status: ready ? 200 : 503,
      headers: (ready ? {} : { 'retry-after': '5' }) as Record<string, string>,
      data: {
        status: ready ? 'ready' : 'not_ready',
        checks: {
          database: { status: latency === null ? 'down' : 'up', kind: deps.dbKind, latency_ms: latency },
          migrations: {
            status: missing === null ? 'unknown' : missing.length === 0 ? 'current' : 'behind',
            missing: missing ?? [],
          },
          draining,
        },
        time: now.toISOString(),
      },
    }
  }) satisfies Handler,

  getMetrics: (async ({ deps }) =>
    new Response(await deps.metrics.exposition(), {
      headers: { 'content-type': deps.metrics.contentType, 'cache-control': 'private, no-store' },
    })) satisfies Handler,
}
