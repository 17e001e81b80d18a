/**
 * jobs/register-updates.ts against the brreg fixture server's update feed (a fixed history of 18
 * updates, 2024-01-04 … 2026-03-12, fixtures/data/updates.ts), on a database of its own: the feed
 * cursor and the cache are global state, so the tests reset them instead of touching the shared
 * database. Cached rows are seeded by real reads through the cache (UpstreamReads), except for the
 * removed unit, whose pre-removal answer is archived directly (the register answers 410 for it now).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { SUB_UNIT_UPDATES, UPDATES } from '../../fixtures/data/updates.ts'
import { byScenario } from '../../fixtures/data/companies.ts'
import { runRegisterUpdates, SUB_UNIT_FEED, UNIT_FEED } from '../../jobs/register-updates.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { archiveAnswer, readFeedCursor, writeFeedCursor } from '../../src/store/upstream-cache.ts'
import type { BusinessRegister } from '../../src/upstream/business-register/port.ts'
import { PINNED_NOW, scratchDatabase, startApp, type TestApp } from '../helpers.ts'

let db: Database
let app: TestApp
const logs: string[] = []
const logger = createLogger('debug', (line) => logs.push(line))

beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  app = await startApp({ db })
}, 30_000)
afterAll(async () => {
  await app.stop()
  await db.close()
})
beforeEach(async () => {
  await db.sql`delete from upstream_feed_cursors`
  await db.sql`delete from upstream_cache`
  await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })
})

const FIRST_ID = UPDATES[0]!.oppdateringsid
const LAST_ID = UPDATES[UPDATES.length - 1]!.oppdateringsid
const POSTEN = byScenario('as') // 984661185: Endring on 2026-03-12
const REMOVED = byScenario('removed') // 925447803: Fjernet on 2025-11-20
const UNTOUCHED = byScenario('enk') // 915241700: never in the feed
const fjernet = UPDATES.find((u) => u.endringstype === 'Fjernet')!

const run = (clock = fixedClock(PINNED_NOW), register: BusinessRegister = app.deps.register) =>
  runRegisterUpdates({ sql: db.sql, clock, logger, register })

/** Cached answers about an organisation, by resource key. */
async function cachedKeys(org: string): Promise<string[]> {
  const rows = await db.sql<
    { resource_key: string }[]
  >`select resource_key from upstream_cache where org_number = ${org} order by resource_key`
  return rows.map((r) => r.resource_key)
}

/** Seeds the cache the way a company read does: unit, roles and accounts through UpstreamReads. */
async function seedByReading(org: string) {
  await app.deps.reads.unit(org)
  await app.deps.reads.roles(org)
  await app.deps.reads.accounts(org)
  expect((await cachedKeys(org)).length).toBe(3)
}

async function feedQueries(): Promise<URLSearchParams[]> {
  const log = (await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()) as {
    path: string
    query: string
  }[]
  return log.filter((r) => r.path.endsWith('/oppdateringer/enheter')).map((r) => new URLSearchParams(r.query))
}

describe('the first run', () => {
  test('reads the feed from now − 10 minutes', async () => {
    const r = await run()
    const [q] = await feedQueries()
    expect(q!.get('dato')).toBe(new Date(Date.parse(PINNED_NOW) - 10 * 60_000).toISOString())
    expect(q!.get('oppdateringsid')).toBeNull()
    // the fixture's history ends on 2026-03-12: nothing in the last ten minutes of 2026-03-14
    expect(r.read).toBe(0)
  })

  test('finds the updates of the last ten minutes and starts the cursor after them', async () => {
    // two updates at 2026-03-12T05:02:08Z; at 05:05 they are within the lookback
    const recent = UPDATES.filter((u) => u.dato.startsWith('2026-03-12T05:02'))
    expect(recent.length).toBe(2)
    await seedByReading(POSTEN)
    const r = await run(fixedClock('2026-03-12T05:05:00.000Z'))
    expect(r.read).toBe(2)
    expect(await readFeedCursor(db.sql, UNIT_FEED)).toBe(LAST_ID + 1)
    expect(await cachedKeys(POSTEN)).toEqual([])
  })
})

