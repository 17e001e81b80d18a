/**
 * Pages for people: sign-in by magic link, the dashboard (filings awaiting the owner's
 * confirmation, keys, issuance tokens, usage, credits) and top-up approval. Every state-changing form carries the session's CSRF token.
 */
import { AppError } from '../../errors/app-error.ts'
import { mintKey, revokeKey } from '../../domain/access/keys.ts'
import { mintIssuanceToken, revokeIssuanceToken } from '../../domain/access/issuance.ts'
import { completeMagicLink, requestMagicLink, SESSION_TTL_MS, signOut } from '../../domain/access/signin.ts'
import { MAX_ACTIVE_KEYS, MAX_OUTSTANDING_ISSUANCE_TOKENS, type Principal } from '../../domain/access/types.ts'
import { usageOf } from '../../domain/access/usage.ts'
import { awaitingConfirmation } from '../../domain/actions/confirmation.ts'
import { confirmationPath } from '../../domain/actions/approval.ts'
import * as accounts from '../../store/accounts.ts'
import * as credits from '../../store/credits.ts'
import * as oauthStore from '../../store/oauth.ts'
import type { CsrfForm, KeyForm, LoginForm, MagicQuery, TokenForm } from '../../schemas/pages.ts'
import type { IdParam } from '../../schemas/access.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import { bi, esc, htmlResponse, nok, osloTime, page, redirect, table } from '../html.ts'
import { EMAIL_PATTERN } from '../../schemas/common.ts'
import { sessionActor, sessionOf } from '../../pipeline/admission.ts'
import { SESSION_COOKIE } from '../../pipeline/credentials.ts'

type Session = Extract<Principal, { kind: 'session' }>

function sessionCookie(token: string, deps: AppDeps, maxAgeS: number): string {
  const secure = deps.config.baseUrl.startsWith('https://') ? '; Secure' : ''
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure}`
}

const csrfField = (csrf: string) => `<input type="hidden" name="csrf_token" value="${esc(csrf)}">`

/** A secret shown once: its own heading and a status region, so screen readers announce it. */
function secretBlock(labelNb: string, labelEn: string, secret: string): string {
  return `<section class="flash" role="status" aria-labelledby="secret-heading"><h2 id="secret-heading">${bi(labelNb, labelEn)}</h2>
<output class="secret" id="secret">${esc(secret)}</output>
<p class="note">${bi('Kopier den nå: den vises ikke igjen, og vi lagrer den bare som en hash.', 'Copy it now: it is not shown again, and we store only its hash.')}</p></section>`
}

interface LoginValues {
  email: string
  company: string
  consent: boolean
}
type LoginField = 'email' | 'company_name' | 'consent'
type LoginProblems = Partial<Record<LoginField, [nb: string, en: string]>>

const EMAIL = new RegExp(EMAIL_PATTERN)

/**
 * What keeps the form from being sent, by field. An address alone signs in (or, for a new address,
 * sends nothing); a company name with the consent box ticked signs up; one without the other is
 * a sign-up left half done (spec: sign-up needs e-mail, company name and consent).
 */
function loginProblems(f: LoginValues): LoginProblems {
  const p: LoginProblems = {}
  if (f.email === '') p.email = ['Fyll inn e-postadressen din.', 'Fill in your e-mail address.']
  else if (!EMAIL.test(f.email))
    p.email = [
      'Dette er ikke en gyldig e-postadresse. Den skal se slik ut: navn@firma.no.',
      'This is not a valid e-mail address. It should look like name@company.no.',
    ]
  if (f.company !== '' && !f.consent)
    p.consent = [
      'Kryss av her for å registrere deg: uten samtykke kan vi ikke opprette kontoen.',
      'Tick this box to sign up: without consent we cannot create the account.',
    ]
  if (f.company === '' && f.consent)
    p.company_name = [
      'Fyll inn virksomhetens navn for å registrere deg (eller fjern krysset for å bare logge inn).',
      'Fill in the company name to sign up (or untick the box to just sign in).',
    ]
  return p
}

/** The problem beside its field: announced with the field (aria-describedby) and marked invalid. */
function fieldError(field: LoginField, problems: LoginProblems): { attrs: string; note: string } {
  const p = problems[field]
  if (!p) return { attrs: '', note: '' }
  return {
    attrs: ` aria-invalid="true" aria-describedby="${field}-error"`,
    note: `<p class="field-error" id="${field}-error">${bi(esc(p[0]), esc(p[1]))}</p>`,
  }
}

function loginFormHtml(f: LoginValues, problems: LoginProblems): string {
  const first = (['email', 'company_name', 'consent'] as const).find((k) => problems[k])
  const autofocus = (k: LoginField) => (first === k ? ' autofocus' : '')
  const email = fieldError('email', problems)
  const company = fieldError('company_name', problems)
  const consent = fieldError('consent', problems)
  return `<form method="post" action="/login">
