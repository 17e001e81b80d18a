/**
 * The dashboard's portfolios page through the real UI, in headless Chromium: a signed-in person
 * sees each client with its next deadline and its overdue ones marked (the API's merged deadlines,
 * read the same day), downloads the CSV, creates a calendar feed whose URL is shown once and
 * answers a calendar program without a key, and revokes it (the URL then answers 404). The forms
 * need the session's CSRF token; another account sees nothing of the portfolio.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { warmRegister } from '../../../src/domain/portfolios/warmup.ts'
import { CSV_COLUMNS } from '../../../src/domain/portfolios/deadlines.ts'
import { addCredits, admin, bearer, createKey, freshIp, postForm, signIn, type Session } from '../../helpers.ts'
import { startApp, type TestApp } from '../../helpers.ts'

const CHROMIUM = '/usr/bin/chromium'
const POSTEN = '984661185'
const ENK = '915241700'
const ANS = '921173601'
/** Ten days after the first VAT term's due date (2026-04-10): it is overdue, within the last 30 days. */
const LATER = '2026-04-20T08:00:00.000Z'

async function submit(page: Page, button: Locator) {
  const [res] = await Promise.all([page.waitForNavigation(), button.click()])
  if (!res) throw new Error('the click did not load a document')
  return res
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the portfolios page in headless Chromium', () => {
  let app: TestApp
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let session: Session
  let key: string
  let portfolioId: string
  let merged: any[]

  beforeAll(async () => {
    app = await startApp()
    session = await signIn(app)
    expect(
      (await app.send('PATCH', `/api/v1/admin/consumers/${session.consumerId}`, { tier: 'professional' }, admin))
        .status,
    ).toBe(200)
    await addCredits(app, session.consumerId, 10_000)
    key = (await createKey(app, session.consumerId)).key
    const api = (method: string, path: string, body?: unknown) =>
      app.send(method, path, body, { ...bearer(key), ...freshIp() })
    portfolioId = (await (await api('POST', '/api/v1/portfolios', { name: 'Klienter Bergen' })).json()).data
      .portfolio_id
    expect(
      (await api('PUT', `/api/v1/portfolios/${portfolioId}/companies`, { org_numbers: [POSTEN, ENK, ANS] })).status,
    ).toBe(200)
    for (let i = 0; i < 100; i++) if ((await warmRegister(app.deps)).claimed === 0) break
    // Weeks later (the warm-up has read the register again): the person signs in again.
    app.clock.set(LATER)
    for (let i = 0; i < 100; i++) if ((await warmRegister(app.deps)).claimed === 0) break
    session = await signIn(app, session.email)
    merged = (await (await api('GET', `/api/v1/portfolios/${portfolioId}/deadlines`)).json()).data.deadlines
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
    context = await browser.newContext({ acceptDownloads: true, extraHTTPHeaders: freshIp() })
    const value = session.cookie.slice(session.cookie.indexOf('=') + 1)
    await context.addCookies([{ name: 'plikt_session', value, url: app.url }])
    page = await context.newPage()
  }, 60_000)
  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await app?.stop()
  })

  test('the dashboard links to the portfolios page', async () => {
    await page.goto(`${app.url}/dashboard`)
    await Promise.all([page.waitForURL(`${app.url}/dashboard/portfolios`), page.locator('#to-portfolios').click()])
    expect(await page.locator('h1').innerText()).toContain('Porteføljer')
  })

  test('each client’s row shows its next deadline, as the API’s merged deadlines give it', async () => {
    await page.goto(`${app.url}/dashboard/portfolios`)
    const rows = page.locator(`#portfolio-${portfolioId} tr.client`)
    expect(await rows.count()).toBe(3)
    for (const org of [POSTEN, ENK, ANS]) {
      const next = merged.find((d) => d.org_number === org && d.due_at && d.due_at.slice(0, 10) >= '2026-04-20')
      const cell = await rows
        .filter({ has: page.locator(`td code`, { hasText: org }) })
        .locator('td')
        .nth(2)
        .innerText()
      const day = next.due_at.slice(0, 10)
      expect(cell).toContain(`${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)} · ${next.obligation_name}`)
    }
  })

  test('a client with a deadline passed in the last 30 days is marked overdue; one without is not', async () => {
    const overdueOrgs = new Set(
      merged
        .filter((d) => d.filing_status === 'overdue' && d.due_at.slice(0, 10) >= '2026-03-21')
        .map((d) => d.org_number),
    )
    expect(overdueOrgs.has(POSTEN)).toBe(true)
    for (const org of [POSTEN, ENK, ANS]) {
      const row = page.locator(`tr.client[data-org="${org}"]`)
      expect({ org, marked: (await row.getAttribute('class'))!.includes('overdue') }).toEqual({
        org,
        marked: overdueOrgs.has(org),
      })
      expect({ org, text: (await row.locator('.overdue-mark').count()) > 0 }).toEqual({
        org,
        text: overdueOrgs.has(org),
      })
    }
    expect(await page.locator(`tr.client[data-org="${POSTEN}"] .overdue-mark`).innerText()).toContain('10.04.2026')
  })

  test('the CSV download holds the API’s rows', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#portfolio-${portfolioId} a.csv`).click(),
    ])
    const csv = await Bun.file((await download.path())!).text()
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe(CSV_COLUMNS.join(','))
    expect(lines.length - 1).toBe(merged.length)
    expect(download.suggestedFilename()).toBe(`portfolio-${portfolioId}-deadlines.csv`)
  })

  test('a feed’s URL is shown once, answers a calendar program without a key, and stops when revoked', async () => {
    const created = await submit(
      page,
      page.locator(`#portfolio-${portfolioId}`).getByRole('button', { name: /Lag kalenderstrøm/ }),
    )
    expect(created.status()).toBe(200)
    const url = await page.locator('#feed-url').inputValue()
    expect(url).toMatch(new RegExp(`^${app.url}/api/v1/feeds/pf_[A-Za-z0-9]{32}$`))
    const cal = await fetch(url)
    expect(cal.status).toBe(200)
    expect(cal.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(await cal.text()).toContain('BEGIN:VEVENT')

    await page.goto(`${app.url}/dashboard/portfolios`)
    expect(await page.locator('#feed-url').count()).toBe(0)
    expect(await page.content()).not.toContain(url.split('/').at(-1)!)
    const revoke = page.locator(`#portfolio-${portfolioId}`).getByRole('button', { name: /Trekk tilbake/ })
    expect(await revoke.count()).toBe(1)
    const after = await submit(page, revoke)
    expect(after.status()).toBe(200)
    expect(
      await page
        .locator(`#portfolio-${portfolioId}`)
        .getByRole('button', { name: /Trekk tilbake/ })
        .count(),
    ).toBe(0)
    expect((await fetch(url)).status).toBe(404)
  })

  test('creating a feed without the session’s CSRF token is refused and makes none', async () => {
    const before = (
      await app.deps.sql`select count(*)::int as n from portfolio_feeds where portfolio_id = ${portfolioId}`
    )[0]!.n
    const res = await postForm(
      app,
      `/dashboard/portfolios/${portfolioId}/feeds`,
      { csrf_token: 'not-the-token' },
      {
        cookie: session.cookie,
        origin: app.url,
      },
    )
    expect(res.status).toBe(400)
    const after = (
      await app.deps.sql`select count(*)::int as n from portfolio_feeds where portfolio_id = ${portfolioId}`
    )[0]!.n
    expect(after).toBe(before)
  })

  test('another account sees nothing of the portfolio and cannot make it a feed', async () => {
    const other = await signIn(app)
    await app.send('PATCH', `/api/v1/admin/consumers/${other.consumerId}`, { tier: 'professional' }, admin)
    const html = await (await app.get('/dashboard/portfolios', { headers: { cookie: other.cookie } })).text()
    expect(html).not.toContain(portfolioId)
    const res = await postForm(
      app,
      `/dashboard/portfolios/${portfolioId}/feeds`,
      { csrf_token: other.csrf },
      {
        cookie: other.cookie,
        origin: app.url,
      },
    )
    expect(res.status).toBe(404)
    const csv = await app.get(`/dashboard/portfolios/${portfolioId}/deadlines.csv`, {
      headers: { cookie: other.cookie },
    })
    expect(csv.status).toBe(404)
  })
})
