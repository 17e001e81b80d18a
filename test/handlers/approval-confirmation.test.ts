/**
 * A production approval token is a person's confirmation (issue 31 item 10; spec state table:
 * "human confirmed action"): the key route mints it awaiting confirmation, it is refused until the
 * account's owner, signed in, confirms exactly that action on its page, and no agent with a key
 * alone can make it usable.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { auditFor } from '../../src/store/audit.ts'
import { admin, bearer, createConsumer, postForm, signIn } from '../helpers.ts'
import { confirmedToken, decideOnPage, formCsrf, mintForAction, ownerSession } from '../helpers.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { ORG, agent, delegatedAgent, type Agent } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const PAYLOAD = { total_revenue_nok: 125000, output_vat_nok: 31250 }
/** Periods no filing here reaches (refused before the lock): any will do. */
const action = (period = '2026-09') => ({ org_number: ORG, action_type: 'mva_melding', period, payload: PAYLOAD })

async function minted(a: Agent, body = action()) {
  const res = await mintForAction(app, a, body)
  expect(res.status).toBe(201)
  return (await res.json()).data as {
    approval_token: string
    action_id: string
    confirmation_url: string
    confirmation_state: string
    ask_the_person: { nb: string; en: string }
    expires_at: string
  }
}

function file(a: Agent, body: unknown, token: string, idem: string = crypto.randomUUID()) {
  return app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': idem,
    'x-approval-token': token,
  })
}

async function tokenRow(id: string) {
  const [row] = await app.deps
    .sql`select confirmation, consumed_at, decided_at, decided_by from approval_tokens where id = ${id}`
  return row!
}

const idOf = (url: string) => new URL(url).pathname.split('/').at(-1)!

describe('the key route', () => {
  test('answers the token awaiting confirmation, with the page to confirm it on and what to ask the person', async () => {
    const a = await agent(app)
    const t = await minted(a)
    expect(t.approval_token).toMatch(/^apt_/)
    expect(t.confirmation_state).toBe('awaiting_confirmation')
    expect(t.confirmation_url).toMatch(new RegExp(`^${app.url}/approvals/[0-9a-f-]{36}$`))
    // The address names the row, never the secret.
    expect(t.confirmation_url).not.toContain(t.approval_token.slice(4))
    expect(t.ask_the_person.nb).toContain(t.confirmation_url)
    expect(t.ask_the_person.en).toContain(t.confirmation_url)
    expect(t.ask_the_person.en).toContain('2026-09')
    expect((await tokenRow(idOf(t.confirmation_url))).confirmation).toBe('awaiting')
  })

  test('refuses a mint without the action content the person is to see (400, nothing minted)', async () => {
    const a = await agent(app)
    const dry = await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', action(), a.auth)).json()
    const res = await app.send(
      'POST',
      '/api/v1/auth/approval-token',
      { org_number: ORG, action_id: dry.data.action_id },
      a.auth,
    )
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('VALIDATION_FAILED')
    const [n] = await app.deps
      .sql`select count(*)::int as n from approval_tokens where namespace = ${`consumer:${a.consumerId}`}`
    expect(n!.n).toBe(0)
  })

  test('refuses content that is not the action id’s (400 naming action_id)', async () => {
    const a = await agent(app)
    const dry = await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', action(), a.auth)).json()
    const res = await app.send(
      'POST',
      '/api/v1/auth/approval-token',
      { ...action(), payload: { ...PAYLOAD, output_vat_nok: 1 }, action_id: dry.data.action_id },
      a.auth,
    )
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error_code).toBe('VALIDATION_FAILED')
    expect(JSON.stringify(body)).toContain('action_id')
  })
})

