/** Start: config → database → migrations → app → listen; graceful shutdown on SIGINT/SIGTERM. */
import { ConfigError, loadConfig, type Config } from './config.ts'
import { composeDeps, createHandler } from './app.ts'
import { SERVE_OPTIONS } from './http/server.ts'
import { systemClock } from './lib/clock.ts'
import { createLogger } from './lib/log.ts'
import { DatabaseLockedError, openDatabase } from './store/db.ts'
import { loadMigrations, migrate, MigrationError } from './store/migrate.ts'
import { startJobs } from '../jobs/runner.ts'

async function main() {
  let config = loadConfig()
  let stopFixtures = async () => {}
  let upstreams: Partial<Config> = {}
  if (config.upstreamMode === 'fixtures') {
    // Offline mode: the fixture servers stand in for data.brreg.no and data.norges-bank.no over real HTTP.
    const { startFixtureServers } = await import('../fixtures/servers/index.ts')
    const servers = await startFixtureServers({ hostname: '127.0.0.1' })
    upstreams = { brregBaseUrl: servers.brregUrl, norgesBankBaseUrl: servers.norgesBankUrl }
    config = { ...config, ...upstreams }
    stopFixtures = servers.stop
  }
  const logger = createLogger(config.logLevel)
  if (!config.smtpUrl && config.baseUrl.startsWith('https://')) {
    logger.warn('ALLOW_OUTBOX_MAIL=true: sign-in mail to a public address goes to the operator outbox, not by SMTP', { base_url: config.baseUrl })
  }
  const db = await openDatabase(config)
  try {
    const result = await migrate(db.sql, await loadMigrations(), (msg) => logger.warn(msg))
    if (result.applied.length) logger.info('migrations applied', { applied: result.applied })
  } catch (e) {
    await db.close()
    throw e
  }
  // Listen first: with PORT=0 the port is known only now, and links must carry it. Nothing is
  // answered by the placeholder, since everything up to the reload is synchronous.
  const server = Bun.serve({ ...SERVE_OPTIONS, port: config.port, hostname: config.host, fetch: () => new Response(null, { status: 503 }) })
  config = { ...loadConfig(process.env, server.port), ...upstreams }
  const deps = composeDeps({ config, sql: db.sql, chargeSql: db.chargeSql, dbKind: db.kind, clock: systemClock, logger })
  server.reload({ fetch: createHandler(deps) })
  const jobs = startJobs(deps)
  const where = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${server.port}`
  logger.info('listening', { url: where, database: db.kind === 'embedded' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL' })
  process.stderr.write(
    `\nPlikt is listening on ${where} (${db.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})\n` +
      `  try:  curl ${where}/api/health\n` +
      `        curl ${where}/api/v1/errors\n` +
      `  docs: ${where}/docs\n` +
      (config.upstreamMode === 'fixtures' ? `  upstreams: fixture servers (offline) at ${config.brregBaseUrl} and ${config.norgesBankBaseUrl}\n\n` : '\n'),
  )

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    // Finish requests in flight, then close the database (which releases the embedded lock).
    await server.stop(false)
    await deps.settler.flush()
    await jobs.stop()
    await db.close()
    await stopFixtures()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((e: unknown) => {
  const known = e instanceof ConfigError || e instanceof DatabaseLockedError || e instanceof MigrationError
  process.stderr.write(`plikt: cannot start: ${known ? (e as Error).message : String((e as Error)?.stack ?? e)}\n`)
  process.exit(1)
})
