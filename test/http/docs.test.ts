import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { ERROR_CODES } from '../../src/errors/catalogue/index.ts'
import { startApp, type TestApp } from '../helpers.ts'

const CHROMIUM = '/usr/bin/chromium'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

describe('/docs', () => {
  test('serves a page that loads only same-origin assets', async () => {
    const res = await app.get('/docs')
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) expect(ref.startsWith('/')).toBe(true)
    for (const ref of refs) expect((await app.get(ref)).status).toBe(200)
  })

  test('an unknown asset is a 404 in the envelope', async () => {
    const res = await app.get('/docs/assets/nope.js')
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('NOT_FOUND')
  })

  test('a name every object inherits (constructor, toString, __proto__) is no asset: 404', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const res = await app.get(`/docs/assets/${name}`)
      expect([name, res.status]).toEqual([name, 404])
    }
  })

  test.each(['/docs/receipt-signature', '/docs/webhook-signature', '/docs/anchor-proof'])(
    '%s is a page like the other docs pages, not raw Markdown (issue 27, item 17)',
    async (path) => {
      const res = await app.get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(res.headers.get('cache-control')).toStartWith('public, max-age=')
      const etag = res.headers.get('etag')!
      const html = await res.text()
      expect(html).toStartWith('<!doctype html>')
      expect(html).toMatch(/<h1 id="[^"]+">Verifying an? [^<]+<\/h1>/)
      expect(html).toContain('<pre tabindex="0"><code class="language-')
      expect(html).not.toMatch(/^#{1,3} /m) // no heading left as Markdown
      expect(html).not.toContain('```')
      expect((await app.get(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
    },
  )

  test('the receipt recipe page still names the signed string, escaped as text', async () => {
    const html = await (await app.get('/docs/receipt-signature')).text()
    expect(html).toContain('PLIKT-RECEIPT-v1')
    expect(html).not.toContain('<script')
  })

  test('/favicon.ico is a small icon, cached publicly with a strong tag like the other static documents (issue 27, item 17)', async () => {
    const res = await app.get('/favicon.ico')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    expect(res.headers.get('cache-control')).toStartWith('public, max-age=')
    const etag = res.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    const svg = await res.text()
    expect(svg).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"')
    expect(svg.length).toBeLessThan(1024)
    const again = await app.get('/favicon.ico', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    // and the pages point at it
    expect(await (await app.get('/login')).text()).toContain(
      '<link rel="icon" href="/favicon.ico" type="image/svg+xml">',
    )
  })

  test('/docs/errors has an anchor for every code, so every docs_url resolves', async () => {
    const html = await (await app.get('/docs/errors')).text()
    for (const code of ERROR_CODES) expect(html).toContain(`id="${code}"`)
  })
})

// A real browser with every request off this machine refused: the docs must render offline.
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('/docs in headless Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
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
  afterAll(() => browser?.close())

  test('renders every operation of the OpenAPI document without leaving localhost', async () => {
    const page = await browser.newPage()
    const offsite: string[] = []
    const pageErrors: string[] = []
    await page.route('**/*', (route) => {
      const u = new URL(route.request().url())
      if (u.hostname === '127.0.0.1') return route.continue()
      offsite.push(u.href)
      return route.abort()
    })
    page.on('pageerror', (e) => pageErrors.push(e.message))
    await page.goto(`${app.url}/docs`)
    const doc = await (await app.get('/openapi.json')).json()
    const expected = Object.values<Record<string, unknown>>(doc.paths).reduce(
      (n, item) => n + Object.keys(item).length,
      0,
    )
    // Swagger UI renders only the operations inside the window (with ~130 of them, a 720-pixel
    // window shows 7, and scrolling the headless page does not bring the rest in): a window tall
    // enough for all of them.
    await page.setViewportSize({ width: 1280, height: 40_000 })
    await page
      .waitForFunction(`document.querySelectorAll('.opblock').length >= ${expected}`, undefined, { timeout: 20_000 })
      .catch(() => {})
    expect(await page.locator('.opblock').count()).toBe(expected)
    expect(await page.locator('.info .title').innerText()).toContain('Plikt')
    expect(offsite).toEqual([])
    expect(pageErrors).toEqual([])
    await page.close()
  }, 60_000)
})
