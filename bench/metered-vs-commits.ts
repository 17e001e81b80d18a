/**
 * A metered request on real PostgreSQL beside the raw commit rate of the same PostgreSQL —
 * one-statement transactions from postgres.js at the same concurrency — in one run, from one key
 * and from many. The service runs as shipped (`bun src/main.ts`, default configuration, access log
 * on, TRUST_PROXY=true) against the fixture register in a process of its own. Needs PostgreSQL
 * (BENCH_PG_URL, default the local server). Also the embedded database's figure, on disk.
 */
import postgres from 'postgres'
import { connections, load, machine, rounds, seconds, type LoadResult } from './harness.ts'
import { dataDir, mintKeys, startFixtures, startService } from './service.ts'

export interface MeteredCase {
  /** how many keys the load rotates through (one consumer each) */
  keys: number
}

export interface MeteredBench {
  /** the path to load, e.g. /api/v1/company/984661185/summary */
  path: string
  /** what one request does, for the table */
  label: string
  /** the npm command that runs it */
  command: string
  cases: MeteredCase[]
  /** the ratio to the commit rate the benchmark must reach, e.g. 0.5, and the p99 ceiling, ms */
  target: { ratio: number; p99_ms: number }
}

const median = <T>(xs: T[], by: (x: T) => number) => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)]!

export async function meteredVsCommits(b: MeteredBench): Promise<string> {
  const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const name = `plikt_bench_${Date.now()}`
  const root = postgres(admin, { max: 1, onnotice: () => {} })
  await root.unsafe(`create database ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  const dbUrl = url.toString()
  const fixtures = await startFixtures()
  const data = dataDir()
  const upstreams = {
    UPSTREAM_MODE: 'live',
    BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
    CENTRAL_BANK_URL: fixtures.centralBankUrl,
    TRUST_PROXY: 'true',
  }
  const sections: string[] = []
  try {
    const service = await startService({ ...upstreams, DATABASE_URL: dbUrl, DATA_DIR: data.path })
    const pool = 10 // DATABASE_POOL_SIZE's default; the commit-rate client uses as many connections
    const most = Math.max(...b.cases.map((c) => c.keys))
    const keys = await mintKeys(service.url, most)
    const target = `${service.url}${b.path}`
    const warm = await fetch(target, { headers: { authorization: `Bearer ${keys[0]}` } })
    if (!warm.ok) throw new Error(`warming ${b.path} failed: ${warm.status} ${await warm.text()}`)
    await load({ url: target, bearers: keys, seconds: 2, connections, manyIps: true })

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
    // their mean: this machine's commit rate drifts over back-to-back runs, so a single run on one
    // side would bias the ratio. Cases alternate within a round. The median round is reported.
    const runs = new Map<MeteredCase, { r: LoadResult; commits: number }[]>(b.cases.map((c) => [c, []]))
    let before = await commitRate()
    for (let i = 0; i < rounds; i++) {
      for (const c of b.cases) {
        const r = await load({ url: target, bearers: keys.slice(0, c.keys), seconds, connections, manyIps: true })
        const after = await commitRate()
        runs.get(c)!.push({ r, commits: (before + after) / 2 })
        before = after
      }
    }
    await service.stop()
    await sql.end()
    const version = (await root`show server_version`)[0]!.server_version
    for (const c of b.cases) {
      const rs = runs.get(c)!
      const ratio = (x: (typeof rs)[number]) => x.r.rps / x.commits
      const mid = median(rs, ratio)
      sections.push(
        [
          `### ${b.label.split(' (')[0]} on PostgreSQL, ${c.keys === 1 ? 'one key' : `${c.keys} keys`}, vs raw commit rate — ${new Date().toISOString().slice(0, 10)}`,
          '',
          `Command: \`${b.command}\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, BENCH_ROUNDS=${rounds}); the service as shipped (\`bun src/main.ts\`, default configuration, access log at info to a file, TRUST_PROXY=true, 4 096 client addresses), PostgreSQL ${version} on the same machine, pool ${pool}; ${machine()}.`,
          '',
          `| round | GET ${b.path} req/s (${c.keys === 1 ? 'one key' : `${c.keys} keys, one consumer each`}) | p50 / p99 ms | non-2xx | raw commits/s (mean of the runs before and after) | ratio |`,
          '|---|---|---|---|---|---|',
          ...rs.map(
            (x, i) =>
              `| ${i + 1}${x === mid ? ' (median)' : ''} | ${x.r.rps.toFixed(0)} | ${x.r.p50_ms.toFixed(2)} / ${x.r.p99_ms.toFixed(2)} | ${x.r.non2xx} | ${x.commits.toFixed(0)} | ${(ratio(x) * 100).toFixed(0)} % |`,
          ),
          '',
          `What one request does: ${b.label}. Median ratio ${(ratio(mid) * 100).toFixed(0)} % (target ≥ ${b.target.ratio * 100} %), its p99 ${mid.r.p99_ms.toFixed(1)} ms (target ≤ ${b.target.p99_ms} ms), non-2xx over all rounds ${rs.reduce((n, x) => n + x.r.non2xx, 0)} (target 0).`,
          '',
        ].join('\n'),
      )
    }

    // The embedded database, on disk: the same route and load; no commit rate to compare with
    // (PGlite runs inside the service process and has one connection).
    const embeddedData = dataDir()
    try {
      const embedded = await startService({ ...upstreams, DATA_DIR: embeddedData.path })
      const ekeys = await mintKeys(embedded.url, most)
      const etarget = `${embedded.url}${b.path}`
      await load({ url: etarget, bearers: ekeys, seconds: 2, connections, manyIps: true })
      const rows: string[] = []
      for (const c of b.cases) {
        const rs: LoadResult[] = []
        for (let i = 0; i < rounds; i++)
          rs.push(await load({ url: etarget, bearers: ekeys.slice(0, c.keys), seconds, connections, manyIps: true }))
        const m = median(rs, (r) => r.rps)
        rows.push(
          `| ${c.keys === 1 ? 'one key' : `${c.keys} keys`} | ${m.rps.toFixed(0)} (rounds: ${rs.map((r) => r.rps.toFixed(0)).join(', ')}) | ${m.p50_ms.toFixed(2)} / ${m.p99_ms.toFixed(2)} | ${rs.reduce((n, r) => n + r.non2xx, 0)} |`,
        )
      }
      await embedded.stop()
      sections.push(
        [
          `### ${b.label.split(' (')[0]} on the embedded database (on disk) — ${new Date().toISOString().slice(0, 10)}`,
          '',
          `Command: \`${b.command}\`; the same service configuration without DATABASE_URL; ${machine()}.`,
          '',
          '| keys | req/s (median round) | p50 / p99 ms | non-2xx |',
          '|---|---|---|---|',
          ...rows,
          '',
        ].join('\n'),
      )
    } finally {
      embeddedData.remove()
    }
  } finally {
    await fixtures.stop()
    data.remove()
    await root.unsafe(`drop database if exists ${name} with (force)`)
    await root.end()
  }
  return sections.join('\n')
}
