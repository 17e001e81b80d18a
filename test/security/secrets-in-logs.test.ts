/**
 * Secrets never leak into logs: the real service at its most verbose (LOG_LEVEL=debug), driven
 * through a representative day — keys minted and used and refused, a sign-up mail, a delegation
 * approved in the mock agency's page, an approval token, a live filing and its receipt key, an
 * acting-capacity lookup with a fødselsnummer, MCP calls — and every line it wrote is scanned for
 * the secrets it handled and for anything shaped like a key, token, secret or fnr.
 */
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isIdentityNumber } from '../../src/lib/fnr'
import { accountOn, listeningAddress } from '../helpers.ts'
import { decideOverHttp } from '../helpers.ts'

const ADMIN = 'secrets-scan-admin-token-0123456789abcdef01'
const SECRET = 'secrets-scan-server-secret-0123456789abcdef0123'
const FNR = '12046823441'
const ORG = '984661185'

test('a representative run writes no key, token, secret or fnr to its logs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plikt-secrets-'))
  const { DATABASE_URL: _pg, BASE_URL: _base, ...env } = process.env
  const proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: {
      ...env,
      PORT: '0',
      DATA_DIR: dir,
      ADMIN_TOKEN: ADMIN,
      SERVER_SECRET: SECRET,
      UPSTREAM_MODE: 'fixtures',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'true',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const stdout = new Response(proc.stdout).text()
  const { url, banner, rest: stderr } = await listeningAddress(proc.stderr)
  const handled: string[] = [ADMIN, SECRET, FNR]
  try {
    const { key } = await accountOn(url, ADMIN, {
      email: 'scan@example.no',
      tier: 'starter',
      amountOre: 5000,
      reason: 'scan',
    })
    handled.push(key)
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    await fetch(`${url}/api/v1/company/${ORG}/summary`, { headers: auth })
    await fetch(`${url}/api/v1/company/${ORG}/summary`, {
      headers: { authorization: `Bearer ${key.slice(0, -4)}abcd` },
    })
    await fetch(`${url}/api/v1/account/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'new@example.no', company_name: 'Ny AS', consent: true }),
    })

    const requested = (
      await (
        await fetch(`${url}/api/v1/fullmakt/request`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            agent_principal_id: crypto.randomUUID(),
            org_number: ORG,
            scopes: ['skatteetaten:mva-melding'],
          }),
        })
      ).json()
    ).data
    const page = await (await fetch(requested.delegation_url)).text()
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!
    const approver = /name="approver" id="approver-0" value="([^"]+)"/.exec(page)![1]!
    handled.push(csrf)
    const form = new URLSearchParams({ csrf_token: csrf, approver, decision: 'approve' })
    await fetch(`${requested.delegation_url}/decision`, {
      method: 'POST',
      headers: {
        origin: new URL(requested.delegation_url).origin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form,
      redirect: 'manual',
    })
    expect((await (await fetch(`${url}/api/v1/auth/permissions/${ORG}`, { headers: auth })).json()).data.status).toBe(
      'full',
    )

    const body = {
      org_number: ORG,
      action_type: 'mva_melding',
      period: '2026-T6',
      payload: { total_revenue_nok: 125000, output_vat_nok: 31250 },
    }
    const dry = (
      await (
        await fetch(`${url}/api/v1/actions/execute?dry_run=true`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify(body),
        })
      ).json()
    ).data
    const minted = (
      await (
        await fetch(`${url}/api/v1/auth/approval-token`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ ...body, action_id: dry.action_id }),
        })
      ).json()
    ).data
    const approval = minted.approval_token
    handled.push(approval)
    // The account's owner confirms it on its page: the session and its form token are secrets too.
    const owner = await decideOverHttp(url, ADMIN, 'scan@example.no', minted.confirmation_url)
    expect(owner.status).toBe(200)
    handled.push(owner.cookie.split('=')[1]!, owner.csrf)
    const filed = await fetch(`${url}/api/v1/actions/execute`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': crypto.randomUUID(), 'x-approval-token': approval },
      body: JSON.stringify(body),
    })
    expect(filed.status).toBe(200)
    await fetch(`${url}/api/v1/actions/execute`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': crypto.randomUUID(), 'x-approval-token': approval },
      body: JSON.stringify(body),
    })
    handled.push((await (await fetch(`${url}/api/v1/auth/receipt-key`, { headers: auth })).json()).data.key_hex)

    await fetch(`${url}/api/v1/portal/list-acting-capacity`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ fnr: FNR, org_number: ORG }),
    })
    await fetch(`${url}/api/v1/portal/list-acting-capacity`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ fnr: '12046823442', org_number: ORG }),
    })
    handled.push('12046823442')
    await fetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { ...auth, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_acting_capacity', arguments: { fnr: FNR, org_number: ORG } },
      }),
    })
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
    rmSync(dir, { recursive: true, force: true })
  }
  const log = `${await stdout}\n${banner}${await stderr}`
  // the scan reads what was logged: the access lines of the calls above are there
  expect(log).toContain('/api/v1/actions/execute')
  expect(log).toContain('/api/v1/portal/list-acting-capacity')
  for (const secret of handled) expect([secret.slice(0, 6), log.includes(secret)]).toEqual([secret.slice(0, 6), false])
  const shapes: [string, RegExp][] = [
    ['API key', /svc_(free|live|test)_[A-Za-z0-9_-]{12,}/],
    ['approval token', /apt_[A-Za-z0-9_-]{12,}/],
    ['webhook secret', /whsec_[A-Za-z0-9_-]{12,}/],
    ['JWT', /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./],
    ['bearer credential', /Bearer [A-Za-z0-9._~+/-]{16,}/],
  ]
  for (const [name, shape] of shapes) expect([name, shape.exec(log)?.[0] ?? null]).toEqual([name, null])
  // An fnr is a word of eleven digits whose control digits hold. Not one: the fraction of a logged
  // duration (0.06408893116), nor a run of digits inside a hex id or hash (…a04539969672f…), which
  // a random id shows in about one run in fifteen.
  const fnrShaped = [...log.matchAll(/(?<![\w.])\d{11}(?![\w.])/g)].map((m) => m[0]).filter(isIdentityNumber)
  expect(fnrShaped).toEqual([])
}, 120_000)
