/** Accounts, keys, credits and sessions for tests, made through the real operator API and sign-in flow. */
import { runMailQueue } from '../../jobs/mail-queue.ts'
import { ADMIN_TOKEN, type TestApp } from './app.ts'

let ipCounter = 0
/** A fresh client address (the test apps trust X-Forwarded-For), so per-IP limits do not leak between tests. */
export function freshIp(): Record<string, string> {
  ipCounter++
  return { 'x-forwarded-for': `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}` }
}

export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${crypto.randomUUID().slice(0, 12)}@example.no`
}

export async function createConsumer(
  app: TestApp,
  tier: 'free' | 'starter' | 'professional' | 'enterprise' = 'free',
  email = uniqueEmail(),
): Promise<{ id: string; email: string }> {
  const res = await app.send('POST', '/api/v1/admin/consumers', { email, tier, company_name: 'Test AS' }, admin)
  if (res.status !== 201) throw new Error(`createConsumer: ${res.status} ${await res.text()}`)
  return { id: (await res.json()).data.consumer_id, email }
}

export async function createKey(
  app: TestApp,
  consumerId: string,
  scopes?: string[],
): Promise<{ key: string; id: string }> {
  const res = await app.send(
    'POST',
    '/api/v1/admin/keys',
    { consumer_id: consumerId, ...(scopes ? { scopes } : {}) },
    admin,
  )
  if (res.status !== 201) throw new Error(`createKey: ${res.status} ${await res.text()}`)
  const { data } = await res.json()
  return { key: data.plaintext_key, id: data.key.id }
}

export async function addCredits(app: TestApp, consumerId: string, amountOre: number): Promise<number> {
  const res = await app.send(
    'POST',
    '/api/v1/admin/credits',
    { consumer_id: consumerId, amount_ore: amountOre, reason: 'test' },
    admin,
  )
  if (res.status !== 200) throw new Error(`addCredits: ${res.status} ${await res.text()}`)
  return (await res.json()).data.balance_ore
}

/**
 * Runs the mail job once, as the scheduler would a few seconds after the request: requests only
 * queue mail (jobs/mail-queue.ts). Sends through the app's own mailer, on its clock.
 */
export async function deliverMail(app: TestApp): Promise<void> {
  await runMailQueue(app.deps)
}

/** The newest mail to an address in the operator outbox (SMTP_URL is unset in tests), once the mail job has run. */
export async function lastMailTo(app: TestApp, email: string): Promise<{ subject: string; body: string } | null> {
  await deliverMail(app)
  const res = await app.send('GET', '/api/v1/admin/outbox?limit=100', undefined, admin)
  const mails = (await res.json()).data.emails as { to: string; subject: string; body: string }[]
  return mails.find((m) => m.to === email) ?? null
}

export function magicToken(mailBody: string): string {
  const m = /\/auth\/magic\?token=([A-Za-z0-9]+)/.exec(mailBody)
  if (!m) throw new Error(`no magic link in: ${mailBody}`)
  return m[1]!
}

export function form(values: Record<string, string>): { body: string; headers: Record<string, string> } {
  return {
    body: new URLSearchParams(values).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }
}

export async function postForm(
  app: TestApp,
  path: string,
  values: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const f = form(values)
  return fetch(app.url + path, {
    method: 'POST',
    body: f.body,
    headers: { ...f.headers, ...headers },
    redirect: 'manual',
  })
}

export interface Session {
  cookie: string
  csrf: string
  consumerId: string
  email: string
  /** the key shown once when the account was created */
  firstKey: string | null
}

/** Signs up (or in) through the real flow: signup → mail job → outbox mail → POST /auth/magic → cookie. */
export async function signIn(
  app: TestApp,
  email = uniqueEmail(),
  companyName: string | null = 'Testfirma AS',
): Promise<Session> {
  const ip = freshIp()
  const res = await app.send(
    'POST',
    '/api/v1/account/signup',
    { email, ...(companyName ? { company_name: companyName, consent: true } : {}) },
    ip,
  )
  if (res.status !== 200) throw new Error(`signup: ${res.status} ${await res.text()}`)
  const mail = await lastMailTo(app, email)
  if (!mail) throw new Error(`no mail to ${email}`)
  const done = await postForm(app, '/auth/magic', { token: magicToken(mail.body) }, ip)
  const setCookie = done.headers.get('set-cookie') ?? ''
  const cookie = /plikt_session=[^;]+/.exec(setCookie)?.[0]
  if (!cookie) throw new Error(`no session cookie: ${done.status} ${await done.text()}`)
  const html = await done.text()
  const firstKey = /<output class="secret" id="secret">([^<]+)<\/output>/.exec(html)?.[1] ?? null
  const me = await (await app.send('GET', '/api/v1/account/me', undefined, { cookie })).json()
  return { cookie, csrf: me.data.csrf_token, consumerId: me.data.consumer.id, email, firstKey }
}
