/**
 * Test harness: one migrated database per test run (embedded PGlite in memory, or the PostgreSQL
 * database named by DATABASE_URL), and the real app on an ephemeral port with a pinned clock.
 */
import postgres from 'postgres'
import { loadConfig, type Config } from '../../src/config.ts'
import { composeDeps, createHandler, type Extension } from '../../src/app.ts'
import type { AppDeps } from '../../src/pipeline/context.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openEmbedded, openPostgres, type Database, type Sql } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { startFixtureServers, type FixtureServers } from '../../fixtures/servers/index.ts'
import { SERVE_OPTIONS } from '../../src/http/server.ts'

import { PINNED_NOW } from './pinned.ts'
export { FIXTURE_PEOPLE, PINNED_NOW } from './pinned.ts'
export const onPostgres = Boolean(process.env.DATABASE_URL)

let shared: Promise<Database> | undefined

/** The run's shared, migrated database. */
export function testDatabase(): Promise<Database> {
  shared ??= (async () => {
    const db = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL, 5) : await openEmbedded(null)
    await migrate(db.sql, await loadMigrations())
    // Tests run on a pinned clock, so a re-used PostgreSQL database would still hold this run's
    // windows and replay records from the last one: start each run without them.
    await db.sql`delete from rate_limit_windows`
    // …and without the refused-credential tallies of those windows.
    await db.sql`delete from refusal_tallies`
    await db.sql`delete from idempotency_records`
    // …and without upstream answers cached at this run's pinned time by an earlier run.
    await db.sql`delete from upstream_cache`
    // …and without the warm-ups of those answers, due at this run's pinned instants.
    await db.sql`delete from register_warmups`
    // …and without scheduled-job ticks claimed at this run's pinned instants by an earlier run.
    await db.sql`delete from job_ticks`
    // …and without conflict locks of live filings taken at this run's pinned instants.
    await db.sql`delete from action_locks`
    // …and without webhook subscriptions of an earlier run, whose receivers are gone: nothing of
    // theirs is delivered into this run's sweeps.
    await db.sql`update webhook_deliveries set status = 'cancelled', next_attempt_at = null where status = 'pending'`
    await db.sql`update webhook_subscriptions set active = false, deactivation_reason = 'deleted', deactivated_at = now() where active`
    return db
  })()
  return shared
}

/**
 * The run's database as a second instance sees it: a pool of its own on PostgreSQL (other
 * connections, as another process would have). The embedded database serves one connection, and
 * only one process may open it, so there the second instance shares the run's pool.
 */
export async function secondInstanceSql(): Promise<{ sql: Sql; close(): Promise<void> }> {
  const db = await testDatabase()
  if (!process.env.DATABASE_URL) return { sql: db.sql, close: async () => {} }
  const other = await openPostgres(process.env.DATABASE_URL, 3)
  return { sql: other.sql, close: other.close }
}

/**
 * A fresh, empty database for tests that need their own schema (migrations, outages):
 * a new database on the PostgreSQL server, or a new in-memory PGlite. Dropped on close.
 */
