/**
 * The live accounts-register adapter against a stub of data.brreg.no: the path it asks for, the
 * Accept header, and the RawResponse it hands back whatever the status.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { fixedClock, systemClock } from '../../../src/lib/clock.ts'
import { UpstreamClient, type UpstreamPolicy } from '../../../src/upstream/http.ts'
import { LiveAccountsRegister } from '../../../src/upstream/accounts-register/live.ts'
import { mapAccounts } from '../../../src/upstream/accounts-register/map.ts'
import { PINNED_NOW } from '../../helpers.ts'

const body = await Bun.file(`${import.meta.dir}/fixtures/regnskap-selskap.json`).text()
const FILED = '912345688'
const NONE = '912345696'

const seen: { path: string; search: string; accept: string | null }[] = []
let server: ReturnType<typeof Bun.serve>
let base: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      seen.push({ path: url.pathname, search: url.search, accept: req.headers.get('accept') })
      if (url.pathname === `/regnskapsregisteret/regnskap/${FILED}`)
        return new Response(body, { headers: { 'content-type': 'application/json' } })
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
  new LiveAccountsRegister(base, new UpstreamClient('Regnskapsregisteret', policy, systemClock), clock)

test('asks GET /regnskapsregisteret/regnskap/{org} as JSON, with no query', async () => {
  await register().accounts(FILED)
  expect(seen).toEqual([{ path: `/regnskapsregisteret/regnskap/${FILED}`, search: '', accept: 'application/json' }])
})

test("a 200 comes back as the raw answer of regnskapsregisteret with the clock's time", async () => {
  const r = await register().accounts(FILED)
  expect(r).toEqual({
    system: 'regnskapsregisteret',
    url: `${base}/regnskapsregisteret/regnskap/${FILED}`,
    status: 200,
    contentType: 'application/json',
    body,
    fetchedAt: clock.now(),
  })
  expect(mapAccounts(r).kind).toBe('found')
})

test('a 404 comes back as a RawResponse with its empty body, not an exception, and maps to none', async () => {
  const r = await register().accounts(NONE)
  expect(r).toMatchObject({ system: 'regnskapsregisteret', status: 404, body: '' })
  expect(mapAccounts(r)).toEqual({ kind: 'none' })
})
