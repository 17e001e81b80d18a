/**
 * Daily anchors (jobs/anchor.ts → domain/anchors/anchor.ts) on a database of their own, since
 * anchors and the snapshot archive are append-only: the day's root against RFC 6962 computed here
 * from the archive, one anchor per complete day across instances, the public list, inclusion
 * proofs checked by an independent verifier and by the published recipe, and RFC 3161 timestamps
 * from a real local authority (openssl ts).
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runAnchorJob } from '../../jobs/anchor.ts'
import { runAnchors } from '../../src/domain/anchors/anchor.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { liveTimestampAuthority } from '../../src/upstream/timestamp-authority/live.ts'
import { readTimeStampResponse } from '../../src/upstream/timestamp-authority/map.ts'
import { scratchDatabase, startApp, type TestApp, PINNED_NOW } from '../helpers.ts'
import { importDocSnippet } from '../helpers.ts'
import { hasOpenssl, startLocalTsa, type LocalTsa } from '../helpers.ts'
import { verifyInclusion } from '../helpers.ts'

let db: Database
let app: TestApp
let tsa: LocalTsa
const logs: string[] = []
const logger = createLogger('debug', (l) => logs.push(l))

/**
 * 10 050 snapshots on 2026-03-12 (ten blocks of 1 024; more than one page of 10 000 as the anchor
 * reads them, at times with microseconds, so a page boundary must be exact), 5 on 2026-03-13, none
 * on 2026-03-14.
 */
beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  await db.sql`
    insert into source_snapshots (system, resource_key, url, http_status, content_sha256, fetched_at)
    select 'enhetsregisteret', 'enhet:' || g, 'https://data.brreg.no/x', 200, encode(sha256(g::text::bytea), 'hex'), '2026-03-12T00:00:00Z'::timestamptz + g * interval '8.123457 seconds'
    from generate_series(0, 10049) g`
  // five on the 13th, two at each instant: the id orders them
  await db.sql`
    insert into source_snapshots (system, resource_key, url, http_status, content_sha256, fetched_at)
    select 'regnskapsregisteret', 'regnskap:' || g, 'https://data.brreg.no/y', 200, encode(sha256(('y' || g)::bytea), 'hex'), '2026-03-13T12:00:00.123Z'::timestamptz + (g / 2) * interval '1 second'
    from generate_series(0, 4) g`
  app = await startApp({ db })
  if (hasOpenssl) tsa = startLocalTsa()
}, 30_000)
afterAll(async () => {
  tsa?.stop()
  await app.stop()
  await db.close()
})

const deps = (at: string) => ({ sql: db.sql, clock: fixedClock(at), logger, tsa: null })
const h = (...parts: Buffer[]) => parts.reduce((x, p) => x.update(p), createHash('sha256')).digest()

/** RFC 6962 MTH over the day's snapshots read straight from the archive, written independently of src/. */
async function expectedRoot(day: string): Promise<{ root: string; size: number }> {
  const rows = await db.sql<{ d: string }[]>`
    select 'plikt-snapshot-v1|' || id || '|' || content_sha256 || '|' || to_char(fetched_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as d
    from source_snapshots where fetched_at >= ${day}::date and fetched_at < ${day}::date + 1 order by fetched_at, id`
  const mth = (d: Buffer[]): Buffer => {
    if (d.length === 0) return h()
    if (d.length === 1) return d[0]!
    let k = 1
    while (k * 2 < d.length) k *= 2
    return h(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)))
  }
  return {
    root: mth(rows.map((r) => h(Buffer.from([0]), Buffer.from(r.d, 'utf8')))).toString('hex'),
    size: rows.length,
  }
}

/** The proof route's hex audit path and root, checked by the independent verifier. */
const verify = (index: number, size: number, leaf: Buffer, path: string[], root: string) =>
  verifyInclusion(
    index,
    size,
    leaf,
    path.map((p) => Buffer.from(p, 'hex')),
    Buffer.from(root, 'hex'),
  )

const anchors = async () => [
  ...(await db.sql<
    { day: string; root: string; leaf_count: number }[]
  >`select day::text as day, root, leaf_count::int as leaf_count from anchors order by day`),
]

