/**
 * A filing attempt killed in the middle: a real child process takes the conflict lock, asks the
 * tax authority (which holds the answer), and is killed with SIGKILL. Nothing was filed; the lock
 * the dead attempt left blocks the period until it expires; then another account's attempt takes
 * it over — and, being that attempt's own, gives it back when the tax authority rejects the return,
 * so the account's next attempt files at once.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFixtureServers } from '../../fixtures/servers/index.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { openEmbedded, type Database } from '../../src/store/db.ts'
import { admin, bearer } from '../helpers.ts'
import {
  ADMIN_TOKEN,
  liveGovernmentEnv,
  onPostgres,
  PINNED_NOW,
  SERVER_SECRET,
  startApp,
  testDatabase,
} from '../helpers.ts'
import { MVA } from '../helpers.ts'
import { decideOverHttp } from '../helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'plikt-lock-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Registered in test/handlers/delegation-helpers.ts' list: this pair is this file's. */
const ORG = '923609016'
const PERIOD = '2026-T2'
const BODY = {
  org_number: ORG,
  action_type: 'mva_melding',
  period: PERIOD,
  payload: { total_revenue_nok: 125000, output_vat_nok: 31250 },
}

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' })

/** Request, approve at the Altinn fixture, see it active, dry-run and mint a token: a key ready to file. */
async function readyToFile(
  base: string,
  filingPortalUrl: string,
  key: string,
  email: string,
  body: Record<string, unknown> = BODY,
): Promise<string> {
  const req = await (
    await fetch(`${base}/api/v1/fullmakt/request`, {
      method: 'POST',
      headers: json(bearer(key)),
      body: JSON.stringify({ agent_principal_id: crypto.randomUUID(), org_number: ORG, scopes: [MVA] }),
    })
  ).json()
  const state = await (await fetch(`${filingPortalUrl}/__control/state`)).json()
  const request = state.requests.find((r: { externalRef: string }) => r.externalRef === req.data.delegation_id)
  await fetch(`${filingPortalUrl}/__control/systemuser-requests/${request.id}`, {
    method: 'POST',
    headers: json({}),
    body: JSON.stringify({ status: 'Accepted' }),
  })
  expect(
    (await (await fetch(`${base}/api/v1/auth/permissions/${ORG}`, { headers: bearer(key) })).json()).data.active_scopes,
  ).toContain(MVA)
  return tokenFor(base, key, email, body)
}

async function tokenFor(base: string, key: string, email: string, body: Record<string, unknown>): Promise<string> {
  const dry = await (
    await fetch(`${base}/api/v1/actions/execute?dry_run=true`, {
      method: 'POST',
      headers: json(bearer(key)),
      body: JSON.stringify(body),
    })
  ).json()
  expect(dry.data.validation.all_passed).toBe(true)
  const minted = await (
    await fetch(`${base}/api/v1/auth/approval-token`, {
      method: 'POST',
      headers: json(bearer(key)),
      body: JSON.stringify({ ...body, action_id: dry.data.action_id }),
    })
  ).json()
  // The account's owner confirms it on its page.
  expect((await decideOverHttp(base, ADMIN_TOKEN, email, minted.data.confirmation_url)).status).toBe(200)
  return minted.data.approval_token
}

/** base × rate is not the line's VAT (R019): the tax authority rejects it */
const REJECTED = { ...BODY, payload: { total_revenue_nok: 125000, output_vat_nok: 99999 } }

const file = (base: string, key: string, token: string, body: Record<string, unknown> = BODY) =>
  fetch(`${base}/api/v1/actions/execute`, {
    method: 'POST',
    headers: json({ ...bearer(key), 'idempotency-key': crypto.randomUUID(), 'x-approval-token': token }),
    body: JSON.stringify(body),
  })

