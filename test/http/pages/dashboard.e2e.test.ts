/**
 * The whole life of a key through the real UI, in headless Chromium: sign up on /login, the magic
 * link arrives by real SMTP, confirm it, mint a key on the dashboard, use it against the API,
 * revoke it in the browser and see the API refuse it, then sign out.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Response as PwResponse,
} from 'playwright-core'
import { bearer, deliverMail, uniqueEmail } from '../../helpers.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { mailText, startSmtpReceiver, type SmtpReceiver } from '../../helpers.ts'

const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOT = '/tmp/dashboard.png'

/** Clicks a submit button and resolves with the document the navigation ends on (after any redirect). */
async function submit(page: Page, button: Locator): Promise<PwResponse> {
  const [res] = await Promise.all([page.waitForNavigation(), button.click()])
  if (!res) throw new Error('the click did not load a document')
  return res
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('dashboard in headless Chromium', () => {
  let smtp: SmtpReceiver
  let app: TestApp
  let browser: Browser
  let context: BrowserContext

  beforeAll(async () => {
    smtp = await startSmtpReceiver()
    app = await startApp({ env: { SMTP_URL: smtp.url } })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  })
  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await app?.stop()
    await smtp?.close()
  })

  test('sign up by e-mailed link, mint a key, use it, revoke it, sign out', async () => {
    const n = () => Math.floor(Math.random() * 256)
    // The app trusts X-Forwarded-For: this browser gets an address of its own, so the per-IP
    // sign-in limits (one hour window on the pinned clock) are not shared with other tests.
    context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': `10.${128 + (n() >> 1)}.${n()}.${n()}` },
    })
    const requested: string[] = []
    const offsite: string[] = []
    await context.route('**/*', (route) => {
      const u = new URL(route.request().url())
      requested.push(u.href)
      if (u.hostname === '127.0.0.1') return route.continue()
      offsite.push(u.href)
      return route.abort()
    })
    const page = await context.newPage()
    const pageErrors: string[] = []
    const consoleErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(e.message))
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} @ ${new URL(m.location().url).pathname}`)
    })
    const email = uniqueEmail('e2e')

    // 1. Sign up on /login.
    expect((await page.goto(`${app.url}/login`))!.status()).toBe(200)
    await page.getByLabel('E-post / E-mail').fill(email)
    await page.locator('#company_name').fill('Nettleser AS')
    await page.getByRole('checkbox').check()
    const asked = await submit(page, page.locator('main form button[type=submit]'))
    expect(asked.status()).toBe(200)
    expect(await page.title()).toBe('Sjekk e-posten – Plikt')
    expect(await page.locator('h1').innerText()).toContain('Sjekk e-posten din')

    // 2. The mail job sends the link over SMTP, to that address only.
    await deliverMail(app)
    const mail = await smtp.waitFor((m) => m.to.includes(email))
    expect(mail.to).toEqual([email])
    const text = mailText(mail.raw)
    const link = /https?:\/\/[^\s]+\/auth\/magic\?token=[A-Za-z0-9]+/.exec(text)?.[0]
    if (!link) throw new Error(`no magic link in the mail:\n${mail.raw}`)
    expect(new URL(link).origin).toBe(app.url)

    // 3. Open it, confirm, and read the first key (shown once).
    expect((await page.goto(link))!.status()).toBe(200)
    const confirmed = await submit(page, page.locator('#confirm'))
    expect(confirmed.status()).toBe(200)
    const firstKey = (await page.locator('#secret').innerText()).trim()
    expect(firstKey).toMatch(/^svc_free_[A-Za-z0-9]+$/)
    const cookies = await context.cookies(app.url)
    const session = cookies.find((c) => c.name === 'plikt_session')
    expect(session).toBeDefined()
    expect(session!.httpOnly).toBe(true)
    expect(session!.sameSite).toBe('Lax')
    expect(session!.secure).toBe(false) // http://127.0.0.1: a Secure cookie would never come back

    // 4. Mint a labelled key on the dashboard.
    await Promise.all([page.waitForURL(`${app.url}/dashboard`), page.locator('#to-dashboard').click()])
    expect(await page.locator('h1').innerText()).toContain('Dashbord')
    const label = `e2e-${crypto.randomUUID().slice(0, 8)}`
    await page.getByLabel(/Navn på ny nøkkel/).fill(label)
    const minted = await submit(page, page.getByRole('button', { name: /Lag ny nøkkel/ }))
    expect(minted.status()).toBe(200)
    const newKey = (await page.locator('#secret').innerText()).trim()
    expect(newKey).toMatch(/^svc_free_[A-Za-z0-9]+$/)
    expect(newKey).not.toBe(firstKey)
    const prefix = `${newKey.slice(0, 13)}…`
    const keysTable = page.locator('h2#keys ~ .table-wrap table').first()
    const row = keysTable.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: prefix }) })
    expect(await row.count()).toBe(1)
    expect(await row.locator('td').nth(1).innerText()).toBe(label)
    await page.screenshot({ path: SCREENSHOT, fullPage: true })

    // 5. The new key works against the API.
    const before = await app.get('/api/v1/account/credits/balance', { headers: bearer(newKey) })
    expect(before.status).toBe(200)

    // 6. Revoke it in the browser: the row's own button, found by the key's display prefix.
    const revokeButton = row.getByRole('button')
    expect(await revokeButton.innerText()).toBe('Trekk tilbake / Revoke')
    const revoked = await submit(page, revokeButton)
    expect(revoked.status()).toBe(200)
    expect(new URL(page.url()).pathname).toBe('/dashboard')
    expect(await row.count()).toBe(1)
    expect(await row.getByRole('button').count()).toBe(0)
    expect(await row.locator('td').nth(4).innerText()).toContain('trukket tilbake')

    // 7. The API now refuses that key, and only that key.
    const after = await app.get('/api/v1/account/credits/balance', { headers: bearer(newKey) })
    expect(after.status).toBe(401)
    expect((await after.json()).error_code).toBe('AUTH_INVALID_KEY')
    expect((await app.get('/api/v1/account/credits/balance', { headers: bearer(firstKey) })).status).toBe(200)

    // 8. The link works once: a second confirmation is refused with an explanation.
    expect((await page.goto(link))!.status()).toBe(200)
    const reused = await submit(page, page.locator('#confirm'))
    expect(reused.status()).toBe(400)
    expect(await page.locator('h1').innerText()).toContain('Lenken er brukt eller utløpt')
    expect(await page.locator('#secret').count()).toBe(0)

    // 9. Signing out ends the session: the dashboard sends the visitor to /login.
    await page.goto(`${app.url}/dashboard`)
    const signedOut = await submit(page, page.locator('header nav').getByRole('button', { name: /Logg ut/ }))
    expect(new URL(signedOut.url()).pathname).toBe('/login')
    expect((await context.cookies(app.url)).some((c) => c.name === 'plikt_session')).toBe(false)
    const again = await page.goto(`${app.url}/dashboard`)
    expect(new URL(again!.url()).pathname).toBe('/login')
    expect(new URL(page.url()).pathname).toBe('/login')

    expect(requested.length).toBeGreaterThan(0)
    expect(offsite).toEqual([])
    expect(pageErrors).toEqual([])
    // Chromium reports every 4xx document on the console: the reused link's 400 is the only one.
    expect(consoleErrors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request) @ /auth/magic',
    ])
  }, 30_000)
})
