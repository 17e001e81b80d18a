/**
 * The mock digital agency behind the DigitalAgency port: one request per (organisation,
 * externalRef) however often or concurrently it is asked for, its status on the injected clock
 * (New until someone decides, Timedout after its lifetime), the system user an acceptance creates,
 * and revoking either a pending request or a system user. State is in the database, so a second
 * instance (another pool on PostgreSQL) sees and races the first.
 */
import { afterAll, expect, test } from 'bun:test'
import { fixedClock } from '../../../src/lib/clock.ts'
import { MOCK_SYSTEM_ID, MockDigitalAgency, REQUEST_LIFETIME_MS } from '../../../src/upstream/digital-agency/mock.ts'
import { PINNED_NOW, secondInstanceSql, testDatabase } from '../../helpers.ts'

const BASE = 'https://plikt.example'
const ORG = '997612302'
const PACKAGES = ['urn:altinn:accesspackage:merverdiavgift']
const ref = () => `consumer:${crypto.randomUUID()}`
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const other = await secondInstanceSql()
afterAll(() => other.close())

async function agency(clock = fixedClock(PINNED_NOW)) {
  return { agency: new MockDigitalAgency((await testDatabase()).sql, BASE, clock), clock }
}

const by = { name: 'Ragnhild Fjord', basis: 'role:DAGL' }

test('the adapter says it is the mock', async () => {
  expect((await agency()).agency.mock).toBe(true)
})

test('a request is New, asks for the packages given, and is approved at its confirmUrl', async () => {
  const { agency: a } = await agency()
  const externalRef = ref()
  const r = await a.requestSystemUser({
    partyOrgNo: ORG,
    externalRef,
    accessPackages: PACKAGES,
    redirectUrl: 'https://agent.example/back',
  })
  expect(r).toEqual({
    id: expect.stringMatching(UUID),
    externalRef,
    systemId: MOCK_SYSTEM_ID,
    partyOrgNo: ORG,
    accessPackages: [{ urn: PACKAGES[0]! }],
    status: 'New',
    confirmUrl: `${BASE}/mock/digital-agency/requests/${r.id}`,
    redirectUrl: 'https://agent.example/back',
    created: PINNED_NOW,
  })
})

test('asking again with the same externalRef returns the first request, not a second one', async () => {
  const { agency: a } = await agency()
  const externalRef = ref()
  const first = await a.requestSystemUser({ partyOrgNo: ORG, externalRef, accessPackages: PACKAGES })
  const again = await a.requestSystemUser({
    partyOrgNo: ORG,
    externalRef,
    accessPackages: ['urn:altinn:accesspackage:a-ordning'],
  })
  expect(again).toEqual(first)
  const otherRef = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  expect(otherRef.id).not.toBe(first.id)
})

test('the same externalRef for another organisation is another request', async () => {
  const { agency: a } = await agency()
  const externalRef = ref()
  const one = await a.requestSystemUser({ partyOrgNo: ORG, externalRef, accessPackages: PACKAGES })
  const two = await a.requestSystemUser({ partyOrgNo: '984661185', externalRef, accessPackages: PACKAGES })
  expect(two.id).not.toBe(one.id)
})

test('twenty concurrent requests with one externalRef, from two instances, make exactly one request', async () => {
  const { sql } = await testDatabase()
  const clock = fixedClock(PINNED_NOW)
  const instances = [new MockDigitalAgency(sql, BASE, clock), new MockDigitalAgency(other.sql, BASE, clock)]
  const externalRef = ref()
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      instances[i % 2]!.requestSystemUser({ partyOrgNo: ORG, externalRef, accessPackages: PACKAGES }),
    ),
  )
  expect(new Set(answers.map((r) => r.id)).size).toBe(1)
  const rows =
    await sql`select id from mock_system_user_requests where party_org_no = ${ORG} and external_ref = ${externalRef}`
  expect(rows).toHaveLength(1)
})

test('requestStatus reads the request as it stands; an unknown or malformed id is null', async () => {
  const { agency: a } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  expect(await a.requestStatus(r.id)).toEqual(r)
  expect(await a.requestStatus(crypto.randomUUID())).toBeNull()
  expect(await a.requestStatus('not-a-uuid')).toBeNull()
})

test('a request still New at the end of its lifetime reads Timedout, on the injected clock', async () => {
  const { agency: a, clock } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  clock.advance(REQUEST_LIFETIME_MS - 1)
  expect((await a.requestStatus(r.id))!.status).toBe('New')
  clock.advance(1)
  expect((await a.requestStatus(r.id))!.status).toBe('Timedout')
})

test('a timed-out request can no longer be decided', async () => {
  const { agency: a, clock } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  clock.advance(REQUEST_LIFETIME_MS)
  const result = await a.decide(r.id, 'Accepted', by)
  expect(result!.changed).toBe(false)
  expect(result!.request.status).toBe('Timedout')
  expect(await a.systemUser(ORG, r.externalRef)).toBeNull()
})

