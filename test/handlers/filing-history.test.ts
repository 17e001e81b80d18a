/**
 * `GET /api/v1/company/{org}/filing-history` (scope read:portal, metered 50 øre): the portal's
 * instances of an organisation, newest first, in keyset pages (`pagination.next_cursor`) or by the
 * deprecated `offset`, each paired with the caller's own audit trail (`filed_via_service`).
 * The portal is the deterministic mock today, and `_meta.data_source` says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { byScenario } from '../../fixtures/data/companies.ts'
import { isValidOrgNumber } from '../../fixtures/data/mod11.ts'
import { appendAudit } from '../../src/store/audit.ts'
import { readBalance } from '../../src/store/credits.ts'
import { mockInstances } from '../../src/upstream/filing-portal/mock.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

/** A fixture company the mock portal gives a long history (more than one default page). */
const ORG = byScenario('ans')
/** Another fixture company with filings of its own. */
const OTHER_ORG = byScenario('enk')

interface Filing {
  instance_id: string
  form_code: string
  app_id: string
  title: string
  title_en: string
  receiving_agency: string
  submitted_at: string
  status: string
  filed_via_service: boolean
  service_record: { audit_log_id: string; correlation_id: string | null } | null
}

async function customer(scopes?: string[]) {
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 100_000)
  return { id: c.id, key: (await createKey(app, c.id, scopes)).key }
}

