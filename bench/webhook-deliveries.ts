/**
 * Signed webhook deliveries per second to a local receiver, one instance against two (targets:
 * 1 instance ≥ 1 000/s; 2 instances ≥ 1.7 ×). Needs PostgreSQL (two instances share it;
 * BENCH_PG_URL, default the local server). Each round starts the instances as a user starts them
 * (`bun src/main.ts`, WEBHOOK_ALLOW_LOOPBACK=true for the local receiver, UPSTREAM_MODE=fixtures
 * so that nothing reaches the internet), then appends changes that queue BENCH_DELIVERIES
 * deliveries across 100 subscriptions in one transaction, and times the receiver's first to last
 * arrival. The receiver checks every signature. Rounds alternate 1 and 2 instances; the ratio is
 * the median round's.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import postgres from 'postgres'
import { createSubscription } from '../src/domain/webhooks/subscriptions.ts'
import { serverKeys } from '../src/lib/server-secret.ts'
import { appendChanges, type NewChange } from '../src/store/changes.ts'
import { openPostgres, type Sql } from '../src/store/db.ts'
import { loadMigrations, migrate } from '../src/store/migrate.ts'
import { liveWebhookTransport } from '../src/upstream/webhooks/live.ts'
import { cpuBusy, machine, rounds } from './harness.ts'
import { dataDir, SERVER_SECRET, startService, type Service } from './service.ts'

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000)
const CONSUMERS = 10
const PER_CONSUMER = 10
const SUBSCRIPTIONS = CONSUMERS * PER_CONSUMER

const secrets = new Map<string, string>()
let round: { ids: Set<string>; first: number; last: number; bad: number; expected: number; done: () => void } | null =
  null
const receiver = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    const body = await req.text()
    const r = round
    if (!r) return new Response('no round', { status: 503 })
    const msg = JSON.parse(body) as { subscription_id: string; change: { id: string } }
    const header = req.headers.get('x-service-signature') ?? ''
    const t = /t=(\d+)/.exec(header)?.[1]
    const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1]
    const secret = secrets.get(msg.subscription_id)
    const ok =
      !!(t && v1 && secret) &&
      timingSafeEqual(Buffer.from(v1!, 'hex'), createHmac('sha256', secret!).update(`${t}.${body}`).digest())
    if (!ok) r.bad++
    const now = performance.now()
    if (r.ids.size === 0) r.first = now
    r.ids.add(`${msg.subscription_id}/${msg.change.id}`)
    r.last = now
    if (r.ids.size === r.expected) r.done()
    return new Response(null, { status: 204 })
  },
})

const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `plikt_bench_webhooks_${Date.now()}`
const root = postgres(admin, { max: 1, onnotice: () => {} })
await root.unsafe(`create database ${name}`)
const url = new URL(admin)
url.pathname = `/${name}`
const dbUrl = url.toString()
const db = await openPostgres(dbUrl, 4)

const results: { instances: number; rate: number; bad: number; busy: number }[] = []
try {
  await migrate(db.sql, await loadMigrations())
  const env = {
    sql: db.sql,
    transport: liveWebhookTransport(),
    policy: { allowLoopback: true },
    secretKey: serverKeys(SERVER_SECRET).webhookSecrets,
  }
  for (let c = 0; c < CONSUMERS; c++) {
    const [consumer] = await db.sql<
      { id: string }[]
    >`insert into consumers (email, tier) values (${`bench-hooks-${c}@example.no`}, 'professional') returning id`
    for (let s = 0; s < PER_CONSUMER; s++) {
      const sub = await createSubscription(
        env,
        consumer!.id,
        { webhook_url: `http://127.0.0.1:${receiver.port}/hook/${c}/${s}` },
        new Date(),
      )
      secrets.set(sub.id, sub.secret)
    }
  }
  const changesPerRound = Math.ceil(DELIVERIES / SUBSCRIPTIONS)
  let org = 700_000_000
  const plan = Array.from({ length: rounds }, () => [1, 2]).flat()
  for (const instances of plan) {
    const dirs = Array.from({ length: instances }, () => dataDir())
    const services: Service[] = await Promise.all(
      dirs.map((d) => startService({ DATABASE_URL: dbUrl, DATA_DIR: d.path, WEBHOOK_ALLOW_LOOPBACK: 'true' })),
    )
    try {
      const finished = new Promise<void>((resolve) => {
        round = { ids: new Set(), first: 0, last: 0, bad: 0, expected: changesPerRound * SUBSCRIPTIONS, done: resolve }
      })
      const now = new Date()
      const changes: NewChange[] = Array.from({ length: changesPerRound }, () => ({
        source: 'register',
        entity_type: 'annual_accounts',
        entity_id: String(org++),
        change_type: 'updated',
        field_path: '/last_accounts_year',
        before_value: 2024,
        after_value: 2025,
        diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
        detected_at: now,
        source_snapshot_id: null,
        event_type: 'accounts.updated',
      }))
      await db.sql.begin((tx) => appendChanges(tx as unknown as Sql, changes, now))
      const busy = cpuBusy()
      await Promise.race([
        finished,
        Bun.sleep(600_000).then(() => Promise.reject(new Error(`round timed out at ${round!.ids.size}`))),
      ])
      const r = round!
      const rate = (r.ids.size - 1) / ((r.last - r.first) / 1000)
      results.push({ instances, rate, bad: r.bad, busy: busy() })
      console.log(
        `${instances} instance(s): ${r.ids.size} deliveries at ${rate.toFixed(0)}/s (bad signatures: ${r.bad}; cores ${results.at(-1)!.busy.toFixed(0)} % busy)`,
      )
    } finally {
      round = null
      await Promise.all(services.map((s) => s.stop()))
      for (const d of dirs) d.remove()
    }
  }
} finally {
  await db.close()
  await root.unsafe(`drop database if exists ${name} with (force)`)
  await root.end()
  receiver.stop(true)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const one = results.filter((r) => r.instances === 1).map((r) => r.rate)
const two = results.filter((r) => r.instances === 2).map((r) => r.rate)
const ratios = one.map((o, i) => two[i]! / o)
const table = [
  `### Signed webhook deliveries per second, 1 instance against 2 — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- webhook-deliveries\` (BENCH_DELIVERIES=${DELIVERIES}, BENCH_ROUNDS=${rounds}, rounds alternating 1 and 2 instances); each instance \`bun src/main.ts\` on one PostgreSQL 15 (pool 10), the receiver a Bun.serve in the benchmark process checking every signature; ${SUBSCRIPTIONS} subscriptions; machine: ${machine()}.`,
  '',
  '| instances | deliveries/s per round | median | machine busy during the rounds (all cores) |',
  '|---|---|---|---|',
  `| 1 | ${one.map((r) => r.toFixed(0)).join(', ')} | ${median(one).toFixed(0)} | ${results
    .filter((r) => r.instances === 1)
    .map((r) => `${r.busy.toFixed(0)} %`)
    .join(', ')} |`,
  `| 2 | ${two.map((r) => r.toFixed(0)).join(', ')} | ${median(two).toFixed(0)} | ${results
    .filter((r) => r.instances === 2)
    .map((r) => `${r.busy.toFixed(0)} %`)
    .join(', ')} |`,
  '',
  `Ratio 2 : 1 per round: ${ratios.map((r) => `${r.toFixed(2)} ×`).join(', ')}; median ${median(ratios).toFixed(2)} ×. Bad signatures: ${results.reduce((n, r) => n + r.bad, 0)}. Targets: 1 instance ≥ 1 000/s (${median(one) >= 1000 ? 'met' : 'NOT met'}); 2 instances ≥ 1.7 × (${median(ratios) >= 1.7 ? 'met' : 'NOT met'}).`,
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
// The webhook transport's pooled connections to the receiver keep the event loop alive after the
// receiver has stopped: nothing is left to wait for.
process.exit(0)