<label for="email">E-post / E-mail</label>${email.note}<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${esc(f.email)}"${email.attrs}${autofocus('email')}>
<fieldset><legend>${bi('Ny konto? Fyll ut også dette', 'New account? Fill in these too')}</legend>
<label for="company_name">${bi('Virksomhet', 'Company')}</label>${company.note}<input id="company_name" name="company_name" type="text" maxlength="200" autocomplete="organization" value="${esc(f.company)}"${company.attrs}${autofocus('company_name')}>
${consent.note}<label for="consent" class="check"><input id="consent" type="checkbox" name="consent" value="true"${f.consent ? ' checked' : ''}${consent.attrs}${autofocus('consent')}> ${bi('Jeg godtar vilkårene og at e-postadressen lagres for kontoen.', 'I accept the terms and that the e-mail address is stored for the account.')}</label>
</fieldset>
<button type="submit">${bi('Send meg en lenke', 'E-mail me a link')}</button></form>`
}

/** The sign-in page; with problems, the form as it was sent, each problem beside its field and listed first. */
function loginPage(f: LoginValues, problems: LoginProblems): string {
  const listed = (Object.entries(problems) as [LoginField, [string, string]][]).map(
    ([k, [nb, en]]) => `<li><a href="#${k}">${bi(esc(nb), esc(en))}</a></li>`,
  )
  const summary = listed.length
    ? `<div class="error" role="alert" aria-labelledby="problems-heading"><h2 id="problems-heading">${bi('Skjemaet ble ikke sendt', 'The form was not sent')}</h2><ul>${listed.join('')}</ul></div>`
    : ''
  return page(
    listed.length ? 'Feil i skjemaet – Logg inn' : 'Logg inn',
    `<h1>${bi('Logg inn eller registrer deg', 'Sign in or sign up')}</h1>
${summary}
${loginFormHtml(f, problems)}`,
  )
}

/** The column of each row's button: named for a screen reader, blank to the eye. */
const ACTIONS_TH = `<th><span class="visually-hidden">${bi('Handling', 'Action')}</span></th>`

async function dashboard(deps: AppDeps, s: Session, now: Date, flash = ''): Promise<string> {
  const consumer = (await accounts.findConsumer(deps.sql, s.consumerId))!
  const keys = await accounts.listKeys(deps.sql, s.consumerId, true)
  const active = keys.filter((k) => !k.revoked_at)
  const tokens = await accounts.listIssuanceTokens(deps.sql, s.consumerId)
  const usage = await usageOf(deps.sql, consumer.tier, active, now)
  const balance = await credits.readBalance(deps.sql, s.consumerId)
  const topups = await credits.listTopups(deps.sql, s.consumerId)
  const connections = await oauthStore.activeConnectionsOf(deps.sql, s.consumerId)
  const awaiting = await awaitingConfirmation(deps.sql, s.consumerId, now)
  const tokenStatus = (t: accounts.IssuanceTokenRow) =>
    t.redeemed_at
      ? bi('innløst', 'redeemed')
      : t.revoked_at
        ? bi('trukket tilbake', 'revoked')
        : t.expires_at <= now
          ? bi('utløpt', 'expired')
          : bi('gyldig', 'valid')
  const keyRows = keys
    .map(
      (
        k,
      ) => `<tr><td><code>${esc(k.display_prefix)}</code></td><td>${esc(k.label)}</td><td>${esc(k.scopes.join(' '))}</td><td>${osloTime(k.created_at)}</td>
