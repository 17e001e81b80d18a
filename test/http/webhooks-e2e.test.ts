/**
 * The "done means", over real HTTP on a database of its own: a subscriber's local receiver,
 * a filing recorded in the fixture register through its control API, the operator running the
 * diff, one signed delivery that the README's verification snippet accepts, the change in the
 * archive, and the day's anchor proving the register's answer behind it with the published recipe.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { addCredits, admin } from '../helpers.ts'
import { PINNED_NOW, scratchDatabase, type TestApp } from '../helpers.ts'
import { importDocSnippet } from '../helpers.ts'
import { startReceiver, type Receiver } from '../helpers.ts'
import { retireSubscribers, subscribe, subscriber, webhookApp } from '../helpers.ts'

const POSTEN = '984661185'
let db: Database
let app: TestApp
let receiver: Receiver

beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  app = await webhookApp({ db })
  receiver = await startReceiver({ now: () => Math.floor(app.clock.now().getTime() / 1000) })
}, 30_000)
afterAll(async () => {
  await retireSubscribers(app)
  await receiver.stop()
  await app.stop()
  await db.close()
})

const runJob = async (name: string) =>
  ((await (await app.send('POST', `/api/v1/admin/jobs/${name}/run`, undefined, admin)).json()) as any).data

test('a filing in the fixture register reaches the subscriber as one signed delivery, and its source is provable from the day’s anchor', async () => {
  const { verifyWebhook } = await importDocSnippet<{
    verifyWebhook: (body: string, header: string, secret: string, now?: number) => boolean
  }>('README.md', '## Changes, webhooks and anchors')
  const { verifyInclusion } = await importDocSnippet<{ verifyInclusion: (proof: unknown, root: string) => boolean }>(
    'docs/anchor-proof.md',
  )

  const s = await subscriber(app)
  await addCredits(app, s.consumerId, 1000)
  const sub = await subscribe(s, `${receiver.url}/hook`)
  expect((await s.send('GET', `/api/v1/company/${POSTEN}/accounts`)).body.data.last_accounts_year).toBe(2024)
  expect((await runJob('accounts-diff')).result).toMatchObject({ baselined: 1, changes: 0 })

  const filed = await fetch(`${app.fixtures.businessRegisterUrl}/__control/accounts/${POSTEN}`, {
    method: 'POST',
    body: JSON.stringify({ year: 2025 }),
  })
  expect(filed.status).toBe(201)
  app.clock.advance(60_000) // a minute later: an operator's run claims a tick at the instant asked for
  expect((await runJob('accounts-diff')).result).toMatchObject({ changed: 1, changes: 1, deliveries: 1 })
  expect((await runJob('webhook-deliveries')).result).toMatchObject({ delivered: 1 })

  expect(receiver.arrivals).toHaveLength(1)
  const got = receiver.arrivals[0]!
  const now = Math.floor(app.clock.now().getTime() / 1000)
  expect(verifyWebhook(got.body, got.headers['x-service-signature']!, sub.secret, now)).toBe(true)
  expect(verifyWebhook(got.body.replace('2025', '2026'), got.headers['x-service-signature']!, sub.secret, now)).toBe(
    false,
  )
  expect(verifyWebhook(got.body, got.headers['x-service-signature']!, sub.secret, now + 301)).toBe(false)
  const change = got.json.change
  expect(change).toMatchObject({
    entity_id: POSTEN,
    field_path: '/last_accounts_year',
    before_value: 2024,
    after_value: 2025,
  })

  const archived = await s.send('GET', `/api/v1/changes?entity_id=${POSTEN}&entity_type=annual_accounts`)
  expect(archived.body.data.changes).toEqual([change])

  app.clock.set('2026-03-15T00:10:00.000Z')
  const anchored = (await runJob('anchor')).result
  expect(anchored.anchored.map((a: { day: string }) => a.day)).toContain(PINNED_NOW.slice(0, 10))
  const anchors = ((await (await app.get('/api/v1/public/anchors')).json()) as any).data.anchors
  const root = anchors.find((a: { day: string }) => a.day === PINNED_NOW.slice(0, 10)).root
  const proof = ((await (await app.get(`/api/v1/public/anchors/proofs/${change.source_snapshot_id}`)).json()) as any)
    .data
  expect(proof.snapshot_id).toBe(change.source_snapshot_id)
  expect(verifyInclusion(proof, root)).toBe(true)
})