describe('the daily anchor', () => {
  test('nothing is anchored before a day has ended and ten minutes passed', async () => {
    const r = await runAnchors(deps('2026-03-13T00:09:59.000Z'))
    expect(r.anchored).toEqual([])
    expect(await anchors()).toEqual([])
  })

  test('each complete day gets one anchor whose root is RFC 6962’s over its snapshots', async () => {
    const r = await runAnchors(deps(PINNED_NOW))
    expect(r.anchored.map((a) => a.day)).toEqual(['2026-03-12', '2026-03-13'])
    const twelfth = await expectedRoot('2026-03-12')
    const thirteenth = await expectedRoot('2026-03-13')
    expect(await anchors()).toEqual([
      { day: '2026-03-12', root: twelfth.root, leaf_count: 10050 },
      { day: '2026-03-13', root: thirteenth.root, leaf_count: 5 },
    ])
    expect(
      (await db.sql<{ n: number }[]>`select count(*)::int as n from anchor_chunks where day = '2026-03-12'`)[0]!.n,
    ).toBe(10)
  })

  test('a later run the same day anchors nothing again', async () => {
    expect((await runAnchors(deps('2026-03-14T10:30:00.000Z'))).anchored).toEqual([])
  })

  test('a day without snapshots is anchored too, with the empty tree’s root', async () => {
    const r = await runAnchorJob({ ...app.deps, clock: fixedClock('2026-03-15T00:10:00.000Z'), tsa: null })
    expect(r.anchored).toEqual([{ day: '2026-03-14', leaf_count: 0, root: createHash('sha256').digest('hex') }])
  })

  test('two instances anchoring at once write each day once', async () => {
    const [a, b] = await Promise.all([
      runAnchors(deps('2026-03-17T00:10:00.000Z')),
      runAnchors(deps('2026-03-17T00:10:00.000Z')),
    ])
    expect([...a.anchored, ...b.anchored].map((x) => x.day).sort()).toEqual(['2026-03-15', '2026-03-16'])
    expect((await anchors()).map((x) => x.day)).toEqual([
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
      '2026-03-15',
      '2026-03-16',
    ])
  })

  test('anchors are append-only', async () => {
    await expect(db.sql`update anchors set root = ${'0'.repeat(64)} where day = '2026-03-12'`).rejects.toThrow(
      'append-only',
    )
    await expect(db.sql`delete from anchor_chunks where day = '2026-03-12'`).rejects.toThrow('append-only')
  })
})

describe('GET /api/v1/public/anchors', () => {
  test('lists the newest first, only hashes, dates and counts, no key needed', async () => {
    const res = await app.get('/api/v1/public/anchors?limit=2')
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.data.anchors.map((a: { day: string }) => a.day)).toEqual(['2026-03-16', '2026-03-15'])
    expect(Object.keys(body.data.anchors[0]).sort()).toEqual([
      'created_at',
      'day',
      'leaf_count',
      'root',
      'timestamp',
      'tree',
    ])
  })

  test('refuses a limit out of range', async () => {
    expect((await app.get('/api/v1/public/anchors?limit=0')).status).toBe(400)
  })
})

describe('an inclusion proof', () => {
  const pick = async (day: string, offset: number) =>
    (
      await db.sql<
        { id: string }[]
      >`select id from source_snapshots where fetched_at >= ${day}::date and fetched_at < ${day}::date + 1 order by fetched_at, id offset ${offset} limit 1`
    )[0]!.id

  test.each([0, 1, 1023, 1024, 2047, 2048, 9999, 10000, 10049])(
    'of leaf %i of a 10 050-leaf day verifies independently against the published root',
    async (offset) => {
      const id = await pick('2026-03-12', offset)
      const res = await app.get(`/api/v1/public/anchors/proofs/${id}`)
      expect(res.status).toBe(200)
      const p = ((await res.json()) as any).data
      const published = ((await (await app.get('/api/v1/public/anchors?limit=10')).json()) as any).data.anchors.find(
        (a: { day: string }) => a.day === '2026-03-12',
      )
      expect(p).toMatchObject({ snapshot_id: id, leaf_index: offset, tree_size: 10050 })
      expect(p.leaf_data).toBe(`plikt-snapshot-v1|${id}|${p.content_sha256}|${p.fetched_at}`)
      const leaf = h(Buffer.from([0]), Buffer.from(p.leaf_data, 'utf8'))
      expect(leaf.toString('hex')).toBe(p.leaf_hash)
      expect(verify(p.leaf_index, p.tree_size, leaf, p.audit_path, published.root)).toBe(true)
      expect(verify(p.leaf_index, p.tree_size, h(Buffer.from('forged')), p.audit_path, published.root)).toBe(false)
    },
  )

  test('verifies with the recipe docs/anchor-proof.md publishes, including two snapshots fetched at the same instant', async () => {
    const { verifyInclusion } = await importDocSnippet<{ verifyInclusion: (proof: unknown, root: string) => boolean }>(
      'docs/anchor-proof.md',
    )
    const root = (await anchors()).find((a) => a.day === '2026-03-13')!.root
    for (let i = 0; i < 5; i++) {
      const p = ((await (await app.get(`/api/v1/public/anchors/proofs/${await pick('2026-03-13', i)}`)).json()) as any)
        .data
      expect(p.leaf_index).toBe(i)
      expect(verifyInclusion(p, root)).toBe(true)
      expect(verifyInclusion({ ...p, leaf_index: (i + 1) % 5 }, root)).toBe(false)
    }
  })

  test('of an anchored day may be kept by any cache: strong ETag, Cache-Control, 304 on If-None-Match', async () => {
    const url = `/api/v1/public/anchors/proofs/${await pick('2026-03-12', 7)}`
    const first = await app.get(url)
    const etag = first.headers.get('etag')!
    expect([first.status, first.headers.get('cache-control')]).toEqual([
      200,
      'public, max-age=300, stale-while-revalidate=3600',
    ])
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    const again = await app.get(url, { headers: { 'if-none-match': etag } })
    expect([again.status, again.headers.get('etag'), await again.text()]).toEqual([304, etag, ''])
  })

  test('is kept by the instance once computed: asked again it is the same answer, served from the cache, with the anchor read afresh', async () => {
    const id = await pick('2026-03-12', 4321)
    const first = ((await (await app.get(`/api/v1/public/anchors/proofs/${id}`)).json()) as any).data
    const hits = app.deps.anchorProofs.hits
    const again = ((await (await app.get(`/api/v1/public/anchors/proofs/${id}`)).json()) as any).data
    expect(again).toEqual(first)
    expect(app.deps.anchorProofs.hits).toBe(hits + 1)
  })

  test('of an unknown snapshot is 404', async () => {
    const res = await app.get(`/api/v1/public/anchors/proofs/${crypto.randomUUID()}`)
    expect([res.status, ((await res.json()) as any).error_code]).toEqual([404, 'NOT_FOUND'])
  })

  test('of a snapshot whose day is not anchored yet is 404 saying when it will be', async () => {
    const [row] = await db.sql<{ id: string }[]>`
      insert into source_snapshots (system, resource_key, url, http_status, content_sha256, fetched_at)
      values ('enhetsregisteret', 'enhet:x', 'u', 200, ${'a'.repeat(64)}, '2026-03-20T08:00:00Z') returning id`
    const res = await app.get(`/api/v1/public/anchors/proofs/${row!.id}`)
    const body = (await res.json()) as any
    expect([res.status, body.error_code, body.anchored_after]).toEqual([404, 'NOT_FOUND', '2026-03-21T00:10:00.000Z'])
  })
})

