/**
 * GET /metrics as Prometheus scrapes it: the bearer METRICS_TOKEN, the text exposition format read
 * back with a real parser, and the series an operator watches — requests by operation and status
 * with latency, outside systems by outcome and their breakers, register reads by how they were
 * served, credits charged and refunded, job ticks, webhook deliveries by outcome.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import parse from 'parse-prometheus-text-format'
import { jobRunner } from '../../jobs/runner.ts'
import { addCredits, createConsumer, createKey } from '../helpers.ts'
import { runWebhookDeliveries } from '../../jobs/webhook-deliveries.ts'
import { appendChanges } from '../../src/store/changes.ts'
import type { Sql } from '../../src/store/db.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { startReceiver } from '../helpers.ts'
import { retireSubscribers, subscribe, subscriber, webhookApp } from '../helpers.ts'

const TOKEN = 'metrics-test-token-0123456789'
let app: TestApp
beforeAll(async () => {
  app = await startApp({ env: { METRICS_TOKEN: TOKEN } })
})
afterAll(() => app.stop())

let raw = ''
async function scrape() {
  const res = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toStartWith('text/plain')
  raw = await res.text()
  return parse(raw)
}

function family(metrics: ReturnType<typeof parse>, name: string) {
  const f = metrics.find((m) => m.name === name)
  if (!f) throw new Error(`no ${name} in the scrape`)
  return f
}

test('a scrape without the token, or with another, is refused', async () => {
  expect((await app.get('/metrics')).status).toBe(401)
  const wrong = await app.get('/metrics', { headers: { authorization: 'Bearer not-the-metrics-token' } })
  expect([wrong.status, (await wrong.json()).error_code]).toEqual([401, 'AUTH_INVALID_KEY'])
})

test('with no METRICS_TOKEN configured every scrape is refused', async () => {
  const plain = await startApp()
  try {
    expect((await plain.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(401)
  } finally {
    await plain.stop()
  }
})

test('requests, outside systems, register reads, credits and job ticks are counted', async () => {
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 10_000)
  const { key } = await createKey(app, c.id)
  const auth = { headers: { authorization: `Bearer ${key}` } }
  expect((await app.get('/api/v1/company/984661185/summary', auth)).status).toBe(200)
  // a search no other test makes (it finds nothing): read live once, then from the cache
  const name = `metrics ${crypto.randomUUID().slice(0, 8)}`
  for (let i = 0; i < 2; i++)
    await (await app.get(`/api/v1/company/search?name=${encodeURIComponent(name)}`, auth)).arrayBuffer()
  // the register answers 500: retried, given up on, and the charge refunded
  expect((await app.get('/api/v1/company/999888801/summary', auth)).status).toBeGreaterThanOrEqual(500)
  // a tick no other test claims (ticks are claimed once across the run's database)
  const tick = new Date(Date.UTC(2031, 0, 1) + Math.floor(Math.random() * 1_000_000) * 60_000)
  expect(
    (
      await jobRunner({
        sql: app.deps.sql,
        clock: app.clock,
        logger: app.deps.logger,
        register: app.deps.register,
        metrics: app.deps.metrics,
      }).runTick('expiry-sweep', tick)
    ).ran,
  ).toBe(true)

  const m = await scrape()
  const requests = family(m, 'plikt_http_requests_total')
  expect(requests.type).toBe('COUNTER')
  expect(
    requests.metrics.find(
      (s) => s.labels?.operation === 'getCompanySummary' && s.labels.status === '200' && s.labels.method === 'GET',
    ),
  ).toBeDefined()
  const latency = family(m, 'plikt_http_request_duration_seconds')
  expect(latency.type).toBe('HISTOGRAM')
  // (this parser folds a labelled histogram's series into one bucket map; the raw line says per operation)
  expect(Object.keys(latency.metrics[0]!.buckets!)).toContain('+Inf')
  expect(raw).toMatch(/^plikt_http_request_duration_seconds_count\{operation="getCompanySummary",status="2xx"\} [1-9]/m)
  expect(raw).toMatch(/^plikt_http_request_duration_seconds_count\{operation="getCompanySummary",status="5xx"\} [1-9]/m)

  const calls = family(m, 'plikt_upstream_calls_total').metrics
  expect(calls.some((s) => s.labels?.system === 'Enhetsregisteret' && s.labels.outcome === 'ok')).toBe(true)
  expect(
    calls.some((s) => s.labels?.system === 'Enhetsregisteret' && ['attempts', 'budget'].includes(s.labels.outcome!)),
  ).toBe(true)
  const breakers = family(m, 'plikt_upstream_breaker_state')
  expect(breakers.type).toBe('GAUGE')
  expect(breakers.metrics.map((s) => s.labels?.system)).toContain('Enhetsregisteret')

  const reads = family(m, 'plikt_upstream_cache_reads_total').metrics
  expect(reads.some((s) => s.labels?.served === 'live')).toBe(true)
  expect(reads.some((s) => s.labels?.served === 'cache')).toBe(true)

  const credits = family(m, 'plikt_credits_ore_total').metrics
  expect(Number(credits.find((s) => s.labels?.kind === 'charged')!.value)).toBeGreaterThanOrEqual(150)
  expect(Number(credits.find((s) => s.labels?.kind === 'refunded')!.value)).toBeGreaterThanOrEqual(50)

  const jobs = family(m, 'plikt_job_runs_total').metrics
  expect(jobs.find((s) => s.labels?.job === 'expiry-sweep' && s.labels.outcome === 'ok')).toBeDefined()
})

test('the charge batcher is described: metered calls waiting for their charge, and batches being written', async () => {
  const m = await scrape()
  for (const name of ['plikt_charge_queue', 'plikt_charge_batches_in_flight']) {
    const gauge = family(m, name)
    expect(gauge.type).toBe('GAUGE')
    // read when scraped: between requests nothing waits and nothing is written
    expect(Number(gauge.metrics[0]!.value)).toBe(0)
  }
})

test('the database pools are described: connections in use, idle and the pool’s size, and queries waiting', async () => {
  const m = await scrape()
  const connections = family(m, 'plikt_db_pool_connections')
  expect(connections.type).toBe('GAUGE')
  const main = (state: string) =>
    Number(connections.metrics.find((s) => s.labels?.pool === 'main' && s.labels.state === state)!.value)
  expect(main('size')).toBeGreaterThanOrEqual(1)
  expect(main('in_use') + main('idle')).toBeLessThanOrEqual(main('size'))
  const waiting = family(m, 'plikt_db_pool_waiting')
  expect(waiting.type).toBe('GAUGE')
  expect(Number(waiting.metrics.find((s) => s.labels?.pool === 'main')!.value)).toBeGreaterThanOrEqual(0)
})

test('the process is described: resident memory, heap, event-loop lag', async () => {
  await scrape()
  await Bun.sleep(100) // the lag monitor, started by the first scrape, has samples
  const m = await scrape()
  expect(Number(family(m, 'plikt_process_resident_memory_bytes').metrics[0]!.value)).toBeGreaterThan(10_000_000)
  expect(Number(family(m, 'plikt_nodejs_heap_size_used_bytes').metrics[0]!.value)).toBeGreaterThan(0)
  expect(family(m, 'plikt_nodejs_eventloop_lag_p99_seconds').type).toBe('GAUGE')
  // each family once, though the app's and the process's series are two registries
  const names = raw
    .split('\n')
    .filter((l) => l.startsWith('# TYPE '))
    .map((l) => l.split(' ')[2])
  expect(new Set(names).size).toBe(names.length)
})

test('webhook deliveries are counted by outcome: delivered, and retrying when the receiver fails', async () => {
  const hooks = await webhookApp({ env: { METRICS_TOKEN: TOKEN } })
  const receiver = await startReceiver({ now: () => Math.floor(hooks.clock.now().getTime() / 1000) })
  try {
    const ok = await subscribe(await subscriber(hooks), `${receiver.url}/ok`)
    const failing = await subscribe(await subscriber(hooks), `${receiver.url}/failing`)
    receiver.secrets.set(ok.id, ok.secret)
    receiver.secrets.set(failing.id, failing.secret)
    receiver.answer = (a) => ({ status: a.json?.subscription_id === failing.id ? 503 : 200 })
    const org = String(820_000_000 + Math.floor(Math.random() * 9_999_999))
    const change = {
      source: 'register',
      entity_type: 'annual_accounts',
      entity_id: org,
      change_type: 'updated',
      field_path: '/last_accounts_year',
      before_value: 2024,
      after_value: 2025,
      diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
      detected_at: hooks.clock.now(),
      source_snapshot_id: null,
      event_type: 'accounts.updated',
    }
    await hooks.deps.sql.begin((tx) => appendChanges(tx as unknown as Sql, [change], hooks.clock.now()))
    const swept = await runWebhookDeliveries(hooks.deps)
    expect(swept.delivered).toBeGreaterThanOrEqual(1)
    expect(swept.retrying).toBeGreaterThanOrEqual(1)

    const res = await hooks.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    const deliveries = family(parse(await res.text()), 'plikt_webhook_deliveries_total')
    expect(deliveries.type).toBe('COUNTER')
    const count = (outcome: string) => Number(deliveries.metrics.find((s) => s.labels?.outcome === outcome)?.value ?? 0)
    // this instance's own counts: the sweep's result is what it recorded
    expect([count('delivered'), count('retrying')]).toEqual([swept.delivered, swept.retrying])
  } finally {
    await retireSubscribers(hooks)
    await receiver.stop()
    await hooks.stop()
  }
})
