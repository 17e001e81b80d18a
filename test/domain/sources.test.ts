/**
 * Cached reads from the open registers (src/domain/sources.ts) against scripted in-test registers
 * that hand out queued answers or fail, counting every upstream call, on the run's shared
 * database with a pinned clock. Each test uses its own random org numbers.
 */
import { describe, expect, test } from 'bun:test'
import { FRESHNESS, UpstreamReads } from '../../src/domain/sources.ts'
import { AppError } from '../../src/errors/app-error.ts'
import type { ErrorCode } from '../../src/errors/catalogue/index.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { hasValidCheckDigit } from '../../src/lib/org-number.ts'
import { readCached } from '../../src/store/upstream-cache.ts'
import type { AccountsRegister } from '../../src/upstream/accounts-register/port.ts'
import type { BusinessRegister } from '../../src/upstream/business-register/port.ts'
import type { CentralBankClient } from '../../src/upstream/central-bank/live.ts'
import type { RawResponse, UpstreamSystem } from '../../src/upstream/raw.ts'
import { PINNED_NOW, testDatabase } from '../helpers.ts'

function randomOrg(): string {
  for (;;) {
    const s = String(800_000_000 + Math.floor(Math.random() * 199_999_999)).slice(0, 9)
    if (hasValidCheckDigit(s)) return s
  }
}

// -- answers in the registers' formats ------------------------------------------------------------

const enhet = (org: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    respons_klasse: 'Enhet',
    organisasjonsnummer: org,
    navn: `PRØVE ${org} AS`,
    organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
    registreringsdatoEnhetsregisteret: '2015-01-05',
    harRegistrertAntallAnsatte: false,
    konkurs: false,
    underAvvikling: false,
    underTvangsavviklingEllerTvangsopplosning: false,
    maalform: 'Bokmål',
    paategninger: [],
    ...extra,
  })

const roller = (name: string) =>
  JSON.stringify({
    rollegrupper: [
      {
        type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
        sistEndret: '2024-01-01',
        roller: [
          {
            type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
            person: { fodselsdato: '1970-01-01', navn: { fornavn: name, etternavn: 'Testesen' }, erDoed: false },
            fratraadt: false,
            rekkefolge: 0,
          },
        ],
      },
    ],
  })

const signatur = JSON.stringify({
  status: {
    rutineStatus: { kode: 'OK' },
    kombinasjonStatus: { kode: 'OK' },
    regelStatus: { kode: 'RF', regelIdent: 'R0012' },
  },
  signeringsGrunnlag: { kode: 'SF', signaturProkuraRoller: { signaturProkuraFritekst: 'Styrets leder alene.' } },
  signeringsKombinasjon: {
    kombinasjon: [
      {
        kode: 'R0012',
        kombinasjonsId: '1',
        personRolleKombinasjon: [{ fodselsdato: '04.05.1966', navn: 'Per Hansen', rolle: { kode: 'LEDE' } }],
      },
    ],
  },
})

const regnskap = (org: string) =>
  JSON.stringify([
    {
      id: 1,
      regnskapstype: 'SELSKAP',
      virksomhet: { organisasjonsnummer: org, organisasjonsform: 'AS', morselskap: false },
      regnskapsperiode: { fraDato: '2024-01-01', tilDato: '2024-12-31' },
      valuta: 'NOK',
      regnkapsprinsipper: { smaaForetak: true, regnskapsregler: 'regnskapslovenAlminneligRegler' },
      eiendeler: { sumEiendeler: 1000 },
    },
  ])

const search = (orgs: string[]) =>
  JSON.stringify({
    _embedded: { enheter: orgs.map((o) => JSON.parse(enhet(o))) },
    page: { size: 20, totalElements: orgs.length, totalPages: 1, number: 0 },
  })

// -- the scripted upstreams -------------------------------------------------------------------------

/** a body may be written for the org number asked for */
type Body = string | ((org: string) => string)
/** `wait` holds the upstream's answer (or failure) until the test releases it */
type Step = { status: number; body: Body; wait?: Promise<void> } | { fail: ErrorCode; wait?: Promise<void> }
type Method = 'unit' | 'roles' | 'signature' | 'prokura' | 'search' | 'accounts'

const SYSTEM: Record<Method, UpstreamSystem> = {
  unit: 'enhetsregisteret',
  roles: 'enhetsregisteret',
  signature: 'fullmakt',
  prokura: 'fullmakt',
  search: 'enhetsregisteret',
  accounts: 'regnskapsregisteret',
}

