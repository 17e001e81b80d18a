/**
 * The delegation refresh on a database of its own: which pending requests a sweep asks about
 * depends on every pending request there is, so no other test file's requests take part.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { runDelegationRefresh } from '../../jobs/delegation-refresh.ts'
import { QUEUE_JOBS } from '../../jobs/runner.ts'
import { ASK_CADENCE, SWEEP_BATCH } from '../../src/domain/delegation/refresh.ts'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { PINNED_NOW, scratchDatabase, startApp, type TestApp } from '../helpers.ts'
import { agent, decide, requestFullmakt } from '../helpers.ts'

let db: Database
let app: TestApp
beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  app = await startApp({ db })
}, 60_000)
afterAll(async () => {
  await app.stop()
  await db.close()
})

const jobDeps = () => ({
  sql: app.deps.sql,
  clock: app.clock,
  logger: app.deps.logger,
  register: app.deps.register,
  digitalAgency: app.deps.digitalAgency,
  serverKeys: app.deps.serverKeys,
})

test('an approval nobody has read yet is recorded by the refresh, with its active receipt', async () => {
  const a = await agent(app)
  const { data } = await (await requestFullmakt(app, a)).json()
  const decided = await decide(app, data.delegation_url)
  const outcome = await runDelegationRefresh(jobDeps())
  expect(outcome.changed).toBeGreaterThanOrEqual(1)
  const [row] = await app.deps.sql<
    { status: string; system_user_id: string }[]
  >`select status, system_user_id from delegations where id = ${data.delegation_id}`
  expect(row).toEqual({ status: 'active', system_user_id: decided.system_user_id! })
  const receipts = await app.deps
    .sql`select receipt->>'delegation_status' as s from delegation_receipts where delegation_id = ${data.delegation_id} order by issued_at`
  expect(receipts.map((r) => r.s).sort()).toEqual(['active', 'pending'])
})

test('a rejection is recorded as rejected; an undecided request stays pending', async () => {
  const a = await agent(app)
  const rejected = (await (await requestFullmakt(app, a)).json()).data
  const undecided = (await (await requestFullmakt(app, await agent(app))).json()).data
  await decide(app, rejected.delegation_url, 'Rejected')
  await runDelegationRefresh(jobDeps())
  const rows = await app.deps.sql<
    { id: string; status: string }[]
  >`select id, status from delegations where id in (${rejected.delegation_id}, ${undecided.delegation_id})`
  expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
    [rejected.delegation_id]: 'rejected',
    [undecided.delegation_id]: 'pending',
  })
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

async function askedAt(id: string): Promise<Date | null> {
  const [row] = await app.deps.sql<
    { asked_at: Date }[]
  >`select asked_at from delegation_asks where delegation_id = ${id}`
  return row?.asked_at ?? null
}

test('the refresh is a queue job every 5 seconds', () => {
  expect(QUEUE_JOBS['delegation-refresh']!.everySeconds).toBe(5)
})

test('one account’s many unanswered requests do not keep another account’s approval unrecorded: a sweep goes round the accounts', async () => {
  const busy = await agent(app, 'professional')
  for (let i = 0; i < SWEEP_BATCH + 10; i++) expect((await requestFullmakt(app, busy)).status).toBe(201)
  app.clock.advance(1_000)
  const other = await agent(app)
  const { data } = await (await requestFullmakt(app, other)).json()
  await decide(app, data.delegation_url)
  const outcome = await runDelegationRefresh(jobDeps())
  expect(outcome.asked).toBe(SWEEP_BATCH)
  const [row] = await app.deps.sql<
    { status: string }[]
  >`select status from delegations where id = ${data.delegation_id}`
  expect(row!.status).toBe('active')
  // the busy account's rest are asked in the next sweep, before any is asked a second time
  const next = await runDelegationRefresh(jobDeps())
  expect(next.asked).toBeGreaterThanOrEqual(11)
  const never = await app.deps
    .sql`select d.id from delegations d left join delegation_asks a on a.delegation_id = d.id where d.consumer_id = ${busy.consumerId} and a.delegation_id is null`
  expect(never).toHaveLength(0)
  app.clock.set(PINNED_NOW)
}, 60_000)

test('a young request is asked about again after 5 seconds, not before; one older than 15 minutes after a minute', async () => {
  app.clock.advance(3_600_000)
  try {
    const { data } = await (await requestFullmakt(app, await agent(app))).json()
    await runDelegationRefresh(jobDeps())
    const first = await askedAt(data.delegation_id)
    expect(first).toEqual(app.clock.now())
    app.clock.advance(3_000)
    await runDelegationRefresh(jobDeps())
    expect(await askedAt(data.delegation_id)).toEqual(first)
    app.clock.advance(2_000)
    await runDelegationRefresh(jobDeps())
    expect(await askedAt(data.delegation_id)).toEqual(app.clock.now())
    app.clock.advance(ASK_CADENCE.youngMs)
    await runDelegationRefresh(jobDeps())
    const old = await askedAt(data.delegation_id)
    expect(old).toEqual(app.clock.now())
    app.clock.advance(30_000)
    await runDelegationRefresh(jobDeps())
    expect(await askedAt(data.delegation_id)).toEqual(old)
    app.clock.advance(30_000)
    await runDelegationRefresh(jobDeps())
    expect(await askedAt(data.delegation_id)).toEqual(app.clock.now())
  } finally {
    app.clock.set(PINNED_NOW)
  }
}, 30_000)

test('sweeps running at once on two instances ask about each request once', async () => {
  app.clock.advance(7_200_000)
  try {
    const a = await agent(app, 'professional')
    for (let i = 0; i < 12; i++) await requestFullmakt(app, a)
    const due = await app.deps.sql`select id from delegations where status = 'pending'`
    const [one, two] = await Promise.all([runDelegationRefresh(jobDeps()), runDelegationRefresh(jobDeps())])
    // every grant a sweep asked about is one row asked at this instant: none was asked twice
    const asked = await app.deps.sql`select delegation_id from delegation_asks where asked_at = ${app.clock.now()}`
    expect(one.asked + two.asked).toBe(asked.length)
    expect(asked.length).toBeGreaterThanOrEqual(Math.min(due.length, SWEEP_BATCH))
  } finally {
    app.clock.set(PINNED_NOW)
  }
}, 30_000)
