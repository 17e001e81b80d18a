/**
 * `plikt [serve]`: config → database → migrations → app → listen; graceful drain on SIGINT/SIGTERM.
 * The other commands (migrate, backup, restore, export) are in commands.ts.
 */
import './early-start.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { composeDeps, createHandler } from './app.ts'
import { SERVE_OPTIONS } from './http/server.ts'
import { systemClock } from './lib/clock.ts'
import { secretFingerprint, secretFromDataDir } from './lib/server-secret.ts'
import { localUrl, removeInstanceFile, writeInstanceFile } from './lib/instance-file.ts'
import { bufferedStdout, createLogger } from './lib/log.ts'
import { DatabaseLockedError, DataDirError, openDatabase } from './store/db.ts'
import { loadMigrations, migrate, MigrationError } from './store/migrate.ts'
import { startJobs } from '../jobs/runner.ts'
import { runCommand, usage } from './commands.ts'

async function main() {
  let config = loadConfig()
  let stopFixtures = async () => {}
  let upstreams: Partial<Config> = {}
  if (config.upstreamMode === 'fixtures') {
    // Offline mode: the fixture servers stand in for data.brreg.no, data.norges-bank.no and (with
    // GOVERNMENT_MODE=live) the government systems over real HTTP, as the fixtures' demo vendor.
    const { startFixtureServers } = await import('../fixtures/servers/index.ts')
    const servers = await startFixtureServers({ hostname: '127.0.0.1' })
    const demo = servers.governmentClient
    upstreams = {
      businessRegisterUrl: servers.businessRegisterUrl,
      centralBankUrl: servers.centralBankUrl,
      government: {
        ...config.government,
        tokenServiceUrl: servers.tokenServiceUrl,
        tokenServiceClientId: demo.clientId,
        tokenServiceKid: demo.kid,
        tokenServiceKeyPem: demo.privateKeyPem,
        tokenServiceKeyFile: null,
        filingPortalUrl: servers.filingPortalUrl,
        digitalAgencyUrl: servers.filingPortalUrl,
        digitalAgencySystemId: demo.systemId,
        filingPortalVatAppUrl: demo.filingPortalVatAppUrl,
        taxAuthorityUrl: servers.taxAuthorityUrl,
        labourRegisterUrl: servers.labourRegisterUrl,
      },
    }
    config = { ...config, ...upstreams }
    stopFixtures = servers.stop
  }
  const stdout = bufferedStdout()
  const logger = createLogger(config.logLevel, stdout.sink)
  for (const note of config.deprecatedVariables) logger.warn(note)
  if (config.webhookAllowLoopback) {
    logger.warn(
      'WEBHOOK_ALLOW_LOOPBACK=true: webhooks may be sent to http://127.0.0.1 and http://localhost on this machine; for development and tests only, never in production',
    )
  }
  if (!config.smtpUrl && config.baseUrl.startsWith('https://')) {
    logger.warn('ALLOW_OUTBOX_MAIL=true: sign-in mail to a public address goes to the operator outbox, not by SMTP', {
      base_url: config.baseUrl,
    })
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
  const server = Bun.serve({
    ...SERVE_OPTIONS,
    port: config.port,
    hostname: config.host,
    fetch: () => new Response(null, { status: 503 }),
  })
  config = { ...loadConfig(process.env, server.port), ...upstreams }
  if (config.serverSecret === null) {
    const kept = secretFromDataDir(config.dataDir)
    config = { ...config, serverSecret: kept.secret }
    if (kept.created) logger.info('generated a server secret', { file: `${config.dataDir}/server-secret` })
    if (db.kind === 'postgres')
      logger.warn(
        'SERVER_SECRET is unset: this instance uses the secret kept in its DATA_DIR; every instance on the same database must share one SERVER_SECRET',
      )
  }
  const deps = composeDeps({
    config,
    sql: db.sql,
    chargeSql: db.chargeSql,
    dbKind: db.kind,
    clock: systemClock,
    logger,
    ...(db.dumpDataDir ? { dumpDataDir: db.dumpDataDir } : {}),
  })
  const handler = createHandler(deps)
  server.reload({ fetch: handler })
  // METRICS_PORT: /metrics (token still required) on a port of its own, for a scraper the public proxy never reaches.
  const metricsServer = config.metricsPort
    ? Bun.serve({
        port: config.metricsPort,
        hostname: config.host,
        fetch: (req, srv) =>
          new URL(req.url).pathname === '/metrics'
            ? handler(req, srv)
            : new Response('only /metrics is served on this port\n', { status: 404 }),
      })
    : null
  // `plikt backup` finds this instance from DATA_DIR alone (lib/instance-file.ts)
  if (db.kind === 'embedded')
    writeInstanceFile(config.dataDir, {
      url: localUrl(config.host, server.port!),
      pid: process.pid,
      server_secret_fingerprint: secretFingerprint(config.serverSecret!),
    })
  const jobs = startJobs(deps)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    // Not ready first (a proxy checking /api/health/ready takes us out of rotation, given
    // DRAIN_GRACE_MS to notice), then no new connections; requests in flight finish within DRAIN_TIMEOUT_MS, after which their
    // connections are cut. Jobs stop at a safe point meanwhile. Then the charges batched in
    // memory are written, and the database closes (which releases the embedded lock).
    deps.lifecycle.draining = true
    const grace = config.drainGraceMs ?? deps.lifecycle.automaticGrace()
    logger.info('draining', {
      signal,
      deadline_ms: config.drainTimeoutMs,
      grace_ms: grace,
      grace_from: config.drainGraceMs === null ? 'readiness checks seen' : 'DRAIN_GRACE_MS',
    })
    const tooShort = config.drainGraceMs === null ? null : deps.lifecycle.graceWarning(grace)
    if (tooShort) logger.warn(tooShort)
    const jobsStopped = jobs.stop()
    // Still serving, not ready: a proxy checking readiness stops sending before the listener closes.
    if (grace > 0) await Bun.sleep(grace)
    void metricsServer?.stop(true)
    let timer: ReturnType<typeof setTimeout> | undefined
    const drained = await Promise.race([
      server.stop(false).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), config.drainTimeoutMs)
      }),
    ])
    clearTimeout(timer)
    if (!drained) {
      logger.warn('drain deadline passed: cutting the connections still open', { deadline_ms: config.drainTimeoutMs })
      await server.stop(true)
    }
    await jobsStopped
    const unsettled = await deps.settler.settle(config.drainTimeoutMs)
    if (unsettled > 0)
      logger.error('credit holds left unsettled at shutdown: the expiry sweep will refund their batches', { unsettled })
    if (db.kind === 'embedded') removeInstanceFile(config.dataDir)
    await db.close()
    await stopFixtures()
    logger.info('stopped', { signal, drained })
    await stdout.flush()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  // Said only once a stop signal is ours to handle: one sent the moment this is read drains, not kills.
  const where = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${server.port}`
  logger.info('listening', {
    url: where,
    database: db.kind === 'embedded' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL',
  })
  process.stderr.write(
    `\nPlikt is listening on ${where} (${db.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})\n` +
      `  try:  curl ${where}/api/health\n` +
      `        curl ${where}/api/v1/errors\n` +
      `  docs: ${where}/docs\n` +
      (config.upstreamMode === 'fixtures'
        ? `  upstreams: fixture servers (offline): register ${config.businessRegisterUrl}, central bank ${config.centralBankUrl}\n`
        : '') +
      `  government systems: ${config.government.mode === 'mock' ? 'mock (GOVERNMENT_MODE=mock)' : `live, token service ${config.government.tokenServiceUrl}, portal ${config.government.filingPortalUrl}`}\n\n`,
  )
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--help' || first === '-h' || first === 'help') {
  process.stdout.write(`${usage()}\n`)
} else if (first !== undefined && first !== 'serve') {
  process.exit(await runCommand(first, rest))
} else if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
  process.stdout.write(
    `usage: plikt [serve]\n\nRuns the service: the API, the pages and the jobs, on PORT (default 3000), with the embedded database in DATA_DIR\nunless DATABASE_URL is set. Configuration comes from the environment (README, "Configuration").\n`,
  )
} else if (rest.length > 0) {
  process.stderr.write(`plikt serve takes no arguments (configuration comes from the environment)\n${usage()}\n`)
  process.exit(2)
} else {
  await serve()
}

async function serve() {
  await main().catch((e: unknown) => {
    const known =
      e instanceof ConfigError ||
      e instanceof DatabaseLockedError ||
      e instanceof DataDirError ||
      e instanceof MigrationError
    process.stderr.write(`plikt: cannot start: ${known ? (e as Error).message : String((e as Error)?.stack ?? e)}\n`)
    process.exit(1)
  })
}
