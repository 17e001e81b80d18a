import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import {
  DatabaseLockedError,
  isDatabaseUnavailable,
  openEmbedded,
  openPostgres,
  poolState,
} from '../../src/store/db.ts'

const dir = mkdtempSync(join(tmpdir(), 'plikt-db-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the embedded database keeps its data under DATA_DIR across restarts', async () => {
  const first = await openEmbedded(dir)
  await first.sql`create table kept (v text)`
  await first.sql`insert into kept values ('still here')`
  await first.close()
  const second = await openEmbedded(dir)
  expect((await second.sql`select v from kept`)[0]!.v).toBe('still here')
  await second.close()
})

test('the embedded database’s socket is 0600 in a 0700 directory, whatever the umask and DATA_DIR’s mode', async () => {
  const data = join(dir, 'socket-modes')
  const old = process.umask(0o000)
  let db
  try {
    db = await openEmbedded(data)
  } finally {
    process.umask(old)
  }
  try {
    expect(statSync(join(data, 'socket')).mode & 0o777).toBe(0o700)
    expect(statSync(join(data, 'socket', '.s.PGSQL.5432')).mode & 0o777).toBe(0o600)
    // nothing connectable is left beside the data
    expect(readdirSync(data).filter((f) => f.startsWith('.s.PGSQL'))).toEqual([])
  } finally {
    await db.close()
  }
})

test('the embedded database runs with 32 MB of shared buffers, which it holds resident from the start', async () => {
  const db = await openEmbedded(null)
  try {
    expect((await db.sql`show shared_buffers`)[0]!.shared_buffers).toBe('32MB')
  } finally {
    await db.close()
  }
})

test('a second opener of the same DATA_DIR gets a clear error while the first holds it', async () => {
  const held = await openEmbedded(dir)
  try {
    expect(readFileSync(join(dir, 'plikt.lock'), 'utf8')).toBe(String(process.pid))
    await expect(openEmbedded(dir)).rejects.toThrow(DatabaseLockedError)
    await expect(openEmbedded(dir)).rejects.toThrow(/in use by another Plikt process/)
  } finally {
    await held.close()
  }
})

test('a lock left by a dead process is taken over', async () => {
  // pid 2^22 - 1 is above Linux's default pid_max, so no live process has it.
  writeFileSync(join(dir, 'plikt.lock'), '4194303')
  const db = await openEmbedded(dir)
  expect(readFileSync(join(dir, 'plikt.lock'), 'utf8')).toBe(String(process.pid))
  await db.close()
})

test('closing releases the lock', async () => {
  const db = await openEmbedded(dir)
  await db.close()
  expect(() => readFileSync(join(dir, 'plikt.lock'))).toThrow()
})

test('concurrent queries and transactions on the one embedded connection do not interleave', async () => {
  const db = await openEmbedded(null)
  try {
    await db.sql`create table counter (n int not null)`
    await db.sql`insert into counter values (0)`
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.sql.begin(async (tx) => {
          const [row] = await tx`select n from counter`
          await tx`update counter set n = ${row!.n + 1}`
        }),
      ),
    )
    expect((await db.sql`select n from counter`)[0]!.n).toBe(20)
  } finally {
    await db.close()
  }
})

test('the pool says how many connections are in use and idle, and how many queries wait for one', async () => {
  const db = await openEmbedded(null)
  try {
    await db.sql`select 1`
    expect(poolState(db.sql)).toEqual({ size: 1, idle: 1, in_use: 0, waiting: 0 })
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    let inside!: () => void
    const begun = new Promise<void>((r) => {
      inside = r
    })
    const tx = db.sql.begin(async (t) => {
      await t`select 1`
      inside()
      await held
    })
    await begun
    const queued = db.sql`select 2 as n`.execute()
    await new Promise((r) => setImmediate(r)) // the query reaches the pool on the next turn
    const during = poolState(db.sql)
    release()
    await tx
    expect(during).toMatchObject({ in_use: 1, idle: 0, waiting: 1 })
    expect((await queued)[0]!.n).toBe(2)
    expect(poolState(db.sql)).toMatchObject({ in_use: 0, idle: 1, waiting: 0 })
  } finally {
    await db.close()
  }
})

