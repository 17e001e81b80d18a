// The real service for benchmarks: in-memory embedded database, migrated, logging off.
import { loadConfig } from '../../src/config.ts'
import { composeDeps, createHandler } from '../../src/app.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openEmbedded } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'

const db = await openEmbedded(null)
await migrate(db.sql, await loadMigrations())
const { PORT, ADMIN_TOKEN, BRREG_BASE_URL, NORGES_BANK_BASE_URL } = process.env
const config = loadConfig({ PORT: PORT ?? '0', ADMIN_TOKEN, TRUST_PROXY: 'true', BRREG_BASE_URL, NORGES_BANK_BASE_URL })
const fetch = createHandler(composeDeps({ config, sql: db.sql, dbKind: db.kind, clock: systemClock, logger: createLogger('error') }))
const server = Bun.serve({ port: config.port, hostname: '127.0.0.1', fetch })
console.log(`ready ${server.port}`)
process.on('SIGINT', () => process.exit(0))
