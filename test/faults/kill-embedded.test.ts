/**
 * `kill -9` of the service on the embedded database in the middle of metered writes, then a new
 * start on the same DATA_DIR: the database opens, the instance is ready, and once the held charges
 * of the killed calls are swept every balance equals its ledger and the audit log is intact.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runExpirySweep } from '../../jobs/expiry-sweep.ts'
import { HOLD_TIMEOUT_MS } from '../../src/domain/billing/metering.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { openEmbedded } from '../../src/store/db.ts'
import { ledgerSum, readBalance } from '../../src/store/credits.ts'
import { listeningAddress } from '../helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'plikt-kill9-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * These start processes of their own on an embedded database whatever DATABASE_URL says, so they run
 * once per suite: in the embedded run (on PostgreSQL they would repeat it exactly).
 */
const embeddedRun = test.skipIf(Boolean(process.env.DATABASE_URL))

const ADMIN = 'kill9-test-admin-token-0123456789abcdef0123'
const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }

function start() {
  const { DATABASE_URL: _pg, BASE_URL: _base, ...env } = process.env
  return Bun.spawn(['bun', 'src/main.ts'], {
    env: { ...env, PORT: '0', DATA_DIR: dir, ADMIN_TOKEN: ADMIN, UPSTREAM_MODE: 'fixtures', TRUST_PROXY: 'true' },
    stdout: 'ignore',
    stderr: 'pipe',
  })
}

embeddedRun(
  'kill -9 during metered writes: the database opens again, and balances equal ledgers once the held charges are swept',
  async () => {
    const first = start()
    const { url } = await listeningAddress(first.stderr)
    const consumers: { id: string; key: string }[] = []
    for (let i = 0; i < 3; i++) {
      const id = (
        await (
          await fetch(`${url}/api/v1/admin/consumers`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ email: `kill9-${i}@example.no`, tier: 'enterprise' }),
          })
        ).json()
      ).data.consumer_id
      await fetch(`${url}/api/v1/admin/credits`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ consumer_id: id, amount_ore: 100_000, reason: 'kill -9 test' }),
      })
      const key = (
        await (
          await fetch(`${url}/api/v1/admin/keys`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ consumer_id: id }),
          })
        ).json()
      ).data.plaintext_key
      consumers.push({ id, key })
    }
    const orgs = ['984661185', '923609016', '996501205', '993718807', '915241700']
    let answered = 0
    const calls = Array.from({ length: 300 }, (_, i) =>
      fetch(`${url}/api/v1/company/${orgs[i % orgs.length]}/summary`, {
        headers: { authorization: `Bearer ${consumers[i % 3]!.key}`, 'x-forwarded-for': `10.44.${i >> 8}.${i & 255}` },
      })
        .then((r) => {
          if (r.status === 200) answered++
          return r.status
        })
        .catch(() => 'cut'),
    )
    // Some calls have finished, others are in flight: then the process dies without a word.
    const all = Promise.all(calls)
    let done = false
    void all.then(() => (done = true))
    while (answered < 20 && !done) await Bun.sleep(5)
    first.kill('SIGKILL')
    await first.exited
    const outcomes = await Promise.all(calls)
    expect(outcomes.filter((o) => o === 200).length).toBeGreaterThan(0)

    const db = await openEmbedded(dir)
    try {
      const later = fixedClock(new Date(Date.now() + HOLD_TIMEOUT_MS + 60_000).toISOString())
      await runExpirySweep({ sql: db.sql, clock: later, logger: createLogger('error') })
      for (const c of consumers) {
        const balance = (await readBalance(db.sql, c.id)).balance_ore
        expect([c.id, balance]).toEqual([c.id, await ledgerSum(db.sql, c.id)])
        expect(balance).toBeLessThanOrEqual(100_000)
      }
      const [holds] = await db.sql<{ n: number }[]>`select count(*)::int as n from charge_holds`
      expect(holds!.n).toBe(0)
      const audit = await db.sql<{ n: number }[]>`select count(*)::int as n from audit_log`
      expect(audit[0]!.n).toBeGreaterThan(0)
      await expect(db.sql`delete from audit_log`).rejects.toThrow()
    } finally {
      await db.close()
    }

    const second = start()
    try {
      const { url: again } = await listeningAddress(second.stderr)
      expect((await fetch(`${again}/api/health/ready`)).status).toBe(200)
    } finally {
      second.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  },
  120_000,
)
