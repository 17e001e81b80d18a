/**
 * What PostgreSQL spends per metered request, from the server's side: pg_stat_statements (every
 * statement the service ran, its calls and execution time) and the CPU of the cluster's processes
 * (/proc), over a wrk run of the metered company summary (200 keys, BENCH_CONNECTIONS in flight)
 * against one instance as shipped (`bun src/main.ts`). With BENCH_BEFORE=<a checkout> the same run
 * is made against that checkout's service too, rounds alternating, each on a fresh database — a
 * before-and-after of a change. The cluster is the benchmark's own (initdb defaults, fsync on,
 * shared_preload_libraries=pg_stat_statements), so the shared server is never reconfigured.
 * `--record` appends the table to bench/RESULTS.md.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import postgres from 'postgres'
import { PostgresCluster } from '../test/support/postgres-cluster.ts'
import { connections, load, machine, rounds, seconds } from './harness.ts'
import { dataDir, mintKeys, startFixtures, startService } from './service.ts'

const PATH = '/api/v1/company/984661185/summary'
const trees: [string, string][] = [['this tree', process.cwd()]]
if (process.env.BENCH_BEFORE) trees.unshift(['before', process.env.BENCH_BEFORE])

const pg = new PostgresCluster({ shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' })
pg.init()
pg.start()
const fixtures = await startFixtures()
const root = postgres(pg.url('postgres'), { max: 1, onnotice: () => {} })

/** user + system CPU of every process of the cluster, µs */
function clusterCpuUs(): number {
  const postmaster = Number(readFileSync(join(pg.data, 'postmaster.pid'), 'utf8').split('\n')[0])
  const pids = [
    postmaster,
    ...Bun.spawnSync(['pgrep', '-P', String(postmaster)])
      .stdout.toString()
      .trim()
      .split('\n')
      .map(Number),
  ]
  const tick = 1e6 / 100 // USER_HZ
  let sum = 0
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      sum += (Number(f[11]) + Number(f[12])) * tick
    } catch {
      // a backend that ended between the listing and the read
    }
  }
  return sum
}

