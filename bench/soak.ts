/**
 * The soak (issue 33 item 6): two instances as shipped (`bun src/main.ts`, access log on, to a
 * file) on a PostgreSQL cluster of the benchmark's own (initdb, stock settings but for the
 * evidence it logs: pg_stat_statements, log_checkpoints, autovacuum and slow-statement logs),
 * behind HAProxy with docs/deploy.md's configuration, under a steady mixed load from an open-loop
 * client — public reads, metered REST and MCP calls, sandbox reads, bad input — for
 * BENCH_SOAK_MINUTES (20) at BENCH_SOAK_RPS (450). Per minute: p50 / p99 / max per kind, non-2xx
 * other than the bad input's 400s, each instance's RSS and event-loop lag, the database's size,
 * checkpoints, autovacuum runs and the server's own time in the charge statement; then every
 * server log event (checkpoint, autovacuum, slow statement) beside the minute it fell in, and the
 * ledger checked to the øre. `--record` appends the tables to bench/RESULTS.md.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import http from 'node:http'
import postgres from 'postgres'
import { freePort, localConfig, startHaproxy } from '../test/support/haproxy.ts'
import { PostgresCluster } from '../test/support/postgres-cluster.ts'
import { machine } from './harness.ts'
import { dataDir, mintKeys, startFixtures, startService, type Service } from './service.ts'

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 20)
const RPS = Number(process.env.BENCH_SOAK_RPS ?? 450)
const KEYS = 50
const ORG = '984661185'
const METRICS_TOKEN = 'soak-metrics-token-0123456789abcdef'

type Kind = 'public' | 'metered' | 'mcp' | 'sandbox' | 'bad'
/** The mix, per 20 requests. */
const MIX: Kind[] = [
  ...Array<Kind>(8).fill('public'),
  ...Array<Kind>(6).fill('metered'),
  ...Array<Kind>(2).fill('mcp'),
  ...Array<Kind>(2).fill('sandbox'),
  ...Array<Kind>(2).fill('bad'),
]
const KINDS: Kind[] = ['public', 'metered', 'mcp', 'sandbox', 'bad']

const pg = new PostgresCluster({
  shared_preload_libraries: 'pg_stat_statements',
  log_checkpoints: 'on',
  log_autovacuum_min_duration: '0',
  log_min_duration_statement: '100',
  log_lock_waits: 'on',
  log_line_prefix: "'%m [%p] '",
  track_io_timing: 'on',
  track_wal_io_timing: 'on',
})
const fixtures = await startFixtures()
/** each instance's log, kept for reading after the run */
const logs = ['a', 'b'].map((x) => `/tmp/plikt-soak-${Date.now()}-${x}.log`)
const dirs: { remove(): void }[] = []
const services: Service[] = []
let haproxy: Awaited<ReturnType<typeof startHaproxy>> | null = null
const admin = () => postgres(pg.url('plikt'), { max: 2, onnotice: () => {} })
let sql: ReturnType<typeof admin> | null = null