describe.skipIf(!hasOpenssl)('with a time-stamping authority (TSA_URL)', () => {
  test('each new root gets an RFC 3161 token that openssl ts -verify accepts', async () => {
    const r = await runAnchors({ ...deps('2026-03-18T00:10:00.000Z'), tsa: liveTimestampAuthority(tsa.url) })
    expect(r.anchored.map((a) => a.day)).toEqual(['2026-03-17'])
    // the roots made before the authority was configured are stamped too
    expect(r.timestamped).toEqual(['2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15', '2026-03-16', '2026-03-17'])
    const list = ((await (await app.get('/api/v1/public/anchors?limit=1')).json()) as any).data.anchors
    const a = list[0]
    expect(a.timestamp).toMatchObject({ format: 'rfc3161', tsa_url: tsa.url })
    expect(tsa.verify(Buffer.from(a.timestamp.token_base64, 'base64'), a.root)).toBe(true)
    expect(tsa.verify(Buffer.from(a.timestamp.token_base64, 'base64'), '0'.repeat(64))).toBe(false)
  })

  test('a root the authority could not stamp is anchored anyway and stamped by a later run', async () => {
    tsa.down = true
    const first = await runAnchors({ ...deps('2026-03-19T00:10:00.000Z'), tsa: liveTimestampAuthority(tsa.url) })
    expect(first).toMatchObject({ anchored: [{ day: '2026-03-18' }], timestamped: [], timestamp_failures: 1 })
    tsa.down = false
    const later = await runAnchors({ ...deps('2026-03-19T01:10:00.000Z'), tsa: liveTimestampAuthority(tsa.url) })
    expect(later).toMatchObject({ anchored: [], timestamped: ['2026-03-18'] })
  })

  test('a reply that stamps another hash than the one asked for is refused', async () => {
    const other = Buffer.alloc(32, 7)
    const honest = liveTimestampAuthority(tsa.url)
    const stamp = await honest.timestamp(other)
    const lying = liveTimestampAuthority(tsa.url)
    const origFetch = globalThis.fetch
    // a replayed token for another hash, as a man in the middle might send
    const reply = Buffer.concat([
      Buffer.from([0x30, 0x82]),
      Buffer.alloc(2),
      Buffer.from([0x30, 0x03, 0x02, 0x01, 0x00]),
      stamp.token,
    ])
    reply.writeUInt16BE(reply.length - 4, 2)
    expect(readTimeStampResponse(reply).hashedMessage.equals(other)).toBe(true)
    globalThis.fetch = (async () => new Response(reply)) as unknown as typeof fetch
    try {
      await expect(lying.timestamp(Buffer.alloc(32, 9))).rejects.toThrow('another hash')
    } finally {
      globalThis.fetch = origFetch
    }
  })
})