describe('before a person confirms', () => {
  test('the token is refused with APPROVAL_TOKEN_UNCONFIRMED naming the page; nothing is spent or filed', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a)
    const res = await file(a, action(), t.approval_token)
    expect(res.status).toBe(403)
    const body = await res.json()
    expect(body.error_code).toBe('APPROVAL_TOKEN_UNCONFIRMED')
    expect(body.confirmation_url).toBe(t.confirmation_url)
    expect(body.confirmation_state).toBe('awaiting_confirmation')
    expect(body.explanation.summary_en).toContain('No person has confirmed')
    expect(body.explanation.summary).toContain('Ingen person har bekreftet')
    const row = await tokenRow(idOf(t.confirmation_url))
    expect(row.consumed_at).toBeNull()
    expect(row.confirmation).toBe('awaiting')
    const [locks] = await app.deps
      .sql`select count(*)::int as n from action_locks where org_number = ${ORG} and period = '2026-09'`
    expect(locks!.n).toBe(0)
    expect((await auditFor(app.deps.sql, a.consumerId)).map((r) => r.action)).not.toContain('submit_mva')
  })

  test('an agent with the key alone cannot open or decide the page: it is sent to sign in and nothing changes', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a)
    const path = new URL(t.confirmation_url).pathname
    const page = await app.get(path, { headers: a.auth, redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/login')
    for (const decision of ['confirm', 'decline']) {
      const res = await postForm(
        app,
        `${path}/decision`,
        { csrf_token: 'anything', decision },
        { ...a.auth, origin: app.url },
      )
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login')
    }
    expect((await tokenRow(idOf(t.confirmation_url))).confirmation).toBe('awaiting')
    expect((await (await file(a, action(), t.approval_token)).json()).error_code).toBe('APPROVAL_TOKEN_UNCONFIRMED')
  })

  test('another account’s owner, signed in, gets a 404 page and cannot decide it', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a)
    const stranger = await signIn(app)
    const path = new URL(t.confirmation_url).pathname
    expect((await app.get(path, { headers: { cookie: stranger.cookie } })).status).toBe(404)
    const res = await postForm(
      app,
      `${path}/decision`,
      { csrf_token: stranger.csrf, decision: 'confirm' },
      { cookie: stranger.cookie, origin: app.url },
    )
    expect(res.status).toBe(404)
    expect((await tokenRow(idOf(t.confirmation_url))).confirmation).toBe('awaiting')
    expect((await (await file(a, action(), t.approval_token)).json()).error_code).toBe('APPROVAL_TOKEN_UNCONFIRMED')
  })

  test('the owner’s session without its CSRF token, or from another site, decides nothing', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a)
    const s = await ownerSession(app, a.email)
    const path = new URL(t.confirmation_url).pathname
    expect(
      (
        await postForm(
          app,
          `${path}/decision`,
          { csrf_token: 'forged', decision: 'confirm' },
          { cookie: s.cookie, origin: app.url },
        )
      ).status,
    ).toBe(400)
    expect(
      (
        await postForm(
          app,
          `${path}/decision`,
          { csrf_token: s.csrf, decision: 'confirm' },
          { cookie: s.cookie, origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(400)
    expect((await tokenRow(idOf(t.confirmation_url))).confirmation).toBe('awaiting')
  })
})

