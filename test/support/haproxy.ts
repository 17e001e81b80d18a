/**
 * HAProxy as docs/deploy.md configures it, run for real on this machine: the guide's configuration
 * read from the guide itself (so the test and the benchmark run what an operator copies), with the
 * TLS bind and the two servers replaced by local addresses. Used by test/deploy/proxy-cache.test.ts
 * and bench/proxy-cache.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const HAPROXY_BIN = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p)) ?? Bun.which('haproxy')

/** The `haproxy.cfg` block of docs/deploy.md, as written. */
export function guideConfig(): string {
  const guide = readFileSync(join(import.meta.dir, '../../docs/deploy.md'), 'utf8')
  const m = /`\/etc\/haproxy\/haproxy\.cfg`[^\n]*\n\n```\n([\s\S]*?)```/.exec(guide)
  if (!m) throw new Error('docs/deploy.md has no haproxy.cfg block')
  return m[1]!
}

/**
 * The guide's configuration listening on `port` (plain HTTP on 127.0.0.1) in front of `servers`
 * (`host:port`); `cache: false` drops the cache rules (cache-use, cache-store) and nothing else.
 */
export function localConfig(port: number, servers: string[], opts: { cache?: boolean } = {}): string {
  let servers_written = false
  const lines = guideConfig()
    .split('\n')
    .flatMap((line) => {
      if (/^\s*bind /.test(line)) return [`  bind 127.0.0.1:${port}`]
      if (/^\s*server \S+ \S+ check$/.test(line)) {
        if (servers_written) return []
        servers_written = true
        return servers.map((s, i) => `  server s${i} ${s} check`)
      }
      if (opts.cache === false && /cache-(use|store)/.test(line)) return []
      return [line]
    })
  return `global\n  maxconn 4096\n${lines.join('\n')}\n`
}

/**
 * Below Linux's ephemeral range (32 768 and up), where outgoing connections and port-0 listeners
 * take theirs, so no connection of this machine's holds it; and free when asked.
 */
export function freePort(): number {
  for (;;) {
    const p = 20_000 + Math.floor(Math.random() * 12_000)
    try {
      Bun.serve({ port: p, hostname: '127.0.0.1', fetch: () => new Response(null) }).stop(true)
      return p
    } catch {
      // taken: try another
    }
  }
}

export interface Haproxy {
  url: string
  /** what `systemctl reload haproxy` does: a new worker, with an empty cache, takes over */
  reload(): Promise<void>
  stop(): Promise<void>
}

/** HAProxy in master-worker mode (as Debian's unit runs it) with `config`, once it answers. */
export async function startHaproxy(config: string, port: number): Promise<Haproxy> {
  if (!HAPROXY_BIN) throw new Error('haproxy is not installed')
  const dir = mkdtempSync(join(tmpdir(), 'plikt-haproxy-'))
  const file = join(dir, 'haproxy.cfg')
  writeFileSync(file, config)
  const proc = Bun.spawn([HAPROXY_BIN, '-W', '-f', file], { stdout: 'ignore', stderr: 'pipe' })
  // The master's notices, read as they come: "Loading success." once per worker that took over.
  let log = ''
  void (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of proc.stderr) log += decoder.decode(chunk, { stream: true })
  })()
  const loaded = () => log.split('Loading success.').length - 1
  const url = `http://127.0.0.1:${port}`
  const answers = async () => {
    for (let i = 0; i < 200; i++) {
      if (proc.exitCode !== null) throw new Error(`haproxy exited: ${log}`)
      const r = await fetch(`${url}/api/health`).then(
        (res) => res.status,
        () => 0,
      )
      if (r === 200) return
      await Bun.sleep(50)
    }
    throw new Error('haproxy never answered')
  }
  await answers()
  return {
    url,
    reload: async () => {
      const before = loaded()
      proc.kill('SIGUSR2')
      // the new worker listens once the master says so; the old one stops accepting then
      for (let i = 0; loaded() === before; i++) {
        if (i > 400 || proc.exitCode !== null) throw new Error(`haproxy did not reload: ${log}`)
        await Bun.sleep(25)
      }
      await answers()
    },
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
