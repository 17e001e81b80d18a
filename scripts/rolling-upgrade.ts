/**
 * A rolling upgrade behind HAProxy, one instance at a time, each next step only once HAProxy itself
 * shows the restarted instance UP (its stats socket) — not when the instance says it is ready, since
 * HAProxy needs `rise` checks more before it sends traffic (docs/deploy.md §4).
 *
 *   bun scripts/rolling-upgrade.ts roll --stats-socket /run/haproxy/admin.sock \
 *     --server 'a=ssh 10.0.0.11 sudo systemctl restart plikt' --server 'b=ssh 10.0.0.12 sudo systemctl restart plikt'
 *
 * runs each server's restart command in turn (the names are the guide's `server` lines in backend
 * `plikt`; `--backend` names another), and waits for HAProxy to take the server out (its instance
 * turned not ready on SIGTERM) and put it back (UP) before the next. It refuses to start unless
 * every named server is UP, and stops at the first that does not come back.
 *
 *   DATABASE_URL=postgres://…/empty_db bun scripts/rolling-upgrade.ts rehearse [--seconds 12] [--bin dist/plikt]
 *
 * rehearses it on one machine: two instances on that database behind HAProxy with the guide's own
 * configuration and the guide's DRAIN_GRACE_MS, metered load through the proxy, and the same `roll`
 * over both; then checks what an operator must be able to trust: no request failed, every balance
 * equals its ledger and every charge is accounted for, no job tick ran twice. Prints one JSON summary
 * line; exit 0 when every check holds, 1 otherwise.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'

const GUIDE = join(import.meta.dir, '..', 'docs', 'deploy.md')

/** `show stat` over HAProxy's stats socket: each server's status (`UP`, `DOWN`, `UP 1/3`, `MAINT` …) in `backend`. */
export async function serverStates(socket: string, backend: string): Promise<Map<string, string>> {
  let text = ''
  await new Promise<void>((resolve, reject) => {
    Bun.connect({
      unix: socket,
      socket: {
        open: (s) => void s.write('show stat\n'),
        data: (_s, chunk) => {
          text += chunk.toString()
        },
        close: () => resolve(),
        error: (_s, e) => reject(e),
        connectError: (_s, e) => reject(e),
      },
    }).catch(reject)
  })
  const lines = text.split('\n').filter((l) => l.length > 0)
  const header = lines[0]?.replace(/^# /, '').split(',') ?? []
  const px = header.indexOf('pxname')
  const sv = header.indexOf('svname')
  const st = header.indexOf('status')
  if (px < 0 || sv < 0 || st < 0) throw new Error(`${socket} did not answer "show stat": ${text.slice(0, 200)}`)
  const states = new Map<string, string>()
  for (const line of lines.slice(1)) {
    const f = line.split(',')
    if (f[px] === backend && f[sv] !== 'BACKEND' && f[sv] !== 'FRONTEND') states.set(f[sv]!, f[st]!)
  }
  return states
}

/**
 * Restarts server `name` with `restart` and resolves once HAProxy has seen it leave (not UP) and
 * come back (UP), polling every 100 ms; throws after `timeoutMs`.
 */
export async function rollOne(
  name: string,
  restart: () => Promise<void>,
  opts: { socket: string; backend: string; timeoutMs?: number },
): Promise<void> {
  const until = Date.now() + (opts.timeoutMs ?? 120_000)
  let left = false
  let restarted = false
  let failed: unknown = null
  const done = restart().then(
    () => {
      restarted = true
    },
    (e: unknown) => {
      failed = e
    },
  )
  for (;;) {
    if (failed) throw failed
    const state = (await serverStates(opts.socket, opts.backend)).get(name)
    if (state === undefined) throw new Error(`HAProxy's backend ${opts.backend} has no server ${name}`)
    if (state !== 'UP') left = true
    if (left && restarted && state === 'UP') break
    if (Date.now() > until)
      throw new Error(
        `server ${name} is ${state}${left ? '' : ' and was never taken out'} after ${opts.timeoutMs ?? 120_000} ms`,
      )
    await Bun.sleep(100)
  }
  await done
}

/** Runs `command` in a shell; rejects unless it exits 0. */
async function shell(command: string): Promise<void> {
  const p = Bun.spawn(['sh', '-c', command], { stdout: 'inherit', stderr: 'inherit' })
  const code = await p.exited
  if (code !== 0) throw new Error(`"${command}" exited ${code}`)
}

async function roll(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'stats-socket': { type: 'string' },
      backend: { type: 'string', default: 'plikt' },
      server: { type: 'string', multiple: true },
      'timeout-seconds': { type: 'string', default: '120' },
    },
    strict: true,
  })
  const socket = values['stats-socket']
  const servers = (values.server ?? []).map((s) => {
    const eq = s.indexOf('=')
    return eq > 0 ? { name: s.slice(0, eq), command: s.slice(eq + 1) } : null
  })
  if (!socket || servers.length === 0 || servers.some((s) => s === null)) {
    process.stderr.write(
      "usage: rolling-upgrade.ts roll --stats-socket PATH [--backend plikt] --server 'NAME=RESTART COMMAND' [--server …]\n",
    )
    return 2
  }
  const backend = values.backend!
  const states = await serverStates(socket, backend)
  const notUp = servers
    .filter((s) => states.get(s!.name) !== 'UP')
    .map((s) => `${s!.name}: ${states.get(s!.name) ?? 'no such server'}`)
  if (notUp.length) {
    process.stderr.write(`rolling-upgrade: every server must be UP before a roll starts (${notUp.join(', ')})\n`)
    return 1
  }
  for (const s of servers) {
    const t0 = Date.now()
    process.stderr.write(`rolling-upgrade: restarting ${s!.name}\n`)
    try {
      await rollOne(s!.name, () => shell(s!.command), {
        socket,
        backend,
        timeoutMs: Number(values['timeout-seconds']) * 1000,
      })
    } catch (e) {
      process.stderr.write(
        `rolling-upgrade: stopped: ${(e as Error).message}; the servers after ${s!.name} were not touched\n`,
      )
      return 1
    }
    process.stderr.write(`rolling-upgrade: ${s!.name} is UP in HAProxy again (${Date.now() - t0} ms)\n`)
  }
  return 0
}

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