export async function scratchDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (!url) return openEmbedded(null)
  const name = `plikt_scratch_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const u = new URL(url)
  u.pathname = `/${name}`
  const db = await openPostgres(u.toString(), 3)
  return {
    ...db,
    close: async () => {
      await db.close()
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}

let appCounter = 0

/**
 * The address a test app's own helpers (`get`, `post`, `send`) speak from unless a request names
 * one (X-Forwarded-For, honoured with TRUST_PROXY): one per app, so per-IP limits — counted in the
 * shared database, and on a clock pinned for the whole run — never add up across test files.
 */
function appAddress(): string {
  appCounter++
  return `198.18.${(appCounter >> 8) & 255}.${appCounter & 255}`
}

export interface TestApp {
  url: string
  /** fetch relative to the app */
  get(path: string, init?: RequestInit): Promise<Response>
  post(path: string, body: unknown, init?: RequestInit): Promise<Response>
  /** any method, JSON body */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  logs: string[]
  clock: ReturnType<typeof fixedClock>
  config: Config
  deps: AppDeps
  /** the upstream fixture servers this app talks to (real HTTP) */
  fixtures: FixtureServers
  stop(): Promise<void>
}

/** The server secret every test app is configured with (fnr HMAC and receipt keys derive from it). */
export const SERVER_SECRET = 'test-server-secret-0123456789abcdef0123456789abcdef'

/** The operator token every test app is configured with. */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789'

/** GOVERNMENT_MODE=live against the government fixture servers, as the fixtures' demo vendor. */
export function liveGovernmentEnv(fixtures: FixtureServers): Record<string, string> {
  const demo = fixtures.governmentClient
  return {
    GOVERNMENT_MODE: 'live',
    TOKEN_SERVICE_URL: fixtures.tokenServiceUrl,
    TOKEN_SERVICE_CLIENT_ID: demo.clientId,
    TOKEN_SERVICE_KID: demo.kid,
    TOKEN_SERVICE_KEY_PEM: demo.privateKeyPem,
    FILING_PORTAL_URL: fixtures.filingPortalUrl,
    DIGITAL_AGENCY_SYSTEM_ID: demo.systemId,
    FILING_PORTAL_VAT_APP_URL: demo.filingPortalVatAppUrl,
    TAX_AUTHORITY_URL: fixtures.taxAuthorityUrl,
    LABOUR_REGISTER_URL: fixtures.labourRegisterUrl,
  }
}

export async function startApp(
  opts: {
    env?: Record<string, string>
    db?: Database
    extension?: Extension
    overrides?: Partial<AppDeps>
    clock?: ReturnType<typeof fixedClock>
    /** `live`: the live government clients against the government fixture servers, as the fixtures' demo vendor */
    government?: 'mock' | 'live'
  } = {},
): Promise<TestApp> {
  const db = opts.db ?? (await testDatabase())
  // The port is known only once the server listens, and links in e-mails must carry it: listen
  // first, then configure BASE_URL and install the real handler.
  const server = Bun.serve({
    ...SERVE_OPTIONS,
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response('starting', { status: 503 }),
  })
  const url = `http://127.0.0.1:${server.port}`
  const clock = opts.clock ?? fixedClock(PINNED_NOW)
  // The government fixtures judge token lifetimes and assertion times on the test's clock.
  const fixtures = await startFixtureServers({ now: () => clock.now().getTime() })
  const government: Record<string, string> = opts.government === 'live' ? liveGovernmentEnv(fixtures) : {}
  // TRUST_PROXY lets each test speak from its own address (X-Forwarded-For), so per-IP limits stay per test.
  // A short upstream timeout keeps the timeout scenarios quick (three attempts within the budget).
  const config = loadConfig({
    PORT: String(server.port),
    BASE_URL: url,
    ADMIN_TOKEN,
    SERVER_SECRET,
    TRUST_PROXY: 'true',
    UPSTREAM_MODE: 'fixtures',
    BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
    CENTRAL_BANK_URL: fixtures.centralBankUrl,
    UPSTREAM_TIMEOUT_MS: '400',
    ...government,
    ...opts.env,
  })
  const logs: string[] = []
  const logger = createLogger('debug', (line) => logs.push(line))
  const deps = composeDeps(
    {
      config,
      sql: db.sql,
      chargeSql: db.chargeSql,
      dbKind: db.kind,
      clock,
      logger,
      startedAt: new Date(PINNED_NOW),
      ...(db.dumpDataDir ? { dumpDataDir: db.dumpDataDir } : {}),
    },
    opts.overrides,
  )
  server.reload({ fetch: createHandler(deps, opts.extension) })
  const address = appAddress()
  const from = (headers?: ConstructorParameters<typeof Headers>[0]): Headers => {
    const h = new Headers(headers)
    if (!h.has('x-forwarded-for')) h.set('x-forwarded-for', address)
    return h
  }
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, {
      method,
      headers: from(body === undefined ? headers : { 'content-type': 'application/json', ...headers }),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
  return {
    url,
    logs,
    clock,
    config,
    deps,
    fixtures,
    get: (path, init) => fetch(url + path, { ...init, headers: from(init?.headers) }),
    post: (path, body, init) =>
      fetch(url + path, {
        method: 'POST',
        ...init,
        headers: from({ 'content-type': 'application/json', ...(init?.headers as Record<string, string>) }),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    send,
    stop: async () => {
      server.stop(true)
      await fixtures.stop()
    },
  }
}