interface Run {
  tree: string
  requests: number
  rps: number
  p99: number
  batches: number
  statements: number
  nested: number
  execUs: number
  cpuUs: number
  holdDeletes: number
}
const runs: Run[] = []
let n = 0
try {
  for (let round = 0; round < rounds; round++) {
    for (const [label, cwd] of trees) {
      const name = `metered_${n++}`
      await root.unsafe(`create database ${name}`)
      const data = dataDir()
      const service = await startService(
        {
          DATABASE_URL: pg.url(name),
          DATA_DIR: data.path,
          UPSTREAM_MODE: 'live',
          BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
          CENTRAL_BANK_URL: fixtures.centralBankUrl,
          // a checkout from before the role names (BENCH_BEFORE) reads the old ones
          BRREG_BASE_URL: fixtures.businessRegisterUrl,
          NORGES_BANK_BASE_URL: fixtures.centralBankUrl,
          TRUST_PROXY: 'true',
        },
        { cwd },
      )
      const sql = postgres(pg.url(name), { max: 1, onnotice: () => {} })
      await sql`create extension if not exists pg_stat_statements`
      try {
        const keys = await mintKeys(service.url, 200, 'pgcost')
        const url = `${service.url}${PATH}`
        const warm = await fetch(url, { headers: { authorization: `Bearer ${keys[0]}` } })
        if (!warm.ok) throw new Error(`warming failed: ${warm.status}`)
        await load({ url, bearers: keys, seconds: 2, connections, manyIps: true })
        const debits = async () =>
          Number((await sql`select count(*) as n from credit_ledger where kind = 'debit'`)[0]!.n)
        await Bun.sleep(500)
        const before = await debits()
        await sql`select pg_stat_statements_reset()`
        const cpu0 = clusterCpuUs()
        const r = await load({ url, bearers: keys, seconds, connections, manyIps: true })
        await Bun.sleep(500) // the last holds released
        const cpu1 = clusterCpuUs()
        const stats = await sql<{ query: string; calls: string; ms: number; toplevel: boolean }[]>`
          select query, calls, total_exec_time as ms, toplevel from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())`
        const requests = (await debits()) - before
        const mine = stats.filter((s) => !/pg_stat_statements|count\(\*\) as n from credit_ledger/.test(s.query))
        runs.push({
          tree: label,
          requests,
          rps: r.rps,
          p99: r.p99_ms,
          batches: mine.filter((s) => s.query.includes('with calls as')).reduce((a, s) => a + Number(s.calls), 0),
          statements: mine.filter((s) => s.toplevel).reduce((a, s) => a + Number(s.calls), 0),
          nested: mine.filter((s) => !s.toplevel).reduce((a, s) => a + Number(s.calls), 0),
          // nested statements' time is inside their top-level statement's
          execUs: mine.filter((s) => s.toplevel).reduce((a, s) => a + s.ms, 0) * 1000,
          cpuUs: cpu1 - cpu0,
          holdDeletes: mine
            .filter((s) => s.query.startsWith('delete from charge_holds'))
            .reduce((a, s) => a + Number(s.calls), 0),
        })
        for (const t of [...mine].sort((a, b) => Number(b.calls) - Number(a.calls)).slice(0, 8))
          console.error(`  ${t.calls} × ${t.query.replace(/\s+/g, ' ').slice(0, 110)}`)
        const x = runs.at(-1)!
        console.error(
          `${label}: ${x.requests} metered, ${x.batches} batches, ${(x.statements / x.batches).toFixed(2)} statements a batch, ${(x.execUs / x.requests).toFixed(0)} µs exec, ${(x.cpuUs / x.requests).toFixed(0)} µs CPU per request`,
        )
      } finally {
        await sql.end()
        await service.stop()
        data.remove()
        await root.unsafe(`drop database ${name} with (force)`)
      }
    }
  }
  const version = (await root`show server_version`)[0]!.server_version
  const table = [
    `### What PostgreSQL spends per metered request (pg_stat_statements and the cluster's CPU) — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`${process.env.BENCH_BEFORE ? `BENCH_BEFORE=${process.env.BENCH_BEFORE} ` : ''}npm run bench -- metered-pg\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, BENCH_ROUNDS=${rounds}, trees alternating, a fresh database each run); GET ${PATH} from 200 keys (one consumer each) through one instance as shipped (\`bun src/main.ts\`, default configuration, pool 10, access log to a file); PostgreSQL ${version} of the benchmark's own (initdb defaults, fsync on, pg_stat_statements.track=all). Statements: every top-level statement pg_stat_statements counted in the service's database during the run (the charge batch, the key lookups, the register cache, the hold releases …); nested: what those ran inside them (per charged call: the key_status function's query and the foreign-key check of the ledger row's consumer); exec µs: the top-level statements' total execution time; CPU µs: user + system time of every process of the cluster (backends, WAL writer, checkpointer …), per metered request charged. ${machine()}.`,
    '',
    '| tree | round | metered requests | req/s | p99 ms | charge batches | requests per batch | statements per batch | nested per request | hold releases (DELETE) | statements per request | exec µs per request | PostgreSQL CPU µs per request |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (x, i) =>
        `| ${x.tree} | ${Math.floor(i / trees.length) + 1} | ${x.requests} | ${x.rps.toFixed(0)} | ${x.p99.toFixed(1)} | ${x.batches} | ${(x.requests / x.batches).toFixed(2)} | ${(x.statements / x.batches).toFixed(2)} | ${(x.nested / x.requests).toFixed(2)} | ${x.holdDeletes} | ${(x.statements / x.requests).toFixed(2)} | ${(x.execUs / x.requests).toFixed(0)} | ${(x.cpuUs / x.requests).toFixed(0)} |`,
    ),
    '',
  ].join('\n')
  console.log(table)
  if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
} finally {
  await root.end()
  await fixtures.stop()
  pg.destroy()
}
