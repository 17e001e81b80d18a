/**
 * A Plikt process for the filing kill test: the real app with GOVERNMENT_MODE=live against the
 * government fixture servers its parent started (their URLs in the environment), on the database
 * in DATABASE_URL or the embedded one in DATA_DIR, its clock pinned at CLOCK_AT. Prints
 * `ready <port>`.
 */
import { loadConfig } from '../../src/config.ts'
import { composeDeps, createHandler } from '../../src/app.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openDatabase } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'

const config = loadConfig({ ...process.env, PORT: '0', TRUST_PROXY: 'true' })
const db = await openDatabase(config)
await migrate(db.sql, await loadMigrations())
const clock = fixedClock(process.env.CLOCK_AT!)
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: createHandler(
    composeDeps({
      config,
      sql: db.sql,
      chargeSql: db.chargeSql,
      dbKind: db.kind,
      clock,
      logger: createLogger('error'),
    }),
  ),
})
console.log(`ready ${server.port}`)