function setup() {
  const clock = fixedClock(PINNED_NOW)
  const logs: string[] = []
  const queue: Record<Method, Step[]> = { unit: [], roles: [], signature: [], prokura: [], search: [], accounts: [] }
  const calls: Record<Method, number> = { unit: 0, roles: 0, signature: 0, prokura: 0, search: 0, accounts: 0 }

  async function answer(method: Method, path: string, org = ''): Promise<RawResponse> {
    calls[method]++
    const step = queue[method].shift()
    if (!step) throw new Error(`unscripted upstream call: ${method} ${path}`)
    if (step.wait) await step.wait
    if ('fail' in step)
      throw new AppError(step.fail, {
        context: { upstream_system: SYSTEM[method] },
        extra: { upstream_system: SYSTEM[method] },
      })
    const body = typeof step.body === 'function' ? step.body(org) : step.body
    return {
      system: SYSTEM[method],
      url: `https://data.brreg.no${path}`,
      status: step.status,
      contentType: body ? 'application/json' : null,
      body,
      fetchedAt: clock.now(),
    }
  }

  const register: BusinessRegister = {
    unit: (org) => answer('unit', `/enhetsregisteret/api/enheter/${org}`, org),
    roles: (org) => answer('roles', `/enhetsregisteret/api/enheter/${org}/roller`, org),
    signature: (org) => answer('signature', `/fullmakt/enheter/${org}/signatur`, org),
    prokura: (org) => answer('prokura', `/fullmakt/enheter/${org}/prokura`, org),
    search: (name, size) =>
      answer('search', `/enhetsregisteret/api/enheter?navn=${encodeURIComponent(name)}&size=${size}&page=0`),
    updates: () => Promise.reject(new Error('not scripted')),
    updatesSince: () => Promise.reject(new Error('not scripted')),
    subUnit: () => Promise.reject(new Error('not scripted')),
    subUnitUpdates: () => Promise.reject(new Error('not scripted')),
    subUnitUpdatesSince: () => Promise.reject(new Error('not scripted')),
  }
  const accounts: AccountsRegister = {
    accounts: (org) => answer('accounts', `/regnskapsregisteret/regnskap/${org}`, org),
  }
  const centralBank = { exchangeRates: () => Promise.reject(new Error('not scripted')) } as unknown as CentralBankClient

  return {
    clock,
    logs,
    calls,
    /** queue answers for one method */
    script(method: Method, ...steps: Step[]) {
      queue[method].push(...steps)
    },
    async reads() {
      const { sql } = await testDatabase()
      return new UpstreamReads({
        sql,
        clock,
        logger: createLogger('debug', (l) => logs.push(l)),
        register,
        accounts,
        centralBank,
      })
    },
  }
}

const ok = (body: Body) => ({ status: 200, body })
const down: Step = { fail: 'UPSTREAM_UNAVAILABLE' }

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(AppError)
  return e as AppError
}

async function snapshot(id: string | null) {
  if (id === null) return null
  const { sql } = await testDatabase()
  const [row] = await sql<
    { id: string; system: string; resource_key: string; org_number: string | null; http_status: number }[]
  >`
    select id, system, resource_key, org_number, http_status from source_snapshots where id = ${id}`
  return row ?? null
}