/** The guide's haproxy.cfg block, listening on `proxy`, its servers a and b on local ports, with a stats socket. */
export function guideHaproxy(proxy: number, a: number, b: number, socket: string): string {
  const guide = readFileSync(GUIDE, 'utf8')
  const block = /`\/etc\/haproxy\/haproxy\.cfg`[^\n]*\n\n```\n([\s\S]*?)```/.exec(guide)?.[1]
  if (!block) throw new Error('docs/deploy.md has no haproxy.cfg block')
  const cfg = block
    .split('\n')
    .map((line) => {
      if (/^\s*bind /.test(line)) return `  bind 127.0.0.1:${proxy}`
      const server = /^(\s*server )(a|b) \S+( .*)$/.exec(line)
      if (server) return `${server[1]}${server[2]} 127.0.0.1:${server[2] === 'a' ? a : b}${server[3]}`
      return line
    })
    .join('\n')
  return `global\n  maxconn 4096\n  stats socket ${socket} mode 600 level admin\n${cfg}\n`
}

/** The DRAIN_GRACE_MS of the guide's start command (§4). */
function guideDrainGrace(): string {
  const m = /DRAIN_GRACE_MS=(\d+)/.exec(readFileSync(GUIDE, 'utf8'))
  if (!m) throw new Error('docs/deploy.md does not set DRAIN_GRACE_MS')
  return m[1]!
}

