/**
 * Pages for people: sign-in by magic link, the dashboard (keys, issuance tokens, usage, credits)
 * and top-up approval. Every state-changing form carries the session's CSRF token.
 */
import { AppError } from '../../errors/app-error.ts'
import { mintKey, revokeKey } from '../../domain/access/keys.ts'
import { mintIssuanceToken, revokeIssuanceToken } from '../../domain/access/issuance.ts'
import { completeMagicLink, requestMagicLink, SESSION_TTL_MS, signOut } from '../../domain/access/signin.ts'
import { MAX_ACTIVE_KEYS, MAX_OUTSTANDING_ISSUANCE_TOKENS, type Principal } from '../../domain/access/types.ts'
import { usageOf } from '../../domain/access/usage.ts'
import * as accounts from '../../store/accounts.ts'
import * as credits from '../../store/credits.ts'
import * as oauthStore from '../../store/oauth.ts'
import type { CsrfForm, KeyForm, LoginForm, MagicQuery, TokenForm } from '../../schemas/pages.ts'
import type { IdParam } from '../../schemas/access.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import { bi, esc, htmlResponse, nok, osloTime, page, redirect, table } from '../html.ts'
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

async function dashboard(deps: AppDeps, s: Session, now: Date, flash = ''): Promise<string> {
  const consumer = (await accounts.findConsumer(deps.sql, s.consumerId))!
  const keys = await accounts.listKeys(deps.sql, s.consumerId, true)
  const active = keys.filter((k) => !k.revoked_at)
  const tokens = await accounts.listIssuanceTokens(deps.sql, s.consumerId)
  const usage = await usageOf(deps.sql, consumer.tier, active, now)
  const balance = await credits.readBalance(deps.sql, s.consumerId)
  const topups = await credits.listTopups(deps.sql, s.consumerId)
  const connections = await oauthStore.activeConnectionsOf(deps.sql, s.consumerId)
  const tokenStatus = (t: accounts.IssuanceTokenRow) =>
    t.redeemed_at ? bi('innløst', 'redeemed') : t.revoked_at ? bi('trukket tilbake', 'revoked') : t.expires_at <= now ? bi('utløpt', 'expired') : bi('gyldig', 'valid')
  const keyRows = keys
    .map(
      (k) => `<tr><td><code>${esc(k.display_prefix)}</code></td><td>${esc(k.label)}</td><td>${esc(k.scopes.join(' '))}</td><td>${osloTime(k.created_at)}</td>
<td>${k.revoked_at ? bi('trukket tilbake', 'revoked') : `<form method="post" action="/dashboard/keys/${esc(k.id)}/revoke">${csrfField(s.csrfToken)}<button class="secondary" type="submit" aria-label="Trekk tilbake / Revoke ${esc(k.display_prefix)}">Trekk tilbake / Revoke</button></form>`}</td></tr>`,
    )
    .join('')
  const tokenRows = tokens
    .map(
      (t) => `<tr><td><code>${esc(t.display_prefix)}</code></td><td>${osloTime(t.expires_at)}</td><td>${tokenStatus(t)}</td>
<td>${!t.redeemed_at && !t.revoked_at && t.expires_at > now ? `<form method="post" action="/dashboard/issuance-tokens/${esc(t.id)}/revoke">${csrfField(s.csrfToken)}<button class="secondary" type="submit">Trekk tilbake / Revoke</button></form>` : ''}</td></tr>`,
    )
    .join('')
  const usageRows = usage.keys.map((u) => `<tr><td><code>${esc(u.display_prefix)}</code></td><td>${u.minute.used}</td><td>${u.day.used}</td></tr>`).join('')
  const topupRows = topups
    .map((t) => `<tr><td>${nok(t.amount_ore)}</td><td>${esc(t.status)}</td><td>${osloTime(t.expires_at)}</td><td>${t.status === 'pending' && t.expires_at > now ? `<a href="/billing/topup/${esc(t.id)}">Godkjenn / Approve</a>` : ''}</td></tr>`)
    .join('')
  const connectionRows = connections
    .map((c) => `<tr><td><code>${esc(c.issuer)}</code></td><td><code>${esc(c.subject)}</code></td><td>${osloTime(c.approved_at)}</td>
<td><form method="post" action="/dashboard/oauth-connections/${esc(c.id)}/disconnect">${csrfField(s.csrfToken)}<button class="secondary" type="submit">Koble fra / Disconnect</button></form></td></tr>`)
    .join('')
  const per = (n: number | null) => (n === null ? 'ubegrenset / unlimited' : String(n))
  return page(
    'Dashbord',
    `<h1>${bi('Dashbord', 'Dashboard')}</h1>${flash}
<p>${esc(consumer.company_name ?? consumer.email)} · ${esc(consumer.email)} · ${bi('plan', 'plan')}: <strong>${esc(consumer.tier)}</strong></p>

<h2 id="keys">${bi('API-nøkler', 'API keys')}</h2>
<p class="note">${bi(`Høyst ${MAX_ACTIVE_KEYS} aktive nøkler. Bytt nøkkel slik: lag en ny, ta den i bruk, og trekk tilbake den gamle.`, `At most ${MAX_ACTIVE_KEYS} active keys. To rotate: mint a new one, switch to it, then revoke the old one.`)}</p>
${table(`<th>${bi('Nøkkel', 'Key')}</th><th>${bi('Navn', 'Label')}</th><th>Scopes</th><th>${bi('Laget', 'Created')}</th><th></th>`, keyRows, 'Ingen nøkler ennå.', 'No keys yet.', 5)}
<form method="post" action="/dashboard/keys">${csrfField(s.csrfToken)}
<label for="label">${bi('Navn på ny nøkkel', 'Label for a new key')}</label><input id="label" name="label" type="text" maxlength="80" placeholder="prod-agent">
<label><input type="checkbox" name="test" value="true"> ${bi('Testnøkkel (svc_test_): bare syntetiske svar fra sandkassen, aldri belastet', 'Test key (svc_test_): synthetic sandbox answers only, never charged')}</label>
<button type="submit">${bi('Lag ny nøkkel', 'Mint a key')}</button></form>

<h2 id="issuance">${bi('Utstedelsestokener', 'Issuance tokens')}</h2>
<p class="note">${bi(`Et token gir en agent én nøkkel (read:*) uten innlogging: gyldig i 24 timer, kan brukes én gang, høyst ${MAX_OUTSTANDING_ISSUANCE_TOKENS} om gangen.`, `A token lets an agent get one read:* key without signing in: valid 24 hours, single use, at most ${MAX_OUTSTANDING_ISSUANCE_TOKENS} at a time.`)}</p>
${table(`<th>Token</th><th>${bi('Utløper', 'Expires')}</th><th>Status</th><th></th>`, tokenRows, 'Ingen tokener ennå.', 'No tokens yet.', 4)}
<form method="post" action="/dashboard/issuance-tokens">${csrfField(s.csrfToken)}<button type="submit">${bi('Lag utstedelsestoken', 'Mint an issuance token')}</button></form>

<h2 id="oauth">${bi('OAuth-tilkoblinger', 'OAuth connections')}</h2>
${table(`<th>${bi('Utsteder', 'Issuer')}</th><th>${bi('Bruker', 'Subject')}</th><th>${bi('Godkjent', 'Approved')}</th><th></th>`, connectionRows, 'Ingen MCP-klienter er koblet til.', 'No MCP clients are connected.', 4)}

<h2 id="usage">${bi('Bruk', 'Usage')}</h2>
<p>${bi('Grenser', 'Ceilings')}: ${per(usage.ceilings.per_minute)} ${bi('per minutt', 'per minute')}, ${per(usage.ceilings.per_day)} ${bi('per døgn (UTC)', 'per day (UTC)')}</p>
${table(`<th>${bi('Nøkkel', 'Key')}</th><th>${bi('Dette minuttet', 'This minute')}</th><th>${bi('I dag', 'Today')}</th>`, usageRows, 'Ingen aktive nøkler.', 'No active keys.', 3)}

<h2 id="credits">${bi('Kreditt', 'Credits')}</h2>
<p>${bi('Saldo', 'Balance')}: <strong id="balance">${nok(balance.balance_ore)}</strong></p>
<p class="note">${bi('En agent ber om påfyll med POST /api/v1/billing/topup-requests; du godkjenner her.', 'An agent asks for a top-up with POST /api/v1/billing/topup-requests; you approve it here.')}</p>
${table(`<th>${bi('Beløp', 'Amount')}</th><th>Status</th><th>${bi('Utløper', 'Expires')}</th><th></th>`, topupRows, 'Ingen forespørsler om påfyll.', 'No top-up requests.', 4)}`,
    { signedIn: { csrf: s.csrfToken } },
  )
}