describe('the confirmation page', () => {
  test('a signed-in owner finds the filings awaiting them on the dashboard, linked to their pages', async () => {
    const a = await agent(app)
    const t = await minted(a, action('2026-07'))
    const s = await ownerSession(app, a.email)
    const html = await (await app.get('/dashboard', { headers: { cookie: s.cookie } })).text()
    expect(html).toContain('id="approvals"')
    expect(html).toContain(`href="${new URL(t.confirmation_url).pathname}"`)
    await decideOnPage(app, s.cookie, t.confirmation_url, 'decline')
    expect(await (await app.get('/dashboard', { headers: { cookie: s.cookie } })).text()).not.toContain(
      'id="approvals"',
    )
  })

  test('shows the organisation, the action, the period, the amounts and the five checks run now', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a, action('2026-10'))
    const s = await ownerSession(app, a.email)
    const res = await app.get(new URL(t.confirmation_url).pathname, { headers: { cookie: s.cookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain(`<span id="org-number">${ORG}</span>`)
    expect(html).toMatch(/<strong id="org-name">[^<–]+<\/strong>/)
    expect(html).toContain('<td id="period">2026-10</td>')
    expect(html).toContain(`<code id="action-id">${t.action_id}</code>`)
    expect(html).toMatch(/data-field="total_revenue_nok">125\s000 kr</)
    expect(html).toMatch(/data-field="output_vat_nok">31\s250 kr</)
    for (const check of [
      'company_exists',
      'system_user_authorised',
      'scopes_delegated',
      'data_format_valid',
      'deadline_in_future',
    ]) {
      expect(html).toContain(`data-check="${check}" data-passed="true"`)
    }
    expect(html).toContain('data-state="awaiting"')
    expect(formCsrf(html)).toBe(s.csrf)
    expect(html).not.toContain(t.approval_token)
  })
})

describe('once the owner confirms', () => {
  test('the token files once; the audit row names the session and the instant', async () => {
    const a = await delegatedAgent(app)
    const body = action('2026-T4')
    const t = await minted(a, body)
    const s = await ownerSession(app, a.email)
    const decided = await decideOnPage(app, s.cookie, t.confirmation_url, 'confirm')
    expect(decided.status).toBe(200)
    expect(await decided.text()).toContain('data-state="confirmed"')
    const row = await tokenRow(idOf(t.confirmation_url))
    expect(row.confirmation).toBe('confirmed')
    expect(row.decided_at.toISOString()).toBe(PINNED_NOW)
    const [session] = await app.deps
      .sql`select id from sessions where consumer_id = ${a.consumerId} order by created_at desc limit 1`
    expect(row.decided_by).toBe(`session:${session!.id}`)
    const audit = (await auditFor(app.deps.sql, a.consumerId)).find((r) => r.action === 'approval_token_confirmed')!
    expect(audit.actor).toBe(`session:${session!.id}`)
    expect(audit.occurred_at.toISOString()).toBe(PINNED_NOW)
    expect(audit.org_number).toBe(ORG)
    expect(audit.details).toMatchObject({
      token_id: idOf(t.confirmation_url),
      action_id: t.action_id,
      period: '2026-T4',
      decided_at: PINNED_NOW,
    })

    const filed = await file(a, body, t.approval_token)
    expect(filed.status).toBe(200)
    expect((await filed.json()).data.receipt.org_number).toBe(ORG)
    expect((await (await file(a, body, t.approval_token)).json()).error_code).toBe('APPROVAL_TOKEN_USED')
    // Decided once: a second decision is refused and changes nothing.
    const again = await postForm(
      app,
      `${new URL(t.confirmation_url).pathname}/decision`,
      { csrf_token: s.csrf, decision: 'decline' },
      { cookie: s.cookie, origin: app.url },
    )
    expect(again.status).toBe(409)
    expect((await tokenRow(idOf(t.confirmation_url))).confirmation).toBe('confirmed')
  })

  test('a retry with the Idempotency-Key that met UNCONFIRMED files once the person has confirmed', async () => {
    const a = await delegatedAgent(app)
    const body = action('2026-T5')
    const t = await minted(a, body)
    const idem = crypto.randomUUID()
    expect((await (await file(a, body, t.approval_token, idem)).json()).error_code).toBe('APPROVAL_TOKEN_UNCONFIRMED')
    expect(
      (await decideOnPage(app, (await ownerSession(app, a.email)).cookie, t.confirmation_url, 'confirm')).status,
    ).toBe(200)
    expect((await file(a, body, t.approval_token, idem)).status).toBe(200)
  })

  test('the confirmation is of exactly that action: another period with the same token is a mismatch', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a, action('2026-11'))
    expect(
      (await decideOnPage(app, (await ownerSession(app, a.email)).cookie, t.confirmation_url, 'confirm')).status,
    ).toBe(200)
    expect((await (await file(a, action('2026-12'), t.approval_token)).json()).error_code).toBe(
      'APPROVAL_TOKEN_MISMATCH',
    )
    expect((await tokenRow(idOf(t.confirmation_url))).consumed_at).toBeNull()
  })
})

