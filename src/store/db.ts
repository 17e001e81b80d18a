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
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
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
  /** embedded only: a consistent copy of the data directory, a gzipped tarball PGlite can load */
  dumpDataDir?: () => Promise<Blob>
  close(): Promise<void>
}

/** A connection pool as a scrape reads it: its size, connections idle and in use, queries waiting for one. */
export interface PoolState {
  size: number
  idle: number
  in_use: number
  waiting: number
}

/** The pool behind `sql` (scripts/patch-postgres.mjs exposes it; postgres.js keeps it to itself). */
export function poolState(sql: Sql): PoolState {
  return (sql as unknown as { pool(): PoolState }).pool()
}

export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError'
}

export class DataDirError extends Error {
  override name = 'DataDirError'
}

/**
 * DATA_DIR made (if need be) and proven writable, or a DataDirError that names it and says why:
 * the operator reads the message, not a stack trace.
 */
function prepareDataDir(dataDir: string): string {
  const dir = resolve(dataDir)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const probe = join(dir, `.write-probe-${process.pid}`)
    writeFileSync(probe, '')
    rmSync(probe, { force: true })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'a file is in the way of the directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : code === 'ENOSPC'
              ? 'the disk is full'
              : (code ?? String(e))
    throw new DataDirError(
      `DATA_DIR ${dir} cannot be used: ${why}. Point DATA_DIR at a writable directory, or set DATABASE_URL to use PostgreSQL.`,
    )
  }
  return dir
}

const COMMON_OPTIONS = {
  onnotice: () => {},
  // A database that does not answer a connection attempt in 3 s is down for this request: it is
  // refused (503, retryable) rather than held, so no request waits past its deadline.
  connect_timeout: 3,
  // postgres.js waits before reconnecting after failed connects, growing to 20 s (3^n / 100 s,
  // shared by the pool): after an outage of a few seconds a queued request would wait that long
  // for a database that is already back. Capped at 0.5 s, recovery is seen within half a second,
  // and a pool of 10 knocks at most 20 times a second on a database that is really down.
  backoff: (retries: number) => Math.min(0.025 * 2 ** retries, 0.5),
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
 * PGlite's defaults, with 32 MB of shared buffers instead of PostgreSQL's 128 MB. PGlite writes
 * its whole buffer pool into the process at start, so the pool is resident memory from the first
 * second and costs start-up time (idle RSS 290 → 182 MB, PGlite open ~270 → ~220 ms; see
 * bench/RESULTS.md). Its pages are read through the operating system's file cache, so a miss is
 * a copy, not a disk read; a database that outgrows this belongs on PostgreSQL.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB']

/**
 * Opens PGlite with its data under `dataDir` (or in memory when `dataDir` is null, for tests)
 * and connects postgres.js to it over a unix socket.
 */
/**
 * Where the embedded database's unix socket lives: a directory only this user may enter (0700),
 * whatever the umask or DATA_DIR's own mode — `DATA_DIR/socket`, or a fresh private directory
 * under the temporary directory for an in-memory database or a DATA_DIR whose path is too long
 * for a socket (~107 bytes). Anyone who can reach the socket can use the database: it has no
 * password.
 */
function privateSocketDir(dataDir: string | null): { dir: string; temporary: boolean } {
  if (dataDir !== null) {
    const dir = join(dataDir, 'socket')
    if (join(dir, SOCKET_NAME).length <= 100) {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      chmodSync(dir, 0o700)
      return { dir, temporary: false }
    }
  }
  return { dir: mkdtempSync(join(tmpdir(), 'plikt-')), temporary: true }
}

const SOCKET_NAME = '.s.PGSQL.5432'

export async function openEmbedded(dataDir: string | null): Promise<Database> {
  let release = () => {}
  let pgDataDir: string | undefined
  let dir: string | null = null
  if (dataDir !== null) {
    dir = prepareDataDir(dataDir)
    release = acquireLock(dir)
    pgDataDir = join(dir, 'pgdata')
  }
  let socketDir: { dir: string; temporary: boolean }
  try {
    socketDir = privateSocketDir(dir)
  } catch (e) {
    release()
    throw e
  }
  const socketPath = join(socketDir.dir, SOCKET_NAME)
  const cleanUp = () => {
    rmSync(socketPath, { force: true })
    if (socketDir.temporary) rmSync(socketDir.dir, { recursive: true, force: true })
  }
  try {
    // We hold the lock, so a socket file left here belongs to a dead process.
    if (existsSync(socketPath)) unlinkSync(socketPath)
    const needsInitdb = !pgDataDir || !existsSync(join(pgDataDir, 'PG_VERSION'))
    const pg = await PGlite.create({
      ...(pgDataDir ? { dataDir: pgDataDir } : {}),
      ...(await pgliteAssets(needsInitdb)),
      startParams: PGLITE_START_PARAMS,
    })
    const server = new PGLiteSocketServer({ db: pg, path: socketPath, maxConnections: 4 })
    await server.start()
    // Its mode came from the umask; the directory already keeps everyone else out.
    chmodSync(socketPath, 0o600)
    const sql = postgres({ ...COMMON_OPTIONS, path: socketPath, max: 1 } as postgres.Options<
      Record<string, never>
    >) as unknown as Sql
    await sql`select 1`
    let closed = false
    return {
      sql,
      chargeSql: sql,
      kind: 'embedded',
      // PGlite runs one statement at a time, so the copy is of one instant between statements.
      dumpDataDir: () => pg.dumpDataDir('gzip'),
      close: async () => {
        if (closed) return
        closed = true
        await sql.end({ timeout: 5 })
        await server.stop()
        await pg.close()
        cleanUp()
        release()
      },
    }
  } catch (e) {
    cleanUp()
    release()
    throw e
  }
}

export function openDatabase(opts: {
  databaseUrl: string | null
  dataDir: string
  databasePoolSize: number
}): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.databasePoolSize) : openEmbedded(opts.dataDir)
}

/**
 * Fills an empty DATA_DIR from a backup (`dumpDataDir`): holds the directory's lock meanwhile, so
 * no instance can start on it half-restored. Refuses a directory that holds anything.
 */
export async function restoreEmbedded(dataDir: string, backup: Blob): Promise<void> {
  const dir = prepareDataDir(dataDir)
  const release = acquireLock(dir)
  try {
    const present = readdirSync(dir).filter((f) => f !== 'plikt.lock')
    if (present.length > 0)
      throw new RestoreRefusedError(
        `DATA_DIR ${dir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}); restore fills an empty directory only`,
      )
    const pg = await PGlite.create({
      dataDir: join(dir, 'pgdata'),
      loadDataDir: backup,
      ...(await pgliteAssets(false)),
      startParams: PGLITE_START_PARAMS,
    })
    await pg.query('select 1')
    await pg.close()
  } finally {
    release()
  }
}

export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError'
}

/** What postgres.js and the socket layer say when the database cannot be reached or went away. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
])

/**
 * Whether an error means the database is unavailable (not that a statement was wrong): refused or
 * cut connections, a connection-class SQLSTATE (08…), a server shutting down or starting (57P0x),
 * or a database closed to connections for maintenance.
 * Such a request is answered 503 and retryable, not as an internal error.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return false
  if (code === '55000') return /not currently accepting connections/.test((e as Error).message)
  return UNREACHABLE.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03'
}
