/** The service itself: liveness, and the error registry and explainer. */
import { ErrorList, ExplainBody, ExplainResult, Health, Readiness } from '../schemas/common.ts'
import { CACHE, op, type Operation } from './define.ts'

export const serviceOperations = [
  op({
    id: 'getHealth',
    summaryNb: 'Sjekk av at tjenesten og databasen svarer',
    method: 'GET',
    path: '/api/health',
    category: 'A',
    format: 'json',
    tag: 'Service',
    summary: 'Liveness and database check',
    probe: true,
    description:
      'Plain JSON outside the envelope. Any answer means the process is alive; 200 `ok` when the database answers, 503 `degraded` when it ' +
      'does not (alert on it; restarting the instance does not help). For a load balancer use `/api/health/ready`.',
    response: Health,
  }),
  op({
    id: 'getReadiness',
    summaryNb: 'Klarstatus: om denne instansen bør få trafikk',
    method: 'GET',
    path: '/api/health/ready',
    category: 'A',
    format: 'json',
    tag: 'Service',
    summary: 'Readiness: whether this instance should get traffic',
    probe: true,
    description:
      'Plain JSON outside the envelope, for load balancers (HAProxy `option httpchk GET /api/health/ready`): whether this instance ' +
      'should get traffic. 200 `ready` unless the instance drains or a migration this build needs is missing; then 503 `not_ready` ' +
      'with `Retry-After` and the check that failed. The database is reported (`checks.database`), not counted: it is shared by every ' +
      'instance, so an outage is every instance’s, and an instance that cannot reach it still answers keyless reads and memoised ' +
      'answers, and the rest with a retryable 503. On SIGTERM an instance turns not ready first, keeps accepting for DRAIN_GRACE_MS (unset: four intervals of the checks it has seen, none without a checker), ' +
      'then stops accepting and lets requests in flight finish. Liveness is `/api/health`.',
    response: Readiness,
  }),
  op({
    id: 'getMetrics',
    method: 'GET',
    path: '/metrics',
    category: 'A',
    auth: 'metrics',
    format: 'json',
    tag: 'Service',
    summary: 'This instance’s metrics, Prometheus text exposition format',
    description:
      'Guarded by `METRICS_TOKEN`, sent as `Authorization: Bearer <token>` (Prometheus: `authorization: { credentials: <token> }` in the scrape config); unset → every scrape is refused. With `METRICS_PORT` the same answer is served on that port too. ' +
      'Requests by operation and status with latency histograms by operation and status class (`plikt_http_*`), the process (resident memory, heap, CPU, open files, event-loop lag: `plikt_process_*`, `plikt_nodejs_*`), outside systems by outcome with durations and breaker states (`plikt_upstream_*`), register reads served from cache, live or stale (`plikt_upstream_cache_reads_total`), credits charged and refunded (`plikt_credits_ore_total`), job ticks and durations (`plikt_job_*`), webhook deliveries by outcome (`plikt_webhook_deliveries_total`). Per instance: scrape every instance.',
    response: null,
  }),
  op({
    id: 'listErrors',
    mcpResource: { uri: 'plikt://errors', name: 'error-catalogue' },
    cache: CACHE.discovery,
    method: 'GET',
    path: '/api/v1/errors',
    category: 'A',
    format: 'envelope',
    tag: 'Errors',
    summary: 'The error registry',
    description:
      'Every error code the service can answer with, sorted by code. The strong `ETag` validates `data` with the rulebook and ' +
      'service versions (`_meta.response_timestamp` differs per response); send it back in `If-None-Match` to get `304 Not Modified`.',
    response: ErrorList,
    capability: {
      name_en: 'Error registry',
      name_nb: 'Feilkoderegister',
      description_en: 'Every error code with retry advice, fix hints in English and Norwegian, and a docs link.',
      description_nb:
        'Alle feilkoder med råd om nye forsøk, tips til retting på norsk og engelsk, og lenke til dokumentasjon.',
      data_sources: ['plikt'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'explainError',
    method: 'POST',
    safe: true,
    path: '/api/v1/explain',
    category: 'A',
    // Keyless; the scope is the spec's tool table's, which hides the tool from a key without it.
    scope: 'read:rulebook',
    format: 'envelope',
    tag: 'Errors',
    summary: 'Explain an error code in Norwegian and English',
    description:
      'The full bilingual explanation of a code, with the optional context substituted into the texts (a neutral ' +
      'noun stands in for a missing value). The code is matched case-insensitively; an uncatalogued code is ' +
      'explained as `UNKNOWN`. No upstream is called and nothing is stored.',
    request: { body: ExplainBody },
    response: ExplainResult,
    mcpTool: 'explain_compliance_error',
    capability: {
      name_en: 'Error explainer',
      name_nb: 'Forklaring av feilkoder',
      description_en: 'Explains any error code: what happened, why, what to do, and who must act when an agent cannot.',
      description_nb:
        'Forklarer en feilkode: hva som skjedde, hvorfor, hva du gjør, og hvem som må gjøre noe når en agent ikke kan.',
      data_sources: ['plikt'],
      freshness: 'static',
      status: 'live',
    },
  }),
] as const satisfies readonly Operation[]
