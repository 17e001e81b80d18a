import { afterAll, beforeAll, expect, test } from 'bun:test'
import { runDelegationRefresh } from '../../jobs/delegation-refresh.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { agent, decide, requestFullmakt } from '../http/routes/v1/delegation-helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const jobDeps = () => ({ sql: app.deps.sql, clock: app.clock, logger: app.deps.logger, register: app.deps.register, digitalAgency: app.deps.digitalAgency, serverKeys: app.deps.serverKeys })

test('an approval nobody has read yet is recorded by the refresh, with its active receipt', async () => {
  const a = await agent(app)
  const { data } = await (await requestFullmakt(app, a)).json()
  const decided = await decide(app, data.delegation_url)
  const outcome = await runDelegationRefresh(jobDeps())
  expect(outcome.changed).toBeGreaterThanOrEqual(1)
  const [row] = await app.deps.sql<{ status: string; system_user_id: string }[]>`select status, system_user_id from delegations where id = ${data.delegation_id}`
  expect(row).toEqual({ status: 'active', system_user_id: decided.system_user_id! })
  const receipts = await app.deps.sql`select receipt->>'delegation_status' as s from delegation_receipts where delegation_id = ${data.delegation_id} order by issued_at`
  expect(receipts.map((r) => r.s).sort()).toEqual(['active', 'pending'])
})

test('a rejection is recorded as rejected; an undecided request stays pending', async () => {
  const a = await agent(app)
  const rejected = (await (await requestFullmakt(app, a)).json()).data
  const undecided = (await (await requestFullmakt(app, await agent(app))).json()).data
  await decide(app, rejected.delegation_url, 'Rejected')
  await runDelegationRefresh(jobDeps())
  const rows = await app.deps.sql<{ id: string; status: string }[]>`select id, status from delegations where id in (${rejected.delegation_id}, ${undecided.delegation_id})`
  expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [rejected.delegation_id]: 'rejected', [undecided.delegation_id]: 'pending' })
})

test('a second run changes nothing and signs no second receipt', async () => {
  const a = await agent(app)
  const { data } = await (await requestFullmakt(app, a)).json()
  await decide(app, data.delegation_url)
  await runDelegationRefresh(jobDeps())
  await runDelegationRefresh(jobDeps())
  const receipts = await app.deps.sql`select id from delegation_receipts where delegation_id = ${data.delegation_id}`
  expect(receipts).toHaveLength(2)
})
