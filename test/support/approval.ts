/**
 * A production approval token as an agent gets one and a person confirms it: the agent dry-runs
 * the action and mints a token (awaiting confirmation); the account's owner signs in through the
 * real magic-link flow, opens the token's confirmation_url, and confirms (or declines) with the
 * page's own form and CSRF token. No shortcut through the database: the rule is tested as a
 * person meets it.
 */
import { expect } from 'bun:test'
import { postForm, signIn, type Session } from './access.ts'
import type { TestApp } from './app.ts'

/** The key's side: what the agent holds. */
export interface Keyed {
  auth: Record<string, string>
  /** the account's e-mail: its owner signs in with it */
  email: string
}

const sessions = new Map<string, Promise<Session>>()

/**
 * The account owner's browser session, signed in once per test app and address (concurrent
 * callers share the one sign-in: a second magic link would make the first one's mail stale).
 */
export function ownerSession(app: TestApp, email: string): Promise<Session> {
  const key = `${app.url} ${email}`
  let s = sessions.get(key)
  if (!s) {
    s = signIn(app, email)
    sessions.set(key, s)
  }
  return s
}

/** The CSRF token the confirmation page's own form carries (the decision form's hidden field). */
export function formCsrf(html: string): string {
  const m =
    /<form method="post" action="\/approvals\/[0-9a-f-]+\/decision"><input type="hidden" name="csrf_token" value="([^"]+)">/.exec(
      html,
    )
  if (!m) throw new Error(`no decision form on the page: ${html.slice(0, 400)}`)
  return m[1]!
}

/** Opens the page with the session and posts the decision with the page's form token. */
export async function decideOnPage(
  app: TestApp,
  cookie: string,
  confirmationUrl: string,
  decision: 'confirm' | 'decline' = 'confirm',
): Promise<Response> {
  const path = new URL(confirmationUrl).pathname
  const page = await app.get(path, { headers: { cookie } })
  expect(page.status).toBe(200)
  return postForm(
    app,
    `${path}/decision`,
    { csrf_token: formCsrf(await page.text()), decision },
    { cookie, origin: app.url },
  )
}

/** The dry run's action id, then the mint with the action's content: the agent's answer, as sent. */
export async function mintForAction(
  app: TestApp,
  a: Keyed,
  action: { org_number: string; action_type: string; period: string; payload: unknown },
): Promise<Response> {
  const dry = await app.send('POST', '/api/v1/actions/execute?dry_run=true', action, a.auth)
  expect(dry.status).toBe(200)
  const { action_id } = (await dry.json()).data
  return app.send('POST', '/api/v1/auth/approval-token', { ...action, action_id }, a.auth)
}

/** A token the owner has confirmed on its page: what a live filing needs. */
export async function confirmedToken(
  app: TestApp,
  a: Keyed,
  action: { org_number: string; action_type: string; period: string; payload: unknown },
): Promise<string> {
  const minted = await mintForAction(app, a, action)
  expect(minted.status).toBe(201)
  const { data } = await minted.json()
  const s = await ownerSession(app, a.email)
  const decided = await decideOnPage(app, s.cookie, data.confirmation_url, 'confirm')
  expect(decided.status).toBe(200)
  return data.approval_token
}

/**
 * The same person's steps against a service in another process (its base URL and operator
 * token): sign in by magic link (the mail job run by the operator's run-now, the link read from
 * the operator outbox), open confirmation_url, decide with the page's form. Returns the session's
 * cookie and the form's CSRF token (secrets a log scan looks for).
 */
export async function decideOverHttp(
  base: string,
  adminToken: string,
  email: string,
  confirmationUrl: string,
  decision: 'confirm' | 'decline' = 'confirm',
): Promise<{ cookie: string; csrf: string; status: number }> {
  const n = () => Math.floor(Math.random() * 256)
  const ip = { 'x-forwarded-for': `10.${200 + (n() % 50)}.${n()}.${n()}` }
  const admin = { authorization: `Bearer ${adminToken}` }
  const signup = await fetch(`${base}/api/v1/account/signup`, {
    method: 'POST',
    headers: { ...ip, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  })
  expect(signup.status).toBe(200)
  expect((await fetch(`${base}/api/v1/admin/jobs/mail-queue/run`, { method: 'POST', headers: admin })).status).toBe(200)
  const mails = (await (await fetch(`${base}/api/v1/admin/outbox?limit=100`, { headers: admin })).json()).data
    .emails as { to: string; body: string }[]
  const mail = mails.find((m) => m.to === email)
  if (!mail) throw new Error(`no mail to ${email}`)
  const token = /\/auth\/magic\?token=([A-Za-z0-9]+)/.exec(mail.body)![1]!
  const form = (values: Record<string, string>) => new URLSearchParams(values).toString()
  const done = await fetch(`${base}/auth/magic`, {
    method: 'POST',
    headers: { ...ip, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ token }),
    redirect: 'manual',
  })
  const cookie = /plikt_session=[^;]+/.exec(done.headers.get('set-cookie') ?? '')?.[0]
  if (!cookie) throw new Error(`no session cookie: ${done.status}`)
  const path = new URL(confirmationUrl).pathname
  const page = await fetch(`${base}${path}`, { headers: { ...ip, cookie } })
  expect(page.status).toBe(200)
  const csrf = formCsrf(await page.text())
  const res = await fetch(`${base}${path}/decision`, {
    method: 'POST',
    headers: { ...ip, cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ csrf_token: csrf, decision }),
    redirect: 'manual',
  })
  return { cookie, csrf, status: res.status }
}
