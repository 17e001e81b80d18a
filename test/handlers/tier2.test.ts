import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mockEmployeeCount } from '../../src/upstream/labour-register/mock.ts'
import { addCredits } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { confirmedToken } from '../helpers.ts'
import { ORG, agent, delegatedAgent, type Agent } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

async function funded(a: Agent): Promise<Agent> {
  await addCredits(app, a.consumerId, 10_000)
  return a
}

async function context(a: Agent) {
  return (await (await app.get(`/api/v1/company/${ORG}/context`, { headers: a.auth })).json()).data
}

async function summary(a: Agent) {
  return (await (await app.get(`/api/v1/company/${ORG}/summary`, { headers: a.auth })).json()).data
}

test('without a delegation the context is Tier 1 with the upgrade path', async () => {
  const data = await context(await funded(await agent(app)))
  expect(data).toMatchObject({ data_tier: 'tier_1', tier_2: null })
  expect(data.upgrade_path).toContain('delegering')
})

test('with an active delegation the context carries employee count, turnover and balance-sheet total', async () => {
  const data = await context(await funded(await delegatedAgent(app)))
  expect(data.data_tier).toBe('tier_2')
  expect(data.upgrade_path).toBeNull()
  expect(data.tier_2.accounts_year).toBe(2024)
  expect(typeof data.tier_2.annual_turnover).toBe('number')
  expect(typeof data.tier_2.total_assets).toBe('number')
  // Read as the consumer's own system user; a failure there would leave it null.
  expect(data.tier_2.employee_count).toBe(mockEmployeeCount(ORG))
  expect(data.tier_2.sources.employee_count).toContain('Aa-registeret')
})

test('another consumer’s delegation does not lift the caller to Tier 2', async () => {
  await delegatedAgent(app)
  expect((await context(await funded(await agent(app)))).data_tier).toBe('tier_1')
})

test('asked at the same moment, each consumer gets its own tier: the batched delegation gate never mixes them up', async () => {
  const [delegated, plain] = await Promise.all([funded(await delegatedAgent(app)), funded(await agent(app))])
  const callers = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? delegated : plain))
  const tiers = await Promise.all(
    callers.map(async (a, i) => (i % 4 < 2 ? await summary(a) : await context(a)).data_tier),
  )
  expect(tiers).toEqual(callers.map((a) => (a === delegated ? 'tier_2' : 'tier_1')))
})

test('a delegation revoked a moment ago is seen by the next request', async () => {
  const a = await funded(await delegatedAgent(app))
  expect((await context(a)).data_tier).toBe('tier_2')
  await app.deps
    .sql`update agent_principals set state = 'revoked', revoked_at = now(), revoke_reason = 'test' where consumer_id = ${a.consumerId}`
  expect((await context(a)).data_tier).toBe('tier_1')
})

test('the tier_2 summary marks a period filed through Plikt as filed', async () => {
  const a = await funded(await delegatedAgent(app))
  const body = {
    org_number: ORG,
    action_type: 'mva_melding',
    period: '2026-T1',
    payload: { total_revenue_nok: 125000, output_vat_nok: 31250 },
  }
  const before = await summary(a)
  expect(before.data_tier).toBe('tier_2')
  expect(before.upgrade_path).toBeNull()
  const entry = (s: { deadlines: { obligation_id: string; period_label: string; filing_status: string }[] }) =>
    s.deadlines.find((d) => d.obligation_id === 'mva-termin' && d.period_label === '2026-T1')
  expect(entry(before)!.filing_status).toBe('upcoming')
  const token = await confirmedToken(app, a, body)
  const filed = await app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': crypto.randomUUID(),
    'x-approval-token': token,
  })
  expect(filed.status).toBe(200)
  expect(entry(await summary(a))!.filing_status).toBe('filed')
})

test('a Tier 1 summary never shows filed', async () => {
  const s = await summary(await funded(await agent(app)))
  expect(s.data_tier).toBe('tier_1')
  expect(s.deadlines.every((d: { filing_status: string }) => d.filing_status !== 'filed')).toBe(true)
})

test('one consumer sees one truth: with a delegation, obligations and deadlines are Tier 2 too, with the summary’s verdicts', async () => {
  const a = await funded(await delegatedAgent(app))
  const s = await summary(a)
  const obligations = (await (await app.get(`/api/v1/company/${ORG}/obligations`, { headers: a.auth })).json()).data
  const deadlines = (await (await app.get(`/api/v1/company/${ORG}/deadlines`, { headers: a.auth })).json()).data
  expect([s.data_tier, obligations.data_tier, deadlines.data_tier]).toEqual(['tier_2', 'tier_2', 'tier_2'])
  const verdicts = (list: { rule_id: string; evaluation_result: string }[]) =>
    Object.fromEntries(list.map((o) => [o.rule_id, o.evaluation_result]))
  expect(Object.keys(verdicts(s.obligations)).length).toBeGreaterThan(5)
  expect(verdicts(obligations.obligations)).toEqual(verdicts(s.obligations))
  expect(deadlines.deadlines.map((d: { obligation_id: string }) => d.obligation_id)).toEqual(
    s.deadlines.map((d: { obligation_id: string }) => d.obligation_id),
  )
})

test('without a delegation obligations and deadlines stay Tier 1', async () => {
  const a = await funded(await agent(app))
  const obligations = (await (await app.get(`/api/v1/company/${ORG}/obligations`, { headers: a.auth })).json()).data
  const deadlines = (await (await app.get(`/api/v1/company/${ORG}/deadlines`, { headers: a.auth })).json()).data
  expect([obligations.data_tier, deadlines.data_tier]).toEqual(['tier_1', 'tier_1'])
})
