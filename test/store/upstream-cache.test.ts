/**
 * The upstream cache and the append-only snapshot archive (sql/0004_upstream_cache.sql) on the
 * run's shared database. Every test uses its own random org numbers and keys.
 */
import { describe, expect, test } from 'bun:test'
import { sha256Hex } from '../../src/lib/hash.ts'
import { hasValidCheckDigit } from '../../src/lib/org-number.ts'
import {
  archiveAnswer,
  cacheId,
  invalidateOrganisations,
  purgeOrganisation,
  readCached,
  readCachedMany,
  readFeedCursor,
  writeFeedCursor,
} from '../../src/store/upstream-cache.ts'
import type { RawResponse, UpstreamSystem } from '../../src/upstream/raw.ts'
import { testDatabase, PINNED_NOW } from '../helpers.ts'

/** A random organisation number with a valid MOD-11 check digit. */
function randomOrg(): string {
  for (;;) {
    const s = String(800_000_000 + Math.floor(Math.random() * 199_999_999)).slice(0, 9)
    if (hasValidCheckDigit(s)) return s
  }
}

const T0 = new Date(PINNED_NOW)
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000)

function unitAnswer(
  org: string,
  fetchedAt: Date,
  extra: Record<string, unknown> = {},
  system: UpstreamSystem = 'enhetsregisteret',
): RawResponse {
  return {
    system,
    url: `https://data.brreg.no/enhetsregisteret/api/enheter/${org}`,
    status: 200,
    contentType: 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8',
    body: JSON.stringify({
      organisasjonsnummer: org,
      navn: `TEST ${org} AS`,
      organisasjonsform: { kode: 'AS' },
      respons_klasse: 'Enhet',
      ...extra,
    }),
    fetchedAt,
  }
}

function searchAnswer(orgs: string[], fetchedAt: Date): RawResponse {
  return {
    system: 'enhetsregisteret',
    url: 'https://data.brreg.no/enhetsregisteret/api/enheter?navn=test&size=20&page=0',
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({
      _embedded: {
        enheter: orgs.map((o) => ({ organisasjonsnummer: o, navn: `TEST ${o} AS`, organisasjonsform: { kode: 'AS' } })),
      },
      page: { size: 20, totalElements: orgs.length, totalPages: 1, number: 0 },
    }),
    fetchedAt,
  }
}

const searchKey = () => `search:20:test-${crypto.randomUUID()}`

interface SnapshotRow {
  id: string
  system: string
  resource_key: string
  org_number: string | null
  url: string
  http_status: number
  content_sha256: string
  fetched_at: Date
}

async function snapshotsOfKey(key: string): Promise<SnapshotRow[]> {
  const { sql } = await testDatabase()
  return sql<
    SnapshotRow[]
  >`select id, system, resource_key, org_number, url, http_status, content_sha256, fetched_at from source_snapshots where resource_key = ${key} order by fetched_at`
}

async function bodyOf(snapshotId: string): Promise<string | null> {
  const { sql } = await testDatabase()
  const [row] = await sql<{ body: string }[]>`select body from source_snapshot_bodies where snapshot_id = ${snapshotId}`
  return row?.body ?? null
}

