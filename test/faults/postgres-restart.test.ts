/**
 * PostgreSQL going away under metered load and coming back, as the service sees a restart: every
 * session of the database terminated by the server (57P01) and new ones refused for a few seconds
 * (the database closed to connections), then open again. While it is down a request is answered in
 * time with a retryable 503 and `Retry-After` — never a hang past its deadline, never a crash; when
 * it is back the same process recovers by itself, writing the refunds and releases the outage
 * stopped; afterwards — once the sweep has refunded a charge whose commit the outage hid from the
 * process — no charge is lost or doubled.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { runExpirySweep } from '../../jobs/expiry-sweep.ts'
import { HOLD_TIMEOUT_MS } from '../../src/domain/billing/metering.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { listeningAddress } from '../helpers.ts'

const PG = process.env.DATABASE_URL
const ADMIN = 'pg-restart-admin-token-0123456789abcdef0123'
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe.skipIf(!PG)('PostgreSQL restarted under metered load', () => {
  test('503 with Retry-After while it is down, recovery without a restart, every answer charged once', async () => {
    const name = `plikt_restart_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`
    const admin = postgres(PG!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database ${name}`)
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    })
    const target = new URL(PG!)
    target.pathname = `/${name}`
    const takeDown = async () => {
      await admin.unsafe(`alter database ${name} with allow_connections false`)
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`
    }
    const bringUp = () => admin.unsafe(`alter database ${name} with allow_connections true`)
    cleanups.push(async () => void (await bringUp()))

    const { DATABASE_URL: _own, BASE_URL: _base, ...env } = process.env
    const service = Bun.spawn(['bun', 'src/main.ts'], {
      env: {
        ...env,
        PORT: '0',
        DATABASE_URL: target.toString(),
        ADMIN_TOKEN: ADMIN,
        UPSTREAM_MODE: 'fixtures',
        TRUST_PROXY: 'true',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    cleanups.push(async () => {
      service.kill('SIGKILL')
      await service.exited
    })
    const { url } = await listeningAddress(service.stderr)
    // stdout is drained too, so a full pipe never blocks the service; the log's warnings and
    // errors are kept to explain a failure.
    const complaints: string[] = []
    let upAt = 0
    void (async () => {
      let rest = ''
      for await (const chunk of service.stdout) {
        const lines = (rest + new TextDecoder().decode(chunk)).split('\n')
        rest = lines.pop()!
        for (const l of lines)
          if (/"level":"(warn|error)"/.test(l))
            complaints.push(`${Math.round(performance.now() - upAt)} ${l.slice(0, 400)}`)
      }
    })()
    const json = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
    const consumer = (
      await (
        await fetch(`${url}/api/v1/admin/consumers`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: 'restart@example.no', tier: 'enterprise' }),
        })
      ).json()
    ).data.consumer_id
    await fetch(`${url}/api/v1/admin/credits`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ consumer_id: consumer, amount_ore: 1_000_000, reason: 'restart test' }),
    })
    const key = (
      await (
        await fetch(`${url}/api/v1/admin/keys`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ consumer_id: consumer }),
        })
      ).json()
    ).data.plaintext_key

    const outcomes: {
      status: number
      retryAfter: string | null
      ms: number
      phase: string
      at: number
      body: string
      id: string | null
    }[] = []
    let phase = 'before'
    let running = true
    const worker = async (w: number) => {
      for (let i = 0; running; i++) {
        const t0 = performance.now()
        const p = phase
        try {
          const r = await fetch(`${url}/api/v1/company/984661185/summary`, {
            headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': `10.70.${w}.${i & 255}` },
            signal: AbortSignal.timeout(20_000),
          })
          const body = await r.text()
          outcomes.push({
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            ms: performance.now() - t0,
            phase: p,
            at: Math.round(t0 - upAt),
            body: r.status === 200 ? '' : body.slice(0, 300),
            id: r.headers.get('x-correlation-id'),
          })
        } catch (e) {
          outcomes.push({
            status: 0,
            retryAfter: null,
            ms: performance.now() - t0,
            phase: p,
            at: Math.round(t0 - upAt),
            body: String(e),
            id: null,
          })
        }
        if (phase === 'down') await Bun.sleep(50)
      }
    }
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))
    await Bun.sleep(1500)
    phase = 'down'
    await takeDown()
    // sessions opened between the refusal and the termination are terminated too
    for (let i = 0; i < 8; i++) {
      await Bun.sleep(500)
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`
    }
    phase = 'recovering'
    await bringUp()
    upAt = performance.now()
    await Bun.sleep(4000)
    phase = 'after'
    await Bun.sleep(1500)
    running = false
    await load

    // the process is still the same one, and answers
    expect(service.exitCode).toBeNull()
    const down = outcomes.filter((o) => o.phase === 'down')
    expect(down.length).toBeGreaterThan(0)
    // (status 0: the request failed at the socket or ran past the client's 20 s; its time says which)
    for (const o of down)
      expect([o.status === 200 || (o.status === 503 && o.retryAfter !== null), o.status, Math.round(o.ms)]).toEqual([
        true,
        o.status,
        Math.round(o.ms),
      ])
    expect(outcomes.filter((o) => o.status === 0 || o.ms >= 10_000)).toEqual([])
    expect({
      failedAfter: outcomes.filter((o) => o.phase === 'after' && o.status !== 200),
      log: complaints.filter((l) => Number(l.split(' ')[0]) > 3000),
    }).toEqual({ failedAfter: [], log: expect.anything() })
    expect(outcomes.filter((o) => o.phase === 'after').length).toBeGreaterThan(0)

    service.kill('SIGTERM')
    expect(await service.exited).toBe(0)
    const db = postgres(target.toString(), { max: 1, onnotice: () => {} })
    try {
      // A charge committed as its session was terminated was answered 503 without the process
      // knowing it had been written: its hold is what the sweep refunds.
      const later = fixedClock(new Date(Date.now() + HOLD_TIMEOUT_MS + 60_000).toISOString())
      await runExpirySweep({ sql: db as never, clock: later, logger: createLogger('error') })
      const [b] = await db<
        { balance: number }[]
      >`select balance_ore::int as balance from credit_balances where consumer_id = ${consumer}`
      const [l] = await db<
        { sum: number }[]
      >`select coalesce(sum(amount_ore), 0)::int as sum from credit_ledger where consumer_id = ${consumer}`
      const [h] = await db<{ n: number }[]>`select count(*)::int as n from charge_holds`
      const ok = outcomes.filter((o) => o.status === 200).length
      // an answered call whose debit did not stand, or one that was not answered 200 whose did
      const net = await db<
        { correlation_id: string; amount: number; rows: string }[]
      >`select correlation_id, sum(amount_ore)::int as amount, string_agg(kind || ' ' || reason, '; ' order by id) as rows from credit_ledger where consumer_id = ${consumer} and kind in ('debit', 'refund') group by correlation_id`
      const charged = new Map(net.map((r) => [r.correlation_id, r]))
      const wrong = outcomes
        .filter((o) => o.id !== null && (charged.get(o.id)?.amount ?? 0) !== (o.status === 200 ? -50 : 0))
        .map((o) => ({ ...o, body: o.body.slice(0, 80), ledger: charged.get(o.id!)?.rows ?? null }))
      expect(wrong).toEqual([])
      expect({ balance: b!.balance, ledger: l!.sum, holds: h!.n }).toEqual({
        balance: 1_000_000 - ok * 50,
        ledger: 1_000_000 - ok * 50,
        holds: 0,
      })
    } finally {
      await db.end()
    }
  }, 120_000)
})
