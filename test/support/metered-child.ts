/**
 * A Plikt process for kill tests: the real app with the test-only metered operation, on the
 * database in DATABASE_URL or the embedded one in DATA_DIR. Prints `ready <port>`.
 */
import { loadConfig } from '../../src/config.ts'
import { composeDeps, createHandler } from '../../src/app.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openDatabase } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { closeGate, testExtension } from './test-operations.ts'

const config = loadConfig({ ...process.env, PORT: '0', TRUST_PROXY: 'true' })
const db = await openDatabase(config)
await migrate(db.sql, await loadMigrations())
closeGate() // every `outcome=slow` call hangs until the process dies
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: createHandler(
    composeDeps({
      config,
      sql: db.sql,
      chargeSql: db.chargeSql,
      dbKind: db.kind,
      clock: systemClock,
      logger: createLogger('error'),
    }),
    testExtension,
  ),
})
console.log(`ready ${server.port}`)
