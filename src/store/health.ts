import type { Sql } from './db.ts'

/** Round-trip time of a trivial query in ms, or null when the database does not answer in time. */
export async function pingDatabase(sql: Sql, timeoutMs: number): Promise<number | null> {
  const t0 = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      sql`select 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)
      }),
    ])
    return Math.round((performance.now() - t0) * 100) / 100
  } catch {
    return null
  } finally {
    clearTimeout(timer)
  }
}

/** The versions among `versions` that schema_migrations does not record as applied. */
export async function missingMigrations(sql: Sql, versions: number[]): Promise<number[]> {
  const rows = await sql<{ version: number }[]>`select version from schema_migrations where version = any(${versions})`
  const applied = new Set(rows.map((r) => r.version))
  return versions.filter((v) => !applied.has(v))
}
