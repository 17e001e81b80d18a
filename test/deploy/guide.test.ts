/**
 * docs/deploy.md §4's commands, read from the guide itself so the guide and the test cannot drift:
 * the start command of each instance starts as written (only its placeholders `…`, the database's
 * address, the port and `./dist/plikt` → `bun src/main.ts` filled in), and without the SMTP_URL it
 * carries a public deployment is refused with a message naming what to set; the rolling-upgrade
 * command runs against HAProxy with the guide's configuration and steps to the next server only
 * once HAProxy shows the restarted one UP (its stats socket, as the script reads it).
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { guideHaproxy, serverStates } from '../../scripts/rolling-upgrade.ts'
import { freePort, HAPROXY_BIN } from '../helpers.ts'
import { listeningAddress } from '../helpers.ts'

const GUIDE = readFileSync(join(import.meta.dir, '../../docs/deploy.md'), 'utf8')
const PG = process.env.DATABASE_URL
const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** The ```sh block of §4 that follows `marker`, continuation lines joined, comments dropped. */
function shBlock(marker: string): string {
  const section = GUIDE.slice(GUIDE.indexOf('## 4. Two instances behind HAProxy'))
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const block = blocks.find((b) => b.includes(marker))
  if (!block) throw new Error(`docs/deploy.md §4 has no sh block with "${marker}"`)
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .join('\n')
}

/** A shell line's words: 'single-quoted' words kept whole, as sh reads them (no other quoting is used). */
function words(line: string): string[] {
  return [...line.matchAll(/(?:[^\s']+|'[^']*')+/g)].map((m) => m[0].replaceAll("'", ''))
}

/** `VAR=value … command`: the assignments and the command. */
function startCommand(): { env: Record<string, string>; command: string[] } {
  const env: Record<string, string> = {}
  const rest: string[] = []
  for (const w of words(shBlock('./dist/plikt'))) {
    const m = /^([A-Z_]+)=(.*)$/.exec(w)
    if (m && rest.length === 0) env[m[1]!] = m[2]!
    else rest.push(w)
  }
  return { env, command: rest }
}

async function freshDatabase(): Promise<string> {
  const name = `plikt_guide_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`
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

describe.skipIf(!PG)('§4: each instance’s start command', () => {
  const FILL: Record<string, string> = {
    SERVER_SECRET: 'guide-test-server-secret-0123456789abcdef0123',
    ADMIN_TOKEN: 'guide-test-admin-token-0123456789abcdef012345',
    METRICS_TOKEN: 'guide-test-metrics-token-0123',
  }
  /** The guide's assignments with its placeholders filled in; nothing added. */
  async function filled(): Promise<Record<string, string>> {
    const { env, command } = startCommand()
    expect(command).toEqual(['./dist/plikt'])
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(env)) out[k] = v === '…' ? FILL[k]! : v.replace('…', 'a-password')
    out.DATABASE_URL = await freshDatabase()
    out.PORT = String(freePort())
    return out
  }
  /** The process environment without anything the guide's command sets or that would change its meaning. */
  const inherited = () => {
    const {
      DATABASE_URL: _d,
      BASE_URL: _b,
      PORT: _p,
      SMTP_URL: _s,
      ALLOW_OUTBOX_MAIL: _a,
      SERVER_SECRET: _k,
      ADMIN_TOKEN: _t,
      ...rest
    } = process.env
    return { ...rest, UPSTREAM_MODE: 'fixtures', HOST: '127.0.0.1' }
  }

  test('starts as written and is ready', async () => {
    const env = await filled()
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['SMTP_URL', 'BASE_URL', 'DRAIN_GRACE_MS']))
    expect(env.BASE_URL).toStartWith('https://')
    const p = Bun.spawn(['bun', 'src/main.ts'], { env: { ...inherited(), ...env }, stdout: 'ignore', stderr: 'pipe' })
    cleanups.push(async () => {
      p.kill('SIGTERM')
      await p.exited
    })
    await listeningAddress(p.stderr)
    const ready = await fetch(`http://127.0.0.1:${env.PORT}/api/health/ready`)
    expect(ready.status).toBe(200)
  }, 60_000)

  test('without its SMTP_URL a public deployment refuses to start, naming SMTP_URL and ALLOW_OUTBOX_MAIL', async () => {
    const { SMTP_URL: _smtp, ...env } = await filled()
    const p = Bun.spawn(['bun', 'src/main.ts'], { env: { ...inherited(), ...env }, stdout: 'ignore', stderr: 'pipe' })
    const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited])
    expect(code).toBe(1)
    expect(err).toContain('SMTP_URL is unset')
    expect(err).toContain('ALLOW_OUTBOX_MAIL=true')
  }, 60_000)
})

