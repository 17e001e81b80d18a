/**
 * A metered request on real PostgreSQL beside the raw commit rate of the same PostgreSQL —
 * one-statement transactions from postgres.js at the same concurrency — in one run. Shared by the
 * metered benchmarks; needs PostgreSQL (BENCH_PG_URL, default the local server).
 */
import { appendFileSync } from 'node:fs'
import postgres from 'postgres'
import { connections, load, machine, rounds, seconds, startServer } from './harness.ts'

export interface MeteredBench {
  /** the path to load, e.g. /api/v1/test/metered */
  path: string
  /** what the request does, for the table */
  label: string
  /** the npm command that runs it */
  command: string
  /** extra environment of the server */
  env?: Record<string, string>
  /** the ratio the benchmark must reach, e.g. 0.5 */
  target?: number
}

export async function meteredVsCommits(b: MeteredBench): Promise<void> {
  const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const name = `plikt_bench_${Date.now()}`
  const root = postgres(admin, { max: 1, onnotice: () => {} })
  await root.unsafe(`create database ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  const dbUrl = url.toString()
  const pool = Number(process.env.BENCH_POOL ?? 10)

  try {
    const server = await startServer('bench/servers/plikt-pg.ts', { ...b.env, DATABASE_URL: dbUrl, DATABASE_POOL_SIZE: String(pool), ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef0123' })
    const base = `http://127.0.0.1:${server.port}`
    const adminH = { authorization: 'Bearer bench-admin-token-0123456789abcdef0123', 'content-type': 'application/json' }
    // Many callers, as in production: one key per account, so no single balance or window row is hot.
    const callers = Number(process.env.BENCH_CALLERS ?? 200)
    const keys: string[] = []
    for (let i = 0; i < callers; i++) {
      const consumer = (await (await fetch(`${base}/api/v1/admin/consumers`, { method: 'POST', headers: adminH, body: JSON.stringify({ email: `bench-${i}@example.no`, tier: 'enterprise' }) })).json()).data.consumer_id
      await fetch(`${base}/api/v1/admin/credits`, { method: 'POST', headers: adminH, body: JSON.stringify({ consumer_id: consumer, amount_ore: 100_000_000, reason: 'bench' }) })
      keys.push((await (await fetch(`${base}/api/v1/admin/keys`, { method: 'POST', headers: adminH, body: JSON.stringify({ consumer_id: consumer }) })).json()).data.plaintext_key)
    }
    const target = `${base}${b.path}`
    // warm up: JIT, pool, and (for company routes) the upstream cache
    await load({ url: target, bearers: keys, seconds: 2, connections })

    // Raw commit rate: the same PostgreSQL, `connections` concurrent one-statement transactions.
    const sql = postgres(dbUrl, { max: pool, onnotice: () => {} })
    await sql`create table bench_commits (id bigint generated always as identity primary key, at timestamptz not null default now())`
    const commitRate = async () => {
      let commits = 0
      const until = Date.now() + seconds * 1000
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (Date.now() < until) {
            await sql`insert into bench_commits default values`
            commits++
          }
        }),
      )
      return commits / seconds
    }
    // Each metered round is bracketed by a commit-rate run before and after it and compared with
    // their mean: this machine's commit rate drifts (it fell from ~15 000 to ~10 000/s over four
    // back-to-back runs with no other load), so a single run on one side would bias the ratio.
    // The median ratio over the rounds is reported.
    const runs: { r: Awaited<ReturnType<typeof load>>; commits: number }[] = []
    let before = await commitRate()
    for (let i = 0; i < rounds; i++) {
      const r = await load({ url: target, bearers: keys, seconds, connections })
      const after = await commitRate()
      runs.push({ r, commits: (before + after) / 2 })
      before = after
    }
    server.stop()
    await sql.end()
    const ratio = (x: (typeof runs)[number]) => x.r.rps / x.commits
    const median = [...runs].sort((x, y) => ratio(x) - ratio(y))[Math.floor(runs.length / 2)]!
    const table = [
      `### ${b.label.split(' (')[0]} on PostgreSQL vs raw commit rate — ${new Date().toISOString().slice(0, 10)}`,
      '',
      `Command: \`${b.command}\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, BENCH_ROUNDS=${rounds}, pool ${pool}); PostgreSQL ${(await root`show server_version`)[0]!.server_version} on the same machine; ${machine()}.`,
      '',
      '| round | GET ' + b.path + ` req/s (${callers} keys) | p50 / p99 ms | non-2xx | raw commits/s (mean of the runs before and after) | ratio |`,
      '|---|---|---|---|---|---|',
      ...runs.map((x, i) => `| ${i + 1}${x === median ? ' (median)' : ''} | ${x.r.rps.toFixed(0)} | ${x.r.p50_ms.toFixed(2)} / ${x.r.p99_ms.toFixed(2)} | ${x.r.non2xx} | ${x.commits.toFixed(0)} | ${(ratio(x) * 100).toFixed(0)} % |`),
      '',
      `What one request does: ${b.label}. Raw commits: one-statement transactions from postgres.js, ${connections} concurrent, pool ${pool}. Median ratio ${(ratio(median) * 100).toFixed(0)} %${b.target ? ` (target ≥ ${b.target * 100} %)` : ''}.`,
      '',
    ].join('\n')
    console.log(table)
    if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
  } finally {
    await root.unsafe(`drop database if exists ${name} with (force)`)
    await root.end()
  }
}
