/**
 * At least once across a crash: a real child process sweeps deliveries to a real receiver and is
 * killed with SIGKILL mid-sweep — some attempts sent and unrecorded, some claimed and unsent. A new
 * process started after the lease has run out delivers every one of them: none is lost, and a
 * re-sent change carries a higher attempt_number.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSubscription } from '../../src/domain/webhooks/subscriptions.ts'
import { LEASE_MS } from '../../src/domain/webhooks/sweep.ts'
import { serverKeys } from '../../src/lib/server-secret.ts'
import { appendChanges } from '../../src/store/changes.ts'
import { openEmbedded, openPostgres, type Database, type Sql } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import { liveWebhookTransport } from '../../src/upstream/webhooks/live.ts'
import { onPostgres, SERVER_SECRET } from '../helpers.ts'
import { startReceiver } from '../helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'plikt-webhook-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const open = (): Promise<Database> => (onPostgres ? openPostgres(process.env.DATABASE_URL!, 2) : openEmbedded(dir))
const N = 300

async function spawnChild(offsetMs: number) {
  const env = {
    ...process.env,
    SERVER_SECRET,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    CLOCK_OFFSET_MS: String(offsetMs),
    ...(onPostgres ? {} : { DATABASE_URL: '', DATA_DIR: dir }),
  }
  const child = Bun.spawn(['bun', 'test/support/webhook-child.ts'], { env, stdout: 'pipe', stderr: 'inherit' })
  const reader = child.stdout.getReader()
  let text = ''
  while (!text.includes('ready')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`child exited: ${text}`)
    text += new TextDecoder().decode(value)
  }
  return child
}

async function until(what: string, ok: () => boolean) {
  for (let i = 0; i < 3000 && !ok(); i++) await Bun.sleep(10)
  if (!ok()) throw new Error(`gave up waiting for ${what}`)
}

test('a sweeper killed with SIGKILL mid-sweep loses nothing: after a restart every delivery arrives', async () => {
  const receiver = await startReceiver()
  // slow answers, so that a batch is in flight (sent, not yet recorded) when the kill comes
  receiver.answer = () => ({ status: 200, delayMs: 150 })
  let subscriptionId: string
  const db = await open()
  try {
    await migrate(db.sql, await loadMigrations())
    const [c] = await db.sql<
      { id: string }[]
    >`insert into consumers (email, tier) values (${`kill-${crypto.randomUUID()}@example.no`}, 'professional') returning id`
    const env = {
      sql: db.sql,
      transport: liveWebhookTransport(),
      policy: { allowLoopback: true },
      secretKey: serverKeys(SERVER_SECRET).webhookSecrets,
    }
    const sub = await createSubscription(env, c!.id, { webhook_url: `${receiver.url}/kill` }, new Date())
    subscriptionId = sub.id
    receiver.secrets.set(sub.id, sub.secret)
    const now = new Date()
    const changes = Array.from({ length: N }, (_, i) => ({
      source: 'register',
      entity_type: 'annual_accounts',
      entity_id: String(700_000_000 + i),
      change_type: 'updated',
      field_path: '/last_accounts_year',
      before_value: 2024,
      after_value: 2025,
      diff: [{ op: 'replace', path: '/last_accounts_year', value: 2025 }],
      detected_at: now,
      source_snapshot_id: null,
      event_type: 'accounts.updated',
    }))
    await db.sql.begin((tx) => appendChanges(tx as unknown as Sql, changes, now))
  } finally {
    await db.close()
  }
  const mine = () => receiver.arrivals.filter((a) => a.json?.subscription_id === subscriptionId)
  const distinct = () => new Set(mine().map((a) => a.json.change.id)).size

  const first = await spawnChild(0)
  await until('the first batches to arrive', () => mine().length >= 75)
  first.kill('SIGKILL')
  await first.exited
  expect(distinct()).toBeLessThan(N)

  // restarted after the leases of the killed process have run out
  const second = await spawnChild(LEASE_MS + 5_000)
  await until('every change to arrive', () => distinct() === N)
  second.kill('SIGTERM')
  await second.exited
  await receiver.stop()

  expect(mine().every((a) => a.verified)).toBe(true)
  const check = await open()
  try {
    const states = await check.sql<{ status: string; n: number; max_attempts: number }[]>`
      select status, count(*)::int as n, max(attempts)::int as max_attempts from webhook_deliveries where subscription_id = ${subscriptionId!} group by status`
    expect(states.map((s) => [s.status, s.n])).toEqual([['delivered', N]])
    // what the kill cut off was sent again, as a later attempt
    expect(states[0]!.max_attempts).toBeGreaterThanOrEqual(2)
    const resent = mine().filter((a) => a.json.attempt_number >= 2)
    expect(resent.length).toBeGreaterThan(0)
  } finally {
    await check.close()
  }
}, 120_000)
