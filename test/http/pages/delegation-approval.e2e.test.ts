/**
 * The mock digital agency's approval page in headless Chromium: a request made through the mock
 * adapter is opened at its confirmUrl, shows the organisation and who may approve (FJORDREVISJON
 * AS in the fixtures: DAGL Ragnhild Fjord, LEDE Sverre Revheim), and is approved — the adapter
 * then reports Accepted and a system user — or rejected. A tampered form token and a form posted
 * from another site are refused and change nothing.
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
import type { MockDigitalAgency } from '../../../src/upstream/digital-agency/mock.ts'
import { startApp, type TestApp } from '../../helpers.ts'

const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOT = '/tmp/delegation-approval.png'
const ORG = '997612302'
const EVIL = 'http://evil.example'

async function submit(page: Page, button: Locator): Promise<PwResponse> {
  const [res] = await Promise.all([page.waitForNavigation(), button.click()])
  if (!res) throw new Error('the click did not load a document')
  return res
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
  'the mock agency’s approval page in headless Chromium',
  () => {
    let app: TestApp
    let agency: MockDigitalAgency
    let browser: Browser
    let context: BrowserContext
    let page: Page
    const offsite: string[] = []
    const pageErrors: string[] = []

    const newRequest = () =>
      agency.requestSystemUser({
        partyOrgNo: ORG,
        externalRef: `consumer:${crypto.randomUUID()}`,
        accessPackages: ['urn:altinn:accesspackage:merverdiavgift'],
        redirectUrl: `${app.url}/fullmakt/returned`,
      })

    beforeAll(async () => {
      app = await startApp()
      agency = app.deps.digitalAgency as MockDigitalAgency
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
      const n = () => Math.floor(Math.random() * 256)
      context = await browser.newContext({
        extraHTTPHeaders: { 'x-forwarded-for': `10.${128 + (n() >> 1)}.${n()}.${n()}` },
      })
      await context.route('**/*', (route) => {
        const u = new URL(route.request().url())
        if (u.hostname === '127.0.0.1') return route.continue()
        if (u.origin === EVIL && route.request().method() === 'GET') {
          // The attacker's page: a copy of our form, with a token it fetched itself, posting to us.
          return route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: decodeURIComponent(u.searchParams.get('form')!),
          })
        }
        offsite.push(u.href)
        return route.abort()
      })
      page = await context.newPage()
      page.on('pageerror', (e) => pageErrors.push(e.message))
    })
    afterAll(async () => {
      await context?.close()
      await browser?.close()
      await app?.stop()
    })

    test('the page shows the organisation, the packages and who may approve; approving as one of them accepts the request', async () => {
      const r = await newRequest()
      expect(new URL(r.confirmUrl).origin).toBe(app.url)
      expect((await page.goto(r.confirmUrl))!.status()).toBe(200)
      expect(await page.title()).toBe('Godkjenn systembruker – Plikt')
      expect(await page.locator('#mock-notice').innerText()).toContain('Etterligning')
      expect(await page.locator('#org-name').innerText()).toBe('FJORDREVISJON AS')
      expect(await page.locator('#org-number').innerText()).toBe(ORG)
      expect(await page.locator('#packages').innerText()).toContain('Merverdiavgift / VAT')
      const approvers = page.locator('h2#approvers ~ .table-wrap table tbody tr td:first-child')
      expect(await approvers.allInnerTexts()).toEqual(['Ragnhild Fjord', 'Sverre Revheim'])
      expect(await page.getByRole('radio').count()).toBe(2)
      await page.screenshot({ path: SCREENSHOT, fullPage: true })

      await page.getByLabel('Ragnhild Fjord').check()
      const approved = await submit(page, page.locator('#approve'))
      // as Altinn does, the person is sent to the requester's return address
      expect(approved.status()).toBe(200)
      expect(page.url()).toBe(`${app.url}/fullmakt/returned`)
      expect(await page.locator('#returned').innerText()).toContain('Takk')
      await page.goto(r.confirmUrl)
      expect(await page.locator('#status').innerText()).toContain('Godkjent')
      expect(await page.locator('#decision').innerText()).toContain('Ragnhild Fjord')
      expect(await page.locator('main form').count()).toBe(0)
      expect(await page.locator('#back').getAttribute('href')).toBe(`${app.url}/fullmakt/returned`)

      expect((await agency.requestStatus(r.id))!.status).toBe('Accepted')
      const user = await agency.systemUser(ORG, r.externalRef)
      expect(user!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    }, 30_000)

    test('rejecting as one of them rejects the request, and no system user is made', async () => {
      const r = await newRequest()
      await page.goto(r.confirmUrl)
      await page.getByLabel('Sverre Revheim').check()
      const rejected = await submit(page, page.locator('#reject'))
      expect(rejected.status()).toBe(200)
      expect(page.url()).toBe(`${app.url}/fullmakt/returned`)
      await page.goto(r.confirmUrl)
      expect(await page.locator('#status').innerText()).toContain('Avvist')
      expect(await page.locator('#decision').innerText()).toContain('Sverre Revheim')
      expect((await agency.requestStatus(r.id))!.status).toBe('Rejected')
      expect(await agency.systemUser(ORG, r.externalRef)).toBeNull()
    }, 30_000)

    test('a tampered form token is refused, and the request stays New', async () => {
      const r = await newRequest()
      await page.goto(r.confirmUrl)
      const token = page.locator('input[name=csrf_token]')
      const real = (await token.getAttribute('value'))!
      await token.evaluate((el, forged) => el.setAttribute('value', forged), `${real.split('.')[0]}.${'A'.repeat(43)}`)
      await page.getByLabel('Ragnhild Fjord').check()
      const refused = await submit(page, page.locator('#approve'))
      expect(refused.status()).toBe(400)
      expect(await page.locator('main').innerText()).toContain('csrf_token')
      expect((await agency.requestStatus(r.id))!.status).toBe('New')
    }, 30_000)

    test('our own form, with a valid token, posted from another site is refused, and the request stays New', async () => {
      const r = await newRequest()
      await page.goto(r.confirmUrl)
      const ours = await page.locator('main form').evaluate((f) => f.outerHTML)
      const action = `${r.confirmUrl}/decision`
      const attack = `<!doctype html><html><body>${ours.replace(/action="[^"]*"/, `action="${action}"`).replace('name="approver" id="approver-0"', 'name="approver" id="approver-0" checked')}</body></html>`
      await page.goto(`${EVIL}/?form=${encodeURIComponent(attack)}`)
      const refused = await submit(page, page.locator('#approve'))
      expect(refused.status()).toBe(400)
      expect(await page.locator('main').innerText()).toContain('origin')
      expect((await agency.requestStatus(r.id))!.status).toBe('New')
      expect(pageErrors).toEqual([])
      expect(offsite).toEqual([])
    }, 30_000)
  },
)