describe.skipIf(!HAPROXY_BIN)('§4: the rolling-upgrade command', () => {
  test('restarts each server in turn, the next only once HAProxy shows the previous UP again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plikt-guide-roll-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    // Two stand-ins for instances, as the guide's checks see them: ready, or not ready while
    // draining (DRAIN_GRACE_MS), then gone for a moment, then ready again.
    const GRACE_MS = Number(/DRAIN_GRACE_MS=(\d+)/.exec(GUIDE)![1])
    const state: Record<string, 'ready' | 'draining' | 'gone'> = { a: 'ready', b: 'ready' }
    const ports = { a: freePort(), b: freePort() }
    const serve = (name: 'a' | 'b') =>
      Bun.serve({
        port: ports[name],
        hostname: '127.0.0.1',
        fetch: () =>
          new Response(state[name] === 'ready' ? 'ready' : 'not ready', {
            status: state[name] === 'ready' ? 200 : 503,
          }),
      })
    const servers = { a: serve('a'), b: serve('b') }
    cleanups.push(() => {
      servers.a.stop(true)
      servers.b.stop(true)
    })
    const socket = join(dir, 'haproxy.sock')
    const proxyPort = freePort()
    writeFileSync(join(dir, 'haproxy.cfg'), guideHaproxy(proxyPort, ports.a, ports.b, socket))
    const haproxy = Bun.spawn([HAPROXY_BIN!, '-f', join(dir, 'haproxy.cfg')], { stdout: 'ignore', stderr: 'pipe' })
    cleanups.push(async () => {
      haproxy.kill('SIGTERM')
      await haproxy.exited
    })
    for (let i = 0; ; i++) {
      const s = await serverStates(socket, 'plikt').catch(() => new Map<string, string>())
      if (s.get('a') === 'UP' && s.get('b') === 'UP') break
      if (i > 200) throw new Error('HAProxy never showed both servers UP')
      await Bun.sleep(50)
    }
    // what `systemctl restart plikt` does to the stand-in, asked over HTTP by the command
    const seenWhenRestarting: Record<string, Record<string, string>> = {}
    const control = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (req) => {
        const name = new URL(req.url).pathname.slice(1) as 'a' | 'b'
        seenWhenRestarting[name] = Object.fromEntries(await serverStates(socket, 'plikt'))
        state[name] = 'draining'
        await Bun.sleep(GRACE_MS)
        servers[name].stop(true)
        state[name] = 'gone'
        await Bun.sleep(300)
        state[name] = 'ready'
        servers[name] = serve(name)
        return new Response('restarted\n')
      },
    })
    cleanups.push(() => control.stop(true))

    // the guide's command, its socket and restart commands replaced by this machine's
    const roll = words(shBlock('rolling-upgrade.ts roll').split('\n')[0]!).map((w) => {
      if (w === '/run/haproxy/admin.sock') return socket
      const server = /^([a-z]+)=ssh .*systemctl restart plikt$/.exec(w)
      return server ? `${server[1]}=curl -sf http://127.0.0.1:${control.port}/${server[1]}` : w
    })
    expect(roll.slice(0, 3)).toEqual(['bun', 'scripts/rolling-upgrade.ts', 'roll'])
    const run = Bun.spawn(roll, { stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ])
    expect([code, out.trim()]).toEqual([0, 'restarted\nrestarted'])
    expect(err).toContain('a is UP in HAProxy again')
    expect(err).toContain('b is UP in HAProxy again')
    // b was restarted only while HAProxy had a back in rotation
    expect(seenWhenRestarting.b!.a).toBe('UP')
  }, 60_000)
})