<td>${k.revoked_at ? bi('trukket tilbake', 'revoked') : `<form method="post" action="/dashboard/keys/${esc(k.id)}/revoke">${csrfField(s.csrfToken)}<button class="secondary" type="submit" aria-label="Trekk tilbake / Revoke ${esc(k.display_prefix)}">Trekk tilbake / Revoke</button></form>`}</td></tr>`,
    )
    .join('')
  const tokenRows = tokens
    .map(
      (
        t,
      ) => `<tr><td><code>${esc(t.display_prefix)}</code></td><td>${osloTime(t.expires_at)}</td><td>${tokenStatus(t)}</td>
<td>${!t.redeemed_at && !t.revoked_at && t.expires_at > now ? `<form method="post" action="/dashboard/issuance-tokens/${esc(t.id)}/revoke">${csrfField(s.csrfToken)}<button class="secondary" type="submit">Trekk tilbake / Revoke</button></form>` : ''}</td></tr>`,
    )
    .join('')
  const usageRows = usage.keys
    .map(
      (u) => `<tr><td><code>${esc(u.display_prefix)}</code></td><td>${u.minute.used}</td><td>${u.day.used}</td></tr>`,
    )
    .join('')
  const topupRows = topups
    .map(
      (t) =>
        `<tr><td>${nok(t.amount_ore)}</td><td>${esc(t.status)}</td><td>${osloTime(t.expires_at)}</td><td>${t.status === 'pending' && t.expires_at > now ? `<a href="/billing/topup/${esc(t.id)}">Godkjenn / Approve</a>` : ''}</td></tr>`,
    )
    .join('')
  const connectionRows = connections
    .map(
      (
        c,
      ) => `<tr><td><code>${esc(c.issuer)}</code></td><td><code>${esc(c.subject)}</code></td><td>${osloTime(c.approved_at)}</td>
<td><form method="post" action="/dashboard/oauth-connections/${esc(c.id)}/disconnect">${csrfField(s.csrfToken)}<button class="secondary" type="submit">Koble fra / Disconnect</button></form></td></tr>`,
    )
    .join('')
  const awaitingRows = awaiting
    .map(
      (t) =>
        `<tr><td><code>${esc(t.org_number)}</code></td><td>${esc(t.action?.action_type ?? '')} ${esc(t.action?.period ?? '')}</td><td>${osloTime(t.expires_at)}</td><td><a href="${esc(confirmationPath(t.id))}">Se og bekreft / Review and confirm</a></td></tr>`,
    )
    .join('')
  const per = (n: number | null) => (n === null ? 'ubegrenset / unlimited' : String(n))
  return page(
    'Dashbord',
    `<h1>${bi('Dashbord', 'Dashboard')}</h1>${flash}
<p>${esc(consumer.company_name ?? consumer.email)} · ${esc(consumer.email)} · ${bi('plan', 'plan')}: <strong>${esc(consumer.tier)}</strong></p>
<p><a href="/dashboard/portfolios" id="to-portfolios">${bi('Porteføljer: klientenes frister, CSV og kalenderstrøm', 'Portfolios: your clients’ deadlines, CSV and calendar feed')}</a></p>

${
  awaiting.length > 0
    ? `<h2 id="approvals">${bi('Innsendinger som venter på din bekreftelse', 'Filings awaiting your confirmation')}</h2>
<p class="note">${bi('En agent med en nøkkel på kontoen ber om å sende inn disse. Ingenting sendes inn før du har bekreftet.', 'An agent with a key of this account asks to file these. Nothing is filed until you confirm.')}</p>
${table(`<th>${bi('Org.nr.', 'Org. no.')}</th><th>${bi('Handling', 'Action')}</th><th>${bi('Utløper', 'Expires')}</th>${ACTIONS_TH}`, awaitingRows, '', '', 4)}`
    : ''
}

