/**
 * docs/deploy.md §4, a database blip: two instances behind HAProxy with the guide's configuration,
 * on a PostgreSQL cluster of this test's own (initdb and pg_ctl on a temporary data directory and
 * a free port; the run's shared server is never touched), which is stopped for 3 s under load and
 * started again. Readiness does not follow the shared database, so HAProxy keeps both servers:
 * keyless reads all succeed, the requests that needed the database fail with Plikt's own retryable
 * 503 (never HAProxy's "No server is available"), and the database's requests succeed again after.
 * Outcomes are counted, not timed. Skipped without HAProxy or PostgreSQL's server binaries.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { HAPROXY_BIN, localConfig, startHaproxy, type Haproxy } from '../helpers.ts'
import { PostgresCluster, clusterMissing } from '../helpers.ts'
import { freePort, listeningAddress } from '../helpers.ts'

const missing = [!HAPROXY_BIN && 'haproxy', ...clusterMissing].filter(Boolean)
if (missing.length) process.stderr.write(`database-restart.test.ts: skipped, no ${missing.join(', no ')}\n`)

const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe.skipIf(missing.length > 0)('a 3-second PostgreSQL restart behind HAProxy', () => {
  test('fails only the requests that needed the database, each with Plikt’s 503; keyless reads all succeed; the pool recovers', async () => {
    const pg = new PostgresCluster()
    cleanups.push(() => pg.destroy())
    pg.init()
    pg.start()
    const admin = postgres(pg.url('postgres'), { max: 1, onnotice: () => {} })
    await admin.unsafe('create database plikt')
    await admin.end()

    const ADMIN = 'database-restart-admin-token-0123456789abcdef'
    const { DATABASE_URL: _d, BASE_URL: _b, PORT: _p, ...env } = process.env
    const urls: string[] = []
    for (let i = 0; i < 2; i++) {
      const p = Bun.spawn(['bun', 'src/main.ts'], {
        env: {
          ...env,
          DATABASE_URL: pg.url('plikt'),
          PORT: '0',
          HOST: '127.0.0.1',
          ADMIN_TOKEN: ADMIN,
          SERVER_SECRET: 'database-restart-server-secret-0123456789abcd',
          UPSTREAM_MODE: 'fixtures',
          LOG_LEVEL: 'error',
        },
        stdout: 'ignore',
        stderr: 'pipe',
      })
      cleanups.push(async () => {
        p.kill('SIGTERM')
        await p.exited
      })
      urls.push((await listeningAddress(p.stderr)).url)
    }
    const port = freePort()
    // the cache off: every public read must reach an instance, or it would prove nothing
    const proxy: Haproxy = await startHaproxy(
      localConfig(
        port,
        urls.map((u) => new URL(u).host),
        { cache: false },
      ),
      port,
    )
    cleanups.push(() => proxy.stop())
    const adminHeaders = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
    const consumer = (
      await (
        await fetch(`${proxy.url}/api/v1/admin/consumers`, {
          method: 'POST',
          headers: adminHeaders,
          body: JSON.stringify({ email: 'blip@example.no', tier: 'enterprise' }),
        })
      ).json()
    ).data.consumer_id
    await fetch(`${proxy.url}/api/v1/admin/credits`, {
      method: 'POST',
      headers: { ...adminHeaders, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ consumer_id: consumer, amount_ore: 1_000_000, reason: 'blip' }),
    })
    const key = (
      await (
        await fetch(`${proxy.url}/api/v1/admin/keys`, {
          method: 'POST',
          headers: adminHeaders,
          body: JSON.stringify({ consumer_id: consumer }),
        })
      ).json()
    ).data.plaintext_key

    type Outcome = 'ok' | 'plikt-503' | 'other'
    const tally = { keyless: { ok: 0, 'plikt-503': 0, other: 0 }, keyed: { ok: 0, 'plikt-503': 0, other: 0 } }
    const others: string[] = []
    const codes = new Set<string>()
    const call = async (kind: 'keyless' | 'keyed', i: number): Promise<Outcome> => {
      const path =
        kind === 'keyless' ? `/api/v1/public/deadlines?year=${2026 + (i % 3)}` : '/api/v1/company/984661185/summary'
      try {
        const r = await fetch(`${proxy.url}${path}`, {
          headers: kind === 'keyed' ? { authorization: `Bearer ${key}` } : {},
        })
        const body = await r.text()
        if (r.status === 200) return 'ok'
        // Plikt's own answer: its error envelope, retryable, saying when to try again
        const envelope =
          r.status === 503 && r.headers.get('retry-after') !== null
            ? (JSON.parse(body) as { success?: boolean; error_code?: string })
            : null
        if (envelope?.success === false && envelope.error_code) {
          codes.add(envelope.error_code)
          return 'plikt-503'
        }
        others.push(`${kind} ${r.status} ${body.slice(0, 120)}`)
      } catch (e) {
        others.push(`${kind} ${String(e)}`)
      }
      return 'other'
    }
    let loading = true
    const worker = async (w: number) => {
      for (let i = 0; loading; i++) {
        const kind = (w + i) % 2 === 0 ? 'keyless' : 'keyed'
        tally[kind][await call(kind, i)]++
        // Paced: all of it comes from HAProxy's one address, and keyless reads have a soft limit of
        // 1 000 a minute per address and instance (spec: Limits), which an unpaced loop on a fast
        // machine passes within the test.
        await Bun.sleep(50)
      }
    }
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))
    await Bun.sleep(1000)
    pg.stop()
    const atStop = { keyed503: tally.keyed['plikt-503'], keyless: tally.keyless.ok }
    await Bun.sleep(3000)
    const during = { keyed503: tally.keyed['plikt-503'] - atStop.keyed503, keyless: tally.keyless.ok - atStop.keyless }
    pg.start()
    // once the database answers again, the instances' pools serve the database's requests again
    let recovered = false
    for (let i = 0; i < 100 && !recovered; i++) {
      recovered = (await call('keyed', i)) === 'ok'
      if (!recovered) await Bun.sleep(100)
    }
    await Bun.sleep(1000)
    loading = false
    await load

    expect(others).toEqual([])
    expect(tally.keyless['plikt-503']).toBe(0)
    expect(during.keyed503).toBeGreaterThan(0) // the outage was real: the database's requests did fail
    expect(during.keyless).toBeGreaterThan(0)
    expect(recovered).toBe(true)
    process.stderr.write(`database-restart: ${JSON.stringify({ ...tally, codes: [...codes] })}\n`)
  }, 120_000)
})
