/**
 * Issue 13's "done means", end to end over real HTTP with the approval in headless Chromium: a
 * fresh key requests fullmakt → a person with signing authority approves in the browser →
 * permissions `full` → dry run → approval token → live execute → the receipt verifies with the
 * published recipe (docs/receipt-signature.md, written out here, not imported).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { startApp, type TestApp } from '../../helpers.ts'
import { freshIp, lastMailTo, magicToken } from '../../helpers.ts'
import { agent, ORG, MVA, receiptKey } from '../../helpers.ts'

const CHROMIUM = '/usr/bin/chromium'

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('from a fresh key to a filed VAT return', () => {
  let app: TestApp
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    app = await startApp()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    const context = await browser.newContext({
      extraHTTPHeaders: {
        'x-forwarded-for': `10.77.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`,
      },
    })
    await context.route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
    )
    page = await context.newPage()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  test('request, approve in the browser, check, dry-run, mint a token, confirm it in the browser as the account owner, file, verify', async () => {
    const a = await agent(app)
    const requested = await app.send(
      'POST',
      '/api/v1/fullmakt/request',
      { agent_principal_id: crypto.randomUUID(), org_number: ORG, scopes: [MVA] },
      a.auth,
    )
    expect(requested.status).toBe(201)
    const { delegation_url } = (await requested.json()).data

    expect((await page.goto(delegation_url))!.status()).toBe(200)
    await page.getByRole('radio').first().check()
    await Promise.all([page.waitForNavigation(), page.locator('#approve').click()])
    // sent back to the service's return page, whose visit recorded the approval at once
    expect(page.url()).toBe(`${app.url}/fullmakt/returned`)
    expect(await page.locator('#returned').innerText()).toContain('Takk')

    const permissions = (await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data
    expect(permissions.status).toBe('full')

    const body = {
      org_number: ORG,
      action_type: 'mva_melding',
      period: '2026-T3',
      payload: { total_revenue_nok: 125000, output_vat_nok: 31250 },
    }
    const dry = (await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)).json()).data
    expect(dry.validation.all_passed).toBe(true)
    const minted = (
      await (
        await app.send('POST', '/api/v1/auth/approval-token', { ...body, action_id: dry.action_id }, a.auth)
      ).json()
    ).data
    const token = minted.approval_token
    expect(minted.confirmation_state).toBe('awaiting_confirmation')
    // Unconfirmed, the token files nothing.
    const early = await app.send('POST', '/api/v1/actions/execute', body, {
      ...a.auth,
      'idempotency-key': crypto.randomUUID(),
      'x-approval-token': token,
    })
    expect((await early.json()).error_code).toBe('APPROVAL_TOKEN_UNCONFIRMED')

    // The person opens confirmation_url: signed out, the page sends them to sign in.
    await page.goto(minted.confirmation_url)
    expect(new URL(page.url()).pathname).toBe('/login')
    // They sign in with the link the service e-mails them (the account's owner), in the same browser …
    expect((await app.send('POST', '/api/v1/account/signup', { email: a.email }, freshIp())).status).toBe(200)
    const mail = await lastMailTo(app, a.email)
    await page.goto(`${app.url}/auth/magic?token=${magicToken(mail!.body)}`)
    await Promise.all([page.waitForNavigation(), page.locator('#confirm').click()])
    // … see what the agent would file, and confirm it.
    expect((await page.goto(minted.confirmation_url))!.status()).toBe(200)
    expect(await page.locator('#org-number').innerText()).toBe(ORG)
    expect(await page.locator('#period').innerText()).toBe('2026-T3')
    expect(await page.locator('[data-field="total_revenue_nok"]').innerText()).toMatch(/^125\s000 kr$/)
    expect(await page.locator('#checks li[data-passed="true"]').count()).toBe(5)
    const decided = await Promise.all([page.waitForNavigation(), page.locator('#confirm').click()])
    expect(decided[0]!.status()).toBe(200)
    expect(await page.locator('#state').getAttribute('data-state')).toBe('confirmed')
    expect(await page.locator('#outcome').innerText()).toContain('Confirmed')
    const filed = await app.send('POST', '/api/v1/actions/execute', body, {
      ...a.auth,
      'idempotency-key': crypto.randomUUID(),
      'x-approval-token': token,
    })
    expect(filed.status).toBe(200)
    const { receipt } = (await filed.json()).data

    const recipe = await (await app.get('/docs/receipt-signature')).text()
    expect(recipe).toContain('PLIKT-RECEIPT-v1')
    const message = [
      'PLIKT-RECEIPT-v1',
      receipt.altinn_receipt_id,
      receipt.audit_log_id,
      receipt.org_number,
      receipt.filing_type,
      receipt.timestamp,
    ].join('\x1f')
    const expected = createHmac('sha256', await receiptKey(app, a))
      .update(message, 'utf8')
      .digest()
    expect(timingSafeEqual(expected, Buffer.from(receipt.signature, 'hex'))).toBe(true)
  }, 60_000)
})
