/**
 * The deployment of docs/deploy.md, run for real: two instances on one PostgreSQL behind HAProxy
 * (health checks on /api/health/ready), metered load through the proxy, and a rolling restart of
 * each instance in turn mid-load. Then it checks what an operator must be able to trust: no request
 * failed, every balance equals its ledger and every charge is accounted for, no job tick ran twice.
 *
 *   DATABASE_URL=postgres://…/empty_db bun scripts/rolling-upgrade.ts [--seconds 12] [--bin dist/plikt]
 *
 * Prints one JSON summary line; exit 0 when every check holds, 1 otherwise.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '12' }, bin: { type: 'string' } }, strict: true })
const DATABASE_URL = process.env.DATABASE_URL
if (!DATABASE_URL) {
  process.stderr.write('rolling-upgrade: set DATABASE_URL to an empty PostgreSQL database\n')
  process.exit(2)
}
const SECONDS = Number(values.seconds)
const ADMIN = 'rolling-upgrade-admin-token-0123456789abcdef'
const SECRET = 'rolling-upgrade-server-secret-0123456789abcdef01'
const work = mkdtempSync(join(tmpdir(), 'plikt-rolling-'))
/**
 * Below Linux's ephemeral range (32 768 and up), where outgoing connections and port-0 listeners
 * take theirs, so no connection of this machine's can hold it; and free when asked.
 */
function freePort(taken: number[] = []): number {
  for (;;) {
    const p = 20_000 + Math.floor(Math.random() * 12_000)
    if (taken.includes(p)) continue
    try {
      Bun.serve({ port: p, hostname: '127.0.0.1', fetch: () => new Response(null) }).stop(true)
      return p
    } catch {
      // taken: try another
    }
  }
}
const a = freePort()
const b = freePort([a])
const ports = { a, b, proxy: freePort([a, b]) }
const command = values.bin ? [values.bin] : ['bun', join(import.meta.dir, '..', 'src/main.ts')]

type Proc = ReturnType<typeof Bun.spawn>
const instances: Record<'a' | 'b', Proc | null> = { a: null, b: null }

async function ready(p: number, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs
  while (Date.now() < until) {
    const ok = await fetch(`http://127.0.0.1:${p}/api/health/ready`).then((r) => r.status === 200, () => false)
    if (ok) return
    await Bun.sleep(100)
  }
  throw new Error(`the instance on port ${p} never became ready`)
}