async function history(key: string, org: string, query = '') {
  const res = await app.get(`/api/v1/company/${org}/filing-history${query}`, {
    headers: { ...bearer(key), ...freshIp() },
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

/** The whole history in one page (the maximum page is 100; every mock history is shorter). */
async function everything(key: string, org = ORG): Promise<Filing[]> {
  const r = await history(key, org, '?limit=100')
  expect(r.status).toBe(200)
  expect(r.body.data.pagination.has_more).toBe(false)
  return r.body.data.filings
}

/** The wall-clock time in Oslo at an instant, `YYYY-MM-DDTHH:mm:ss`, from the platform's tz data. */
const osloWallClock = (instant: Date) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Oslo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
    .format(instant)
    .replace(' ', 'T')

let c: { id: string; key: string }
beforeAll(async () => {
  c = await customer()
})

describe('paging', () => {
  test('the history has more than one default page (precondition of the paging tests)', async () => {
    expect((await everything(c.key)).length).toBeGreaterThan(20)
  })

  test('limit defaults to 20', async () => {
    const r = await history(c.key, ORG)
    expect(r.status).toBe(200)
    expect(r.body.data.org_number).toBe(ORG)
    expect(r.body.data.pagination.limit).toBe(20)
    expect(r.body.data.filings.length).toBe(20)
    expect(r.body.data.pagination.has_more).toBe(true)
    expect(typeof r.body.data.pagination.next_cursor).toBe('string')
  })

  test('filings are newest first by submitted_at', async () => {
    const all = await everything(c.key)
    const times = all.map((f) => Date.parse(f.submitted_at))
    expect(times.length).toBeGreaterThan(1)
    expect(times.every((t) => Number.isFinite(t))).toBe(true)
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThanOrEqual(times[i - 1]!)
  })

  test('submitted_at carries the Europe/Oslo offset (+01:00 in winter, +02:00 in summer)', async () => {
    const all = await everything(c.key)
    const offsets = new Set<string>()
    for (const f of all) {
      const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d{1,3})?(\+0[12]:00)$/.exec(f.submitted_at)
      expect(m).not.toBeNull()
      // the local part is Oslo's wall clock at that instant, so the offset is the one in force then
      expect(m![1]).toBe(osloWallClock(new Date(f.submitted_at)))
      offsets.add(m![2]!)
    }
    // the history spans both winter and summer time
    expect([...offsets].sort()).toEqual(['+01:00', '+02:00'])
  })

  test('paging through with pagination.next_cursor visits every filing exactly once and ends with has_more false and next_cursor null', async () => {
    const all = await everything(c.key)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    let last: any
    do {
      const r = await history(c.key, ORG, `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(r.status).toBe(200)
      last = r.body.data
      expect(last.filings.length).toBeLessThanOrEqual(7)
      seen.push(...last.filings.map((f: Filing) => f.instance_id))
      cursor = last.pagination.next_cursor
      expect(cursor === null).toBe(!last.pagination.has_more)
      pages++
      expect(pages).toBeLessThanOrEqual(20)
    } while (cursor !== null)
    expect(last.pagination.has_more).toBe(false)
    expect(last.pagination.next_cursor).toBeNull()
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).toEqual(all.map((f) => f.instance_id))
    expect(pages).toBe(Math.ceil(all.length / 7))
  })

  for (const limit of [1, 100]) {
    test(`limit ${limit} is accepted`, async () => {
      const r = await history(c.key, ORG, `?limit=${limit}`)
      expect(r.status).toBe(200)
      expect(r.body.data.pagination.limit).toBe(limit)
      expect(r.body.data.filings.length).toBe(Math.min(limit, r.body.data.total))
    })
  }

  for (const limit of [0, 101]) {
    test(`limit ${limit} is 400 VALIDATION_FAILED`, async () => {
      const r = await history(c.key, ORG, `?limit=${limit}`)
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('VALIDATION_FAILED')
      expect(r.body.explanation.details.map((d: { field: string }) => d.field).join(' ')).toContain('limit')
    })
  }

  test('a cursor from another organisation’s history is 400 VALIDATION_FAILED', async () => {
    const other = await history(c.key, OTHER_ORG, '?limit=1')
    expect(other.status).toBe(200)
    const foreign = other.body.data.pagination.next_cursor
    expect(typeof foreign).toBe('string')
    const r = await history(c.key, ORG, `?cursor=${encodeURIComponent(foreign)}`)
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('VALIDATION_FAILED')
    expect(r.body.explanation.details.map((d: { field: string }) => d.field)).toContain('cursor')
  })

  for (const garbage of ['garbage', 'eyJub3QiOiJhIGN1cnNvciJ9', '%5B1%5D']) {
    test(`a garbage cursor (${garbage}) is 400 VALIDATION_FAILED`, async () => {
      const r = await history(c.key, ORG, `?cursor=${garbage}`)
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('VALIDATION_FAILED')
    })
  }

  test('cursor and offset together are 400 VALIDATION_FAILED', async () => {
    const first = await history(c.key, ORG, '?limit=5')
    const cursor = first.body.data.pagination.next_cursor as string
    const r = await history(c.key, ORG, `?cursor=${encodeURIComponent(cursor)}&offset=5`)
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('VALIDATION_FAILED')
  })

  test('the deprecated offset still works and the answer carries a Deprecation header', async () => {
    const all = await everything(c.key)
    const r = await history(c.key, ORG, '?offset=5&limit=3')
    expect(r.status).toBe(200)
    expect(r.headers.get('deprecation')).toBeTruthy()
    expect(r.body.data.filings.map((f: Filing) => f.instance_id)).toEqual(all.slice(5, 8).map((f) => f.instance_id))
    expect(r.body.data.pagination).toMatchObject({ limit: 3, offset: 5, next_offset: 8, has_more: true })
  })

  test('without offset there is no Deprecation header', async () => {
    const r = await history(c.key, ORG, '?limit=3')
    expect(r.status).toBe(200)
    expect(r.headers.get('deprecation')).toBeNull()
    const paged = await history(c.key, ORG, `?limit=3&cursor=${encodeURIComponent(r.body.data.pagination.next_cursor)}`)
    expect(paged.status).toBe(200)
    expect(paged.headers.get('deprecation')).toBeNull()
  })
})

describe('content', () => {
  test('an organisation with no filings is 200 with an empty list', async () => {
    // The mock portal gives no filings to about a quarter of all numbers: take the first valid one.
    let empty: string | undefined
    for (let n = 910_000_000; !empty && n < 910_010_000; n++) {
      const s = String(n)
      if (isValidOrgNumber(s) && mockInstances(s).length === 0) empty = s
    }
    expect(empty).toBeDefined()
    const r = await history(c.key, empty!)
    expect(r.status).toBe(200)
    expect(r.body.data.filings).toEqual([])
    expect(r.body.data.total).toBe(0)
    expect(r.body.data.pagination).toMatchObject({ has_more: false, next_cursor: null })
  })

  test('each entry has form code, title, receiving agency, submitted_at, status and instance id', async () => {
    const r = await history(c.key, ORG, '?limit=100')
    expect(r.status).toBe(200)
    expect(r.body.data.filings.length).toBeGreaterThan(0)
    for (const f of r.body.data.filings as Filing[]) {
      expect(f.instance_id).toMatch(/^\d+\/[0-9a-f-]{36}$/)
      expect(f.form_code.length).toBeGreaterThan(0)
      expect(f.title.length).toBeGreaterThan(0)
      expect(f.title_en.length).toBeGreaterThan(0)
      expect(['Skatteetaten', 'Brønnøysundregistrene']).toContain(f.receiving_agency)
      expect(['submitted', 'in_progress', 'deleted']).toContain(f.status)
    }
    expect(r.body.data.total).toBe(r.body.data.filings.length)
  })

  test('no filing is submitted after the time of the request', async () => {
    // A history is what has been filed: at 2026-03-14 nothing can have been submitted in October 2026.
    const all = await everything(c.key)
    const late = all
      .filter((f) => Date.parse(f.submitted_at) > Date.parse(PINNED_NOW))
      .map((f) => `${f.title} @ ${f.submitted_at}`)
    expect(late).toEqual([])
  })

  test('_meta.data_source names the portal as a mock', async () => {
    const r = await history(c.key, ORG)
    expect(r.body._meta.data_source).toMatch(/mock/i)
  })
})

describe('pairing with the caller’s audit trail', () => {
  test('filed_via_service is true with service_record {audit_log_id, correlation_id} when the caller’s audit trail has the submission', async () => {
    const me = await customer()
    const all = await everything(me.key)
    const target = all[3]!
    const correlationId = crypto.randomUUID()
    await appendAudit(app.deps.sql, {
      consumerId: me.id,
      actor: `consumer:${me.id}`,
      action: 'submit_mva',
      orgNumber: ORG,
      correlationId,
      details: { portal_instance_id: target.instance_id },
    })
    const [row] = await app.deps.sql<{ id: string }[]>`
      select id from audit_log where consumer_id = ${me.id} and action = 'submit_mva' and correlation_id = ${correlationId}`
    const r = await history(me.key, ORG, '?limit=100')
    expect(r.status).toBe(200)
    expect(r.body.data.audit_pairing).toBe('ok')
    const filings = r.body.data.filings as Filing[]
    const paired = filings.find((f) => f.instance_id === target.instance_id)!
    expect(paired.filed_via_service).toBe(true)
    expect(paired.service_record).toEqual({ audit_log_id: row!.id, correlation_id: correlationId })
    const others = filings.filter((x) => x.instance_id !== target.instance_id)
    expect(others.length).toBeGreaterThan(0)
    for (const f of others) {
      expect(f.filed_via_service).toBe(false)
      expect(f.service_record).toBeNull()
    }
  })

  test('another consumer’s submission does not make filed_via_service true', async () => {
    const me = await customer()
    const someoneElse = await customer()
    const target = (await everything(me.key))[0]!
    await appendAudit(app.deps.sql, {
      consumerId: someoneElse.id,
      actor: `consumer:${someoneElse.id}`,
      action: 'submit_mva',
      orgNumber: ORG,
      correlationId: crypto.randomUUID(),
      details: { portal_instance_id: target.instance_id },
    })
    const r = await history(me.key, ORG, '?limit=100')
    const f = (r.body.data.filings as Filing[]).find((x) => x.instance_id === target.instance_id)!
    expect(f.filed_via_service).toBe(false)
    expect(f.service_record).toBeNull()
    // …while the other consumer does see it as theirs
    const theirs = await history(someoneElse.key, ORG, '?limit=100')
    expect(
      (theirs.body.data.filings as Filing[]).find((x) => x.instance_id === target.instance_id)!.filed_via_service,
    ).toBe(true)
  })
})

describe('access and validation', () => {
  test('a key with only read:register is 403 SCOPE_INSUFFICIENT', async () => {
    const k = await customer(['read:register'])
    const r = await history(k.key, ORG)
    expect(r.status).toBe(403)
    expect(r.body.error_code).toBe('SCOPE_INSUFFICIENT')
  })

  test('a key with read:portal is enough', async () => {
    const k = await customer(['read:portal'])
    expect((await history(k.key, ORG)).status).toBe(200)
  })

  test('an organisation number failing MOD-11 is 400 ORG_NUMBER_INVALID_CHECKSUM', async () => {
    const bad = `${ORG.slice(0, 8)}${(Number(ORG[8]) + 1) % 10}`
    expect(isValidOrgNumber(bad)).toBe(false)
    const r = await history(c.key, bad)
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('ORG_NUMBER_INVALID_CHECKSUM')
  })

  test('a successful call costs 50 øre', async () => {
    const k = await customer()
    const before = (await readBalance(app.deps.sql, k.id)).balance_ore
    expect((await history(k.key, ORG)).status).toBe(200)
    expect((await readBalance(app.deps.sql, k.id)).balance_ore).toBe(before - 50)
  })

  test('a refused call (bad cursor) costs nothing', async () => {
    const k = await customer()
    const before = (await readBalance(app.deps.sql, k.id)).balance_ore
    expect((await history(k.key, ORG, '?cursor=garbage')).status).toBe(400)
    expect((await readBalance(app.deps.sql, k.id)).balance_ore).toBe(before)
  })
})