try {
  pg.init()
  pg.start()
  const root = postgres(pg.url('postgres'), { max: 1, onnotice: () => {} })
  await root.unsafe('create database plikt')
  await root.end()
  sql = admin()
  await sql`create extension if not exists pg_stat_statements`

  for (let i = 0; i < 2; i++) {
    const d = dataDir()
    dirs.push(d)
    services.push(
      await startService(
        {
          DATABASE_URL: pg.url('plikt'),
          DATA_DIR: d.path,
          UPSTREAM_MODE: 'live',
          BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
          CENTRAL_BANK_URL: fixtures.centralBankUrl,
          TRUST_PROXY: 'true',
          METRICS_TOKEN,
          DRAIN_GRACE_MS: '2000',
        },
        { logFile: logs[i] },
      ),
    )
  }
  const port = freePort()
  haproxy = await startHaproxy(
    localConfig(
      port,
      services.map((s) => new URL(s.url).host),
    ),
    port,
  )
  const base = haproxy.url
  const keys = await mintKeys(services[0]!.url, KEYS, 'soak')
  const warm = await fetch(`${base}/api/v1/company/${ORG}/summary`, { headers: { authorization: `Bearer ${keys[0]}` } })
  if (!warm.ok) throw new Error(`warming the summary failed: ${warm.status} ${await warm.text()}`)

  const rpc = (id: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_company_summary', arguments: { org_number: ORG } },
    })
  let n = 0
  const request = (kind: Kind): [string, RequestInit] => {
    const i = n++
    const key = keys[i % KEYS]!
    switch (kind) {
      case 'public':
        return i % 2
          ? [`${base}/api/v1/public/deadlines?year=2026`, {}]
          : [`${base}/api/v1/public/obligations?entity_type=AS`, {}]
      case 'metered':
        return [`${base}/api/v1/company/${ORG}/summary`, { headers: { authorization: `Bearer ${key}` } }]
      case 'mcp':
        return [
          `${base}/api/mcp`,
          {
            method: 'POST',
            body: rpc(i),
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          },
        ]
      case 'sandbox':
        return [
          `${base}/api/v1/sandbox/company/999660001/summary`,
          { headers: { authorization: `Bearer svc_sandbox_test_soak${i % KEYS}` } },
        ]
      case 'bad':
        // an org number that fails its checksum: a 400, nothing charged
        return [`${base}/api/v1/company/123456789/summary`, { headers: { authorization: `Bearer ${key}` } }]
    }
  }
  const expected = (kind: Kind, status: number) => (kind === 'bad' ? status === 400 : status === 200)

  /**
   * Clients from 64 addresses of their own (127.0.1.1–64, kept-alive connections per address), as
   * many callers reach HAProxy in production: HAProxy appends the caller's address to
   * X-Forwarded-For and the instances (TRUST_PROXY=true) count per-IP limits by it. From one
   * address every caller would share one per-IP budget — and with it HAProxy's own health checks,
   * which come from the same loopback address.
   */
  const agents = Array.from({ length: 64 }, (_, i) => {
    const localAddress = `127.0.1.${i + 1}`
    return {
      localAddress,
      agent: new http.Agent({ keepAlive: true, maxSockets: 16, localAddress } as http.AgentOptions),
    }
  })
  const send = (url: string, init: RequestInit, i: number) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(url)
      const { agent, localAddress } = agents[i % agents.length]!
      const r = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname + u.search,
          method: init.method ?? 'GET',
          headers: init.headers as Record<string, string>,
          agent,
          localAddress,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
          res.on('error', reject)
        },
      )
      r.on('error', reject)
      r.end(init.body as string | undefined)
    })

  // One probe of every kind before the clock starts: a wrong path fails here, not 20 minutes on.
  for (const kind of KINDS) {
    const [url, init] = request(kind)
    const r = await send(url, init, 0)
    if (!expected(kind, r.status)) throw new Error(`${kind} ${url}: ${r.status} ${r.body}`)
  }

  interface Minute {
    lat: Record<Kind, number[]>
    failed: Record<Kind, number>
  }
  const fresh = (): Minute => ({
    lat: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, number[]>,
    failed: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
  })
  const minutes: Minute[] = Array.from({ length: MINUTES }, fresh)
  /** what the requests not answered as expected got, by kind */
  const outcomes = new Map<string, number>()
  const firstFailure = new Map<string, string>()
  const t0 = performance.now()
  const startedAt = new Date()
  const end = t0 + MINUTES * 60_000
  const inFlight = new Set<Promise<void>>()
  let sent = 0

  const fire = (kind: Kind) => {
    const [url, init] = request(kind)
    const at = performance.now()
    const minute = Math.floor((at - t0) / 60_000)
    const p = send(url, init, sent)
      .then(async (r) => {
        const m = minutes[minute]
        if (!m) return
        m.lat[kind].push(performance.now() - at)
        if (!expected(kind, r.status)) {
          m.failed[kind]++
          const body = r.body
          const what = `${kind} ${r.status} ${/"error_code":"([A-Z_]+)"/.exec(body)?.[1] ?? body.replace(/\s+/g, ' ').slice(0, 50)}`
          outcomes.set(what, (outcomes.get(what) ?? 0) + 1)
          if (!firstFailure.has(what))
            firstFailure.set(what, `minute ${minute + 1}, ${new Date().toISOString().slice(11, 23)}`)
        }
      })
      .catch((e: unknown) => {
        const m = minutes[minute]
        if (m) m.failed[kind]++
        outcomes.set(`${kind} ${String(e).slice(0, 60)}`, (outcomes.get(`${kind} ${String(e).slice(0, 60)}`) ?? 0) + 1)
      })
      .finally(() => inFlight.delete(p))
    inFlight.add(p)
  }

  // Per-minute samples of the instances and the database, taken at each minute's end.
  interface Sample {
    rss: number[]
    heap: number[]
    lagP99: number[]
    lagMax: number[]
    dbMb: number
    checkpoints: number
    buffersCheckpoint: number
    autovacuums: number
    chargeMs: number
    chargeCalls: number
    deadHolds: number
    walMb: number
    walSyncMs: number
    walFiles: number
  }
  const scrape = async (s: Service, name: string) => {
    const text = await (
      await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text()
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN)
  }
  const stats = async () => {
    const db = sql!
    const [bg] = await db<
      { c: string; b: string }[]
    >`select checkpoints_timed + checkpoints_req as c, buffers_checkpoint as b from pg_stat_bgwriter`
    const [av] = await db<
      { n: string; dead: string }[]
    >`select sum(autovacuum_count) as n, sum(n_dead_tup) filter (where relname = 'charge_holds') as dead from pg_stat_user_tables`
    const [size] = await db<{ mb: number }[]>`select pg_database_size('plikt') / 1048576.0 as mb`
    const [wal] = await db<{ mb: number; sync_ms: number; files: number }[]>`
      select wal_bytes / 1048576.0 as mb, wal_sync_time + wal_write_time as sync_ms, (select count(*)::int from pg_ls_waldir()) as files
      from pg_stat_wal`
    const [charge] = await db<{ ms: number; calls: string }[]>`
      select coalesce(sum(total_exec_time), 0) as ms, coalesce(sum(calls), 0) as calls from pg_stat_statements
      where query like '%with calls as%'`
    return {
      checkpoints: Number(bg!.c),
      buffersCheckpoint: Number(bg!.b),
      autovacuums: Number(av!.n),
      deadHolds: Number(av!.dead ?? 0),
      dbMb: Number(size!.mb),
      chargeMs: Number(charge!.ms),
      chargeCalls: Number(charge!.calls),
      walMb: Number(wal!.mb),
      walSyncMs: Number(wal!.sync_ms),
      walFiles: Number(wal!.files),
    }
  }
  const samples: Sample[] = []
  let last = await stats()
  const sampler = (async () => {
    for (let m = 1; m <= MINUTES; m++) {
      await Bun.sleep(Math.max(0, t0 + m * 60_000 - performance.now()))
      const now = await stats()
      samples.push({
        rss: services.map((s) => s.rssMb()),
        heap: await Promise.all(services.map((s) => scrape(s, 'plikt_nodejs_heap_size_used_bytes'))),
        lagP99: await Promise.all(services.map((s) => scrape(s, 'plikt_nodejs_eventloop_lag_p99_seconds'))),
        lagMax: await Promise.all(services.map((s) => scrape(s, 'plikt_nodejs_eventloop_lag_max_seconds'))),
        dbMb: now.dbMb,
        checkpoints: now.checkpoints - last.checkpoints,
        buffersCheckpoint: now.buffersCheckpoint - last.buffersCheckpoint,
        autovacuums: now.autovacuums - last.autovacuums,
        chargeMs: now.chargeMs - last.chargeMs,
        chargeCalls: now.chargeCalls - last.chargeCalls,
        deadHolds: now.deadHolds,
        walMb: now.walMb - last.walMb,
        walSyncMs: now.walSyncMs - last.walSyncMs,
        walFiles: now.walFiles,
      })
      last = now
      const row = minutes[m - 1]!
      process.stderr.write(
        `minute ${m}: metered p99 ${pct(row.lat.metered, 99).toFixed(1)} ms, rss ${samples
          .at(-1)!
          .rss.map((r) => r.toFixed(0))
          .join('/')} MB, db ${now.dbMb.toFixed(0)} MB\n`,
      )
    }
  })()

  // Open loop: every 10 ms, the requests due by now, whatever is still in flight.
  let tick = 0
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * RPS)
    while (sent < due) fire(MIX[sent++ % MIX.length]!)
    tick++
    await Bun.sleep(10)
  }
  await Promise.all([...inFlight])
  await sampler

  // The ledger to the øre: every soak consumer's balance against its ledger, every charge against a call.
  const [ledger] = await sql<{ consumers: number; differ: number; debits: string; refunds: string }[]>`
    select count(*)::int as consumers,
           count(*) filter (where b.balance_ore <> (select coalesce(sum(amount_ore), 0) from credit_ledger l where l.consumer_id = b.consumer_id))::int as differ,
           (select count(*) from credit_ledger where kind = 'debit') as debits,
           (select count(*) from credit_ledger where kind = 'refund') as refunds
    from credit_balances b`
  const [ledgerSize] = await sql<{ mb: number; holds_mb: number }[]>`
    select pg_total_relation_size('credit_ledger') / 1048576.0 as mb, pg_total_relation_size('charge_holds') / 1048576.0 as holds_mb`
  const top = await sql<{ query: string; calls: string; mean_ms: number; total_ms: number }[]>`
    select left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query, calls, mean_exec_time as mean_ms, total_exec_time as total_ms
    from pg_stat_statements where dbid = (select oid from pg_database where datname = 'plikt')
    order by total_exec_time desc limit 6`

  // The server's log events, each placed in the soak minute it fell in.
  const events = pg
    .readLog()
    .split('\n')
    .flatMap((line) => {
      const m = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \S+) \[\d+\] (.*)$/.exec(line)
      if (!m) return []
      const at = new Date(m[1]!.replace(' ', 'T').replace(/ (UTC|GMT)$/, 'Z'))
      const minute = Math.floor((at.getTime() - startedAt.getTime()) / 60_000) + 1
      if (minute < 1 || minute > MINUTES) return []
      const text = m[2]!
      // autovacuum runs are counted per minute in the table; everything else is listed
      if (/checkpoint (starting|complete)|duration: |still waiting|deadlock|terminating|FATAL|ERROR/.test(text))
        return [{ minute, at: m[1]!.slice(11, 23), text: text.slice(0, 220) }]
      return []
    })

  // What the instances themselves took (the access log's duration_ms), per minute: a client-side
  // stall (the machine, the client, HAProxy) shows in the table's latencies but not here.
  const serverMax = logs.map((file) => {
    const max = new Array<number>(MINUTES).fill(0)
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = /"ts":"([^"]+)".*"msg":"request".*"duration_ms":([\d.]+)/.exec(line)
      if (!m) continue
      const minute = Math.floor((Date.parse(m[1]!) - startedAt.getTime()) / 60_000)
      if (minute >= 0 && minute < MINUTES) max[minute] = Math.max(max[minute]!, Number(m[2]))
    }
    return max
  })
  // The instances' own warnings and errors, in the minute they fell in.
  const serviceEvents = logs.flatMap((file, i) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line) => {
        if (!/"level":"(warn|error)"/.test(line)) return []
        const at = /"(?:time|ts|timestamp)":"([^"]+)"/.exec(line)?.[1]
        const minute = at ? Math.floor((Date.parse(at) - startedAt.getTime()) / 60_000) + 1 : 0
        if (minute < 1 || minute > MINUTES) return []
        return [{ minute, at: at!.slice(11, 23), text: `instance ${'ab'[i]}: ${line.slice(0, 200)}` }]
      }),
  )
  const fmt = (xs: number[]) => (xs.length ? `${pct(xs, 50).toFixed(1)} / ${pct(xs, 99).toFixed(1)}` : '–')
  const rows = minutes.map((m, i) => {
    const s = samples[i]!
    const failed = KINDS.reduce((a, k) => a + m.failed[k], 0)
    const count = KINDS.reduce((a, k) => a + m.lat[k].length, 0)
    return `| ${i + 1} | ${count} | ${fmt(m.lat.public)} | ${fmt(m.lat.metered)} (max ${Math.max(0, ...m.lat.metered).toFixed(0)}) | ${fmt(m.lat.mcp)} | ${fmt(m.lat.sandbox)} | ${fmt(m.lat.bad)} | ${failed} | ${s.rss.map((r) => r.toFixed(0)).join(' / ')} | ${s.heap.map((h) => (h / 1048576).toFixed(0)).join(' / ')} | ${s.lagP99.map((l, j) => `${(l * 1000).toFixed(1)} (${(s.lagMax[j]! * 1000).toFixed(0)})`).join(' / ')} | ${serverMax.map((x) => x[i]!.toFixed(0)).join(' / ')} | ${s.dbMb.toFixed(0)} | ${s.walMb.toFixed(0)} MB, ${s.walSyncMs.toFixed(0)} ms, ${s.walFiles} files | ${s.checkpoints} (${s.buffersCheckpoint} buf) | ${s.autovacuums} | ${s.chargeCalls ? ((s.chargeMs * 1000) / s.chargeCalls).toFixed(0) : '–'} | ${s.deadHolds} |`
  })
  const total = minutes.reduce((a, m) => a + KINDS.reduce((b, k) => b + m.lat[k].length, 0), 0)
  const failedTotal = minutes.reduce((a, m) => a + KINDS.reduce((b, k) => b + m.failed[k], 0), 0)
  const meteredP99 = minutes.map((m) => pct(m.lat.metered, 99))
  const typical = pct(meteredP99, 50)
  const excursions = meteredP99.flatMap((p, i) => (p > Math.max(50, typical * 5) ? [i + 1] : []))
  const version = (await sql`show server_version`)[0]!.server_version
  const table = [
    `### Soak: two instances behind HAProxy on PostgreSQL, ${MINUTES} minutes at ${RPS} req/s — ${startedAt.toISOString().slice(0, 10)}`,
    '',
    `Command: \`npm run bench -- soak\` (BENCH_SOAK_MINUTES=${MINUTES}, BENCH_SOAK_RPS=${RPS}), started ${startedAt.toISOString().slice(0, 16)}Z; two instances as shipped (\`bun src/main.ts\`, default configuration, access log at info to a file, TRUST_PROXY=true, METRICS_TOKEN), HAProxy ${'with docs/deploy.md §4’s configuration (cache on)'}, PostgreSQL ${version} of the benchmark's own (initdb defaults: fsync on, shared_buffers 128MB, autovacuum on, checkpoint_timeout 5min, min_wal_size 80MB; plus pg_stat_statements, track_wal_io_timing and logging), an open-loop client in one Bun process from 64 loopback addresses (HAProxy appends each to X-Forwarded-For); mix per 20 requests: 8 public (deadlines, obligations), 6 metered REST summaries over ${KEYS} keys, 2 MCP tools/call, 2 sandbox summaries, 2 bad input (400). ${machine()}.`,
    '',
    '| min | requests | public p50 / p99 ms | metered REST p50 / p99 ms | MCP p50 / p99 | sandbox p50 / p99 | bad input p50 / p99 | failed | RSS MB (a / b) | heap used MB (a / b) | event-loop lag p99 (max) ms (a / b) | slowest request in the instance ms (a / b) | DB MB | WAL written, write+sync time, files in pg_wal | checkpoints | autovacuums | charge statement µs (server, mean) | charge_holds dead rows |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `${total} requests (${(total / (MINUTES * 60)).toFixed(0)}/s), ${failedTotal} not answered as expected${outcomes.size ? ` (${[...outcomes].map(([k, v]) => `${k}: ${v}, first at ${firstFailure.get(k)}`).join('; ')})` : ''}. Ledger: ${ledger!.consumers} balances, ${ledger!.differ} differing from their ledger; ${ledger!.debits} debits, ${ledger!.refunds} refunds; credit_ledger ${Number(ledgerSize!.mb).toFixed(1)} MB, charge_holds ${Number(ledgerSize!.holds_mb).toFixed(2)} MB at the end. Metered p99 excursions (over 5 × the median minute's ${typical.toFixed(1)} ms and 50 ms): ${excursions.length ? excursions.join(', ') : 'none'}.`,
    '',
    'The statements the server spent most time on:',
    '',
    '| statement | calls | mean ms | total ms |',
    '|---|---|---|---|',
    ...top.map(
      (t) =>
        `| \`${t.query.replace(/\|/g, '\\|')}\` | ${t.calls} | ${t.mean_ms.toFixed(3)} | ${t.total_ms.toFixed(0)} |`,
    ),
    '',
    `The server's log during the soak (checkpoints, statements over 100 ms, lock waits, errors; autovacuum runs are the table's column): ${events.length} events.`,
    '',
    ...events.slice(0, 200).map((e) => `- minute ${e.minute}, ${e.at}: ${e.text.replace(/\|/g, '\\|')}`),
    '',
    `The instances' warnings and errors (logs kept in ${logs.join(', ')}): ${serviceEvents.length}.`,
    '',
    ...serviceEvents.slice(0, 30).map((e) => `- minute ${e.minute}, ${e.at}: ${e.text.replace(/\|/g, '\\|')}`),
    '',
  ].join('\n')
  console.log(table)
  if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
} finally {
  await sql?.end()
  for (const s of services) await s.stop().catch(() => {})
  await haproxy?.stop()
  await fixtures.stop()
  for (const d of dirs) d.remove()
  pg.destroy()
}

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}