test('a filing killed while the tax authority validates leaves its lock until it expires; an attempt that takes it over and is rejected gives it back, and the next files', async () => {
  // On PostgreSQL the run's database, prepared (its old locks cleared) before the child takes one.
  const shared = onPostgres ? await testDatabase() : null
  const pinned = new Date(PINNED_NOW)
  const fixtures = await startFixtureServers({ now: () => pinned.getTime() })
  const env = {
    ...process.env,
    ADMIN_TOKEN,
    SERVER_SECRET,
    CLOCK_AT: PINNED_NOW,
    UPSTREAM_MODE: 'fixtures',
    BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
    CENTRAL_BANK_URL: fixtures.centralBankUrl,
    ...liveGovernmentEnv(fixtures),
    ...(onPostgres ? {} : { DATABASE_URL: '', DATA_DIR: dir }),
  }
  const child = Bun.spawn(['bun', 'test/support/execute-child.ts'], { env, stdout: 'pipe', stderr: 'inherit' })
  let db: Database | null = null
  try {
    let text = ''
    const reader = child.stdout.getReader()
    while (!/ready \d+/.test(text)) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`child exited: ${text}`)
      text += new TextDecoder().decode(value)
    }
    const base = `http://127.0.0.1:${/ready (\d+)/.exec(text)![1]}`
    const email = `lock-kill-${crypto.randomUUID()}@example.no`
    const consumer = (
      await (
        await fetch(`${base}/api/v1/admin/consumers`, {
          method: 'POST',
          headers: json(admin),
          body: JSON.stringify({ email, tier: 'professional' }),
        })
      ).json()
    ).data.consumer_id
    const key = (
      await (
        await fetch(`${base}/api/v1/admin/keys`, {
          method: 'POST',
          headers: json(admin),
          body: JSON.stringify({ consumer_id: consumer }),
        })
      ).json()
    ).data.plaintext_key
    const token = await readyToFile(base, fixtures.filingPortalUrl, key, email)

    // The tax authority holds its answer: the attempt has its lock and waits there when killed.
    await fetch(`${fixtures.taxAuthorityUrl}/__control/faults`, {
      method: 'POST',
      headers: json({}),
      body: JSON.stringify({ match: '/valider', mode: 'timeout' }),
    })
    const inFlight = file(base, key, token).catch((e) => e)
    for (let i = 0; i < 500; i++) {
      const seen = await (await fetch(`${fixtures.taxAuthorityUrl}/__control/requests`)).json()
      if (seen.length > 0) break
      await Bun.sleep(10)
    }
    child.kill('SIGKILL')
    await child.exited
    expect(await inFlight).toBeInstanceOf(Error)
    await fetch(`${fixtures.taxAuthorityUrl}/__control/faults`, { method: 'DELETE' })

    db = shared ?? (await openEmbedded(dir))
    const [left] = await db.sql<
      { holder: string; attempt_id: string; expires_at: Date }[]
    >`select holder, attempt_id, expires_at from action_locks where org_number = ${ORG} and kind = 'mva_melding' and period = ${PERIOD}`
    expect(left).toBeDefined()
    const state = await (await fetch(`${fixtures.filingPortalUrl}/__control/state`)).json()
    expect(state.instances).toHaveLength(0)

    // Another account, on a new instance, before and after the dead attempt's lock expires.
    const clock = fixedClock(new Date(left!.expires_at.getTime() - 1_000).toISOString())
    const app = await startApp({ db, government: 'live', clock })
    try {
      const otherEmail = `lock-kill-b-${crypto.randomUUID()}@example.no`
      const other = (
        await (
          await app.send('POST', '/api/v1/admin/consumers', { email: otherEmail, tier: 'professional' }, admin)
        ).json()
      ).data.consumer_id
      const otherKey = (await (await app.send('POST', '/api/v1/admin/keys', { consumer_id: other }, admin)).json()).data
        .plaintext_key
      const otherToken = await readyToFile(app.url, app.fixtures.filingPortalUrl, otherKey, otherEmail)
      const rejectedToken = await tokenFor(app.url, otherKey, otherEmail, REJECTED)
      const early = await file(app.url, otherKey, otherToken)
      expect(early.status).toBe(409)
      expect((await early.json()).error_code).toBe('EXECUTION_CONFLICT')
      clock.advance(2_000)
      const refused = await file(app.url, otherKey, rejectedToken, REJECTED)
      expect(refused.status).toBe(422)
      expect((await refused.json()).error_code).toBe('GOVERNMENT_VALIDATION_REJECTED')
      const taken = await file(app.url, otherKey, otherToken)
      expect(taken.status).toBe(200)
      const [now] = await db.sql<
        { holder: string; attempt_id: string }[]
      >`select holder, attempt_id from action_locks where org_number = ${ORG} and kind = 'mva_melding' and period = ${PERIOD}`
      expect(now!.attempt_id).not.toBe(left!.attempt_id)
      expect(now!.holder).not.toBe(left!.holder)
      // (on PostgreSQL the database outlives a run: only this run's two accounts are looked at)
      const filed =
        await db.sql`select consumer_id from filings where org_number = ${ORG} and period = ${PERIOD} and consumer_id in (${consumer}, ${other})`
      expect(filed.map((f) => f.consumer_id)).toEqual([other])
    } finally {
      await app.stop()
    }
  } finally {
    if (child.exitCode === null && !child.killed) child.kill('SIGKILL')
    await fixtures.stop()
    if (db && !onPostgres) await db.close()
  }
}, 90_000)