<h2 id="keys">${bi('API-nøkler', 'API keys')}</h2>
<p class="note">${bi(`Høyst ${MAX_ACTIVE_KEYS} aktive nøkler. Bytt nøkkel slik: lag en ny, ta den i bruk, og trekk tilbake den gamle.`, `At most ${MAX_ACTIVE_KEYS} active keys. To rotate: mint a new one, switch to it, then revoke the old one.`)}</p>
${table(`<th>${bi('Nøkkel', 'Key')}</th><th>${bi('Navn', 'Label')}</th><th>Scopes</th><th>${bi('Laget', 'Created')}</th>${ACTIONS_TH}`, keyRows, 'Ingen nøkler ennå.', 'No keys yet.', 5)}
<form method="post" action="/dashboard/keys">${csrfField(s.csrfToken)}
<label for="label">${bi('Navn på ny nøkkel', 'Label for a new key')}</label><input id="label" name="label" type="text" maxlength="80" placeholder="prod-agent">
<label><input type="checkbox" name="test" value="true"> ${bi('Testnøkkel (svc_test_): bare syntetiske svar fra sandkassen, aldri belastet', 'Test key (svc_test_): synthetic sandbox answers only, never charged')}</label>
<button type="submit">${bi('Lag ny nøkkel', 'Mint a key')}</button></form>

<h2 id="issuance">${bi('Utstedelsestokener', 'Issuance tokens')}</h2>
<p class="note">${bi(`Et token gir en agent én nøkkel (read:*) uten innlogging: gyldig i 24 timer, kan brukes én gang, høyst ${MAX_OUTSTANDING_ISSUANCE_TOKENS} om gangen.`, `A token lets an agent get one read:* key without signing in: valid 24 hours, single use, at most ${MAX_OUTSTANDING_ISSUANCE_TOKENS} at a time.`)}</p>
${table(`<th>Token</th><th>${bi('Utløper', 'Expires')}</th><th>Status</th>${ACTIONS_TH}`, tokenRows, 'Ingen tokener ennå.', 'No tokens yet.', 4)}
<form method="post" action="/dashboard/issuance-tokens">${csrfField(s.csrfToken)}<button type="submit">${bi('Lag utstedelsestoken', 'Mint an issuance token')}</button></form>

<h2 id="oauth">${bi('OAuth-tilkoblinger', 'OAuth connections')}</h2>
${table(`<th>${bi('Utsteder', 'Issuer')}</th><th>${bi('Bruker', 'Subject')}</th><th>${bi('Godkjent', 'Approved')}</th>${ACTIONS_TH}`, connectionRows, 'Ingen MCP-klienter er koblet til.', 'No MCP clients are connected.', 4)}

<h2 id="usage">${bi('Bruk', 'Usage')}</h2>
<p>${bi('Grenser', 'Ceilings')}: ${per(usage.ceilings.per_minute)} ${bi('per minutt', 'per minute')}, ${per(usage.ceilings.per_day)} ${bi('per døgn (UTC)', 'per day (UTC)')}</p>
${table(`<th>${bi('Nøkkel', 'Key')}</th><th>${bi('Dette minuttet', 'This minute')}</th><th>${bi('I dag', 'Today')}</th>`, usageRows, 'Ingen aktive nøkler.', 'No active keys.', 3)}

<h2 id="credits">${bi('Kreditt', 'Credits')}</h2>
<p>${bi('Saldo', 'Balance')}: <strong id="balance">${nok(balance.balance_ore)}</strong></p>
<p class="note">${bi('En agent ber om påfyll med POST /api/v1/billing/topup-requests; du godkjenner her.', 'An agent asks for a top-up with POST /api/v1/billing/topup-requests; you approve it here.')}</p>
${table(`<th>${bi('Beløp', 'Amount')}</th><th>Status</th><th>${bi('Utløper', 'Expires')}</th>${ACTIONS_TH}`, topupRows, 'Ingen forespørsler om påfyll.', 'No top-up requests.', 4)}`,
    { signedIn: { csrf: s.csrfToken } },
  )
}

export const pageHandlers = {
  loginPage: (() => htmlResponse(loginPage({ email: '', company: '', consent: false }, {}))) satisfies Handler,

  loginSubmit: (async ({ body, deps, now, state }) => {
    const form: LoginValues = {
      email: body.email.trim(),
      company: body.company_name?.trim() ?? '',
      consent: body.consent === 'true',
    }
    const problems = loginProblems(form)
    if (Object.keys(problems).length > 0) return htmlResponse(loginPage(form, problems), 400)
    const signup = form.company !== ''
    await requestMagicLink(
      deps.sql,
      deps.config.baseUrl,
      { email: form.email, ...(signup ? { company_name: form.company } : {}) },
      now,
      state.correlationId,
    )
    if (signup) {
      return htmlResponse(
        page(
          'Sjekk e-posten',
          `<h1>${bi('Sjekk e-posten din', 'Check your e-mail')}</h1>
