/**
 * A Plikt process for the webhook kill test: the real composition with only the delivery sweep
 * scheduled (every second, as in production), on the database in DATABASE_URL or the embedded one
 * in DATA_DIR. CLOCK_OFFSET_MS moves its clock ahead, as if it were restarted that much later.
 * Prints `ready` once the sweep is scheduled.
 */
import { QUEUE_JOBS, startJobs } from '../../jobs/runner.ts'
import { composeDeps } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openDatabase } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'

const offset = Number(process.env.CLOCK_OFFSET_MS ?? 0)
const config = loadConfig({ ...process.env, PORT: '0' })
const db = await openDatabase(config)
await migrate(db.sql, await loadMigrations())
const deps = composeDeps({
  config,
  sql: db.sql,
  chargeSql: db.chargeSql,
  dbKind: db.kind,
  clock: { now: () => new Date(Date.now() + offset) },
  logger: createLogger('error'),
})
const jobs = startJobs(deps, { jobs: {}, queueJobs: { 'webhook-deliveries': QUEUE_JOBS['webhook-deliveries']! } })
process.on('SIGTERM', async () => {
  await jobs.stop()
  await db.close()
  process.exit(0)
})
console.log('ready')
