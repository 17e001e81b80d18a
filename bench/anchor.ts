/**
 * The daily Merkle anchor over 1 000 000 snapshot hashes (target: under 15 s, RSS under 300 MB).
 * The archive is seeded with a million snapshots on one day; the service starts as a user starts
 * it (`bun src/main.ts`) and the anchor job is run through the operator route. Measured on the
 * on-disk embedded database (PGlite runs inside the service process, so its memory is in the RSS)
 * and on PostgreSQL (BENCH_PG_URL, default the local server; skipped when none answers).
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { openEmbedded, openPostgres, type Database } from '../src/store/db.ts'
import { loadMigrations, migrate } from '../src/store/migrate.ts'
import { machine } from './harness.ts'
import { runJob, sampleRss, startService } from './service.ts'

const LEAVES = Number(process.env.BENCH_LEAVES ?? 1_000_000)
/** yesterday (UTC): the one complete day the run has to anchor */
const DAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)

async function seed(db: Database) {
  await migrate(db.sql, await loadMigrations())
  const started = Date.now()
  // spread over the day in steps of 86 ms (a million fit in 86 000 s), at millisecond precision as the service writes them
  await db.sql`
    insert into source_snapshots (system, resource_key, url, http_status, content_sha256, fetched_at)
    select 'enhetsregisteret', 'enhet:' || g, 'https://data.brreg.no/enhetsregisteret/api/enheter/' || g, 200, md5(g::text) || md5((g + 1)::text),
      ${DAY}::timestamptz + g * (86400000.0 / ${LEAVES}) * interval '1 millisecond'
    from generate_series(0, ${LEAVES - 1}) g`
  console.log(`seeded ${LEAVES} snapshots in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

async function measure(env: Record<string, string>) {
  const service = await startService(env)
  try {
    const idle = service.rssMb()
    const rss = sampleRss(service.pid)
    const run = await runJob(service.url, 'anchor')
    const peak = rss.stop()
    const big = run.result.anchored.find((a: { day: string }) => a.day === DAY)
    if (!big || big.leaf_count !== LEAVES)
      throw new Error(`the anchor of ${DAY} is missing or short: ${JSON.stringify(run.result).slice(0, 300)}`)
    return { ms: run.ms, idle, peak, days: run.result.anchored.length }
  } finally {
    await service.stop()
  }
}

const rows: string[] = []
const dir = mkdtempSync(join(tmpdir(), 'plikt-bench-anchor-'))
try {
  const db = await openEmbedded(dir)
  await seed(db)
  await db.close()
  const r = await measure({ DATA_DIR: dir })
  console.log('embedded', r)
  rows.push(
    `| embedded PGlite (in the service process) | ${(r.ms / 1000).toFixed(1)} s | ${Math.round(LEAVES / (r.ms / 1000)).toLocaleString('en')} | ${r.idle.toFixed(0)} → ${r.peak.toFixed(0)} MB |`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `plikt_bench_anchor_${Date.now()}`
const root = postgres(admin, { max: 1, onnotice: () => {} })
let pgReady = false
try {
  await root.unsafe(`create database ${name}`)
  pgReady = true
} catch (e) {
  console.log(`PostgreSQL skipped: ${String(e)}`)
}
if (pgReady) {
  const url = new URL(admin)
  url.pathname = `/${name}`
  try {
    const db = await openPostgres(url.toString(), 2)
    await seed(db)
    await db.close()
    const r = await measure({ DATABASE_URL: url.toString() })
    console.log('postgres', r)
    rows.push(
      `| PostgreSQL (separate process) | ${(r.ms / 1000).toFixed(1)} s | ${Math.round(LEAVES / (r.ms / 1000)).toLocaleString('en')} | ${r.idle.toFixed(0)} → ${r.peak.toFixed(0)} MB |`,
    )
  } finally {
    await root.unsafe(`drop database if exists ${name} with (force)`)
  }
}
await root.end()

const table = [
  `### Daily Merkle anchor over ${LEAVES.toLocaleString('en')} snapshot hashes — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- anchor\`; the service started as \`bun src/main.ts\`, the anchor run through \`POST /api/v1/admin/jobs/anchor/run\` (time: the tick's claimed_at → finished_at; it builds the one seeded day, reading it in pages of 10 000, 1 024-leaf blocks, RFC 6962 over SHA-256, and writes the anchor and its ~1 000 block roots); RSS of the service process sampled every 50 ms; machine: ${machine()}.`,
  '',
  '| database | time | leaves/s | service RSS idle → peak |',
  '|---|---|---|---|',
  ...rows,
  '',
  'Target: under 15 s, RSS under 300 MB.',
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
