/**
 * The live business-register adapter against a stub of data.brreg.no: the paths and query strings
 * it asks for, the versioned Accept headers it sends, and the RawResponse it hands back whatever the
 * status (404 and 410 are answers, not exceptions).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { AppError } from '../../../src/errors/app-error.ts'
import { fixedClock, systemClock } from '../../../src/lib/clock.ts'
import { UpstreamClient, type UpstreamPolicy } from '../../../src/upstream/http.ts'
import { BUSINESS_REGISTER_URL, LiveBusinessRegister } from '../../../src/upstream/business-register/live.ts'
import {
  mapAuthority,
  mapRoles,
  mapSearch,
  mapSubUnit,
  mapUnit,
  mapUpdates,
} from '../../../src/upstream/business-register/map.ts'
import { PINNED_NOW } from '../../helpers.ts'

const dir = `${import.meta.dir}/fixtures`
const files = {
  unit: await Bun.file(`${dir}/enhet-live.json`).text(),
  removed: await Bun.file(`${dir}/enhet-410.json`).text(),
  roles: await Bun.file(`${dir}/roller.json`).text(),
  signature: await Bun.file(`${dir}/signatur.json`).text(),
  prokura: await Bun.file(`${dir}/prokura-ik.json`).text(),
  search: await Bun.file(`${dir}/search-hits.json`).text(),
  feed: await Bun.file(`${dir}/oppdateringer.json`).text(),
}

const LIVE = '912345688'
const REMOVED = '912345726'
const UNKNOWN = '912345696'
const BROKEN = '912345742'

const UNIT_TYPE = 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8'
const ROLES_TYPE = 'application/vnd.brreg.enhetsregisteret.rolle.v1+json;charset=UTF-8'
const FEED_TYPE = 'application/vnd.brreg.enhetsregisteret.oppdatering.enhet.v1+json;charset=UTF-8'

interface Seen {
  path: string
  query: Record<string, string>
  search: string
  accept: string | null
}
const seen: Seen[] = []
let server: ReturnType<typeof Bun.serve>
let base: string

function json(body: string, contentType: string, status = 200) {
  return new Response(body, { status, headers: { 'content-type': contentType } })
}

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      seen.push({
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        search: url.search,
        accept: req.headers.get('accept'),
      })
      const p = url.pathname
      if (p === `/enhetsregisteret/api/enheter/${LIVE}`) return json(files.unit, UNIT_TYPE)
      if (p === `/enhetsregisteret/api/enheter/${REMOVED}`) return json(files.removed, UNIT_TYPE, 410)
      if (p === `/enhetsregisteret/api/enheter/${BROKEN}`) return json('{"status":503}', 'application/json', 503)
      if (p === `/enhetsregisteret/api/enheter/${LIVE}/roller`) return json(files.roles, ROLES_TYPE)
      if (p === `/fullmakt/enheter/${LIVE}/signatur`) return json(files.signature, 'application/json')
      if (p === `/fullmakt/enheter/${LIVE}/prokura`) return json(files.prokura, 'application/json')
      if (p === '/enhetsregisteret/api/enheter') return json(files.search, 'application/hal+json')
      if (p === '/enhetsregisteret/api/oppdateringer/enheter') return json(files.feed, FEED_TYPE)
      // the register's 404 has an empty body
      return new Response(null, { status: 404 })
    },
  })
  base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  seen.length = 0
})

const policy: UpstreamPolicy = {
  timeoutMs: 2000,
  attempts: 1,
  backoffMs: 1,
  budgetMs: 3000,
  breakerThreshold: 100,
  breakerOpenMs: 1000,
}
const clock = fixedClock(PINNED_NOW)
const register = () =>
  new LiveBusinessRegister(
    base,
    new UpstreamClient('Enhetsregisteret', policy, systemClock),
    new UpstreamClient('Fullmakttjenesten', policy, systemClock),
    clock,
  )

test('the production base is data.brreg.no', () => {
  expect(BUSINESS_REGISTER_URL).toBe('https://data.brreg.no')
})

describe('requests', () => {
  test('unit: GET /enhetsregisteret/api/enheter/{org} asking for enhet v2', async () => {
    await register().unit(LIVE)
    expect(seen).toEqual([{ path: `/enhetsregisteret/api/enheter/${LIVE}`, query: {}, search: '', accept: UNIT_TYPE }])
  })

  test('roles: GET /enhetsregisteret/api/enheter/{org}/roller asking for rolle v1', async () => {
    await register().roles(LIVE)
    expect(seen).toEqual([
      { path: `/enhetsregisteret/api/enheter/${LIVE}/roller`, query: {}, search: '', accept: ROLES_TYPE },
    ])
  })

  test('signature: GET /fullmakt/enheter/{org}/signatur as JSON', async () => {
    await register().signature(LIVE)
    expect(seen).toEqual([
      { path: `/fullmakt/enheter/${LIVE}/signatur`, query: {}, search: '', accept: 'application/json' },
    ])
  })

  test('procuration: GET /fullmakt/enheter/{org}/prokura as JSON', async () => {
    await register().prokura(LIVE)
    expect(seen).toEqual([
      { path: `/fullmakt/enheter/${LIVE}/prokura`, query: {}, search: '', accept: 'application/json' },
    ])
  })

  test('search: GET /enhetsregisteret/api/enheter with navn, size and page 0, as plain JSON (HAL)', async () => {
    await register().search('fjordlys', 25)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.path).toBe('/enhetsregisteret/api/enheter')
    expect(seen[0]!.query).toEqual({ navn: 'fjordlys', size: '25', page: '0' })
    expect(seen[0]!.accept).toBe('application/json')
  })

  test('search: a name with spaces, & and Norwegian letters arrives intact', async () => {
    await register().search('Blåbær & Ærlig AS', 5)
    expect(seen[0]!.query.navn).toBe('Blåbær & Ærlig AS')
    expect(seen[0]!.query.size).toBe('5')
  })

  test('updates: GET /enhetsregisteret/api/oppdateringer/enheter with oppdateringsid and size, asking for oppdatering v1', async () => {
    await register().updates(9400339, 500)
    expect(seen).toEqual([
      {
        path: '/enhetsregisteret/api/oppdateringer/enheter',
        query: { oppdateringsid: '9400339', size: '500' },
        search: '?oppdateringsid=9400339&size=500',
        accept: FEED_TYPE,
      },
    ])
  })

  test('updatesSince: the same feed with dato as an ISO instant with milliseconds and Z', async () => {
    await register().updatesSince(new Date('2026-03-14T09:20:00Z'), 500)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.path).toBe('/enhetsregisteret/api/oppdateringer/enheter')
    expect(seen[0]!.query).toEqual({ dato: '2026-03-14T09:20:00.000Z', size: '500' })
    expect(seen[0]!.accept).toBe(FEED_TYPE)
  })
})

describe('requests: sub-units', () => {
  const SUB_UNIT_TYPE = 'application/vnd.brreg.enhetsregisteret.underenhet.v2+json;charset=UTF-8'
  const SUB_UNIT_FEED_TYPE = 'application/vnd.brreg.enhetsregisteret.oppdatering.underenhet.v1+json;charset=UTF-8'

  test('subUnit: GET /enhetsregisteret/api/underenheter/{org} asking for underenhet v2', async () => {
    await register().subUnit(LIVE)
    expect(seen).toEqual([
      { path: `/enhetsregisteret/api/underenheter/${LIVE}`, query: {}, search: '', accept: SUB_UNIT_TYPE },
    ])
  })

  test('subUnitUpdates: GET /enhetsregisteret/api/oppdateringer/underenheter with oppdateringsid and size, asking for oppdatering.underenhet v1', async () => {
    await register().subUnitUpdates(21390729, 500)
    expect(seen).toEqual([
      {
        path: '/enhetsregisteret/api/oppdateringer/underenheter',
        query: { oppdateringsid: '21390729', size: '500' },
        search: '?oppdateringsid=21390729&size=500',
        accept: SUB_UNIT_FEED_TYPE,
      },
    ])
  })

  test('subUnitUpdatesSince: the same feed with dato as an ISO instant', async () => {
    await register().subUnitUpdatesSince(new Date('2026-03-14T09:20:00Z'), 500)
    expect(seen[0]!.query).toEqual({ dato: '2026-03-14T09:20:00.000Z', size: '500' })
  })

  test('a sub-unit lookup’s 404 comes back as the raw answer and maps to unknown', async () => {
    const r = await register().subUnit(LIVE)
    expect(r.status).toBe(404)
    expect(mapSubUnit(r, LIVE)).toEqual({ kind: 'unknown' })
  })
})

describe('responses', () => {
  test("a 200 comes back as the raw answer of enhetsregisteret, with URL, content type and the clock's time", async () => {
    const r = await register().unit(LIVE)
    expect(r).toEqual({
      system: 'enhetsregisteret',
      url: `${base}/enhetsregisteret/api/enheter/${LIVE}`,
      status: 200,
      contentType: UNIT_TYPE,
      body: files.unit,
      fetchedAt: clock.now(),
    })
    expect(mapUnit(r, LIVE).kind).toBe('found')
  })

  test('a 410 comes back as a RawResponse, not an exception, and maps to removed', async () => {
    const r = await register().unit(REMOVED)
    expect(r).toMatchObject({ system: 'enhetsregisteret', status: 410, body: files.removed })
    expect(mapUnit(r, REMOVED)).toEqual({ kind: 'removed', org_number: REMOVED, deleted_date: '2021-08-19' })
  })

  test('a 404 comes back as a RawResponse with its empty body, and maps to unknown', async () => {
    const r = await register().unit(UNKNOWN)
    expect(r).toMatchObject({ system: 'enhetsregisteret', status: 404, body: '' })
    expect(mapUnit(r, UNKNOWN)).toEqual({ kind: 'unknown' })
  })

  test('a 404 on roles comes back as a RawResponse and maps to no roles', async () => {
    const r = await register().roles(UNKNOWN)
    expect(r.status).toBe(404)
    expect(mapRoles(r)).toEqual({ found: false, roles: [] })
  })

  test('signature and procuration answers are of system fullmakt', async () => {
    const sig = await register().signature(LIVE)
    const prok = await register().prokura(LIVE)
    expect(sig).toMatchObject({ system: 'fullmakt', status: 200, url: `${base}/fullmakt/enheter/${LIVE}/signatur` })
    expect(prok).toMatchObject({ system: 'fullmakt', status: 200, url: `${base}/fullmakt/enheter/${LIVE}/prokura` })
    expect(mapAuthority(sig).combinations).toHaveLength(2)
    expect(mapAuthority(prok).combination_status).toBe('IK')
  })

  test('a 404 from Fullmakttjenesten comes back as a RawResponse', async () => {
    const r = await register().signature(UNKNOWN)
    expect(r).toMatchObject({ system: 'fullmakt', status: 404 })
  })

  test('the search URL of the answer is the one asked, and the page maps', async () => {
    const r = await register().search('fjordlys', 2)
    expect(r.url).toBe(`${base}/enhetsregisteret/api/enheter?navn=fjordlys&size=2&page=0`)
    expect(mapSearch(r).units).toHaveLength(2)
  })

  test('the feed answer maps to its updates', async () => {
    expect(mapUpdates(await register().updates(9400339, 4)).map((u) => u.id)).toEqual([
      9400339, 9400340, 9400341, 9400342,
    ])
  })

  test('a 5xx is a transient failure: AppError UPSTREAM_UNAVAILABLE, not a RawResponse', async () => {
    const e = await register()
      .unit(BROKEN)
      .catch((x: unknown) => x)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).code).toBe('UPSTREAM_UNAVAILABLE')
  })
})