<p>${bi('Vi har sendt en lenke til adressen: en innloggingslenke hvis den har en konto fra før, ellers en lenke som oppretter kontoen. Den gjelder i 15 minutter og kan brukes én gang.', 'We have sent a link to the address: a sign-in link if it already has an account, otherwise one that creates the account. It is valid for 15 minutes and works once.')}</p>`,
        ),
      )
    }
    // An address alone signs in an account that exists and sends nothing otherwise; the answer is
    // the same either way (domain/access/signin.ts), so it says both and offers the sign-up.
    return htmlResponse(
      page(
        'Sjekk e-posten hvis du har en konto',
        `<h1>${bi('Har du en konto, har vi sendt deg en lenke', 'If you have an account, we have sent you a link')}</h1>
<p>${bi('Har adressen en konto, finner du en innloggingslenke i e-posten. Den gjelder i 15 minutter og kan brukes én gang.', 'If the address has an account, a sign-in link is in your e-mail. It is valid for 15 minutes and works once.')}</p>
<p><strong>${bi('Er du ny, er ingen e-post sendt.', 'If you are new, no e-mail has been sent.')}</strong> ${bi('For å registrere deg fyller du også ut virksomheten og godtar vilkårene:', 'To sign up, fill in the company too and accept the terms:')}</p>
${loginFormHtml(form, {})}`,
      ),
    )
  }) satisfies Handler<{ body: typeof LoginForm }>,

  // Opening the link shows a button: mail scanners that fetch links must not use up the sign-in.
  magicLinkPage: (({ query }) =>
    htmlResponse(
      page(
        'Logg inn',
        `<h1>${bi('Fullfør innloggingen', 'Finish signing in')}</h1>
