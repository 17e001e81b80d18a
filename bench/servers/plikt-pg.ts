// The real service on the PostgreSQL in DATABASE_URL, with the test-only metered operation registered.
import { loadConfig } from '../../src/config.ts'
import { composeDeps, createHandler } from '../../src/app.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openPostgres } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { testExtension } from '../../test/test-operations.ts'

const config = loadConfig({ ...process.env, PORT: '0' })
const db = await openPostgres(config.databaseUrl!, config.databasePoolSize)
await migrate(db.sql, await loadMigrations())
const fetch = createHandler(composeDeps({ config, sql: db.sql, chargeSql: db.chargeSql, dbKind: db.kind, clock: systemClock, logger: createLogger('error') }), testExtension)
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch })
console.log(`ready ${server.port}`)
process.on('SIGINT', () => process.exit(0))
