/**
 * One postgres.js `sql` for the whole service: real PostgreSQL when DATABASE_URL is set, otherwise
 * PGlite in-process, served on a unix socket by pglite-socket so that application code has exactly
 * one SQL code path.
 *
 * The embedded pool holds ONE connection: PGlite is a single backend session, and pglite-socket's
 * multiplexer can interleave two clients' extended-protocol messages (a Bind of one client could
 * replace the unnamed portal of another). One connection makes postgres.js queue queries and
 * reserve the session for `sql.begin`, which is exactly the semantics of a single backend.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { pgliteAssets } from './embedded-assets.ts'

export type Sql = postgres.Sql<Record<string, never>>

export interface Database {
  sql: Sql
  /**
   * The connection metered charges are written on (domain/billing/metering.ts): one of its own on
   * PostgreSQL, so their batches are pipelined — the server runs the next batch the moment the
   * last one commits; the embedded database's single connection otherwise.
   */
  chargeSql: Sql
  kind: 'postgres' | 'embedded'
  close(): Promise<void>
}

export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError'
}

const COMMON_OPTIONS = {
  onnotice: () => {},
  connect_timeout: 10,
  // postgres.js turns bigint into string by default; counts are cast in SQL instead.
} as const

export async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const sql = postgres(url, { ...COMMON_OPTIONS, max: poolSize }) as unknown as Sql
  await sql`select 1`
  // Connects on first use.
  const chargeSql = postgres(url, { ...COMMON_OPTIONS, max: 1 }) as unknown as Sql
  return {
    sql,
    chargeSql,
    kind: 'postgres',
    close: async () => {
      await Promise.all([sql.end({ timeout: 5 }), chargeSql.end({ timeout: 5 })])
    },
  }
}

const heldLocks = new Set<string>()

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes DATA_DIR/plikt.lock; PGlite itself does not stop two processes opening one data dir. */
function acquireLock(dir: string): () => void {
  const lockPath = join(dir, 'plikt.lock')
  const busy = (pid: number) =>
    new DatabaseLockedError(
      `The embedded database in ${dir} is in use by another Plikt process (pid ${pid}). ` +
        'Stop that process, or point DATA_DIR at another directory, or set DATABASE_URL to use PostgreSQL.',
    )
  if (heldLocks.has(lockPath)) throw busy(process.pid)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      heldLocks.add(lockPath)
      return () => {
        heldLocks.delete(lockPath)
        rmSync(lockPath, { force: true })
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const pid = Number(readFileSync(lockPath, 'utf8').trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) throw busy(pid)
      // The owner died without cleaning up: the lock is stale.
      rmSync(lockPath, { force: true })
    }
  }
  throw busy(NaN)
}

/**
 * Opens PGlite with its data under `dataDir` (or in memory when `dataDir` is null, for tests)
 * and connects postgres.js to it over a unix socket.
 */
export async function openEmbedded(dataDir: string | null): Promise<Database> {
  let release = () => {}
  let socketPath: string
  let pgDataDir: string | undefined
  if (dataDir !== null) {
    const dir = resolve(dataDir)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    release = acquireLock(dir)
    pgDataDir = join(dir, 'pgdata')
    socketPath = join(dir, '.s.PGSQL.5432')
  } else {
    socketPath = join(tmpdir(), `plikt-${process.pid}-${crypto.randomUUID().slice(0, 8)}.sock`)
  }
  // Unix socket paths are limited to ~107 bytes.
  if (socketPath.length > 100) socketPath = join(tmpdir(), `plikt-${crypto.randomUUID().slice(0, 12)}.sock`)
  try {
    // We hold the lock, so a socket file left here belongs to a dead process.
    if (existsSync(socketPath)) unlinkSync(socketPath)
    const pg = await PGlite.create({ ...(pgDataDir ? { dataDir: pgDataDir } : {}), ...(await pgliteAssets()) })
    const server = new PGLiteSocketServer({ db: pg, path: socketPath, maxConnections: 4 })
    await server.start()
    const sql = postgres({ ...COMMON_OPTIONS, path: socketPath, max: 1 } as postgres.Options<Record<string, never>>) as unknown as Sql
    await sql`select 1`
    let closed = false
    return {
      sql,
      chargeSql: sql,
      kind: 'embedded',
      close: async () => {
        if (closed) return
        closed = true
        await sql.end({ timeout: 5 })
        await server.stop()
        await pg.close()
        rmSync(socketPath, { force: true })
        release()
      },
    }
  } catch (e) {
    release()
    throw e
  }
}

export function openDatabase(opts: { databaseUrl: string | null; dataDir: string; databasePoolSize: number }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.databasePoolSize) : openEmbedded(opts.dataDir)
}
