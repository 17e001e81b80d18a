/**
 * Delegation requests are bounded: an account holds at most 100 open requests per organisation,
 * however fast it asks, and one read asks the agency about at most 10 pending requests.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { MAX_ASKED_PER_READ, MAX_OPEN_REQUESTS } from '../../src/domain/delegation/fullmakt.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { agent, decide, ORG, requestFullmakt, type Agent } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

async function openRequests(a: Agent, org = ORG): Promise<number> {
  const [row] = await app.deps.sql<
    { n: number }[]
  >`select count(*)::int as n from delegations where consumer_id = ${a.consumerId} and org_number = ${org} and status in ('requesting', 'pending')`
  return row!.n
}

test('concurrent requests past 100 open for one organisation: exactly 100 are made, the rest are 409 DELEGATION_REQUESTS_LIMIT in both languages', async () => {
  const a = await agent(app, 'professional')
  const answers = await Promise.all(Array.from({ length: MAX_OPEN_REQUESTS + 10 }, () => requestFullmakt(app, a)))
  const statuses = answers.map((r) => r.status)
  expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_OPEN_REQUESTS)
  expect(statuses.filter((s) => s === 409)).toHaveLength(10)
  const refused = await answers.find((r) => r.status === 409)!.json()
  expect(refused.error_code).toBe('DELEGATION_REQUESTS_LIMIT')
  expect(refused.explanation.summary).toContain('fullmaktsforespørsler')
  expect(refused.explanation.summary_en).toContain('delegation requests')
  expect(refused.limit).toBe(MAX_OPEN_REQUESTS)
  expect(await openRequests(a)).toBe(MAX_OPEN_REQUESTS)
}, 60_000)

test('at the cap, a retry for a principal that has its request, and a request for another organisation, still answer 201', async () => {
  const a = await agent(app, 'professional')
  const first = crypto.randomUUID()
  expect((await requestFullmakt(app, a, { agent_principal_id: first })).status).toBe(201)
  for (let i = 1; i < MAX_OPEN_REQUESTS; i++) expect((await requestFullmakt(app, a)).status).toBe(201)
  expect((await requestFullmakt(app, a)).status).toBe(409)
  expect((await requestFullmakt(app, a, { agent_principal_id: first })).status).toBe(201)
  expect((await requestFullmakt(app, a, { org_number: '996501205' })).status).toBe(201)
  expect(await openRequests(a)).toBe(MAX_OPEN_REQUESTS)
}, 60_000)

test('an answered request frees its place under the cap', async () => {
  const a = await agent(app, 'professional')
  const urls: string[] = []
  for (let i = 0; i < MAX_OPEN_REQUESTS; i++)
    urls.push((await (await requestFullmakt(app, a)).json()).data.delegation_url)
  await decide(app, urls[0]!, 'Rejected')
  expect((await requestFullmakt(app, a)).status).toBe(409)
  // each read asks ten others, the least recently asked first: ten reads ask every one once
  for (let i = 0; i < MAX_OPEN_REQUESTS / MAX_ASKED_PER_READ; i++)
    await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })
  expect((await requestFullmakt(app, a)).status).toBe(201)
}, 60_000)

test('a permissions read and a dry run each ask the agency about at most 10 pending requests, the least recently asked first', async () => {
  const a = await agent(app, 'professional')
  const urls: string[] = []
  for (let i = 0; i < 25; i++) urls.push((await (await requestFullmakt(app, a)).json()).data.delegation_url)
  for (const u of urls) await decide(app, u)
  const active = async () =>
    (
      await app.deps.sql<
        { n: number }[]
      >`select count(*)::int as n from delegations where consumer_id = ${a.consumerId} and status = 'active'`
    )[0]!.n
  await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })
  expect(await active()).toBe(MAX_ASKED_PER_READ)
  await app.send(
    'POST',
    '/api/v1/actions/execute?dry_run=true',
    {
      org_number: ORG,
      action_type: 'mva_melding',
      period: '2026-T6',
      payload: { total_revenue_nok: 1, output_vat_nok: 0 },
    },
    a.auth,
  )
  expect(await active()).toBe(2 * MAX_ASKED_PER_READ)
  await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })
  expect(await active()).toBe(25)
}, 60_000)
