/**
 * A PostgreSQL cluster of a test's or a benchmark's own: initdb and pg_ctl on a temporary data
 * directory and a free port, so the run's shared server is never touched (stopped, restarted or
 * reconfigured). Used by test/deploy/database-restart.test.ts and bench/soak.ts.
 */
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './haproxy.ts'

/** PostgreSQL's server binaries (Debian keeps them out of PATH), the newest first. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : []
  for (const v of versions)
    if (existsSync(join(root, v, 'bin', 'pg_ctl')) && existsSync(join(root, v, 'bin', 'initdb')))
      return join(root, v, 'bin')
  const onPath = Bun.which('pg_ctl')
  return onPath && Bun.which('initdb') ? join(onPath, '..') : null
}

const BIN = postgresBin()
// initdb refuses to run as root: as root the cluster is run by the `postgres` user
const AS_ROOT = process.getuid?.() === 0
const POSTGRES_USER =
  !AS_ROOT || (Bun.spawnSync(['id', '-u', 'postgres']).exitCode === 0 && Bun.which('runuser') !== null)

/** What this machine lacks to run a cluster of its own (empty when it can). */
export const clusterMissing: string[] = [
  !BIN && 'PostgreSQL server binaries (initdb, pg_ctl)',
  !POSTGRES_USER && 'a postgres user (with runuser) to run PostgreSQL as, since this runs as root',
].filter((x): x is string => Boolean(x))

/**
 * A throwaway cluster. initdb and the server refuse to run as root: as root they run as the
 * `postgres` user (runuser), which owns the data directory. `settings` are passed as `-c`
 * options (the default: fsync off and a small buffer pool, for tests that only need a server).
 */
export class PostgresCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'plikt-pg-'))
  readonly data = join(this.dir, 'data')
  readonly log = join(this.dir, 'log')
  readonly port = freePort()
  private readonly asUser = AS_ROOT ? ['runuser', '-u', 'postgres', '--'] : []

  constructor(private readonly settings: Record<string, string> = { fsync: 'off', shared_buffers: '16MB' }) {}

  private run(args: string[]): void {
    const r = Bun.spawnSync([...this.asUser, ...args], { stdout: 'pipe', stderr: 'pipe' })
    if (r.exitCode !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.toString()}${r.stdout.toString()}`)
  }

  init(): void {
    if (this.asUser.length) {
      chmodSync(this.dir, 0o755)
      const id = Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()
      const gid = Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()
      chownSync(this.dir, Number(id), Number(gid))
    }
    this.run([join(BIN!, 'initdb'), '-D', this.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'])
  }

  start(): void {
    const extra = Object.entries(this.settings)
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ')
    const opts = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} ${extra}`
    this.run([join(BIN!, 'pg_ctl'), '-D', this.data, '-o', opts, '-l', this.log, '-w', 'start'])
  }

  stop(): void {
    this.run([join(BIN!, 'pg_ctl'), '-D', this.data, '-m', 'fast', '-w', 'stop'])
  }

  url(db: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${db}`
  }

  /** The server's log so far. */
  readLog(): string {
    return existsSync(this.log) ? readFileSync(this.log, 'utf8') : ''
  }

  destroy(): void {
    try {
      this.stop()
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true })
  }
}