async function snapshotCount(key: string): Promise<number> {
  const { sql } = await testDatabase()
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from source_snapshots where resource_key = ${key}`
  return row!.n
}

// -- tests --------------------------------------------------------------------------------------------

describe('fresh, cached, refetched', () => {
  test('the first read is live, and its snapshot id is an archived row of that answer', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)))
    const r = await (await s.reads()).unit(org)
    expect(r.value.kind).toBe('found')
    expect(r.source).toMatchObject({
      system: 'enhetsregisteret',
      servedFrom: 'live',
      stale: false,
      fetchedAt: s.clock.now(),
    })
    expect(await snapshot(r.source.snapshotId)).toEqual({
      id: r.source.snapshotId!,
      system: 'enhetsregisteret',
      resource_key: `enhet:${org}`,
      org_number: org,
      http_status: 200,
    })
    expect(s.calls.unit).toBe(1)
  })

  test('a second read within the fresh time is served from the cache without an upstream call', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)))
    const reads = await s.reads()
    const first = await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.fresh - 1)
    const second = await reads.unit(org)
    expect(s.calls.unit).toBe(1)
    expect(second.source).toEqual({
      system: 'enhetsregisteret',
      snapshotId: first.source.snapshotId,
      fetchedAt: first.source.fetchedAt,
      servedFrom: 'cache',
      stale: false,
    })
    expect(second.value).toEqual(first.value)
  })

  test('the cache is shared across instances on one database', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)))
    await (await s.reads()).unit(org)
    const other = await (await s.reads()).unit(org)
    expect(other.source.servedFrom).toBe('cache')
    expect(s.calls.unit).toBe(1)
  })

  test('once the fresh time has passed the upstream is asked again and the new answer archived', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), ok(enhet(org, { konkurs: true })))
    const reads = await s.reads()
    const first = await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.fresh)
    const second = await reads.unit(org)
    expect(s.calls.unit).toBe(2)
    expect(second.source.servedFrom).toBe('live')
    expect(second.source.snapshotId).not.toBe(first.source.snapshotId)
    expect(second.value.kind === 'found' && second.value.unit.bankrupt).toBe(true)
    expect(await snapshotCount(`enhet:${org}`)).toBe(2)
  })

  test('the refetched answer becomes the cached one', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), ok(enhet(org, { konkurs: true })))
    const reads = await s.reads()
    await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.fresh)
    const refetched = await reads.unit(org)
    const third = await reads.unit(org)
    expect(s.calls.unit).toBe(2)
    expect(third.source).toMatchObject({ servedFrom: 'cache', snapshotId: refetched.source.snapshotId })
  })

  test('accounts are fresh for their own (longer) time', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('accounts', ok(regnskap(org)))
    const reads = await s.reads()
    await reads.accounts(org)
    s.clock.advance(FRESHNESS.accounts.fresh - 1)
    const again = await reads.accounts(org)
    expect(again.source).toMatchObject({ system: 'regnskapsregisteret', servedFrom: 'cache' })
    expect(s.calls.accounts).toBe(1)
  })

  test('search is cached per size and case-insensitive name', async () => {
    const s = setup()
    const name = `Prøve ${crypto.randomUUID()}`
    s.script('search', ok(search([randomOrg()])))
    const reads = await s.reads()
    await reads.search(name, 20)
    const again = await reads.search(name.toUpperCase(), 20)
    expect(again.source.servedFrom).toBe('cache')
    expect(again.value.units).toHaveLength(1)
    expect(s.calls.search).toBe(1)
  })

  test('signature and procuration are cached under separate keys', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('signature', ok(signatur))
    s.script('prokura', ok(signatur))
    const reads = await s.reads()
    await reads.signature(org)
    const prokura = await reads.prokura(org)
    expect(prokura.source).toMatchObject({ system: 'fullmakt', servedFrom: 'live' })
    expect(s.calls).toMatchObject({ signature: 1, prokura: 1 })
  })
})

describe('mapped answers kept in the instance', () => {
  test('a cached answer read again is the same mapped value, and it cannot be changed', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)))
    const reads = await s.reads()
    await reads.unit(org)
    const first = await reads.unit(org)
    const second = await reads.unit(org)
    expect(second.value).toBe(first.value)
    expect(Object.isFrozen(first.value)).toBe(true)
    expect(() => {
      ;(first.value as { kind: string }).kind = 'removed'
    }).toThrow(TypeError)
    expect(second.value.kind).toBe('found')
  })

  test('a cache row another instance replaced is read anew, not served from the kept mapping', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), ok(enhet(org, { konkurs: true })))
    const mine = await s.reads()
    await mine.unit(org)
    const kept = await mine.unit(org)
    expect(kept.source.servedFrom).toBe('cache')
    s.clock.advance(FRESHNESS.unit.fresh + 1)
    const theirs = await (await s.reads()).unit(org)
    expect(theirs.source.servedFrom).toBe('live')
    const after = await mine.unit(org)
    expect(after.source).toMatchObject({ servedFrom: 'cache', snapshotId: theirs.source.snapshotId })
    expect(after.value).toEqual(theirs.value)
    expect(after.value).not.toEqual(kept.value)
  })
})

describe('upstream down', () => {
  test('within the stale limit the cached value is served with stale: true', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), down)
    const reads = await s.reads()
    const first = await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.staleLimit - 1)
    const r = await reads.unit(org)
    expect(s.calls.unit).toBe(2)
    expect(r.value).toEqual(first.value)
    expect(r.source).toEqual({
      system: 'enhetsregisteret',
      snapshotId: first.source.snapshotId,
      fetchedAt: first.source.fetchedAt,
      servedFrom: 'cache',
      stale: true,
    })
  })

  test('serving stale is logged as a warning', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), down)
    const reads = await s.reads()
    await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.fresh)
    await reads.unit(org)
    expect(s.logs.map((l) => JSON.parse(l)).some((l) => l.level === 'warn' && l.key === `enhet:${org}`)).toBe(true)
  })

  test('a timeout or the government rate limit also falls back to the stale cached value', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('roles', ok(roller('Anne')), { fail: 'UPSTREAM_TIMEOUT' }, { fail: 'GOVERNMENT_RATE_LIMITED' })
    const reads = await s.reads()
    await reads.roles(org)
    s.clock.advance(FRESHNESS.roles.fresh)
    expect((await reads.roles(org)).source.stale).toBe(true)
    expect((await reads.roles(org)).source.stale).toBe(true)
    expect(s.calls.roles).toBe(3)
  })

  test("beyond the stale limit the register's outage is REGISTER_DOWN (503)", async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), down)
    const reads = await s.reads()
    await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.staleLimit)
    const e = await failure(reads.unit(org))
    expect(e.code).toBe('REGISTER_DOWN')
    expect(e.status).toBe(503)
  })

  test("with nothing cached the register's outage is REGISTER_DOWN", async () => {
    const s = setup()
    s.script('roles', down)
    expect((await failure((await s.reads()).roles(randomOrg()))).code).toBe('REGISTER_DOWN')
  })

  test('a register timeout with nothing cached is REGISTER_DOWN too', async () => {
    const s = setup()
    s.script('unit', { fail: 'UPSTREAM_TIMEOUT' })
    expect((await failure((await s.reads()).unit(randomOrg()))).code).toBe('REGISTER_DOWN')
  })

  test("beyond the stale limit Fullmakttjenesten's outage is UPSTREAM_UNAVAILABLE", async () => {
    const s = setup()
    const org = randomOrg()
    s.script('signature', ok(signatur), down)
    const reads = await s.reads()
    await reads.signature(org)
    s.clock.advance(FRESHNESS.signature.staleLimit)
    const e = await failure(reads.signature(org))
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE')
    expect(e.status).toBe(503)
  })

  test("within the stale limit Fullmakttjenesten's cached answer is served stale", async () => {
    const s = setup()
    const org = randomOrg()
    s.script('signature', ok(signatur), down)
    const reads = await s.reads()
    await reads.signature(org)
    s.clock.advance(FRESHNESS.signature.staleLimit - 1)
    const r = await reads.signature(org)
    expect(r.source).toMatchObject({ system: 'fullmakt', servedFrom: 'cache', stale: true })
    expect(r.value.combinations).toHaveLength(1)
  })

  test("beyond its stale limit the accounts register's outage is UPSTREAM_UNAVAILABLE", async () => {
    const s = setup()
    const org = randomOrg()
    s.script('accounts', ok(regnskap(org)), down)
    const reads = await s.reads()
    await reads.accounts(org)
    s.clock.advance(FRESHNESS.accounts.staleLimit)
    expect((await failure(reads.accounts(org))).code).toBe('UPSTREAM_UNAVAILABLE')
  })
})

describe('garbage', () => {
  test('an unreadable 200 from the register is COMPANY_LOOKUP_FAILED (502)', async () => {
    const s = setup()
    s.script('unit', ok('<html><body>Vedlikehold</body></html>'))
    const e = await failure((await s.reads()).unit(randomOrg()))
    expect(e.code).toBe('COMPANY_LOOKUP_FAILED')
    expect(e.status).toBe(502)
  })

  test('garbage is neither cached nor archived', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok('<html><body>Vedlikehold</body></html>'))
    await failure((await s.reads()).unit(org))
    const { sql } = await testDatabase()
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${org}`)).toBeNull()
    expect(await snapshotCount(`enhet:${org}`)).toBe(0)
  })

  test('after garbage the next read asks the upstream again', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok('{"feil":true}'), ok(enhet(org)))
    const reads = await s.reads()
    await failure(reads.unit(org))
    const r = await reads.unit(org)
    expect(s.calls.unit).toBe(2)
    expect(r.source.servedFrom).toBe('live')
    expect(r.value.kind).toBe('found')
  })

  test('a unit answering for another org number is COMPANY_LOOKUP_FAILED and not cached', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(randomOrg())))
    expect((await failure((await s.reads()).unit(org))).code).toBe('COMPANY_LOOKUP_FAILED')
    const { sql } = await testDatabase()
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${org}`)).toBeNull()
  })

  test('an unreadable answer from Fullmakttjenesten is GOVERNMENT_API_ERROR', async () => {
    const s = setup()
    s.script('signature', ok('not json'))
    expect((await failure((await s.reads()).signature(randomOrg()))).code).toBe('GOVERNMENT_API_ERROR')
  })

  test('an unreadable answer from the accounts register is GOVERNMENT_API_ERROR', async () => {
    const s = setup()
    s.script('accounts', ok('{"not":"an array"}'))
    expect((await failure((await s.reads()).accounts(randomOrg()))).code).toBe('GOVERNMENT_API_ERROR')
  })
})

describe('410: removed from open data', () => {
  test('the unit is "removed", cached but not archived', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', { status: 410, body: JSON.stringify({ organisasjonsnummer: org, slettedato: '2021-08-19' }) })
    const r = await (await s.reads()).unit(org)
    expect(r.value).toEqual({ kind: 'removed', org_number: org, deleted_date: '2021-08-19' })
    expect(r.source).toMatchObject({ servedFrom: 'live', snapshotId: null })
    expect(await snapshotCount(`enhet:${org}`)).toBe(0)
  })

  test('every earlier cached copy of the org is gone', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('roles', ok(roller('Anne')))
    s.script('accounts', ok(regnskap(org)))
    s.script('unit', ok(enhet(org)), {
      status: 410,
      body: JSON.stringify({ organisasjonsnummer: org, slettedato: '2021-08-19' }),
    })
    const reads = await s.reads()
    await reads.unit(org)
    await reads.roles(org)
    await reads.accounts(org)
    s.clock.advance(FRESHNESS.unit.fresh)
    await reads.unit(org)
    const { sql } = await testDatabase()
    expect(await readCached(sql, 'enhetsregisteret', `roller:${org}`)).toBeNull()
    expect(await readCached(sql, 'regnskapsregisteret', `regnskap:${org}`)).toBeNull()
    const unit = await readCached(sql, 'enhetsregisteret', `enhet:${org}`)
    expect(unit?.raw.status).toBe(410)
  })

  test('the archived bodies of the earlier answers are purged; their snapshot rows remain', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', ok(enhet(org)), {
      status: 410,
      body: JSON.stringify({ organisasjonsnummer: org, slettedato: '2021-08-19' }),
    })
    const reads = await s.reads()
    const first = await reads.unit(org)
    s.clock.advance(FRESHNESS.unit.fresh)
    await reads.unit(org)
    const { sql } = await testDatabase()
    expect(await sql`select 1 from source_snapshot_bodies where snapshot_id = ${first.source.snapshotId}`).toHaveLength(
      0,
    )
    expect(await snapshot(first.source.snapshotId)).not.toBeNull()
  })

  test('a cached search page naming the org is gone', async () => {
    const s = setup()
    const org = randomOrg()
    const name = `Prøve ${crypto.randomUUID()}`
    s.script('search', ok(search([org, randomOrg()])), ok(search([randomOrg()])))
    s.script('unit', { status: 410, body: '' })
    const reads = await s.reads()
    await reads.search(name, 20)
    await reads.unit(org)
    const again = await reads.search(name, 20)
    expect(again.source.servedFrom).toBe('live')
    expect(s.calls.search).toBe(2)
  })

  test('after a 410 the roles are asked of the upstream again, not served from a copy', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('roles', ok(roller('Anne')), { status: 410, body: '' })
    s.script('unit', { status: 410, body: '' })
    const reads = await s.reads()
    await reads.roles(org)
    await reads.unit(org)
    const roles = await reads.roles(org)
    expect(s.calls.roles).toBe(2)
    expect(roles.value).toEqual({ found: false, roles: [] })
  })
})

describe('404: not found', () => {
  test('is "unknown", served live and cached, but not archived: it backs no answer', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', { status: 404, body: '' })
    const r = await (await s.reads()).unit(org)
    expect(r.value).toEqual({ kind: 'unknown' })
    expect(r.source).toMatchObject({ servedFrom: 'live', snapshotId: null })
    expect(await snapshotCount(`enhet:${org}`)).toBe(0)
    const { sql } = await testDatabase()
    expect(await readCached(sql, 'enhetsregisteret', `enhet:${org}`)).toMatchObject({
      snapshotId: null,
      raw: { status: 404 },
    })
  })

  test('a unit asked about again and again is archived only once it exists', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', { status: 404, body: '' }, { status: 404, body: '' }, ok(enhet(org)))
    const reads = await s.reads()
    for (let i = 0; i < 3; i++) {
      await reads.unit(org)
      s.clock.advance(FRESHNESS.notFound.fresh)
    }
    expect(s.calls.unit).toBe(3)
    expect(await snapshotCount(`enhet:${org}`)).toBe(1)
    const found = await reads.unit(org)
    expect(found.source.servedFrom).toBe('cache')
    expect((await snapshot(found.source.snapshotId))?.http_status).toBe(200)
  })

  test('is served from the cache within the not-found fresh time', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', { status: 404, body: '' })
    const reads = await s.reads()
    await reads.unit(org)
    s.clock.advance(FRESHNESS.notFound.fresh - 1)
    const r = await reads.unit(org)
    expect(r.source.servedFrom).toBe('cache')
    expect(r.value).toEqual({ kind: 'unknown' })
    expect(s.calls.unit).toBe(1)
  })

  test('is asked again after the not-found fresh time, though the unit fresh time has not passed', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('unit', { status: 404, body: '' }, ok(enhet(org)))
    const reads = await s.reads()
    await reads.unit(org)
    s.clock.advance(FRESHNESS.notFound.fresh)
    expect(FRESHNESS.notFound.fresh).toBeLessThan(FRESHNESS.unit.fresh)
    const r = await reads.unit(org)
    expect(s.calls.unit).toBe(2)
    expect(r.value.kind).toBe('found')
  })

  test('no accounts (404) is "none" and is fresh only for the not-found time', async () => {
    const s = setup()
    const org = randomOrg()
    s.script('accounts', { status: 404, body: '' }, { status: 404, body: '' })
    const reads = await s.reads()
    expect((await reads.accounts(org)).value).toEqual({ kind: 'none' })
    s.clock.advance(FRESHNESS.notFound.fresh)
    await reads.accounts(org)
    expect(s.calls.accounts).toBe(2)
  })
})

describe('concurrency', () => {
  test('N concurrent reads of one key share one upstream call', async () => {
    const s = setup()
    const org = randomOrg()
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    s.script('unit', { wait: gate, ...ok(enhet(org)) })
    const reads = await s.reads()
    const all = Promise.all(Array.from({ length: 8 }, () => reads.unit(org)))
    // let every reader get past its cache lookup before the upstream answers
    while (s.calls.unit === 0) await Bun.sleep(5)
    await Bun.sleep(250)
    release()
    const results = await all
    expect(s.calls.unit).toBe(1)
    expect(new Set(results.map((r) => r.source.snapshotId)).size).toBe(1)
    expect(results.every((r) => r.value.kind === 'found')).toBe(true)
    expect(await snapshotCount(`enhet:${org}`)).toBe(1)
  })

  test('concurrent reads of different keys do not share', async () => {
    const s = setup()
    const [a, b] = [randomOrg(), randomOrg()]
    s.script(
      'unit',
      ok((org) => enhet(org)),
      ok((org) => enhet(org)),
    )
    const reads = await s.reads()
    const [ra, rb] = await Promise.all([reads.unit(a), reads.unit(b)])
    expect(s.calls.unit).toBe(2)
    expect(ra.source.snapshotId).not.toBe(rb.source.snapshotId)
    expect([
      ra.value.kind === 'found' && ra.value.unit.org_number,
      rb.value.kind === 'found' && rb.value.unit.org_number,
    ]).toEqual([a, b])
  })

  test('concurrent reads that all fail share the one failed call', async () => {
    const s = setup()
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    s.script('roles', { ...down, wait: gate })
    const reads = await s.reads()
    const org = randomOrg()
    const all = Promise.all(Array.from({ length: 5 }, () => failure(reads.roles(org))))
    while (s.calls.roles === 0) await Bun.sleep(5)
    await Bun.sleep(250)
    release()
    const errors = await all
    expect(errors.map((e) => e.code)).toEqual(Array(5).fill('REGISTER_DOWN'))
    expect(s.calls.roles).toBe(1)
  })
})