test('the installed postgres.js carries every edit of scripts/patch-postgres.mjs', () => {
  for (const file of ['src/connection.js', 'cjs/src/connection.js']) {
    const text = readFileSync(join(import.meta.dir, '../../node_modules/postgres', file), 'utf8')
    expect(text.split('/* plikt: forget the query of a closed socket */').length - 1).toBe(2)
    expect(text).toContain('/* plikt: reserve the connection BEGIN was written to */')
    expect(text).toContain('/* plikt: a reserved connection stays out of the pool */')
  }
  for (const file of ['src/index.js', 'cjs/src/index.js']) {
    const text = readFileSync(join(import.meta.dir, '../../node_modules/postgres', file), 'utf8')
    expect(text).toContain('/* plikt: the pool as a scrape reads it */')
  }
})

test('a transaction whose BEGIN fills the one connection’s pipeline still owns the connection, and its rollback undoes it', async () => {
  // postgres.js pipelines up to 100 queries on a connection; unpatched, a BEGIN that is the 100th
  // ran its body with no connection (TypeError) and left the session inside the transaction.
  const db = await openEmbedded(null)
  try {
    await db.sql`create table t (n int not null)`
    for (let before = 97; before <= 103; before++) {
      const outcomes = await Promise.allSettled([
        ...Array.from({ length: before }, () => db.sql`select 1`.execute()),
        db.sql.begin(async (tx) => {
          await tx`insert into t values (1)`
          throw new Error('roll it back')
        }),
        ...Array.from({ length: 5 }, () => db.sql`select count(*)::int as n from t`.execute()),
      ])
      const refused = outcomes
        .filter((o) => o.status === 'rejected')
        .map((o) => (o as PromiseRejectedResult).reason.message)
      expect(refused).toEqual(['roll it back'])
      // The queries after the transaction did not run inside it: none saw its row.
      const seen = outcomes.slice(before + 1).map((o) => (o.status === 'fulfilled' ? o.value[0]?.n : o.reason))
      expect(seen).toEqual([0, 0, 0, 0, 0])
      expect((await db.sql`select count(*)::int as n from t`)[0]!.n).toBe(0)
      // And the session is not left inside a transaction: a stray ROLLBACK cannot undo a row written after.
      await db.sql`insert into t values (2)`
      await db.sql.unsafe('rollback')
      expect((await db.sql`select count(*)::int as n from t where n = 2`)[0]!.n).toBe(1)
      await db.sql`delete from t`
    }
  } finally {
    await db.close()
  }
})

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL pool through an outage', () => {
  const PG = process.env.DATABASE_URL!
  const admin = postgres(PG, { max: 1, onnotice: () => {} })
  afterAll(() => admin.end())
  /** settles `p`, or says it hung: a deadline, not a benchmark */
  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p.catch((e: unknown) => e), Bun.sleep(ms).then(() => 'hung' as const)])

  test('every query is refused promptly while the database refuses connections, and the first after it reopens succeeds at once', async () => {
    const name = `plikt_outage_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`
    await admin.unsafe(`create database ${name}`)
    const target = new URL(PG)
    target.pathname = `/${name}`
    const db = await openPostgres(target.toString(), 2)
    try {
      // the pool's connections are open; their sessions are ended under them, then new ones refused
      await admin.unsafe(`alter database ${name} with allow_connections false`)
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`
      // Enough attempts that a connection whose session died under a query is reused while refused
      // (postgres.js 3.4.9 unpatched hangs here forever), and that its own backoff (3^n / 100 s)
      // would have reached 20 s.
      for (let i = 0; i < 12; i++) {
        const e = await within(db.sql`select 1`, 5_000)
        expect([i, isDatabaseUnavailable(e)]).toEqual([i, true])
      }
      await admin.unsafe(`alter database ${name} with allow_connections true`)
      const rows = await within(db.sql<{ one: number }[]>`select 1 as one`, 5_000)
      expect(rows).toEqual([{ one: 1 }])
    } finally {
      await db.close()
      await admin.unsafe(`drop database if exists ${name} with (force)`)
    }
  }, 60_000)
})
