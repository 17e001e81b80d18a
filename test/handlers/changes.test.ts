/**
 * GET /api/v1/changes over real HTTP: the Change row, the scope, the filters, and a cursor that a
 * client follows while rows keep arriving — never skipping, never repeating. Rows are appended as
 * the jobs append them (store/changes.ts), each test under organisation numbers of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  delegationDecided,
  employeeObservation,
  portalObservation,
  recordObservations,
  vatObservation,
} from '../../src/domain/changes/observed.ts'
import { SOURCES } from '../../src/domain/changes/vocabulary.ts'
import { appendChanges, type NewChange } from '../../src/store/changes.ts'
import type { Sql } from '../../src/store/db.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { onPostgres, PINNED_NOW, secondInstanceSql, startApp, type TestApp } from '../helpers.ts'

let app: TestApp
let key: string

beforeAll(async () => {
  app = await startApp()
  key = (await createKey(app, (await createConsumer(app)).id)).key
})
afterAll(() => app.stop())

const org = () => String(Math.floor(100_000_000 + Math.random() * 799_999_999))

function change(entityId: string, over: Partial<NewChange> = {}): NewChange {
  return {
    source: 'register',
    entity_type: 'annual_accounts',
    entity_id: entityId,
    change_type: 'updated',
    field_path: '/last_accounts_year',
    before_value: 2024,
    after_value: 2025,
    diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
    detected_at: new Date(PINNED_NOW),
    source_snapshot_id: null,
    event_type: null,
    ...over,
  }
}

const append = (rows: NewChange[], sql: Sql = app.deps.sql) =>
  sql.begin((tx) => appendChanges(tx as unknown as Sql, rows, new Date(PINNED_NOW)))

async function get(query: string, k = key) {
  const res = await app.get(`/api/v1/changes${query}`, { headers: { ...bearer(k), ...freshIp() } })
  return { status: res.status, body: (await res.json()) as any }
}

/** A key of a consumer of its own: a test making many requests stays within its own limits. */
const ownKey = async () => (await createKey(app, (await createConsumer(app)).id)).key

/** Follows the cursor from `cursor` until a page says there is no more. */
async function drain(query: string, cursor?: string, k = key): Promise<{ ids: string[]; cursor: string }> {
  const ids: string[] = []
  let c = cursor
  for (;;) {
    const r = await get(`${query}${c ? `&cursor=${c}` : ''}`, k)
    ids.push(...r.body.data.changes.map((x: { id: string }) => x.id))
    c = r.body.data.next_cursor
    if (!r.body.data.has_more) return { ids, cursor: c! }
  }
}