export const pageHandlers = {
  loginPage: (() =>
    htmlResponse(
      page(
        'Logg inn',
        `<h1>${bi('Logg inn eller registrer deg', 'Sign in or sign up')}</h1>
<form method="post" action="/login">
<label for="email">E-post / E-mail</label><input id="email" name="email" type="email" required autocomplete="email">
<fieldset><legend>${bi('Ny konto? Fyll ut også dette', 'New account? Fill in these too')}</legend>
<label for="company_name">${bi('Virksomhet', 'Company')}</label><input id="company_name" name="company_name" type="text" maxlength="200" autocomplete="organization">
<label><input type="checkbox" name="consent" value="true"> ${bi('Jeg godtar vilkårene og at e-postadressen lagres for kontoen.', 'I accept the terms and that the e-mail address is stored for the account.')}</label>
</fieldset>
<button type="submit">${bi('Send meg en lenke', 'E-mail me a link')}</button></form>`,
      ),
    )) satisfies Handler,

  loginSubmit: (async ({ body, deps, now, state }) => {
    const company = body.company_name?.trim() || undefined
    if (company && body.consent !== 'true') {
      throw new AppError('VALIDATION_FAILED', { details: [{ field: 'consent', message: 'must be ticked to sign up' }] })
    }
    await requestMagicLink(deps.sql, deps.config.baseUrl, { email: body.email, ...(company ? { company_name: company } : {}) }, now, state.correlationId)
    return htmlResponse(
      page(
        'Sjekk e-posten',
        `<h1>${bi('Sjekk e-posten din', 'Check your e-mail')}</h1>
<p>${bi('Har adressen en konto, eller ba du om å registrere deg, har vi sendt en lenke. Den gjelder i 15 minutter og kan brukes én gang.', 'If the address has an account, or you asked to sign up, we have sent a link. It is valid for 15 minutes and works once.')}</p>`,
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
          page('Lenken virker ikke', `<h1>${bi('Lenken er brukt eller utløpt', 'The link has been used or has expired')}</h1><p><a href="/login">${bi('Be om en ny lenke', 'Ask for a new link')}</a></p>`),
          400,
        )
      }
      throw e
    }
    const cookie = sessionCookie(signed.sessionToken, deps, SESSION_TTL_MS / 1000)
    const body2 = signed.firstKey
      ? `<h1>${bi('Kontoen er opprettet', 'Your account is ready')}</h1>${secretBlock('Din første API-nøkkel (free):', 'Your first API key (free tier):', signed.firstKey.plaintext_key)}`
      : `<h1>${bi('Du er logget inn', 'You are signed in')}</h1>`
    return htmlResponse(page('Velkommen', `${body2}<p><a href="/dashboard" id="to-dashboard">${bi('Til dashbordet', 'To the dashboard')}</a></p>`, { signedIn: { csrf: signed.csrfToken } }), 200, { 'set-cookie': cookie })
  }) satisfies Handler<{ body: typeof TokenForm }>,

  dashboardPage: (async ({ principal, deps, now }) => htmlResponse(await dashboard(deps, sessionOf(principal), now))) satisfies Handler,

  dashboardMintKey: (async ({ principal, body, deps, now, state }) => {
    const s = sessionOf(principal)
    const minted = await mintKey(deps.sql, s.consumerId, { ...(body.label?.trim() ? { label: body.label.trim() } : {}), source: 'dashboard', test: body.test === 'true' }, sessionActor(s, state))
    return htmlResponse(await dashboard(deps, s, now, secretBlock('Ny API-nøkkel:', 'New API key:', minted.plaintext_key)))
  }) satisfies Handler<{ body: typeof KeyForm }>,

  dashboardRevokeKey: (async ({ principal, params, body, deps, state }) => {
    const s = sessionOf(principal)
    await revokeKey(deps.sql, params.id, s.consumerId, sessionActor(s, state))
    return redirect('/dashboard#keys')
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,

  dashboardMintToken: (async ({ principal, body, deps, now, state }) => {
    const s = sessionOf(principal)
    const { token } = await mintIssuanceToken(deps.sql, s.consumerId, now, sessionActor(s, state))
    return htmlResponse(await dashboard(deps, s, now, secretBlock('Nytt utstedelsestoken (gyldig i 24 timer):', 'New issuance token (valid 24 hours):', token)))
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
    if (t.status !== 'pending' || t.expires_at <= now) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'id', message: 'the request is no longer pending' }] })
    const { redirect_url } = await deps.payments.startCheckout(t, `${deps.config.baseUrl}/dashboard#credits`)
    return redirect(redirect_url)
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,

  logout: (async ({ principal, body, deps, state }) => {
    const s = sessionOf(principal)
    await signOut(deps.sql, s.sessionId, s.consumerId, state.correlationId)
    return redirect('/login', { 'set-cookie': sessionCookie('', deps, 0) })
  }) satisfies Handler<{ body: typeof CsrfForm }>,
}