describe('archiveAnswer', () => {
  test("appends a snapshot with the body's SHA-256 and returns its id", async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const raw = unitAnswer(org, T0)
    const id = await archiveAnswer(sql, raw, `enhet:${org}`, org, true)
    const rows = await snapshotsOfKey(`enhet:${org}`)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toEqual({
      id,
      system: 'enhetsregisteret',
      resource_key: `enhet:${org}`,
      org_number: org,
      url: raw.url,
      http_status: 200,
      content_sha256: sha256Hex(raw.body),
      fetched_at: T0,
    })
  })

  test('keeps the body beside the snapshot', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const raw = unitAnswer(org, T0)
    const id = await archiveAnswer(sql, raw, `enhet:${org}`, org, true)
    expect(await bodyOf(id)).toBe(raw.body)
  })

  test('makes the answer the cached one: readCached gives it back with its snapshot id', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const raw = unitAnswer(org, T0)
    const id = await archiveAnswer(sql, raw, `enhet:${org}`, org, true)
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${org}`)).toEqual({ snapshotId: id, raw })
  })

  test('a reader that holds the cached snapshot gets the row without its body; one that holds an older snapshot gets the body', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const key = `enhet:${org}`
    const older = await archiveAnswer(sql, unitAnswer(org, T0), key, org, true)
    const raw = unitAnswer(org, new Date(T0.getTime() + 1000))
    const id = await archiveAnswer(sql, raw, key, org, true)
    const id0 = cacheId('enhetsregisteret', key)
    expect((await readCachedMany(sql, [{ system: 'enhetsregisteret', key, held: id }])).get(id0)).toEqual({
      snapshotId: id,
      raw: { ...raw, body: '' },
      bodyOmitted: true,
    })
    expect((await readCachedMany(sql, [{ system: 'enhetsregisteret', key, held: older }])).get(id0)).toEqual({
      snapshotId: id,
      raw,
      bodyOmitted: false,
    })
  })

  test('readCached of a key never cached is null', async () => {
    const { sql } = await testDatabase()
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${randomOrg()}`)).toBeNull()
  })

  test('the cache is per system: the same key of another system is not served', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    await archiveAnswer(sql, unitAnswer(org, T0), `enhet:${org}`, org, true)
    expect(await readCached(sql, 'fullmakt', `enhet:${org}`)).toBeNull()
  })

  test('a 404 with an empty body is archived and cached like any answer', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const raw: RawResponse = { ...unitAnswer(org, T0), status: 404, body: '', contentType: null }
    const id = await archiveAnswer(sql, raw, `enhet:${org}`, org, true)
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${org}`)).toEqual({ snapshotId: id, raw })
    expect((await snapshotsOfKey(`enhet:${org}`))[0]!.content_sha256).toBe(sha256Hex(''))
  })

  test('a newer answer replaces the cached one, and both stay archived', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const key = `enhet:${org}`
    const first = await archiveAnswer(sql, unitAnswer(org, at(0)), key, org, true)
    const newer = unitAnswer(org, at(90), { konkurs: true })
    const second = await archiveAnswer(sql, newer, key, org, true)
    expect(await readCached(sql, 'enhetsregisteret', key)).toEqual({ snapshotId: second, raw: newer })
    expect((await snapshotsOfKey(key)).map((r) => r.id)).toEqual([first, second])
  })

  test('an older answer never replaces a newer cached one (but is archived)', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const key = `enhet:${org}`
    const newer = unitAnswer(org, at(90), { konkurs: true })
    const newId = await archiveAnswer(sql, newer, key, org, true)
    const oldId = await archiveAnswer(sql, unitAnswer(org, at(0)), key, org, true)
    expect(await readCached(sql, 'enhetsregisteret', key)).toEqual({ snapshotId: newId, raw: newer })
    expect((await snapshotsOfKey(key)).map((r) => r.id)).toEqual([oldId, newId])
  })

  test('cache false archives the answer without caching it', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const key = `enhet:${org}`
    const raw = unitAnswer(org, T0)
    const id = await archiveAnswer(sql, raw, key, org, false)
    expect(await readCached(sql, 'enhetsregisteret', key)).toBeNull()
    expect((await snapshotsOfKey(key)).map((r) => r.id)).toEqual([id])
    expect(await bodyOf(id)).toBe(raw.body)
  })

  test('cache false leaves an existing cached answer in place, even when newer', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const key = `enhet:${org}`
    const cached = unitAnswer(org, at(0))
    const cachedId = await archiveAnswer(sql, cached, key, org, true)
    await archiveAnswer(sql, unitAnswer(org, at(30), { konkurs: true }), key, org, false)
    expect(await readCached(sql, 'enhetsregisteret', key)).toEqual({ snapshotId: cachedId, raw: cached })
  })
})

describe('the archive is append-only', () => {
  test('UPDATE of a snapshot is refused and the row is unchanged', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const id = await archiveAnswer(sql, unitAnswer(org, T0), `enhet:${org}`, org, true)
    const before = await snapshotsOfKey(`enhet:${org}`)
    await expect(sql`update source_snapshots set content_sha256 = 'tampered' where id = ${id}`).rejects.toThrow(
      /append-only/,
    )
    expect(await snapshotsOfKey(`enhet:${org}`)).toEqual(before)
  })

  test('DELETE of a snapshot is refused and the row remains', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const id = await archiveAnswer(sql, unitAnswer(org, T0), `enhet:${org}`, org, false)
    await sql`delete from source_snapshot_bodies where snapshot_id = ${id}`
    await expect(sql`delete from source_snapshots where id = ${id}`).rejects.toThrow(/append-only/)
    expect((await snapshotsOfKey(`enhet:${org}`)).map((r) => r.id)).toEqual([id])
  })
})

describe('purgeOrganisation (HTTP 410 / Fjernet)', () => {
  test('deletes every cached answer about the org and says how many', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    await archiveAnswer(sql, unitAnswer(org, T0), `enhet:${org}`, org, true)
    await archiveAnswer(
      sql,
      {
        ...unitAnswer(org, T0),
        url: `https://data.brreg.no/enhetsregisteret/api/enheter/${org}/roller`,
        body: '{"rollegrupper":[]}',
      },
      `roller:${org}`,
      org,
      true,
    )
    await archiveAnswer(
      sql,
      { ...unitAnswer(org, T0, {}, 'fullmakt'), body: '{"status":{}}' },
      `signatur:${org}`,
      org,
      true,
    )
    expect(await purgeOrganisation(sql, org)).toBe(3)
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${org}`)).toBeNull()
    expect(await readCached(sql, 'enhetsregisteret', `roller:${org}`)).toBeNull()
    expect(await readCached(sql, 'fullmakt', `signatur:${org}`)).toBeNull()
  })

  test('deletes the archived bodies of the org, cached or not', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const cached = await archiveAnswer(sql, unitAnswer(org, at(0)), `enhet:${org}`, org, true)
    const uncached = await archiveAnswer(sql, unitAnswer(org, at(5)), `enhet:${org}`, org, false)
    await purgeOrganisation(sql, org)
    expect(await bodyOf(cached)).toBeNull()
    expect(await bodyOf(uncached)).toBeNull()
  })

  test('the snapshot rows remain, with their hashes and dates', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const raw = unitAnswer(org, T0)
    const id = await archiveAnswer(sql, raw, `enhet:${org}`, org, true)
    await purgeOrganisation(sql, org)
    expect(await snapshotsOfKey(`enhet:${org}`)).toEqual([
      {
        id,
        system: 'enhetsregisteret',
        resource_key: `enhet:${org}`,
        org_number: org,
        url: raw.url,
        http_status: 200,
        content_sha256: sha256Hex(raw.body),
        fetched_at: T0,
      },
    ])
  })

  test('deletes cached search pages naming the org', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const key = searchKey()
    await archiveAnswer(sql, searchAnswer([randomOrg(), org], T0), key, null, true)
    await purgeOrganisation(sql, org)
    expect(await readCached(sql, 'enhetsregisteret', key)).toBeNull()
  })

  test('deletes the archived bodies of search pages naming the org', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const id = await archiveAnswer(sql, searchAnswer([randomOrg(), org], T0), searchKey(), null, true)
    await purgeOrganisation(sql, org)
    expect(await bodyOf(id)).toBeNull()
  })

  test("leaves other orgs' cached answers and bodies, and search pages not naming the org", async () => {
    const { sql } = await testDatabase()
    const [org, other] = [randomOrg(), randomOrg()]
    await archiveAnswer(sql, unitAnswer(org, T0), `enhet:${org}`, org, true)
    const otherRaw = unitAnswer(other, T0)
    const otherId = await archiveAnswer(sql, otherRaw, `enhet:${other}`, other, true)
    const key = searchKey()
    const page = searchAnswer([other], T0)
    const pageId = await archiveAnswer(sql, page, key, null, true)
    await purgeOrganisation(sql, org)
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${other}`)).toEqual({ snapshotId: otherId, raw: otherRaw })
    expect(await bodyOf(otherId)).toBe(otherRaw.body)
    expect(await readCached(sql, 'enhetsregisteret', key)).toEqual({ snapshotId: pageId, raw: page })
  })

  test('an org with nothing cached purges nothing', async () => {
    const { sql } = await testDatabase()
    expect(await purgeOrganisation(sql, randomOrg())).toBe(0)
  })
})

