/**
 * The sign-in form answers a person, not a developer (issue 27, item 15): a sign-up left half done
 * or a mistyped address gets the form back with what was typed and the problem named beside its
 * field, in bokmål and English; an address alone is told honestly that a link went out only if the
 * address has an account, and that a new one must sign up.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../../helpers.ts'
import { createConsumer, freshIp, lastMailTo, postForm, uniqueEmail } from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const send = (values: Record<string, string>) => postForm(app, '/login', values, { origin: app.url, ...freshIp() })
const consumers = async () => (await app.deps.sql`select count(*)::int as n from consumers`)[0]!.n as number

/** The input of one field, as the page renders it. */
const input = (html: string, id: string) => new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0] ?? ''

describe('a sign-up without the consent box ticked', () => {
  test('gets the form back (400) with the address and the company kept and the problem beside the box, in both languages', async () => {
    const email = uniqueEmail('noconsent')
    const before = await consumers()
    const res = await send({ email, company_name: 'Glemsk & Sønner AS' })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toStartWith('text/html')
    const html = await res.text()
    // what was typed is kept (escaped)
    expect(input(html, 'email')).toContain(`value="${email}"`)
    expect(input(html, 'company_name')).toContain('value="Glemsk &amp; Sønner AS"')
    // the problem is beside the box, tied to it for a screen reader
    expect(input(html, 'consent')).toContain('aria-invalid="true"')
    expect(input(html, 'consent')).toContain('aria-describedby="consent-error"')
    const note = /<p class="field-error" id="consent-error">(.*?)<\/p>/.exec(html)?.[1] ?? ''
    expect(note).toContain('Kryss av her for å registrere deg')
    expect(note).toContain('lang="en"')
    expect(note).toContain('Tick this box to sign up')
    // no developer's page, and no way to a dashboard the visitor does not have
    for (const developerWords of [
      'explanation.details',
      'payload.period',
      'OpenAPI',
      'VALIDATION_FAILED',
      '/dashboard',
    ])
      expect(html).not.toContain(developerWords)
    // nothing was asked for: no account, no mail
    expect(await consumers()).toBe(before)
    expect(await lastMailTo(app, email)).toBeNull()
  })

  test('the consent box ticked without a company name names the company field instead', async () => {
    const email = uniqueEmail('nocompany')
    const res = await send({ email, consent: 'true' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(input(html, 'consent')).toContain(' checked')
    expect(input(html, 'company_name')).toContain('aria-describedby="company_name-error"')
    expect(html).toContain('Fill in the company name to sign up')
    expect(await lastMailTo(app, email)).toBeNull()
  })

  test('a malformed address is named beside the address field, what was typed kept', async () => {
    const res = await send({ email: 'ola@nordmann', company_name: 'Nordmann AS', consent: 'true' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(input(html, 'email')).toContain('value="ola@nordmann"')
    expect(input(html, 'email')).toContain('aria-describedby="email-error"')
    expect(html).toContain('This is not a valid e-mail address')
    expect(input(html, 'consent')).toContain(' checked')
  })
})

describe('an address alone', () => {
  test('is not told "check your e-mail" as if a mail were coming: it hears that a new address got none, and gets the sign-up form with the address kept', async () => {
    const email = uniqueEmail('alone')
    const res = await send({ email })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).not.toContain('Sjekk e-posten din</span>')
    expect(html).toContain('If the address has an account, a sign-in link is in your e-mail')
    expect(html).toContain('If you are new, no e-mail has been sent.')
    expect(input(html, 'email')).toContain(`value="${email}"`)
    expect(html).toContain('id="company_name"')
    expect(await lastMailTo(app, email)).toBeNull()
  })

  test('of an existing account gets its sign-in link, and the very same page', async () => {
    const known = await createConsumer(app)
    const unknown = uniqueEmail('alone')
    const knownHtml = (await (await send({ email: known.email })).text()).replaceAll(known.email, 'ADDRESS')
    const unknownHtml = (await (await send({ email: unknown })).text()).replaceAll(unknown, 'ADDRESS')
    expect(knownHtml).toBe(unknownHtml)
    expect((await lastMailTo(app, known.email))?.subject).toContain('Sign in to Plikt')
  })
})

test('a complete sign-up is told to check the e-mail, and the link is there', async () => {
  const email = uniqueEmail('complete')
  const res = await send({ email, company_name: 'Komplett AS', consent: 'true' })
  expect(res.status).toBe(200)
  expect(await res.text()).toContain('Check your e-mail')
  expect((await lastMailTo(app, email))?.subject).toContain('Complete your Plikt sign-up')
})

test('an error page shown to a signed-out visitor leads to the front page, not to a dashboard it cannot open', async () => {
  // A form refused before the page's own checks (here: posted from another site) is an error page.
  const res = await postForm(app, '/login', { email: uniqueEmail() }, { origin: 'https://evil.example', ...freshIp() })
  expect(res.status).toBe(400)
  const html = await res.text()
  expect(html).not.toContain('href="/dashboard"')
  expect(html).toContain('<a href="/">Til forsiden / To the front page</a>')
})
