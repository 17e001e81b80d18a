/**
 * The digital agency's live client against the Altinn fixture over real HTTP, as the fixtures'
 * demo vendor: a request and its confirmUrl, a retried request that finds the first, status
 * polling, the system user an accepted request makes, and revoking in each state.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import type { AppError } from '../../../src/errors/app-error.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import type { LiveDigitalAgency } from '../../../src/upstream/digital-agency/live.ts'
import type { LiveTokenService } from '../../../src/upstream/token-service/live.ts'
import { PINNED_NOW } from '../../helpers.ts'
import {
  addFault,
  altinnState,
  clearFaults,
  clearRequests,
  answerSystemUserRequest,
  deleteSystemUser,
  digitalAgency,
  requestLog,
  tokenService,
} from '../../helpers.ts'

const clock = fixedClock(PINNED_NOW)
let fx: FixtureServers
let tokens: LiveTokenService
let agency: LiveDigitalAgency
beforeAll(async () => {
  fx = await startFixtureServers({ now: () => clock.now().getTime() })
  tokens = tokenService(fx, clock)
  agency = digitalAgency(fx, tokens, clock)
})
afterAll(() => fx.stop())

const VAT = 'urn:altinn:accesspackage:merverdiavgift'
const ask = (org: string, externalRef = `ref-${org}`) =>
  agency.requestSystemUser({
    partyOrgNo: org,
    externalRef,
    accessPackages: [VAT],
    redirectUrl: 'https://plikt.example/back',
  })

test('a request is New, for our system, with the packages asked for and a confirmUrl to hand the company', async () => {
  const r = await ask('984661185')
  expect(r).toMatchObject({
    externalRef: 'ref-984661185',
    systemId: fx.governmentClient.systemId,
    partyOrgNo: '984661185',
    accessPackages: [{ urn: VAT }],
    status: 'New',
    redirectUrl: 'https://plikt.example/back',
  })
  expect(r.confirmUrl).toBe(`${fx.filingPortalUrl}/accessmanagement/ui/systemuser/request?id=${r.id}`)
  expect(r.created).toBe(PINNED_NOW)
})

test('asking again with the same externalRef returns the first request and makes no second one', async () => {
  const first = await ask('923609016')
  const again = await ask('923609016')
  expect(again.id).toBe(first.id)
  expect((await altinnState(fx)).requests.filter((r) => r.partyOrgNo === '923609016')).toHaveLength(1)
})

test('asking again while the lookup of the first request fails once still finds it (the lookup is retried)', async () => {
  await addFault(fx.filingPortalUrl, {
    match: '/systemuser/request/vendor/byexternalref',
    mode: 'status',
    status: 503,
    times: 1,
  })
  const first = await ask('915241700')
  const again = await ask('915241700')
  expect(again.id).toBe(first.id)
  await clearFaults(fx.filingPortalUrl)
})

test('status polling follows the administrator: New, then Accepted', async () => {
  const r = await ask('921173601')
  expect((await agency.requestStatus(r.id))?.status).toBe('New')
  await answerSystemUserRequest(fx, r.id, 'Accepted')
  expect((await agency.requestStatus(r.id))?.status).toBe('Accepted')
})

test('a request the agency does not know is null (AUTH-00010), and an id that is not a uuid is null without a call', async () => {
  expect(await agency.requestStatus(crypto.randomUUID())).toBeNull()
  await clearRequests(fx.filingPortalUrl)
  expect(await agency.requestStatus('not-a-uuid')).toBeNull()
  expect(await requestLog(fx.filingPortalUrl)).toEqual([])
})

test('no system user before acceptance; after it, the system user bound to the externalRef', async () => {
  const r = await ask('993718807')
  expect(await agency.systemUser('993718807', 'ref-993718807')).toBeNull()
  await answerSystemUserRequest(fx, r.id, 'Accepted')
  const user = await agency.systemUser('993718807', 'ref-993718807')
  expect(user).toMatchObject({
    systemId: fx.governmentClient.systemId,
    reporteeOrgNo: '993718807',
    externalRef: 'ref-993718807',
    isDeleted: false,
  })
})

test('a rejected request is returned as it stands when asked again: never quietly renewed', async () => {
  const r = await ask('994029509')
  await answerSystemUserRequest(fx, r.id, 'Rejected')
  const again = await ask('994029509')
  expect(again).toMatchObject({ id: r.id, status: 'Rejected' })
  expect((await altinnState(fx)).requests.filter((x) => x.partyOrgNo === '994029509')).toHaveLength(1)
})

test('revoking a pending request deletes it', async () => {
  const r = await ask('916754302')
  expect(await agency.revoke('916754302', 'ref-916754302')).toBe('revoked')
  expect(await agency.requestStatus(r.id)).toBeNull()
})

test('revoking an accepted request is unconfirmed: the vendor API cannot delete a system user, and no delete is tried', async () => {
  const r = await ask('926884107')
  await answerSystemUserRequest(fx, r.id, 'Accepted')
  await clearRequests(fx.filingPortalUrl)
  expect(await agency.revoke('926884107', 'ref-926884107')).toBe('unconfirmed')
  expect((await requestLog(fx.filingPortalUrl)).filter((l) => l.method === 'DELETE')).toEqual([])
  expect((await altinnState(fx)).systemUsers.find((u) => u.reporteeOrgNo === '926884107')?.isDeleted).toBe(false)
})

test('once the organisation deleted the system user, revoking is not_found; what never existed too', async () => {
  const r = await ask('930102504')
  await answerSystemUserRequest(fx, r.id, 'Accepted')
  const user = await agency.systemUser('930102504', 'ref-930102504')
  await deleteSystemUser(fx, user!.id)
  expect(await agency.revoke('930102504', 'ref-930102504')).toBe('not_found')
  expect(await agency.revoke('912883604', 'never-asked')).toBe('not_found')
})

test('asking again after acceptance is answered AUTH-00004 by the agency, and finds the accepted request', async () => {
  const r = await ask('935118472')
  await answerSystemUserRequest(fx, r.id, 'Accepted')
  await clearRequests(fx.filingPortalUrl)
  const again = await ask('935118472')
  expect(again).toMatchObject({ id: r.id, status: 'Accepted' })
  const log = await requestLog(fx.filingPortalUrl)
  expect(log.map((l) => [l.method, l.path.split('/').slice(5, 8).join('/')])).toEqual([
    ['POST', 'request/vendor'],
    ['GET', 'request/vendor/byexternalref'],
  ])
})

test('asking again while the request is open is answered 200 with that request: no second request', async () => {
  const r = await ask('937406217')
  await clearRequests(fx.filingPortalUrl)
  expect(await ask('937406217')).toMatchObject({ id: r.id, status: 'New' })
  expect((await requestLog(fx.filingPortalUrl)).map((l) => l.method)).toEqual(['POST'])
  expect((await altinnState(fx)).requests.filter((x) => x.partyOrgNo === '937406217')).toHaveLength(1)
})

test('a timed-out request gives way to a new one when asked again', async () => {
  const r = await ask('939261038')
  await answerSystemUserRequest(fx, r.id, 'Timedout')
  const again = await ask('939261038')
  expect(again.id).not.toBe(r.id)
  expect(again.status).toBe('New')
})

test('revoking a rejected request is not_found: it delegated nothing', async () => {
  const r = await ask('929770404')
  await answerSystemUserRequest(fx, r.id, 'Rejected')
  expect(await agency.revoke('929770404', 'ref-929770404')).toBe('not_found')
})

test('an upstream failure while revoking throws (the caller records the revocation and warns)', async () => {
  await addFault(fx.filingPortalUrl, { match: '/systemuser/request/vendor/byexternalref', mode: 'status', status: 503 })
  const e = await agency.revoke('933550109', 'ref-933550109').then(
    () => null,
    (x: unknown) => x as AppError,
  )
  expect(e?.code).toBe('UPSTREAM_UNAVAILABLE')
  await clearFaults(fx.filingPortalUrl)
})

test('a request the agency refuses (a package that does not exist) is GOVERNMENT_API_ERROR with its code', async () => {
  const e = await agency
    .requestSystemUser({ partyOrgNo: '991284508', externalRef: 'x', accessPackages: ['merverdiavgift'] })
    .then(
      () => null,
      (x: unknown) => x as AppError,
    )
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ upstream_status: 400, upstream_code: 'AUTH-00001' })
})

test('an answer that is not a request is GOVERNMENT_API_ERROR (unreadable answer)', async () => {
  await addFault(fx.filingPortalUrl, { match: '/systemuser/request/vendor', mode: 'malformed', times: 1 })
  const e = await ask('920663109').then(
    () => null,
    (x: unknown) => x as AppError,
  )
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ reason: 'unreadable answer' })
})