async function startInstance(name: 'a' | 'b'): Promise<void> {
  const p = ports[name]
  instances[name] = Bun.spawn(command, {
    env: { ...process.env, PORT: String(p), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${ports.proxy}`, DATABASE_URL, ADMIN_TOKEN: ADMIN, SERVER_SECRET: SECRET, UPSTREAM_MODE: 'fixtures', TRUST_PROXY: 'true', DRAIN_GRACE_MS: '1500', LOG_LEVEL: 'warn' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  await ready(p)
}

/** SIGTERM, wait for the drain, start the (new) code again: one step of a rolling upgrade. */
async function roll(name: 'a' | 'b'): Promise<number> {
  const old = instances[name]!
  old.kill('SIGTERM')
  const code = await old.exited
  await startInstance(name)
  return code
}

const HAPROXY_CFG = `
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  retries 3
  option redispatch
  retry-on conn-failure
frontend plikt
  bind 127.0.0.1:${ports.proxy}
  option forwardfor
  default_backend plikt
backend plikt
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/health/ready ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server inter 500ms fall 1 rise 2
  server a 127.0.0.1:${ports.a} check
  server b 127.0.0.1:${ports.b} check
`

let haproxy: Proc | null = null
const sql = postgres(DATABASE_URL, { max: 2, onnotice: () => {} })
const failures: string[] = []
let ok = 0
let summary: Record<string, unknown> = {}
try {
  await startInstance('a')
  await startInstance('b')
  const cfg = join(work, 'haproxy.cfg')
  writeFileSync(cfg, HAPROXY_CFG)
  haproxy = Bun.spawn([Bun.which('haproxy') ?? '/usr/sbin/haproxy', '-f', cfg], { stdout: 'ignore', stderr: 'ignore' })
  await ready(ports.proxy)
  const proxy = `http://127.0.0.1:${ports.proxy}`
  const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }

  const consumers: { id: string; key: string }[] = []
  for (let i = 0; i < 4; i++) {
    const id = (await (await fetch(`${proxy}/api/v1/admin/consumers`, { method: 'POST', headers: admin, body: JSON.stringify({ email: `rolling-${i}-${Date.now()}@example.no`, tier: 'enterprise' }) })).json()).data.consumer_id
    await fetch(`${proxy}/api/v1/admin/credits`, { method: 'POST', headers: { ...admin, 'idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ consumer_id: id, amount_ore: 1_000_000, reason: 'rolling upgrade' }) })
    const key = (await (await fetch(`${proxy}/api/v1/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ consumer_id: id }) })).json()).data.plaintext_key
    consumers.push({ id, key })
  }

  const orgs = ['984661185', '923609016', '996501205', '993718807']
  const until = Date.now() + SECONDS * 1000
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const c = consumers[(w + i) % consumers.length]!
      try {
        const r = await fetch(`${proxy}/api/v1/company/${orgs[i % orgs.length]}/summary`, { headers: { authorization: `Bearer ${c.key}`, 'x-forwarded-for': `10.200.${w}.${i & 255}` } })
        await r.arrayBuffer()
        if (r.status === 200) ok++
        else failures.push(`HTTP ${r.status}`)
      } catch (e) {
        failures.push(String(e))
      }
    }
  }
  const load = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)))
  await Bun.sleep((SECONDS * 1000) / 4)
  const exitA = await roll('a')
  await Bun.sleep((SECONDS * 1000) / 6)
  const exitB = await roll('b')
  await load

  // Stop both gracefully: charges batched in memory are written, holds settled.
  for (const name of ['a', 'b'] as const) {
    instances[name]!.kill('SIGTERM')
    await instances[name]!.exited
    instances[name] = null
  }
  const ledgers = []
  for (const c of consumers) {
    const [b] = await sql<{ balance: number }[]>`select balance_ore::int as balance from credit_balances where consumer_id = ${c.id}`
    const [l] = await sql<{ sum: number; debits: number; refunds: number }[]>`
      select coalesce(sum(amount_ore), 0)::int as sum, count(*) filter (where kind = 'debit')::int as debits, count(*) filter (where kind = 'refund')::int as refunds
      from credit_ledger where consumer_id = ${c.id}`
    ledgers.push({ consumer: c.id, balance: b!.balance, ledger: l!.sum, debits: l!.debits, refunds: l!.refunds })
  }
  const charged = ledgers.reduce((n, l) => n + (1_000_000 - l.balance), 0)
  const holds = (await sql<{ n: number }[]>`select count(*)::int as n from charge_holds`)[0]!.n
  const twice = await sql`select job, tick from job_ticks group by job, tick having count(*) > 1`
  const checks = {
    no_failed_request: failures.length === 0,
    drained_cleanly: exitA === 0 && exitB === 0,
    ledger_equals_balance: ledgers.every((l) => l.balance === l.ledger),
    every_answer_charged_once: charged === ok * 50,
    no_hold_left: holds === 0,
    each_tick_once: twice.length === 0,
  }
  summary = { requests: ok + failures.length, ok, failed: failures.length, failures: failures.slice(0, 5), rolled: ['a', 'b'], exit_codes: { a: exitA, b: exitB }, charged_ore: charged, holds, checks }
} catch (e) {
  summary = { error: String((e as Error)?.stack ?? e) }
} finally {
  for (const p of [instances.a, instances.b, haproxy]) p?.kill('SIGTERM')
  await Promise.all([instances.a?.exited, instances.b?.exited, haproxy?.exited])
  await sql.end()
  rmSync(work, { recursive: true, force: true })
}
process.stdout.write(`${JSON.stringify(summary)}\n`)
const passed = summary.checks !== undefined && Object.values(summary.checks as Record<string, boolean>).every(Boolean)
process.exit(passed ? 0 : 1)
