import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runExpirySweep } from '../../jobs/expiry-sweep.ts'
import { HOLD_TIMEOUT_MS } from '../../src/domain/billing/metering.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openEmbedded, openPostgres, type Database } from '../../src/store/db.ts'
import { readBalance, ledgerSum } from '../../src/store/credits.ts'
import { admin, bearer } from '../helpers.ts'
import { ADMIN_TOKEN, onPostgres } from '../helpers.ts'

// A process killed with SIGKILL in the middle of a metered call: the charge was taken, the work
// never finished. After the hold times out, the sweep must give the money back — once.
const dir = mkdtempSync(join(tmpdir(), 'plikt-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a metered call cut off by SIGKILL is refunded by the expiry sweep, exactly once', async () => {
  const env = { ...process.env, ADMIN_TOKEN, ...(onPostgres ? {} : { DATABASE_URL: '', DATA_DIR: dir }) }
  const child = Bun.spawn(['bun', 'test/support/metered-child.ts'], { env, stdout: 'pipe', stderr: 'inherit' })
  let text = ''
  const reader = child.stdout.getReader()
  while (!/ready \d+/.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`child exited: ${text}`)
    text += new TextDecoder().decode(value)
  }
  const base = `http://127.0.0.1:${/ready (\d+)/.exec(text)![1]}`
  const json = { ...admin, 'content-type': 'application/json' }
  const consumer = (
    await (
      await fetch(`${base}/api/v1/admin/consumers`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: `kill-${crypto.randomUUID()}@example.no`, tier: 'enterprise' }),
      })
    ).json()
  ).data.consumer_id
  await fetch(`${base}/api/v1/admin/credits`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ consumer_id: consumer, amount_ore: 1000, reason: 'kill test' }),
  })
  const key = (
    await (
      await fetch(`${base}/api/v1/admin/keys`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ consumer_id: consumer }),
      })
    ).json()
  ).data.plaintext_key

  const inFlight = fetch(`${base}/api/v1/test/metered?outcome=slow`, { headers: bearer(key) }).catch((e) => e)
  // Wait until the charge is taken (visible through the balance route), then kill.
  for (let i = 0; i < 200; i++) {
    const b = await (await fetch(`${base}/api/v1/account/credits/balance`, { headers: bearer(key) })).json()
    if (b.data.balance_ore === 950) break
    await Bun.sleep(10)
  }
  child.kill('SIGKILL')
  await child.exited
  expect(await inFlight).toBeInstanceOf(Error)

  const db: Database = onPostgres ? await openPostgres(process.env.DATABASE_URL!, 2) : await openEmbedded(dir)
  try {
    expect((await readBalance(db.sql, consumer)).balance_ore).toBe(950)
    const later = fixedClock(new Date(Date.now() + HOLD_TIMEOUT_MS + 60_000).toISOString())
    const swept = await runExpirySweep({ sql: db.sql, clock: later, logger: createLogger('error') })
    expect(swept.refunded_holds).toBeGreaterThanOrEqual(1)
    await runExpirySweep({ sql: db.sql, clock: later, logger: createLogger('error') })
    expect((await readBalance(db.sql, consumer)).balance_ore).toBe(1000)
    expect(await ledgerSum(db.sql, consumer)).toBe(1000)
    const kinds = (await db.sql`select kind from credit_ledger where consumer_id = ${consumer} order by id`).map(
      (r) => r.kind,
    )
    expect(kinds).toEqual(['admin_credit', 'debit', 'refund'])
  } finally {
    await db.close()
  }
}, 60_000)
