/**
 * What callers see when the registers misbehave: every failure mode of the fixture servers maps to
 * its catalogued error or a degraded section, never a 500; cached answers are served fresh, then
 * stale within the limit; a 410 purges every copy; nothing is charged for a failed call.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { byScenario, companyByOrg } from '../../fixtures/data/companies.ts'
import { subUnitByOrg } from '../../fixtures/data/sub-units.ts'
import { hasValidCheckDigit } from '../../src/lib/org-number.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { readBalance } from '../../src/store/credits.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import type { Database } from '../../src/store/db.ts'
import { PINNED_NOW, scratchDatabase, startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

async function customer(app: TestApp) {
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 100_000)
  return { id: c.id, key: (await createKey(app, c.id)).key }
}

async function call(app: TestApp, key: string, path: string) {
  const res = await app.get(path, { headers: { ...bearer(key), ...freshIp() } })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

async function fault(app: TestApp, spec: Record<string, unknown>) {
  const res = await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, {
    method: 'POST',
    body: JSON.stringify(spec),
    headers: { 'content-type': 'application/json' },
  })
  expect(res.status).toBe(201)
}

async function upstreamRequests(app: TestApp): Promise<{ path: string }[]> {
  return (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json() as Promise<{ path: string }[]>
}

describe('failure modes of the fixture servers', () => {
  let app: TestApp
  let c: { id: string; key: string }
  beforeAll(async () => {
    app = await startApp()
    c = await customer(app)
  })
  afterAll(() => app.stop())

  test('a register that times out is 503 REGISTER_DOWN, retryable, and nothing is charged', async () => {
    const before = (await readBalance(app.deps.sql, c.id)).balance_ore
    const r = await call(app, c.key, `/api/v1/company/${byScenario('register-timeout')}/context`)
    expect(r.status).toBe(503)
    expect(r.body).toMatchObject({ error_code: 'REGISTER_DOWN', retryable: true })
    expect((await readBalance(app.deps.sql, c.id)).balance_ore).toBe(before)
  })

  test('with the register down and nothing cached, authority is 503 UPSTREAM_UNAVAILABLE (not REGISTER_DOWN), retryable, and nothing is charged', async () => {
    const before = (await readBalance(app.deps.sql, c.id)).balance_ore
    const r = await call(app, c.key, `/api/v1/company/${byScenario('register-timeout')}/authority`)
    expect(r.status).toBe(503)
    expect(r.body).toMatchObject({ error_code: 'UPSTREAM_UNAVAILABLE', retryable: true })
    expect(r.body.explanation.summary_en).toContain('Enhetsregisteret')
    expect((await readBalance(app.deps.sql, c.id)).balance_ore).toBe(before)
  })

  test('a register answering 500 is 503 REGISTER_DOWN after three attempts', async () => {
    await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })
    const org = byScenario('register-5xx')
    const r = await call(app, c.key, `/api/v1/company/${org}/verify`)
    expect(r.status).toBe(503)
    expect(r.body.error_code).toBe('REGISTER_DOWN')
    expect((await upstreamRequests(app)).filter((q) => q.path.endsWith(`/enheter/${org}`)).length).toBe(3)
  })

  test('a register answering garbage is 502 COMPANY_LOOKUP_FAILED, and the garbage is not cached', async () => {
    const org = byScenario('register-malformed')
    const r = await call(app, c.key, `/api/v1/company/${org}/context`)
    expect(r.status).toBe(502)
    expect(r.body.error_code).toBe('COMPANY_LOOKUP_FAILED')
    const rows = await app.deps.sql`select 1 from upstream_cache where org_number = ${org}`
    expect(rows.length).toBe(0)
  })

  test('a slow register within the timeout still answers', async () => {
    const slow = await startApp({ env: { UPSTREAM_TIMEOUT_MS: '5000' } })
    try {
      const k = await customer(slow)
      const r = await call(slow, k.key, `/api/v1/company/${byScenario('register-slow')}/context`)
      expect(r.status).toBe(200)
      expect(r.body._meta.served_from).toBe('live')
    } finally {
      await slow.stop()
    }
  })

  test('a signature service that is down degrades authority: kombinasjon_available false, never a 500', async () => {
    const r = await call(app, c.key, `/api/v1/company/${byScenario('signature-down')}/authority`)
    expect(r.status).toBe(200)
    expect(r.body.data.kombinasjon_available).toBe(false)
    expect(r.body.data.rule).toBe('unavailable')
    expect(r.body.data.degraded.error_code).toMatch(/^UPSTREAM_/)
  })

  test('with the signature service down, verification is unknown, not fail', async () => {
    const r = await call(app, c.key, `/api/v1/company/${byScenario('signature-down')}/verify`)
    expect(r.status).toBe(200)
    expect(r.body.data.signals.has_signing_authority_defined).toBeNull()
    expect(r.body.data.verification_status).toBe('unknown')
  })

  test('authority is 503 UPSTREAM_UNAVAILABLE when neither signature, procuration nor roles can be read', async () => {
    const org = byScenario('sole-signing')
    await app.deps.sql`delete from upstream_cache where org_number = ${org} and system = 'fullmakt'`
    await app.deps.sql`delete from upstream_cache where resource_key = ${`roller:${org}`}`
    await fault(app, { match: `/fullmakt/enheter/${org}`, mode: 'status', status: 503 })
    await fault(app, { match: `/enheter/${org}/roller`, mode: 'status', status: 503 })
    try {
      const r = await call(app, c.key, `/api/v1/company/${org}/authority`)
      expect(r.status).toBe(503)
      expect(r.body.error_code).toBe('UPSTREAM_UNAVAILABLE')
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })

  test('an accounts register that is down is 503 UPSTREAM_UNAVAILABLE on accounts, and the snapshot stays 200', async () => {
    const org = byScenario('accounts-down')
    const accounts = await call(app, c.key, `/api/v1/company/${org}/accounts`)
    expect(accounts.status).toBe(503)
    expect(accounts.body.error_code).toBe('UPSTREAM_UNAVAILABLE')
    const snapshot = await call(app, c.key, `/api/v1/company/${org}/snapshot`)
    expect(snapshot.status).toBe(200)
    expect(snapshot.body.data.sections.verify.status).toBe('ok')
  })

  test('a snapshot whose roles lookup fails keeps the other sections and marks roles degraded', async () => {
    const org = byScenario('joint-signing')
    await app.deps.sql`delete from upstream_cache where resource_key = ${`roller:${org}`}`
    await fault(app, { match: `/enheter/${org}/roller`, mode: 'malformed' })
    try {
      const r = await call(app, c.key, `/api/v1/company/${org}/snapshot`)
      expect(r.status).toBe(200)
      expect(r.body.data.sections.roles).toMatchObject({
        status: 'degraded',
        error: { error_code: 'COMPANY_LOOKUP_FAILED' },
      })
      expect(r.body.data.sections.verify.status).toBe('ok')
      expect(r.body.data.sections.risk.status).toBe('ok')
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })

  test('the snapshot of an unknown organisation is 404 COMPANY_NOT_FOUND', async () => {
    const r = await call(app, c.key, `/api/v1/company/${byScenario('unknown')}/snapshot`)
    expect(r.status).toBe(404)
    expect(r.body.error_code).toBe('COMPANY_NOT_FOUND')
  })

  test('the snapshot is 503 REGISTER_DOWN when the register is down and nothing is cached', async () => {
    const r = await call(app, c.key, `/api/v1/company/${byScenario('register-5xx')}/snapshot`)
    expect(r.status).toBe(503)
    expect(r.body.error_code).toBe('REGISTER_DOWN')
  })
})

describe('public company status', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app.stop())

  const status = async (list: string) => {
    const res = await app.get(`/api/v1/public/company-status?org_numbers=${list}`, { headers: freshIp() })
    return { status: res.status, body: (await res.json()) as any }
  }

  test('answers one row per organisation, in order, without a key', async () => {
    const orgs = [
      '984661185',
      byScenario('bankrupt'),
      byScenario('deleted'),
      byScenario('removed'),
      byScenario('unknown'),
    ]
    const r = await status(orgs.join(','))
    expect(r.status).toBe(200)
    expect(r.body.data.rows.map((x: { org_number: string }) => x.org_number)).toEqual(orgs)
    const [posten, bankrupt, deleted, removed, unknown] = r.body.data.rows
    expect(posten).toMatchObject({
      found: true,
      registry_status: 'active',
      entity_type: 'AS',
      mva_registered: true,
      konkurs: false,
    })
    expect(bankrupt.konkurs).toBe(true)
    expect(deleted.registry_status).toBe('deleted')
    expect(removed).toMatchObject({ found: false, registry_status: 'not_found' })
    expect(unknown).toMatchObject({ found: false, registry_status: 'not_found' })
  })

  test('a failing row never fails the call', async () => {
    const r = await status([byScenario('register-5xx'), '984661185', '984661186', 'abc'].join(','))
    expect(r.status).toBe(200)
    const [down, ok, checksum, junk] = r.body.data.rows
    expect(down).toMatchObject({ registry_status: 'error', error: { error_code: 'REGISTER_DOWN', retryable: true } })
    expect(ok.found).toBe(true)
    expect(checksum.error.error_code).toBe('ORG_NUMBER_INVALID_CHECKSUM')
    expect(junk.error.error_code).toBe('VALIDATION_FAILED')
  })

  test('carries no personal data: no role holders', async () => {
    const r = await status('984661185')
    expect(Object.keys(r.body.data.rows[0]).sort()).toEqual([
      'annual_accounts',
      'entity_type',
      'error',
      'found',
      'konkurs',
      'mva_registered',
      'name',
      'org_number',
      'registry_status',
      'under_avvikling',
      'under_tvangsavvikling',
    ])
  })

  test('100 unknown organisation numbers add nothing to the append-only snapshot archive; the answers are cached', async () => {
    const unknown = new Set<string>()
    while (unknown.size < 100) {
      const n = String(700_000_000 + Math.floor(Math.random() * 99_999_999))
      if (hasValidCheckDigit(n) && !companyByOrg(n) && !subUnitByOrg(n)) unknown.add(n)
    }
    const list = [...unknown]
    const archived = async () =>
      (
        await app.deps.sql<
          { n: number }[]
        >`select count(*)::int as n from source_snapshots where org_number = any(${list})`
      )[0]!.n
    const asked = async () =>
      (await upstreamRequests(app)).filter((r) => list.some((org) => r.path.endsWith(`/enheter/${org}`))).length
    const r = await status(list.join(','))
    expect(r.status).toBe(200)
    expect(r.body.data.rows.every((x: { registry_status: string }) => x.registry_status === 'not_found')).toBe(true)
    expect(r.body._meta).not.toHaveProperty('source_snapshot_id')
    expect(await archived()).toBe(0)
    // each number is asked as a unit (404) and then as a sub-unit (404): two not-found answers cached
    const cached = await app.deps.sql<
      { snapshot_id: string | null }[]
    >`select snapshot_id from upstream_cache where org_number = any(${list})`
    expect(cached).toHaveLength(200)
    expect(cached.every((c) => c.snapshot_id === null)).toBe(true)
    // asked again within the not-found fresh time: answered from the cache, the register not asked
    const before = await asked()
    expect(before).toBeGreaterThanOrEqual(100)
    expect(
      (await status(list.join(','))).body.data.rows.every(
        (x: { registry_status: string }) => x.registry_status === 'not_found',
      ),
    ).toBe(true)
    expect(await asked()).toBe(before)
    expect(await archived()).toBe(0)
  })

  test('duplicates are answered once', async () => {
    const r = await status('984661185,984661185')
    expect(r.body.data.count).toBe(1)
  })

  test('more than 100 organisation numbers is 400 VALIDATION_FAILED', async () => {
    const list = Array.from({ length: 101 }, (_, i) => String(100000000 + i)).join(',')
    const r = await status(list)
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('VALIDATION_FAILED')
  })

  test('an empty entry is 400 VALIDATION_FAILED', async () => {
    expect((await status('984661185,,923609016')).status).toBe(400)
  })
})

describe('cache, stale serving and removal (own database: these tests move the clock)', () => {
  let db: Database
  let app: TestApp
  let c: { id: string; key: string }
  const clock = fixedClock(PINNED_NOW)
  const org = '984661185'

  beforeAll(async () => {
    db = await scratchDatabase()
    await migrate(db.sql, await loadMigrations())
    app = await startApp({ db, clock })
    c = await customer(app)
  })
  afterAll(async () => {
    await app.stop()
    await db.close()
  })

  test('the first read is live and archived; the next within the hour comes from the cache without asking the register', async () => {
    const first = await call(app, c.key, `/api/v1/company/${org}/context`)
    expect(first.body._meta.served_from).toBe('live')
    const [snapshot] =
      await db.sql`select system, http_status, content_sha256 from source_snapshots where id = ${first.body._meta.source_snapshot_id}`
    expect(snapshot).toMatchObject({ system: 'enhetsregisteret', http_status: 200 })
    await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })
    clock.advance(30 * 60_000)
    const second = await call(app, c.key, `/api/v1/company/${org}/context`)
    expect(second.body._meta).toMatchObject({
      served_from: 'cache',
      source_snapshot_id: first.body._meta.source_snapshot_id,
      data_freshness: first.body._meta.data_freshness,
    })
    expect(second.body._meta.stale).toBeUndefined()
    expect(await upstreamRequests(app)).toEqual([])
  })

  test('after the hour the register is asked again', async () => {
    clock.advance(61 * 60_000)
    const r = await call(app, c.key, `/api/v1/company/${org}/context`)
    expect(r.body._meta.served_from).toBe('live')
  })

  test('with the register down, a cached answer within 72 hours is served with stale: true', async () => {
    clock.advance(5 * 3600_000)
    await fault(app, { match: `/enheter/${org}`, mode: 'status', status: 503 })
    try {
      const r = await call(app, c.key, `/api/v1/company/${org}/context`)
      expect(r.status).toBe(200)
      expect(r.body._meta).toMatchObject({ served_from: 'cache', stale: true })
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })

  test('with the register down, authority is still answered from a unit cached within 72 hours, marked stale', async () => {
    // The business register only: the signature service answers.
    await fault(app, { match: `/enhetsregisteret/api/enheter/${org}`, mode: 'status', status: 503 })
    try {
      const r = await call(app, c.key, `/api/v1/company/${org}/authority`)
      expect(r.status).toBe(200)
      expect(r.body.data.org_number).toBe(org)
      expect(r.body._meta.stale).toBe(true)
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })

  test('older than 72 hours the outage is the answer: 503 REGISTER_DOWN, and UPSTREAM_UNAVAILABLE on the authority route', async () => {
    clock.advance(73 * 3600_000)
    await fault(app, { match: `/enheter/${org}`, mode: 'status', status: 503 })
    try {
      const r = await call(app, c.key, `/api/v1/company/${org}/context`)
      expect(r.status).toBe(503)
      expect(r.body.error_code).toBe('REGISTER_DOWN')
      const a = await call(app, c.key, `/api/v1/company/${org}/authority`)
      expect(a.status).toBe(503)
      expect(a.body.error_code).toBe('UPSTREAM_UNAVAILABLE')
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })

  test('a 410 purges every cached copy and archived body of the unit, and it is then unknown', async () => {
    const target = byScenario('joint-signing')
    expect((await call(app, c.key, `/api/v1/company/${target}/snapshot`)).status).toBe(200)
    const cachedBefore = await db.sql`select resource_key from upstream_cache where org_number = ${target}`
    expect(cachedBefore.length).toBeGreaterThan(1)
    clock.advance(2 * 3600_000)
    await fault(app, { match: `/enhetsregisteret/api/enheter/${target}`, mode: 'status', status: 410 })
    try {
      const r = await call(app, c.key, `/api/v1/company/${target}/context`)
      expect(r.status).toBe(404)
      expect(r.body.error_code).toBe('COMPANY_NOT_FOUND')
      const left = await db.sql<
        { http_status: number }[]
      >`select http_status from upstream_cache where org_number = ${target}`
      expect(left.map((x) => x.http_status)).toEqual([410])
      const bodies =
        await db.sql`select b.body from source_snapshot_bodies b join source_snapshots s on s.id = b.snapshot_id where s.org_number = ${target} and s.http_status <> 410`
      expect(bodies.length).toBe(0)
      // the archive keeps the hashes of the earlier answers (the 410 itself is cached, not archived)
      const hashes = await db.sql`select content_sha256 from source_snapshots where org_number = ${target}`
      expect(hashes.length).toBeGreaterThanOrEqual(cachedBefore.length)
      expect(
        await db.sql`select 1 from source_snapshots where org_number = ${target} and http_status = 410`,
      ).toHaveLength(0)
    } finally {
      await fetch(`${app.fixtures.businessRegisterUrl}/__control/faults`, { method: 'DELETE' })
    }
  })
})