<form method="post" action="/auth/magic"><input type="hidden" name="token" value="${esc(query.token)}">
<button type="submit" id="confirm">${bi('Logg inn', 'Sign in')}</button></form>`,
      ),
    )) satisfies Handler<{ query: typeof MagicQuery }>,

  magicLinkSubmit: (async ({ body, deps, now, state }) => {
    let signed
    try {
      signed = await completeMagicLink(deps.sql, body.token, now, state.correlationId)
    } catch (e) {
      if (e instanceof AppError && e.code === 'AUTH_EXPIRED_TOKEN') {
        return htmlResponse(
          page(
            'Lenken virker ikke',
            `<h1>${bi('Lenken er brukt eller utløpt', 'The link has been used or has expired')}</h1><p><a href="/login">${bi('Be om en ny lenke', 'Ask for a new link')}</a></p>`,
          ),
          400,
        )
      }
      throw e
    }
    const cookie = sessionCookie(signed.sessionToken, deps, SESSION_TTL_MS / 1000)
    const body2 = signed.firstKey
      ? `<h1>${bi('Kontoen er opprettet', 'Your account is ready')}</h1>${secretBlock('Din første API-nøkkel (free):', 'Your first API key (free tier):', signed.firstKey.plaintext_key)}`
      : `<h1>${bi('Du er logget inn', 'You are signed in')}</h1>`
    return htmlResponse(
      page(
        'Velkommen',
        `${body2}<p><a href="/dashboard" id="to-dashboard">${bi('Til dashbordet', 'To the dashboard')}</a></p>`,
        { signedIn: { csrf: signed.csrfToken } },
      ),
      200,
      { 'set-cookie': cookie },
    )
  }) satisfies Handler<{ body: typeof TokenForm }>,

  dashboardPage: (async ({ principal, deps, now }) =>
    htmlResponse(await dashboard(deps, sessionOf(principal), now))) satisfies Handler,

  dashboardMintKey: (async ({ principal, body, deps, now, state }) => {
    const s = sessionOf(principal)
    const minted = await mintKey(
      deps.sql,
      s.consumerId,
      { ...(body.label?.trim() ? { label: body.label.trim() } : {}), source: 'dashboard', test: body.test === 'true' },
      sessionActor(s, state),
    )
    return htmlResponse(
      await dashboard(deps, s, now, secretBlock('Ny API-nøkkel:', 'New API key:', minted.plaintext_key)),
    )
  }) satisfies Handler<{ body: typeof KeyForm }>,

  dashboardRevokeKey: (async ({ principal, params, body, deps, state }) => {
    const s = sessionOf(principal)
    await revokeKey(deps.sql, params.id, s.consumerId, sessionActor(s, state))
    return redirect('/dashboard#keys')
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,

  dashboardMintToken: (async ({ principal, body, deps, now, state }) => {
    const s = sessionOf(principal)
    const { token } = await mintIssuanceToken(deps.sql, s.consumerId, now, sessionActor(s, state))
    return htmlResponse(
      await dashboard(
        deps,
        s,
        now,
        secretBlock('Nytt utstedelsestoken (gyldig i 24 timer):', 'New issuance token (valid 24 hours):', token),
      ),
    )
  }) satisfies Handler<{ body: typeof CsrfForm }>,

  dashboardRevokeToken: (async ({ principal, params, body, deps, state }) => {
    const s = sessionOf(principal)
    await revokeIssuanceToken(deps.sql, s.consumerId, params.id, sessionActor(s, state))
    return redirect('/dashboard#issuance')
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,

  topupApprovalPage: (async ({ principal, params, deps, now }) => {
    const s = sessionOf(principal)
    const t = await credits.findTopup(deps.sql, params.id)
    if (!t || t.consumer_id !== s.consumerId) throw new AppError('NOT_FOUND')
    const open = t.status === 'pending' && t.expires_at > now
    return htmlResponse(
      page(
        'Godkjenn påfyll',
        `<h1>${bi('Godkjenn påfyll', 'Approve a top-up')}</h1>
<p>${bi('Beløp', 'Amount')}: <strong>${nok(t.amount_ore)}</strong> · ${bi('utløper', 'expires')} ${osloTime(t.expires_at)} · status <strong>${esc(open ? 'pending' : t.expires_at <= now && t.status === 'pending' ? 'expired' : t.status)}</strong></p>
${open ? `<form method="post" action="/billing/topup/${esc(t.id)}/approve">${csrfField(s.csrfToken)}<button type="submit">${bi('Godkjenn og betal med kort', 'Approve and pay by card')}</button></form>` : ''}`,
        { signedIn: { csrf: s.csrfToken } },
      ),
    )
  }) satisfies Handler<{ params: typeof IdParam }>,

  topupApprove: (async ({ principal, params, body, deps, now }) => {
    const s = sessionOf(principal)
    const t = await credits.findTopup(deps.sql, params.id)
    if (!t || t.consumer_id !== s.consumerId) throw new AppError('NOT_FOUND')
    if (!deps.payments) throw new AppError('BILLING_NOT_CONFIGURED')
    if (t.status !== 'pending' || t.expires_at <= now)
      throw new AppError('VALIDATION_FAILED', {
        details: [{ field: 'id', message: 'the request is no longer pending' }],
      })
    const { redirect_url } = await deps.payments.startCheckout(t, `${deps.config.baseUrl}/dashboard#credits`)
    return redirect(redirect_url)
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,

  logout: (async ({ principal, body, deps, state }) => {
    const s = sessionOf(principal)
    await signOut(deps.sql, s.sessionId, s.consumerId, state.correlationId)
    return redirect('/login', { 'set-cookie': sessionCookie('', deps, 0) })
  }) satisfies Handler<{ body: typeof CsrfForm }>,
}
