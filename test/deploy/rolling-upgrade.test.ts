/**
 * docs/deploy.md, exercised: two instances on one PostgreSQL behind HAProxy (health checks on the
 * readiness route), metered load through the proxy, a rolling restart of each instance mid-load —
 * no request fails, every balance equals its ledger, every answer was charged once, no job tick ran
 * twice (scripts/rolling-upgrade.ts checks and reports). And the schema is expand-only: the code
 * as it was before the newest migration serves on the schema after it.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { listeningAddress } from '../helpers.ts'

const PG = process.env.DATABASE_URL
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].some((p) => existsSync(p))
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** A fresh database on the run's PostgreSQL server, dropped at the end. */
async function freshDatabase(): Promise<string> {
  const name = `plikt_deploy_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`
  const admin = postgres(PG!, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.end()
  })
  const url = new URL(PG!)
  url.pathname = `/${name}`
  return url.toString()
}

describe.skipIf(!PG || (!HAPROXY && !process.env.CI))('two instances behind HAProxy', () => {
  test('a rolling restart under metered load: no failed request, ledgers equal balances, each tick once', async () => {
    const url = await freshDatabase()
    const { DATABASE_URL: _own, ...env } = process.env
    const run = Bun.spawn(['bun', 'scripts/rolling-upgrade.ts', 'rehearse', '--seconds', '10'], {
      env: { ...env, DATABASE_URL: url },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, err, code] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ])
    const summary = JSON.parse(out.trim().split('\n').at(-1)!)
    expect([code, summary.error ?? null, err]).toEqual([0, null, ''])
    expect(summary.ok).toBeGreaterThan(100)
    expect(summary.failed).toBe(0)
    expect(Object.values(summary.checks).every(Boolean)).toBe(true)
  }, 180_000)
})

describe.skipIf(!PG || !existsSync('.git'))('expand-only migrations', () => {
  test('the code before the newest migration serves on the schema after it', async () => {
    const files = (await loadMigrations()).map((m) => `${String(m.version).padStart(4, '0')}_${m.name}.sql`)
    const newest = files.at(-1)!
    const log = Bun.spawnSync(['git', 'log', '--format=%H', '-1', '--diff-filter=A', '--', `sql/${newest}`])
    const added = log.stdout.toString().trim()
    const parent = added
      ? Bun.spawnSync(['git', 'rev-parse', '--verify', '--quiet', `${added}^`])
          .stdout.toString()
          .trim()
      : ''
    if (!parent) return // a shallow clone: nothing older to run
    const dir = mkdtempSync(join(tmpdir(), 'plikt-previous-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const archive = Bun.spawnSync(['sh', '-c', `git archive ${parent} | tar -x -C ${dir}`])
    expect(archive.exitCode).toBe(0)
    symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'))

    const url = await freshDatabase()
    const db = postgres(url, { max: 1, onnotice: () => {} })
    await migrate(db as never, await loadMigrations())
    await db.end()
    // PORT=0 and the banner's address: a random fixed port could be taken by another process
    const { DATABASE_URL: _own, BASE_URL: _base, ...env } = process.env
    const previous = Bun.spawn(['bun', 'src/main.ts'], {
      cwd: dir,
      env: {
        ...env,
        DATABASE_URL: url,
        PORT: '0',
        UPSTREAM_MODE: 'fixtures',
        ADMIN_TOKEN: 'previous-release-admin-token-0123456789ab',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    // both pipes are read as they fill, so the process never blocks on a full one
    const stdout = new Response(previous.stdout).text()
    try {
      const { url: base } = await listeningAddress(previous.stderr)
      expect((await fetch(`${base}/api/health`)).status).toBe(200)
      expect((await fetch(`${base}/api/v1/public/deadlines?year=2026`)).status).toBe(200)
      const consumer = await fetch(`${base}/api/v1/admin/consumers`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer previous-release-admin-token-0123456789ab',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email: 'previous@example.no', tier: 'starter' }),
      })
      expect(consumer.status).toBe(201)
    } finally {
      previous.kill('SIGTERM')
      await previous.exited
    }
    const log2 = await stdout
    expect(log2).toContain('which this build does not know')
  }, 180_000)
})