describe('a page', () => {
  test('holds Change rows, oldest first, with every field of the spec', async () => {
    const o = org()
    const { appended } = await append([
      change(o),
      change(o, {
        field_path: '/has_filed_annual_accounts',
        before_value: false,
        after_value: true,
        diff: [{ op: 'replace', path: '/has_filed_annual_accounts', value: true }],
      }),
    ])
    const r = await get(`?entity_id=${o}`)
    expect(r.status).toBe(200)
    expect(r.body.data.changes).toEqual(
      appended.map((c) => ({
        id: c.id,
        source: 'register',
        entity_type: 'annual_accounts',
        entity_id: o,
        change_type: 'updated',
        field_path: c.field_path,
        before_value: c.before_value,
        after_value: c.after_value,
        diff: c.diff,
        detected_at: PINNED_NOW,
        source_snapshot_id: null,
      })),
    )
    expect(r.body.data.has_more).toBe(false)
  })

  test('needs read:changes: a key without it is SCOPE_INSUFFICIENT', async () => {
    const k = (await createKey(app, (await createConsumer(app)).id, ['read:register'])).key
    const r = await get('?limit=1', k)
    expect([r.status, r.body.error_code]).toEqual([403, 'SCOPE_INSUFFICIENT'])
  })

  test('filters by source, entity_type, entity_id, change_type and since', async () => {
    const o = org()
    const { appended } = await append([
      change(o),
      change(o, {
        entity_type: 'company',
        change_type: 'created',
        field_path: null,
        before_value: null,
        after_value: null,
        diff: [],
      }),
      change(o, { detected_at: new Date('2026-03-15T00:00:00.000Z') }),
    ])
    const ids = async (q: string) =>
      (await get(`?entity_id=${o}${q}`)).body.data.changes.map((c: { id: string }) => c.id)
    expect(await ids('')).toEqual(appended.map((c) => c.id))
    expect(await ids('&entity_type=company')).toEqual([appended[1]!.id])
    expect(await ids('&change_type=created')).toEqual([appended[1]!.id])
    expect(await ids('&entity_type=annual_accounts&source=register')).toEqual([appended[0]!.id, appended[2]!.id])
    expect(await ids('&since=2026-03-14T12:00:00Z')).toEqual([appended[2]!.id])
  })

  test('the source filter takes each of the spec’s sources and refuses any other word', async () => {
    const k = await ownKey()
    for (const source of SOURCES) expect((await get(`?source=${source}&limit=1`, k)).status).toBe(200)
    for (const word of ['agency', 'centralBank', 'labour-register', 'vat']) {
      const r = await get(`?source=${word}`, k)
      expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
    }
  })

  test('refuses an unknown filter value, a bad cursor and a limit out of range with 400 naming the field', async () => {
    for (const [q, field] of [
      ['?entity_type=person', 'entity_type'],
      ['?cursor=bm9wZQ', 'cursor'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?since=yesterday', 'since'],
    ] as const) {
      const r = await get(q)
      expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
      expect(r.body.explanation.details.map((d: { field: string }) => d.field).join()).toContain(field)
    }
  })
})

describe('the cursor', () => {
  test('a tampered cursor past the bigint range is 400 VALIDATION_FAILED naming the cursor, not a 500', async () => {
    for (const seq of ['9999999999999999999', '9223372036854775808']) {
      const r = await get(`?cursor=${Buffer.from(`c1.${seq}`).toString('base64url')}`)
      expect([r.status, r.body.error_code]).toEqual([400, 'VALIDATION_FAILED'])
      expect(r.body.explanation.details.map((d: { field: string }) => d.field)).toEqual(['cursor'])
    }
  })

  test('the largest bigint is a cursor: an empty page after it', async () => {
    const r = await get(`?cursor=${Buffer.from('c1.9223372036854775807').toString('base64url')}`)
    expect(r.status).toBe(200)
    expect(r.body.data.changes).toEqual([])
  })

  test('pages through every row once', async () => {
    const o = org()
    const { appended } = await append(Array.from({ length: 7 }, () => change(o)))
    expect((await drain(`?entity_id=${o}&limit=3`)).ids).toEqual(appended.map((c) => c.id))
  })

  test('followed while rows keep arriving, sees each row exactly once, in order; an empty page keeps its place', async () => {
    const o = org()
    const seen: string[] = []
    const all: string[] = []
    let cursor: string | undefined
    for (let round = 0; round < 4; round++) {
      all.push(...(await append(Array.from({ length: 1 + round }, () => change(o)))).appended.map((c) => c.id))
      const page = await get(`?entity_id=${o}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.body.data.changes.map((c: { id: string }) => c.id))
      cursor = page.body.data.next_cursor
    }
    const rest = await drain(`?entity_id=${o}&limit=2`, cursor)
    seen.push(...rest.ids)
    expect(seen).toEqual(all)
    const empty = await get(`?entity_id=${o}&cursor=${rest.cursor}`)
    expect(empty.body.data).toMatchObject({ changes: [], has_more: false, next_cursor: rest.cursor })
    const later = (await append([change(o)])).appended.map((c) => c.id)
    expect(
      (await get(`?entity_id=${o}&cursor=${rest.cursor}`)).body.data.changes.map((c: { id: string }) => c.id),
    ).toEqual(later)
  })

  test('pages through rows of every source in archive order, and filters them by source', async () => {
    const o = org()
    const now = new Date(PINNED_NOW)
    const unit = (vat: boolean) => ({ org_number: o, status: 'active', vat_registered: vat }) as never
    // baselines first: no rows
    await recordObservations(
      app.deps.sql,
      [...vatObservation(unit(false), null), ...employeeObservation(o, 4), ...portalObservation(o, [], now)],
      now,
    )
    const ids: string[] = []
    ids.push(...(await append([change(o)])).appended.map((c) => c.id))
    await recordObservations(app.deps.sql, vatObservation(unit(true), null), now)
    ids.push(...(await append([delegationDecided(o, crypto.randomUUID(), 'active', now)])).appended.map((c) => c.id))
    await recordObservations(app.deps.sql, employeeObservation(o, 5), now)
    ids.push(
      ...(
        await append([
          change(o, {
            entity_type: 'company',
            change_type: 'created',
            field_path: null,
            before_value: null,
            after_value: null,
            diff: [],
          }),
        ])
      ).appended.map((c) => c.id),
    )
    await recordObservations(
      app.deps.sql,
      portalObservation(o, [{ id: '1/x', process: { ended: null } } as never], now),
      now,
    )
    const k = await ownKey()
    const all = await drain(`?entity_id=${o}&limit=2`, undefined, k)
    const rows = (await get(`?entity_id=${o}&limit=200`, k)).body.data.changes as { id: string; source: string }[]
    expect(rows.map((r) => r.source)).toEqual([
      'register',
      'tax_authority',
      'directorate',
      'labour_register',
      'register',
      'portal',
    ])
    expect(all.ids).toEqual(rows.map((r) => r.id))
    expect(ids).toEqual([rows[0]!.id, rows[2]!.id, rows[4]!.id])
    for (const source of ['tax_authority', 'directorate', 'labour_register', 'portal']) {
      expect(
        (await get(`?entity_id=${o}&source=${source}`, k)).body.data.changes.map((r: { id: string }) => r.id),
      ).toEqual(rows.filter((r) => r.source === source).map((r) => r.id))
    }
  })

  test.skipIf(!onPostgres)(
    'an observation waits for an append committing late, and lands after it (PostgreSQL: one append path, one lock)',
    async () => {
      const o = org()
      const now = new Date(PINNED_NOW)
      await recordObservations(app.deps.sql, employeeObservation(o, 1), now)
      const k = await ownKey()
      const second = await secondInstanceSql()
      try {
        const start = await drain(`?entity_id=${o}`, undefined, k)
        let release!: () => void
        const held = new Promise<void>((r) => (release = r))
        const a = second.sql.begin(async (tx) => {
          const out = await appendChanges(tx as unknown as Sql, [change(o)], now)
          await held
          return out
        })
        await Bun.sleep(50)
        const b = recordObservations(app.deps.sql, employeeObservation(o, 2), now)
        const midway = await drain(`?entity_id=${o}`, start.cursor, k)
        release()
        const [ra, rb] = await Promise.all([a, b])
        expect(rb).toEqual({ baselined: 0, changes: 1 })
        const after = (await get(`?entity_id=${o}&cursor=${midway.cursor}`, k)).body.data.changes as {
          id: string
          source: string
        }[]
        expect(midway.ids).toEqual([])
        expect(after.map((r) => r.source)).toEqual(['register', 'labour_register'])
        expect(after[0]!.id).toBe(ra.appended[0]!.id)
      } finally {
        await second.close()
      }
    },
  )

  test.skipIf(!onPostgres)(
    'does not skip a row that was appended first but committed last (PostgreSQL: appends wait for each other)',
    async () => {
      const o = org()
      const second = await secondInstanceSql()
      try {
        const start = await drain(`?entity_id=${o}`)
        let release!: () => void
        const held = new Promise<void>((r) => (release = r))
        // instance A appends and holds its transaction open; instance B appends meanwhile
        const a = second.sql.begin(async (tx) => {
          const out = await appendChanges(tx as unknown as Sql, [change(o)], new Date(PINNED_NOW))
          await held
          return out
        })
        await Bun.sleep(50)
        const b = append([change(o)])
        const midway = await drain(`?entity_id=${o}`, start.cursor)
        release()
        const [ra, rb] = await Promise.all([a, b])
        const after = await drain(`?entity_id=${o}`, midway.cursor)
        expect(midway.ids).toEqual([])
        expect(after.ids).toEqual([ra.appended[0]!.id, rb.appended[0]!.id])
      } finally {
        await second.close()
      }
    },
  )
})
