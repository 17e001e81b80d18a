/**
 * The pages as a person sees them, in headless Chromium (issue 27, items 15, 16 and 17): no page
 * scrolls sideways in a desktop window or on a phone — a script block scrolls inside itself; the
 * sign-up form answers a missing consent beside the box, keeping what was typed; the dashboard's
 * table headers all have a name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { signIn, uniqueEmail } from '../../helpers.ts'
import { startApp, type TestApp } from '../../helpers.ts'

// Run in the page by Playwright; the tests are compiled without the DOM library.
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number }
  getElementById(id: string): { innerText: string } | null
}
declare function getComputedStyle(e: unknown): { overflowX: string }

const CHROMIUM = '/usr/bin/chromium'
const WIDTHS = [1280, 375] as const
const PAGES = [
  '/',
  '/recipes',
  '/login',
  '/docs/errors',
  '/docs/receipt-signature',
  '/docs/webhook-signature',
  '/docs/anchor-proof',
] as const

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('pages in headless Chromium', () => {
  let app: TestApp
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    app = await startApp()
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
    for (const c of contexts) await c.close()
    await browser?.close()
    await app?.stop()
  })

  async function pageAt(width: number): Promise<Page> {
    const n = () => Math.floor(Math.random() * 256)
    // An address of its own, so the sign-in form's per-IP budget is not shared with other tests.
    const context = await browser.newContext({
      viewport: { width, height: 800 },
      extraHTTPHeaders: { 'x-forwarded-for': `10.${n()}.${n()}.${n()}` },
    })
    contexts.push(context)
    return context.newPage()
  }

  /** How far the document is wider than the window: 0 when it does not scroll sideways. */
  const overflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

  describe.each(WIDTHS)('%i px wide', (width) => {
    test.each(PAGES)('%s does not scroll sideways', async (path) => {
      const page = await pageAt(width)
      expect((await page.goto(app.url + path))!.status()).toBe(200)
      expect({ path, width, overflow: await overflow(page) }).toEqual({ path, width, overflow: 0 })
    })

    test('the recipes’ script blocks scroll inside themselves', async () => {
      const page = await pageAt(width)
      await page.goto(`${app.url}/recipes`)
      const blocks = await page.locator('pre').evaluateAll((pres) =>
        pres.map((p) => ({
          overflowX: getComputedStyle(p).overflowX,
          fits: p.getBoundingClientRect().right <= document.documentElement.clientWidth,
          scrolls: p.scrollWidth > p.clientWidth,
        })),
      )
      expect(blocks.length).toBeGreaterThan(5)
      for (const b of blocks)
        expect({ overflowX: b.overflowX, fits: b.fits }).toEqual({ overflowX: 'auto', fits: true })
      expect(blocks.some((b) => b.scrolls)).toBe(true) // long curl lines exist, and stay in their block
    })

    test('the dashboard does not scroll sideways either', async () => {
      const page = await pageAt(width)
      const session = await signIn(app)
      await page.context().addCookies([{ name: 'plikt_session', value: session.cookie.split('=')[1]!, url: app.url }])
      expect((await page.goto(`${app.url}/dashboard`))!.status()).toBe(200)
      expect(await overflow(page)).toBe(0)
    })
  })

  test('signing up without ticking consent gives the form back, filled in, with the problem beside the box', async () => {
    const page = await pageAt(1280)
    await page.goto(`${app.url}/login`)
    const email = uniqueEmail('browser')
    await page.getByLabel('E-post / E-mail').fill(email)
    await page.locator('#company_name').fill('Glemsk AS')
    const [res] = await Promise.all([page.waitForNavigation(), page.locator('main form button[type=submit]').click()])
    expect(res!.status()).toBe(400)
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(await page.getByLabel('E-post / E-mail').inputValue()).toBe(email)
    expect(await page.locator('#company_name').inputValue()).toBe('Glemsk AS')
    const box = page.getByRole('checkbox')
    expect(await box.getAttribute('aria-invalid')).toBe('true')
    // the problem is the box's description, in both languages, and visible next to it
    const description = await box.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby')!)!.innerText,
    )
    expect(description).toContain('Kryss av her for å registrere deg')
    expect(description).toContain('Tick this box to sign up')
    const note = await page.locator('#consent-error').boundingBox()
    const label = await page.locator('label[for=consent]').boundingBox()
    expect(Math.abs(note!.y + note!.height - label!.y)).toBeLessThan(40)
    expect(await page.locator('a[href="/dashboard"]').count()).toBe(0)
    expect(await page.content()).not.toContain('explanation.details')
    // ticking it now sends the link
    await box.check()
    const [sent] = await Promise.all([page.waitForNavigation(), page.locator('main form button[type=submit]').click()])
    expect(sent!.status()).toBe(200)
    expect(await page.locator('h1').innerText()).toContain('Check your e-mail')
  })

  test('every table header of the dashboard has a name, the action columns’ included', async () => {
    const page = await pageAt(1280)
    const session = await signIn(app)
    await page.context().addCookies([{ name: 'plikt_session', value: session.cookie.split('=')[1]!, url: app.url }])
    await page.goto(`${app.url}/dashboard`)
    const headers = await page.locator('th').evaluateAll((ths) => ths.map((th) => (th.textContent ?? '').trim()))
    expect(headers.length).toBeGreaterThan(10)
    expect(headers.filter((h) => h === '')).toEqual([])
    // the action column's name is for screen readers: it takes no room on screen
    const hidden = await page.locator('th .visually-hidden').first().boundingBox()
    expect(hidden!.width).toBeLessThanOrEqual(1)
  })
})
