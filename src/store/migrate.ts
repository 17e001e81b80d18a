/**
 * Applies sql/NNNN_name.sql in order, each recorded with a SHA-256 checksum, all under one
 * transaction-scoped advisory lock so that several instances starting together apply each
 * migration exactly once. An applied migration whose file changed stops start-up: the database
 * would no longer match what the code was written against.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sha256Hex } from '../lib/hash.ts'
import type { Sql } from './db.ts'

export interface Migration {
  version: number
  name: string
  sql: string
  checksum: string
}

export class MigrationError extends Error {
  override name = 'MigrationError'
}

const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/
/** "plikt:migrate" folded into a bigint; any fixed number works, it only has to be ours. */
const LOCK_KEY = 7_311_962_025_000_001n

export const DEFAULT_SQL_DIR = join(import.meta.dir, '..', '..', 'sql')
/** Inside a `bun build --compile` binary modules live on Bun's virtual file system. */
const COMPILED = import.meta.dir.includes('$bunfs')

function parse(files: { name: string; text: string }[]): Migration[] {
  const out: Migration[] = []
  for (const f of files) {
    const m = FILE.exec(f.name)
    if (!m) continue
    out.push({ version: Number(m[1]), name: m[2]!, sql: f.text, checksum: sha256Hex(f.text) })
  }
  out.sort((a, b) => a.version - b.version)
  for (let i = 1; i < out.length; i++) {
    if (out[i]!.version === out[i - 1]!.version) {
      throw new MigrationError(`Two migrations share number ${String(out[i]!.version).padStart(4, '0')}`)
    }
  }
  return out
}

/** Migrations from a directory, or — inside the single binary — from the embedded files. */
export async function loadMigrations(dir: string = DEFAULT_SQL_DIR): Promise<Migration[]> {
  if (COMPILED && dir === DEFAULT_SQL_DIR) {
    const embedded = (Bun.embeddedFiles as (Blob & { name: string })[]).filter((f) => FILE.test(f.name))
    return parse(await Promise.all(embedded.map(async (f) => ({ name: f.name, text: await f.text() }))))
  }
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    throw new MigrationError(`Migration directory ${dir} is missing`)
  }
  return parse(names.map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') })))
}

export interface MigrateResult {
  applied: string[]
  skipped: number
}

export async function migrate(
  sql: Sql,
  migrations: Migration[],
  warn: (msg: string) => void = () => {},
): Promise<MigrateResult> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK_KEY.toString()}::bigint)`
    await tx`
      create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`
    const rows = await tx<{ version: number; name: string; checksum: string }[]>`
      select version, name, checksum from schema_migrations order by version`
    const known = new Map(migrations.map((m) => [m.version, m]))
    const newest = migrations.at(-1)?.version ?? 0
    for (const row of rows) {
      const file = known.get(row.version)
      const label = `${String(row.version).padStart(4, '0')}_${row.name}.sql`
      if (!file) {
        if (row.version > newest) {
          warn(`database has migration ${label}, which this build does not know (the database is ahead of the code)`)
          continue
        }
        throw new MigrationError(`Migration ${label} was applied but its file is gone; restore it.`)
      }
      if (file.checksum !== row.checksum) {
        throw new MigrationError(
          `Migration ${label} was changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ` +
            `${file.checksum.slice(0, 12)}… on disk). Applied migrations are immutable: restore the file and put the change in a new migration.`,
        )
      }
    }
    const done = new Set(rows.map((r) => r.version))
    const applied: string[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      await tx.unsafe(m.sql)
      await tx`insert into schema_migrations (version, name, checksum) values (${m.version}, ${m.name}, ${m.checksum})`
      applied.push(`${String(m.version).padStart(4, '0')}_${m.name}.sql`)
    }
    return { applied, skipped: done.size }
  }) as Promise<MigrateResult>
}