async function rehearse(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { seconds: { type: 'string', default: '12' }, bin: { type: 'string' } },
    strict: true,
  })
  const DATABASE_URL = process.env.DATABASE_URL
  if (!DATABASE_URL) {
    process.stderr.write('rolling-upgrade: set DATABASE_URL to an empty PostgreSQL database\n')
    return 2
  }
  const SECONDS = Number(values.seconds)
  const ADMIN = 'rolling-upgrade-admin-token-0123456789abcdef'
  const SECRET = 'rolling-upgrade-server-secret-0123456789abcdef01'
  const work = mkdtempSync(join(tmpdir(), 'plikt-rolling-'))
  const socket = join(work, 'haproxy.sock')
  const a = freePort()
  const b = freePort([a])
  const ports = { a, b, proxy: freePort([a, b]) }
  const command = values.bin ? [values.bin] : ['bun', join(import.meta.dir, '..', 'src/main.ts')]
  const grace = guideDrainGrace()

  type Proc = ReturnType<typeof Bun.spawn>
  const instances: Record<'a' | 'b', Proc | null> = { a: null, b: null }

  async function ready(p: number, deadlineMs = 60_000): Promise<void> {
    const until = Date.now() + deadlineMs
    while (Date.now() < until) {
      const ok = await fetch(`http://127.0.0.1:${p}/api/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) return
      await Bun.sleep(100)
    }
    throw new Error(`port ${p} never became ready`)
  }

  function startInstance(name: 'a' | 'b'): void {
    instances[name] = Bun.spawn(command, {
      env: {
        ...process.env,
        PORT: String(ports[name]),
        HOST: '127.0.0.1',
        BASE_URL: `http://127.0.0.1:${ports.proxy}`,
        DATABASE_URL,
        ADMIN_TOKEN: ADMIN,
        SERVER_SECRET: SECRET,
        UPSTREAM_MODE: 'fixtures',
        TRUST_PROXY: 'true',
        DRAIN_GRACE_MS: grace,
        LOG_LEVEL: 'warn',
      },
      stdout: 'ignore',
      stderr: 'ignore',
    })
  }

  /** What `systemctl restart` does: SIGTERM, wait for the drain, start the (new) code. */
  const restart = (name: 'a' | 'b') => async () => {
    const old = instances[name]!
    old.kill('SIGTERM')
    exits[name] = await old.exited
    startInstance(name)
  }
  const exits: Record<'a' | 'b', number | null> = { a: null, b: null }

  let haproxy: Proc | null = null
  const sql = postgres(DATABASE_URL, { max: 2, onnotice: () => {} })
  const failures: string[] = []
  let ok = 0
  let summary: Record<string, unknown> = {}
  try {
    startInstance('a')
    startInstance('b')
    await Promise.all([ready(ports.a), ready(ports.b)])
    const cfg = join(work, 'haproxy.cfg')
    writeFileSync(cfg, guideHaproxy(ports.proxy, ports.a, ports.b, socket))
    haproxy = Bun.spawn([Bun.which('haproxy') ?? '/usr/sbin/haproxy', '-f', cfg], {
      stdout: 'ignore',
      stderr: 'ignore',
    })
    // both servers UP in HAProxy before any load
    for (let i = 0; ; i++) {
      const states = await serverStates(socket, 'plikt').catch(() => new Map<string, string>())
      if (states.get('a') === 'UP' && states.get('b') === 'UP') break
      if (i > 300) throw new Error(`HAProxy never showed both servers UP: ${JSON.stringify([...states])}`)
      await Bun.sleep(100)
    }
    const proxy = `http://127.0.0.1:${ports.proxy}`
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }

    const consumers: { id: string; key: string }[] = []
    for (let i = 0; i < 4; i++) {
      const id = (
        await (
          await fetch(`${proxy}/api/v1/admin/consumers`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ email: `rolling-${i}-${Date.now()}@example.no`, tier: 'enterprise' }),
          })
        ).json()
      ).data.consumer_id
      await fetch(`${proxy}/api/v1/admin/credits`, {
        method: 'POST',
        headers: { ...admin, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ consumer_id: id, amount_ore: 1_000_000, reason: 'rolling upgrade' }),
      })
      const key = (
        await (
          await fetch(`${proxy}/api/v1/admin/keys`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ consumer_id: id }),
          })
        ).json()
      ).data.plaintext_key
      consumers.push({ id, key })
    }

    const orgs = ['984661185', '923609016', '996501205', '993718807']
    let rolling = true
    const until = Date.now() + SECONDS * 1000
    const worker = async (w: number) => {
      for (let i = 0; rolling || Date.now() < until; i++) {
        const c = consumers[(w + i) % consumers.length]!
        try {
          const r = await fetch(`${proxy}/api/v1/company/${orgs[i % orgs.length]}/summary`, {
            headers: { authorization: `Bearer ${c.key}`, 'x-forwarded-for': `10.200.${w}.${i & 255}` },
          })
          await r.arrayBuffer()
          if (r.status === 200) ok++
          else failures.push(`HTTP ${r.status}`)
        } catch (e) {
          failures.push(String(e))
        }
      }
    }
    const load = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)))
    const t0 = Date.now()
    await Bun.sleep((SECONDS * 1000) / 4)
    await rollOne('a', restart('a'), { socket, backend: 'plikt' })
    await rollOne('b', restart('b'), { socket, backend: 'plikt' })
    const rolledMs = Date.now() - t0
    rolling = false
    await load

    // Stop both gracefully: charges batched in memory are written, holds settled.
    for (const name of ['a', 'b'] as const) {
      instances[name]!.kill('SIGTERM')
      await instances[name]!.exited
      instances[name] = null
    }
    const ledgers = []
    for (const c of consumers) {
      const [bal] = await sql<
        { balance: number }[]
      >`select balance_ore::int as balance from credit_balances where consumer_id = ${c.id}`
      const [l] = await sql<{ sum: number; debits: number; refunds: number }[]>`
        select coalesce(sum(amount_ore), 0)::int as sum, count(*) filter (where kind = 'debit')::int as debits, count(*) filter (where kind = 'refund')::int as refunds
        from credit_ledger where consumer_id = ${c.id}`
      ledgers.push({ consumer: c.id, balance: bal!.balance, ledger: l!.sum, debits: l!.debits, refunds: l!.refunds })
    }
    const charged = ledgers.reduce((n, l) => n + (1_000_000 - l.balance), 0)
    const holds = (await sql<{ n: number }[]>`select count(*)::int as n from charge_holds`)[0]!.n
    const twice = await sql`select job, tick from job_ticks group by job, tick having count(*) > 1`
    const checks = {
      no_failed_request: failures.length === 0,
      drained_cleanly: exits.a === 0 && exits.b === 0,
      ledger_equals_balance: ledgers.every((l) => l.balance === l.ledger),
      every_answer_charged_once: charged === ok * 50,
      no_hold_left: holds === 0,
      each_tick_once: twice.length === 0,
    }
    summary = {
      requests: ok + failures.length,
      ok,
      failed: failures.length,
      failures: failures.slice(0, 5),
      rolled: ['a', 'b'],
      rolled_ms: rolledMs,
      drain_grace_ms: Number(grace),
      exit_codes: exits,
      charged_ore: charged,
      holds,
      checks,
    }
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
  return passed ? 0 : 1
}

if (import.meta.main) {
  const [mode, ...rest] = process.argv.slice(2)
  if (mode === 'roll') process.exit(await roll(rest))
  else if (mode === 'rehearse') process.exit(await rehearse(rest))
  else {
    process.stderr.write(
      'usage: rolling-upgrade.ts roll --stats-socket PATH --server NAME=COMMAND …  |  rolling-upgrade.ts rehearse [--seconds N] [--bin PATH]\n',
    )
    process.exit(2)
  }
}
