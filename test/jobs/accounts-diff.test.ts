/**
 * The accounts diff (jobs/accounts-diff.ts → domain/changes/accounts-diff.ts) against the brreg
 * fixture server, whose control API records new filings, on a database of its own (the baseline
 * and the archive are global state). Companies enter the diff by being looked up, as in
 * production: a read through the cache.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { byScenario } from '../../fixtures/data/companies.ts'
import { runDailyAccountsDiff } from '../../jobs/accounts-diff.ts'
import { runRegisterUpdates } from '../../jobs/register-updates.ts'
import { jobRunner, type JobDeps } from '../../jobs/runner.ts'
import { observeAccounts, runAccountsDiff } from '../../src/domain/changes/accounts-diff.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { diffCandidatesFor } from '../../src/store/accounts-baseline.ts'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { PINNED_NOW, scratchDatabase, type TestApp } from '../helpers.ts'
import { retireSubscribers, subscribe, subscriber, webhookApp } from '../helpers.ts'

let db: Database
let app: TestApp

const POSTEN = byScenario('as') // AS, accounts 2024
const NUF = byScenario('nuf') // must file, has none
const ENK = byScenario('enk') // need not file, has none
const DOWN = '999888933' // accounts-down: the register answers 503
const ORGS = [POSTEN, NUF, ENK]

beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  app = await webhookApp({ db })
}, 30_000)
afterAll(async () => {
  await retireSubscribers(app)
  await app.stop()
  await db.close()
})

beforeEach(async () => {
  await db.sql`delete from accounts_baseline`
  await db.sql`delete from upstream_cache`
  await db.sql`delete from upstream_feed_cursors`
})

const deps = (at = PINNED_NOW): JobDeps => ({ ...app.deps, clock: fixedClock(at) })
const lookUp = async (...orgs: string[]) => {
  for (const org of orgs) await app.deps.reads.unit(org)
}
const file = async (org: string, year: number) => {
  const res = await fetch(`${app.fixtures.businessRegisterUrl}/__control/accounts/${org}`, {
    method: 'POST',
    body: JSON.stringify({ year }),
  })
  if (res.status !== 201) throw new Error(`filing ${org} ${year}: ${res.status} ${await res.text()}`)
}
const baseline = async () => [
  ...(await db.sql<
    {
      org_number: string
      has_filed_annual_accounts: boolean | null
      last_accounts_year: number | null
      org_form: string | null
    }[]
  >`
    select org_number, has_filed_annual_accounts, last_accounts_year, org_form from accounts_baseline order by org_number`),
]
const changesFor = async (org: string) =>
  db.sql<
    {
      source: string
      entity_type: string
      entity_id: string
      change_type: string
      field_path: string
      before_value: unknown
      after_value: unknown
      diff: unknown
      source_snapshot_id: string
    }[]
  >`
    select source, entity_type, entity_id, change_type, field_path, before_value, after_value, diff, source_snapshot_id
    from changes where entity_id = ${org} and entity_type = 'annual_accounts' order by seq`
const accountsRequests = async () => {
  const log = (await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()) as {
    path: string
  }[]
  return log.filter((r) => r.path.startsWith('/regnskapsregisteret/')).map((r) => r.path.split('/').pop())
}
const clearRequests = () => fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })

describe('the first observation', () => {
  test('records a silent baseline for every looked-up company and emits nothing', async () => {
    await lookUp(...ORGS)
    const before = (await db.sql<{ n: number }[]>`select count(*)::int as n from changes`)[0]!.n
    const r = await runDailyAccountsDiff(deps())
    expect(r).toMatchObject({ observed: 3, baselined: 3, changed: 0, changes: 0 })
    expect(await baseline()).toEqual(
      [
        { org_number: ENK, has_filed_annual_accounts: null, last_accounts_year: null, org_form: 'ENK' },
        { org_number: POSTEN, has_filed_annual_accounts: true, last_accounts_year: 2024, org_form: 'AS' },
        { org_number: NUF, has_filed_annual_accounts: false, last_accounts_year: null, org_form: 'NUF' },
      ].sort((a, b) => a.org_number.localeCompare(b.org_number)),
    )
    expect((await db.sql<{ n: number }[]>`select count(*)::int as n from changes`)[0]!.n).toBe(before)
  })
})

describe('a new filing', () => {
  test('advancing last_accounts_year is one accounts.updated change, with the register’s answer archived as its snapshot', async () => {
    await lookUp(POSTEN)
    await runDailyAccountsDiff(deps())
    await file(POSTEN, 2025)
    const r = await runDailyAccountsDiff(deps('2026-03-15T00:00:00.000Z'))
    expect(r).toMatchObject({ observed: 1, changed: 1, changes: 1 })
    const [c] = await changesFor(POSTEN)
    expect(c).toMatchObject({
      source: 'register',
      entity_type: 'annual_accounts',
      entity_id: POSTEN,
      change_type: 'updated',
      field_path: '/last_accounts_year',
      before_value: 2024,
      after_value: 2025,
      diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
    })
    const [snap] = await db.sql<{ system: string; body: string }[]>`
      select s.system, b.body from source_snapshots s join source_snapshot_bodies b on b.snapshot_id = s.id where s.id = ${c!.source_snapshot_id}`
    expect(snap!.system).toBe('regnskapsregisteret')
    expect(JSON.parse(snap!.body)[0].regnskapsperiode.tilDato).toBe('2025-12-31')
    expect((await baseline()).find((b) => b.org_number === POSTEN)!.last_accounts_year).toBe(2025)
  })

  test('a first filing of a company that must file is two changes: has_filed_annual_accounts and last_accounts_year', async () => {
    await lookUp(NUF)
    await runDailyAccountsDiff(deps())
    await file(NUF, 2025)
    await runDailyAccountsDiff(deps('2026-03-15T00:00:00.000Z'))
    const rows = await changesFor(NUF)
    expect(rows.map((c) => [c.field_path, c.before_value, c.after_value])).toEqual([
      ['/has_filed_annual_accounts', false, true],
      ['/last_accounts_year', null, 2025],
    ])
    expect(rows[0]!.source_snapshot_id).toBe(rows[1]!.source_snapshot_id)
  })

  test('queues one delivery per matching active subscription, in the same transaction as the change', async () => {
    await lookUp(ENK)
    await runDailyAccountsDiff(deps())
    const s = await subscriber(app)
    const sub = await subscribe(s, 'http://127.0.0.1:9/unused')
    await file(ENK, 2025)
    const r = await runDailyAccountsDiff(deps('2026-03-15T00:00:00.000Z'))
    expect(r.changes).toBe(2)
    expect(r.deliveries).toBeGreaterThanOrEqual(2)
    const queued = await db.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_deliveries d join changes c on c.id = d.change_id
      where d.subscription_id = ${sub.id} and c.entity_id = ${ENK} and d.status = 'pending'`
    expect(queued[0]!.n).toBe(2)
  })

  test('reaches the archive within one feed run, before the daily diff (the feed observes changed companies at once)', async () => {
    await lookUp(POSTEN)
    await runDailyAccountsDiff(deps())
    const already = (await changesFor(POSTEN)).length
    const year = ((await baseline()).find((b) => b.org_number === POSTEN)!.last_accounts_year ?? 2024) + 1
    await file(POSTEN, year)
    const r = await runRegisterUpdates({ ...deps(), accounts: app.deps.accountsRegister })
    expect(r.accounts_changes).toBe(1)
    expect((await changesFor(POSTEN)).slice(already).map((c) => c.after_value)).toEqual([year])
    const feed = await db.sql<
      { change_type: string }[]
    >`select change_type from changes where entity_type = 'company' and entity_id = ${POSTEN} and source_ref is not null order by seq desc limit 1`
    expect(feed[0]!.change_type).toBe('updated')
    // the day's diff then finds nothing new
    expect((await runDailyAccountsDiff(deps('2026-03-15T00:00:00.000Z'))).changes).toBe(0)
  })
})

describe('once a day, across instances', () => {
  test('a later tick of the same day observes nothing again; the next day observes everything', async () => {
    await lookUp(...ORGS)
    expect((await runDailyAccountsDiff(deps('2026-03-14T10:00:00.000Z'))).observed).toBe(3)
    await clearRequests()
    expect((await runDailyAccountsDiff(deps('2026-03-14T11:00:00.000Z'))).observed).toBe(0)
    expect(await accountsRequests()).toEqual([])
    expect((await runDailyAccountsDiff(deps('2026-03-15T00:00:00.000Z'))).observed).toBe(3)
  })

  test('a run that died part-way is resumed by the next tick: only the companies it had not observed are asked', async () => {
    await lookUp(...ORGS)
    // what a run that died after its first committed batch leaves behind: one company observed today
    await observeAccounts(
      { ...deps('2026-03-14T10:00:00.000Z'), accounts: app.deps.accountsRegister },
      await diffCandidatesFor(db.sql, [POSTEN]),
    )
    await clearRequests()
    const r = await runDailyAccountsDiff(deps('2026-03-14T11:00:00.000Z'))
    expect(r.observed).toBe(2)
    expect((await accountsRequests()).sort()).toEqual([NUF, ENK].sort())
  })

  test('two instances’ runners claim the hourly tick once', async () => {
    await lookUp(...ORGS)
    const at = new Date('2026-03-14T12:00:00.000Z')
    const [a, b] = await Promise.all([
      jobRunner(deps(), { instance: 'a' }).runTick('accounts-diff', at),
      jobRunner(deps(), { instance: 'b' }).runTick('accounts-diff', at),
    ])
    expect([a.ran, b.ran].sort()).toEqual([false, true])
  })

  test('two runs observing one company at once emit its change once', async () => {
    await lookUp(POSTEN)
    await runDailyAccountsDiff(deps())
    const already = (await changesFor(POSTEN)).length
    const year = (await baseline())[0]!.last_accounts_year! + 1
    await file(POSTEN, year)
    const d = { ...deps('2026-03-15T00:00:00.000Z'), accounts: app.deps.accountsRegister }
    const [x, y] = await Promise.all([
      runAccountsDiff(d, new Date('2026-03-15T00:00:00.000Z')),
      runAccountsDiff(d, new Date('2026-03-15T00:00:00.000Z')),
    ])
    expect(x.changes + y.changes).toBe(1)
    expect((await changesFor(POSTEN)).length).toBe(already + 1)
  })

  test('an operator’s run observes every company again, whenever it was observed', async () => {
    await lookUp(...ORGS)
    await runDailyAccountsDiff(deps())
    const out = await app.deps.jobs.runNow('accounts-diff')
    expect(out).toMatchObject({ job: 'accounts-diff', kind: 'scheduled', ran: true, ok: true, result: { observed: 3 } })
  })
})

describe('when the register fails', () => {
  test('a company whose accounts cannot be read keeps its old observation and is asked again next run', async () => {
    await lookUp(POSTEN, DOWN)
    const r = await runDailyAccountsDiff(deps())
    expect(r).toMatchObject({ observed: 1, failed: 1 })
    expect((await baseline()).map((b) => b.org_number)).toEqual([POSTEN])
    await clearRequests()
    await runDailyAccountsDiff(deps('2026-03-14T11:00:00.000Z'))
    expect(await accountsRequests()).toContain(DOWN)
  })
})