describe('a declined or expired token', () => {
  test('declined: unusable for good (APPROVAL_TOKEN_DECLINED), audited', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a)
    const decided = await decideOnPage(app, (await ownerSession(app, a.email)).cookie, t.confirmation_url, 'decline')
    expect(decided.status).toBe(200)
    expect(await decided.text()).toContain('data-state="declined"')
    const res = await file(a, action(), t.approval_token)
    expect(res.status).toBe(403)
    expect((await res.json()).error_code).toBe('APPROVAL_TOKEN_DECLINED')
    expect((await tokenRow(idOf(t.confirmation_url))).consumed_at).toBeNull()
    expect((await auditFor(app.deps.sql, a.consumerId)).map((r) => r.action)).toContain('approval_token_declined')
  })

  test('expired: the page cannot confirm it any more, and the token is EXPIRED', async () => {
    const a = await delegatedAgent(app)
    const t = await minted(a)
    const s = await ownerSession(app, a.email)
    const path = new URL(t.confirmation_url).pathname
    const csrf = formCsrf(await (await app.get(path, { headers: { cookie: s.cookie } })).text())
    app.clock.advance(15 * 60_000)
    try {
      const res = await postForm(
        app,
        `${path}/decision`,
        { csrf_token: csrf, decision: 'confirm' },
        { cookie: s.cookie, origin: app.url },
      )
      expect(res.status).toBe(409)
      expect(await res.text()).toContain('data-state="expired"')
      expect((await tokenRow(idOf(t.confirmation_url))).confirmation).toBe('awaiting')
      expect((await (await file(a, action(), t.approval_token)).json()).error_code).toBe('APPROVAL_TOKEN_EXPIRED')
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })
})

describe('the helper confirms as a person does', () => {
  test('confirmedToken goes through the page: the row says who confirmed', async () => {
    const a = await agent(app)
    const token = await confirmedToken(app, a, action('2026-08'))
    const [row] = await app.deps
      .sql`select confirmation, decided_by from approval_tokens where namespace = ${`consumer:${a.consumerId}`}`
    expect(token).toMatch(/^apt_/)
    expect(row!.confirmation).toBe('confirmed')
    expect(row!.decided_by).toMatch(/^session:/)
  })
})

describe('the sandbox keeps its automatic path', () => {
  const SANDBOX_VAT = {
    org_number: '818000006',
    action_type: 'mva_melding',
    period: '2026-T1',
    payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
  }

  async function rehearse(auth: Record<string, string>) {
    const plan = await (await app.send('POST', '/api/v1/sandbox/actions/plan', SANDBOX_VAT, auth)).json()
    const minted = await app.send(
      'POST',
      '/api/v1/sandbox/auth/approval-token',
      { org_number: SANDBOX_VAT.org_number, action_id: plan.data.action_id },
      auth,
    )
    expect(minted.status).toBe(201)
    const data = (await minted.json()).data
    expect(data.confirmation_url).toBeUndefined()
    const filed = await app.send('POST', '/api/v1/sandbox/actions/execute', SANDBOX_VAT, {
      ...auth,
      'idempotency-key': crypto.randomUUID(),
      'x-approval-token': data.approval_token,
    })
    return filed
  }

  test('a production key’s sandbox token files its rehearsal at once, with no person', async () => {
    const a = await agent(app)
    expect((await rehearse(a.auth)).status).toBe(200)
  })

  test('so does a test key’s; a test key mints no production token', async () => {
    const c = await createConsumer(app)
    const { data } = await (
      await app.send('POST', '/api/v1/admin/keys', { consumer_id: c.id, test: true }, admin)
    ).json()
    const auth = bearer(data.plaintext_key)
    expect((await rehearse(auth)).status).toBe(200)
    const refused = await app.send(
      'POST',
      '/api/v1/auth/approval-token',
      { ...action(), action_id: `act_${'0'.repeat(32)}` },
      auth,
    )
    expect(refused.status).toBe(403)
    expect((await refused.json()).error_code).toBe('TEST_KEY_PRODUCTION_ONLY')
  })

  test('the synthetic bearer’s token files at once', async () => {
    expect(
      (await rehearse({ authorization: `Bearer svc_sandbox_test_confirm${crypto.randomUUID().slice(0, 8)}` })).status,
    ).toBe(200)
  })
})