describe('invalidateOrganisations (Endring in the feed)', () => {
  test('deletes the cached answers of the orgs named and says how many', async () => {
    const { sql } = await testDatabase()
    const [a, b] = [randomOrg(), randomOrg()]
    await archiveAnswer(sql, unitAnswer(a, T0), `enhet:${a}`, a, true)
    await archiveAnswer(sql, { ...unitAnswer(a, T0), body: '{"rollegrupper":[]}' }, `roller:${a}`, a, true)
    await archiveAnswer(sql, unitAnswer(b, T0), `enhet:${b}`, b, true)
    expect(await invalidateOrganisations(sql, [a, b])).toBe(3)
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${a}`)).toBeNull()
    expect(await readCached(sql, 'enhetsregisteret', `roller:${a}`)).toBeNull()
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${b}`)).toBeNull()
  })

  test('keeps the archive: snapshots and bodies stay', async () => {
    const { sql } = await testDatabase()
    const org = randomOrg()
    const raw = unitAnswer(org, T0)
    const id = await archiveAnswer(sql, raw, `enhet:${org}`, org, true)
    await invalidateOrganisations(sql, [org])
    expect((await snapshotsOfKey(`enhet:${org}`)).map((r) => r.id)).toEqual([id])
    expect(await bodyOf(id)).toBe(raw.body)
  })

  test('leaves orgs not named', async () => {
    const { sql } = await testDatabase()
    const [a, b] = [randomOrg(), randomOrg()]
    await archiveAnswer(sql, unitAnswer(a, T0), `enhet:${a}`, a, true)
    const keptRaw = unitAnswer(b, T0)
    const kept = await archiveAnswer(sql, keptRaw, `enhet:${b}`, b, true)
    await invalidateOrganisations(sql, [a])
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${b}`)).toEqual({ snapshotId: kept, raw: keptRaw })
  })

  test('an empty list invalidates nothing', async () => {
    const { sql } = await testDatabase()
    expect(await invalidateOrganisations(sql, [])).toBe(0)
  })
})

describe('the feed cursor', () => {
  const feed = () => `test-feed:${crypto.randomUUID()}`

  test('is null for a feed never read', async () => {
    const { sql } = await testDatabase()
    expect(await readFeedCursor(sql, feed())).toBeNull()
  })

  test('reads back what was written', async () => {
    const { sql } = await testDatabase()
    const f = feed()
    await writeFeedCursor(sql, f, 9400343, T0)
    expect(await readFeedCursor(sql, f)).toBe(9400343)
  })

  test('moves forward', async () => {
    const { sql } = await testDatabase()
    const f = feed()
    await writeFeedCursor(sql, f, 100, at(0))
    await writeFeedCursor(sql, f, 250, at(5))
    expect(await readFeedCursor(sql, f)).toBe(250)
  })

  test('never moves backward', async () => {
    const { sql } = await testDatabase()
    const f = feed()
    await writeFeedCursor(sql, f, 250, at(0))
    await writeFeedCursor(sql, f, 100, at(5))
    expect(await readFeedCursor(sql, f)).toBe(250)
  })

  test('holds ids beyond 2^31', async () => {
    const { sql } = await testDatabase()
    const f = feed()
    await writeFeedCursor(sql, f, 3_000_000_000, T0)
    expect(await readFeedCursor(sql, f)).toBe(3_000_000_000)
  })
})