test('acceptance creates the system user and records who decided and when', async () => {
  const { agency: a, clock } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  expect(await a.systemUser(ORG, r.externalRef)).toBeNull()
  clock.advance(60_000)
  const result = await a.decide(r.id, 'Accepted', by)
  expect(result!.changed).toBe(true)
  expect(result!.request.decision).toEqual({
    by: by.name,
    basis: by.basis,
    at: new Date(Date.parse(PINNED_NOW) + 60_000).toISOString(),
  })
  expect((await a.requestStatus(r.id))!.status).toBe('Accepted')
  const user = await a.systemUser(ORG, r.externalRef)
  expect(user).toEqual({
    id: expect.stringMatching(UUID),
    systemId: MOCK_SYSTEM_ID,
    reporteeOrgNo: ORG,
    externalRef: r.externalRef,
    isDeleted: false,
  })
})

test('rejection creates no system user', async () => {
  const { agency: a } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  expect((await a.decide(r.id, 'Rejected', by))!.changed).toBe(true)
  expect((await a.requestStatus(r.id))!.status).toBe('Rejected')
  expect(await a.systemUser(ORG, r.externalRef)).toBeNull()
})

test('an approval and a rejection racing from two instances: exactly one decides, the other changes nothing', async () => {
  const { sql } = await testDatabase()
  const clock = fixedClock(PINNED_NOW)
  const [one, two] = [new MockDigitalAgency(sql, BASE, clock), new MockDigitalAgency(other.sql, BASE, clock)]
  const r = await one.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  const results = await Promise.all([
    one.decide(r.id, 'Accepted', by),
    two.decide(r.id, 'Rejected', { name: 'Sverre Revheim', basis: 'role:LEDE' }),
  ])
  expect(results.filter((x) => x!.changed)).toHaveLength(1)
  const winner = results.find((x) => x!.changed)!.request
  const final = (await one.find(r.id))!
  expect(final.status).toBe(winner.status)
  expect(final.decision).toEqual(winner.decision)
  expect((await one.systemUser(ORG, r.externalRef)) !== null).toBe(final.status === 'Accepted')
})

test('deciding a request that was decided already changes nothing', async () => {
  const { agency: a } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  await a.decide(r.id, 'Rejected', by)
  const again = await a.decide(r.id, 'Accepted', { name: 'Sverre Revheim', basis: 'role:LEDE' })
  expect(again!.changed).toBe(false)
  expect(again!.request.status).toBe('Rejected')
  expect(again!.request.decision!.by).toBe(by.name)
})

test('deciding an unknown or malformed id finds nothing', async () => {
  const { agency: a } = await agency()
  expect(await a.decide(crypto.randomUUID(), 'Accepted', by)).toBeNull()
  expect(await a.decide('1; drop table x', 'Accepted', by)).toBeNull()
})

test('revoking a pending request deletes it; a new request may then be made', async () => {
  const { agency: a } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  expect(await a.revoke(ORG, r.externalRef)).toBe('revoked')
  expect(await a.requestStatus(r.id)).toBeNull()
  expect(await a.revoke(ORG, r.externalRef)).toBe('not_found')
  const fresh = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: r.externalRef, accessPackages: PACKAGES })
  expect(fresh.id).not.toBe(r.id)
  expect(fresh.status).toBe('New')
})

test('revoking an accepted request marks its system user deleted', async () => {
  const { agency: a } = await agency()
  const r = await a.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  await a.decide(r.id, 'Accepted', by)
  expect(await a.revoke(ORG, r.externalRef)).toBe('revoked')
  expect(await a.systemUser(ORG, r.externalRef)).toBeNull()
  expect((await a.requestStatus(r.id))!.status).toBe('Accepted')
  expect(await a.revoke(ORG, r.externalRef)).toBe('not_found')
})

test('revoking what was never requested is not_found', async () => {
  const { agency: a } = await agency()
  expect(await a.revoke(ORG, ref())).toBe('not_found')
})

test('a revoke racing an approval from another instance always ends the delegation', async () => {
  const { sql } = await testDatabase()
  const clock = fixedClock(PINNED_NOW)
  const [one, two] = [new MockDigitalAgency(sql, BASE, clock), new MockDigitalAgency(other.sql, BASE, clock)]
  const r = await one.requestSystemUser({ partyOrgNo: ORG, externalRef: ref(), accessPackages: PACKAGES })
  const [, revoked] = await Promise.all([two.decide(r.id, 'Accepted', by), one.revoke(ORG, r.externalRef)])
  expect(revoked).toBe('revoked')
  expect(await one.systemUser(ORG, r.externalRef)).toBeNull()
})
