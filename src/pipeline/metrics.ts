/**
 * This instance's metrics in the Prometheus exposition format (prom-client), on a registry of its
 * own built by the composition root. Recording is an in-memory increment or a histogram bucket:
 * nothing per request touches the database or the disk. Gauges of state (breakers) are read when
 * scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { PoolState } from '../store/db.ts'
import type { UpstreamClient } from '../upstream/http.ts'
import type { WebhookAttemptOutcome } from '../domain/webhooks/sweep.ts'

/** Request latency buckets, seconds: from a cached public read to an 8-second filing budget. */
const LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * The process's own series, from prom-client's default collectors: memory (`plikt_process_resident_memory_bytes`,
 * `plikt_nodejs_heap_size_used_bytes` …), CPU, open files and event-loop lag (`plikt_nodejs_eventloop_lag_*`,
 * sampled by a timer). One per process, started by the first scrape, since they describe the process
 * and not an instance of the app (a test process builds many).
 */
let processRegistry: Registry | null = null
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry, prefix: 'plikt_' })
  }
  return processRegistry
}

const STATUS_CLASS: Record<number, string> = { 1: '1xx', 2: '2xx', 3: '3xx', 4: '4xx', 5: '5xx' }

export class Metrics {
  readonly registry = new Registry()
  private readonly upstreams: UpstreamClient[] = []

  private readonly requests = new Counter({
    name: 'plikt_http_requests_total',
    help: 'HTTP requests answered, by registry operation, method and status',
    labelNames: ['operation', 'method', 'status'] as const,
    registers: [this.registry],
  })
  private readonly latency = new Histogram({
    name: 'plikt_http_request_duration_seconds',
    help: 'Time from the request arriving to its answer, by registry operation and status class (2xx, 3xx, 4xx, 5xx)',
    labelNames: ['operation', 'status'] as const,
    buckets: LATENCY,
    registers: [this.registry],
  })
  private readonly upstreamCalls = new Counter({
    name: 'plikt_upstream_calls_total',
    help: 'Calls to outside systems, by system and outcome (ok, http_4xx, http_5xx, circuit, attempts, budget)',
    labelNames: ['system', 'outcome'] as const,
    registers: [this.registry],
  })
  private readonly upstreamLatency = new Histogram({
    name: 'plikt_upstream_call_duration_seconds',
    help: 'Time an outside system took, retries included, by system',
    labelNames: ['system'] as const,
    buckets: LATENCY,
    registers: [this.registry],
  })
  private readonly cacheReads = new Counter({
    name: 'plikt_upstream_cache_reads_total',
    help: 'Register reads by how they were served: cache (fresh), live, or stale (the upstream failed and an older answer was served)',
    labelNames: ['system', 'served'] as const,
    registers: [this.registry],
  })
  private readonly credits = new Counter({
    name: 'plikt_credits_ore_total',
    help: 'Credits moved by metering, whole øre, by kind (charged, refunded)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  })
  private readonly jobRuns = new Counter({
    name: 'plikt_job_runs_total',
    help: 'Scheduled job ticks this instance ran, by job and outcome (ok, failed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  })
  private readonly webhookAttempts = new Counter({
    name: 'plikt_webhook_deliveries_total',
    help: 'Webhook delivery attempts this instance made, by outcome: delivered (2xx), retrying (failed, attempts left), abandoned (the seventh failed), cancelled (the subscription went away first)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  })
  private readonly jobDuration = new Histogram({
    name: 'plikt_job_duration_seconds',
    help: 'How long a job tick ran, by job',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [this.registry],
  })

  constructor() {
    const upstreams = this.upstreams
    new Gauge({
      name: 'plikt_upstream_breaker_state',
      help: 'Circuit breaker per outside system: 0 closed, 1 half-open (next call is a probe), 2 open (calls refused)',
      labelNames: ['system'] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        for (const c of upstreams)
          this.set({ system: c.system }, c.state === 'open' ? 2 : c.state === 'half_open' ? 1 : 0)
      },
    })
  }

  /** Reports the charge batcher's queue and the batches it is writing, read when scraped. */
  watchCharges(batcher: { readonly queued: number; readonly writing: number }): void {
    new Gauge({
      name: 'plikt_charge_queue',
      help: 'Metered calls waiting for the charge batcher to write their charge',
      registers: [this.registry],
      collect() {
        this.set(batcher.queued)
      },
    })
    new Gauge({
      name: 'plikt_charge_batches_in_flight',
      help: 'Charge batches being written now (at most two per instance)',
      registers: [this.registry],
      collect() {
        this.set(batcher.writing)
      },
    })
  }

  /** Reports each database pool (`main`; `charge`, the charges' own on PostgreSQL), read when scraped. */
  watchPools(pools: Record<string, () => PoolState>): void {
    const each = Object.entries(pools)
    new Gauge({
      name: 'plikt_db_pool_connections',
      help: 'Database connections by pool and state: in_use (a query or a transaction on it), idle (open, free), size (the most the pool opens)',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, read] of each) {
          const p = read()
          this.set({ pool, state: 'in_use' }, p.in_use)
          this.set({ pool, state: 'idle' }, p.idle)
          this.set({ pool, state: 'size' }, p.size)
        }
      },
    })
    new Gauge({
      name: 'plikt_db_pool_waiting',
      help: 'Queries waiting for a free connection, by pool',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, read] of each) this.set({ pool }, read().waiting)
      },
    })
  }

  request(operation: string | null, method: string, status: number, seconds: number): void {
    const op = operation ?? 'unmatched'
    this.requests.inc({ operation: op, method, status: String(status) })
    // the class, not the code: four series of buckets per operation at most
    this.latency.observe({ operation: op, status: STATUS_CLASS[Math.floor(status / 100)] ?? 'other' }, seconds)
  }

  /** Counts the client's calls and reports its breaker from now on. */
  watch(client: UpstreamClient): void {
    this.upstreams.push(client)
    client.observer = (outcome, seconds) => {
      this.upstreamCalls.inc({ system: client.system, outcome })
      this.upstreamLatency.observe({ system: client.system }, seconds)
    }
  }

  cacheRead(system: string, served: 'cache' | 'live' | 'stale'): void {
    this.cacheReads.inc({ system, served })
  }

  charged(ore: number): void {
    if (ore > 0) this.credits.inc({ kind: 'charged' }, ore)
  }

  refunded(ore: number): void {
    if (ore > 0) this.credits.inc({ kind: 'refunded' }, ore)
  }

  jobRan(job: string, ok: boolean, seconds: number): void {
    this.jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' })
    this.jobDuration.observe({ job }, seconds)
  }

  webhookAttempt(outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.inc({ outcome })
  }

  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`
  }

  get contentType(): string {
    return this.registry.contentType
  }
}
