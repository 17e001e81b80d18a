/**
 * The daily accounts diff over 100 000 cached companies against the fixture register (target:
 * under 60 s, memory bounded). The fixture servers run in a process of their own
 * (`bun fixtures/servers/main.ts`) and the service starts as a user points it at a register
 * (`BUSINESS_REGISTER_URL=… bun src/main.ts`), on the on-disk embedded database and on PostgreSQL
 * (BENCH_PG_URL, default the local server; skipped when none answers); the cache is seeded with
 * 100 000 units first. Run 1 is every company's first observation (silent baselines); then 1 000
 * filings are recorded through the fixture's control route and run 2 — the daily diff — finds them
 * among the 100 000. On the embedded database PGlite runs inside the service process, so its memory
 * is in the RSS.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { renderEnhet } from '../fixtures/servers/business-register/enhetsregisteret.ts'
import { companyByOrg } from '../fixtures/data/companies.ts'
import { openEmbedded, openPostgres, type Database } from '../src/store/db.ts'
import { loadMigrations, migrate } from '../src/store/migrate.ts'
import { machine } from './harness.ts'
import { runJob, sampleRss, startFixtures, startService } from './service.ts'

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 100_000)
const FILINGS = Number(process.env.BENCH_FILINGS ?? 1_000)
const TEMPLATE_ORG = '984661185'

async function seed(db: Database) {
  const c = companyByOrg(TEMPLATE_ORG)!
  if (c.register.kind !== 'active') throw new Error('the template company must be active')
  const template = JSON.stringify(renderEnhet('https://data.brreg.no', c.register.enhet))
  await migrate(db.sql, await loadMigrations())
  await db.sql`
    insert into upstream_cache (system, resource_key, snapshot_id, org_number, url, http_status, content_type, body, fetched_at)
    select 'enhetsregisteret', 'enhet:' || o, null, o, 'https://data.brreg.no/enhetsregisteret/api/enheter/' || o, 200, 'application/json', replace(${template}, ${TEMPLATE_ORG}, o), now()
    from (select (800000000 + g)::text as o from generate_series(0, ${COMPANIES - 1}) g) s`
  await db.close()
}

async function scenario(label: string, env: Record<string, string>): Promise<string[]> {
  const fixtures = await startFixtures()
  const service = await startService({
    ...env,
    UPSTREAM_MODE: 'live',
    BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
    CENTRAL_BANK_URL: fixtures.centralBankUrl,
  })
  try {
    const idle = service.rssMb()
    let rss = sampleRss(service.pid)
    const first = await runJob(service.url, 'accounts-diff')
    const firstPeak = rss.stop()
    for (let i = 0; i < FILINGS; i++) {
      const org = String(800000000 + Math.floor((i * COMPANIES) / FILINGS))
      const res = await fetch(`${fixtures.businessRegisterUrl}/__control/accounts/${org}`, {
        method: 'POST',
        body: '{"year":2025}',
      })
      if (res.status !== 201) throw new Error(`filing ${org}: ${res.status}`)
    }
    rss = sampleRss(service.pid)
    const second = await runJob(service.url, 'accounts-diff')
    const secondPeak = rss.stop()
    // a run that outlived its request (over a minute) reports no counts: every company was asked
    const row = (name: string, r: typeof first, peak: number) =>
      `| ${label} | ${name} | ${r.result?.observed ?? COMPANIES} | ${r.result?.baselined ?? '—'} | ${r.result?.changes ?? '—'} | ${(r.ms / 1000).toFixed(1)} s | ${Math.round((r.result?.observed ?? COMPANIES) / (r.ms / 1000))} | ${idle.toFixed(0)} → ${peak.toFixed(0)} MB |`
    const rows = [
      row('1: first observation', first, firstPeak),
      row(`2: daily diff, ${FILINGS} new filings`, second, secondPeak),
    ]
    console.log(rows.join('\n'))
    return rows
  } finally {
    await service.stop()
    await fixtures.stop()
  }
}

/** BENCH_DB=embedded or postgres runs one of the two. */
const only = process.env.BENCH_DB
const rows: string[] = []
const dir = mkdtempSync(join(tmpdir(), 'plikt-bench-diff-'))
try {
  if (only !== 'postgres') {
    await seed(await openEmbedded(dir))
    rows.push(...(await scenario('embedded PGlite (in the service process)', { DATA_DIR: dir })))
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `plikt_bench_diff_${Date.now()}`
const root = postgres(admin, { max: 1, onnotice: () => {} })
const pgReady =
  only !== 'embedded' &&
  (await root.unsafe(`create database ${name}`).then(
    () => true,
    (e) => (console.log(`PostgreSQL skipped: ${String(e)}`), false),
  ))
if (pgReady) {
  const url = new URL(admin)
  url.pathname = `/${name}`
  try {
    await seed(await openPostgres(url.toString(), 2))
    rows.push(...(await scenario('PostgreSQL (separate process)', { DATABASE_URL: url.toString() })))
  } finally {
    await root.unsafe(`drop database if exists ${name} with (force)`)
  }
}
await root.end()

const table = [
  `### Daily accounts diff over ${COMPANIES.toLocaleString('en')} cached companies (fixture register) — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- accounts-diff\` (BENCH_COMPANIES=${COMPANIES}, BENCH_FILINGS=${FILINGS}); the fixture servers as \`bun fixtures/servers/main.ts\`, the service as \`BUSINESS_REGISTER_URL=<fixture> bun src/main.ts\`, the diff run through \`POST /api/v1/admin/jobs/accounts-diff/run\` (time: the tick's claimed_at → finished_at; 500 companies a batch, 32 register requests in flight); RSS of the service process sampled every 50 ms; machine: ${machine()}.`,
  '',
  '| database | run | companies asked | baselined | changes | time | companies/s | service RSS idle → peak |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Target: under 60 s, memory bounded.',
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