describe('with a cursor', () => {
  test('a changed unit’s cached rows are deleted; other units’ rows stay', async () => {
    await seedByReading(POSTEN)
    await seedByReading(UNTOUCHED)
    await writeFeedCursor(db.sql, UNIT_FEED, FIRST_ID, new Date(PINNED_NOW))
    const r = await run()
    expect(r.read).toBe(UPDATES.length)
    expect(await cachedKeys(POSTEN)).toEqual([])
    expect((await cachedKeys(UNTOUCHED)).length).toBe(3)
    // a change only makes the copies stale: the archive keeps its bodies
    const [bodies] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from source_snapshot_bodies b join source_snapshots s on s.id = b.snapshot_id where s.org_number = ${POSTEN}`
    expect(bodies!.n).toBeGreaterThanOrEqual(3)
  })

  test('a changed unit is read live from the register on the next read', async () => {
    await seedByReading(POSTEN)
    expect((await app.deps.reads.unit(POSTEN)).source.servedFrom).toBe('cache')
    await writeFeedCursor(db.sql, UNIT_FEED, LAST_ID - 1, new Date(PINNED_NOW))
    await run()
    expect((await app.deps.reads.unit(POSTEN)).source.servedFrom).toBe('live')
  })

  test('a Fjernet update purges the organisation’s cached rows and archived bodies (and cached search pages naming it)', async () => {
    const fetchedAt = new Date('2025-11-01T08:00:00.000Z')
    const unit = JSON.stringify({
      organisasjonsnummer: REMOVED,
      navn: 'FØR FJERNING AS',
      organisasjonsform: { kode: 'AS' },
    })
    const snapshot = await archiveAnswer(
      db.sql,
      {
        system: 'enhetsregisteret',
        url: `${app.fixtures.businessRegisterUrl}/enhetsregisteret/api/enheter/${REMOVED}`,
        status: 200,
        contentType: 'application/json',
        body: unit,
        fetchedAt,
      },
      `enhet:${REMOVED}`,
      REMOVED,
      true,
    )
    const page = JSON.stringify({ _embedded: { enheter: [{ organisasjonsnummer: REMOVED, navn: 'FØR FJERNING AS' }] } })
    const searchSnapshot = await archiveAnswer(
      db.sql,
      {
        system: 'enhetsregisteret',
        url: `${app.fixtures.businessRegisterUrl}/enhetsregisteret/api/enheter?navn=fjerning`,
        status: 200,
        contentType: 'application/json',
        body: page,
        fetchedAt,
      },
      'search:10:fjerning',
      null,
      true,
    )
    await seedByReading(UNTOUCHED)
    expect(await cachedKeys(REMOVED)).toEqual([`enhet:${REMOVED}`])

    await writeFeedCursor(db.sql, UNIT_FEED, fjernet.oppdateringsid, new Date(PINNED_NOW))
    const r = await run()
    expect(r.purged).toBe(1)
    expect(await cachedKeys(REMOVED)).toEqual([])
    expect(await db.sql`select 1 from upstream_cache where resource_key = 'search:10:fjerning'`).toHaveLength(0)
    expect(await db.sql`select 1 from source_snapshot_bodies where snapshot_id = ${snapshot}`).toHaveLength(0)
    expect(await db.sql`select 1 from source_snapshot_bodies where snapshot_id = ${searchSnapshot}`).toHaveLength(0)
    // the archive keeps the hash and the date, not the content
    expect(await db.sql`select 1 from source_snapshots where id = ${snapshot}`).toHaveLength(1)
    expect((await cachedKeys(UNTOUCHED)).length).toBe(3)
  })

  test('the cursor moves to the last id read + 1', async () => {
    await writeFeedCursor(db.sql, UNIT_FEED, FIRST_ID, new Date(PINNED_NOW))
    const r = await run()
    expect(r).toMatchObject({ read: UPDATES.length, next_id: LAST_ID + 1 })
    expect(await readFeedCursor(db.sql, UNIT_FEED)).toBe(LAST_ID + 1)
    const [q] = await feedQueries()
    expect(q!.get('oppdateringsid')).toBe(String(FIRST_ID))
  })

  test('the cursor never moves backwards, even when another instance moved it on during the run', async () => {
    const ahead = LAST_ID + 1_000
    await writeFeedCursor(db.sql, UNIT_FEED, FIRST_ID, new Date(PINNED_NOW))
    // another instance finishes a run (further on) while this one is reading the feed
    const racing: BusinessRegister = Object.assign(Object.create(app.deps.register) as BusinessRegister, {
      updates: async (fromId: number, size: number) => {
        const raw = await app.deps.register.updates(fromId, size)
        await writeFeedCursor(db.sql, UNIT_FEED, ahead, new Date(PINNED_NOW))
        return raw
      },
    })
    await run(fixedClock(PINNED_NOW), racing)
    expect(await readFeedCursor(db.sql, UNIT_FEED)).toBe(ahead)
  })

  test('a second run with nothing new changes nothing', async () => {
    await writeFeedCursor(db.sql, UNIT_FEED, FIRST_ID, new Date(PINNED_NOW))
    await run()
    const [before] = await db.sql<
      { last_id: string; updated_at: Date }[]
    >`select last_id::text, updated_at from upstream_feed_cursors where feed = ${UNIT_FEED}`
    await seedByReading(POSTEN)
    await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })

    const later = fixedClock(PINNED_NOW)
    later.advance(5 * 60_000)
    const r = await run(later)
    expect(r).toMatchObject({ read: 0, invalidated: 0, purged: 0, next_id: LAST_ID + 1 })
    const [after] = await db.sql<
      { last_id: string; updated_at: Date }[]
    >`select last_id::text, updated_at from upstream_feed_cursors where feed = ${UNIT_FEED}`
    expect(after).toEqual(before!)
    expect((await cachedKeys(POSTEN)).length).toBe(3)
    const queries = await feedQueries()
    expect(queries.map((q) => q.get('oppdateringsid'))).toEqual([String(LAST_ID + 1)])
  })

  test('a feed that is down fails the run and leaves the cursor and the cache as they were', async () => {
    await seedByReading(POSTEN)
    await writeFeedCursor(db.sql, UNIT_FEED, FIRST_ID, new Date(PINNED_NOW))
    const res = await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, {
      method: 'POST',
      body: JSON.stringify({ match: '/oppdateringer/enheter', mode: 'status', status: 503 }),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(201)
    try {
      await expect(run()).rejects.toBeDefined()
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
    expect(await readFeedCursor(db.sql, UNIT_FEED)).toBe(FIRST_ID)
    expect((await cachedKeys(POSTEN)).length).toBe(3)
  })
})

describe('the sub-unit feed', () => {
  const SUB_FIRST = SUB_UNIT_UPDATES[0]!.oppdateringsid
  const SUB_LAST = SUB_UNIT_UPDATES[SUB_UNIT_UPDATES.length - 1]!.oppdateringsid
  const BRANCH = SUB_UNIT_UPDATES[SUB_UNIT_UPDATES.length - 1]!.organisasjonsnummer // 973120018: Endring on 2026-03-12

  async function subUnitFeedQueries(): Promise<URLSearchParams[]> {
    const log = (await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()) as {
      path: string
      query: string
    }[]
    return log.filter((r) => r.path.endsWith('/oppdateringer/underenheter')).map((r) => new URLSearchParams(r.query))
  }

  test('has a cursor of its own, moved to its last id read + 1', async () => {
    await writeFeedCursor(db.sql, SUB_UNIT_FEED, SUB_FIRST, new Date(PINNED_NOW))
    const r = await run()
    expect(r.sub_units).toMatchObject({ read: SUB_UNIT_UPDATES.length, next_id: SUB_LAST + 1 })
    expect(await readFeedCursor(db.sql, SUB_UNIT_FEED)).toBe(SUB_LAST + 1)
    const [q] = await subUnitFeedQueries()
    expect(q!.get('oppdateringsid')).toBe(String(SUB_FIRST))
  })

  test('a first run reads it from now − 10 minutes, as the unit feed', async () => {
    await run()
    const [q] = await subUnitFeedQueries()
    expect(q!.get('dato')).toBe(new Date(Date.parse(PINNED_NOW) - 10 * 60_000).toISOString())
  })

  test('a changed sub-unit’s cached answers (its own and the unit lookup’s 404) are deleted; the parent’s stay', async () => {
    await app.deps.reads.unit(BRANCH)
    await app.deps.reads.subUnit(BRANCH)
    await seedByReading(POSTEN)
    expect(await cachedKeys(BRANCH)).toEqual([`enhet:${BRANCH}`, `underenhet:${BRANCH}`])
    await writeFeedCursor(db.sql, SUB_UNIT_FEED, SUB_LAST, new Date(PINNED_NOW))
    const r = await run()
    expect(r.sub_units.invalidated).toBe(2)
    expect(await cachedKeys(BRANCH)).toEqual([])
    expect((await cachedKeys(POSTEN)).length).toBe(3)
  })

  test('its updates are not company changes in the change archive', async () => {
    await writeFeedCursor(db.sql, SUB_UNIT_FEED, SUB_FIRST, new Date(PINNED_NOW))
    const r = await run()
    expect(r.sub_units.changes).toBe(0)
    expect(await db.sql`select 1 from changes where entity_id = ${BRANCH}`).toHaveLength(0)
  })
})
