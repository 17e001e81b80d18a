import { AppError } from '../../errors/app-error.ts'
import {
  approveConnection,
  BINDING_REFUSAL_TEXT,
  bindingRefusal,
  disconnect,
  IDENTITY_SCOPES,
  OAUTH_KEY_SCOPES,
} from '../../domain/access/oauth.ts'
import * as accounts from '../../store/accounts.ts'
import * as oauth from '../../store/oauth.ts'
import type { IdParam } from '../../schemas/access.ts'
import type { ConnectionForm, ConnectionQuery, CsrfForm } from '../../schemas/pages.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import { jsonDocument, perInstance } from '../../pipeline/caching.ts'
import { bi, esc, htmlResponse, page, redirect } from '../html.ts'
import { sessionActor, sessionOf } from '../../pipeline/admission.ts'

/** RFC 9728 metadata of the MCP resource, made and tagged once per instance; null while OAuth is off. */
const metadataDocument = perInstance('oauth-resource-metadata', (deps: AppDeps) => {
  const o = deps.config.oauth
  if (!o) return null
  return jsonDocument({
    resource: `${deps.config.baseUrl}/api/mcp`,
    authorization_servers: [o.issuer],
    bearer_methods_supported: ['header'],
    scopes_supported: IDENTITY_SCOPES,
    resource_name: 'Plikt MCP server',
    resource_documentation: `${deps.config.baseUrl}/docs`,
  })
})

const metadata: Handler = ({ deps }) => {
  const document = metadataDocument(deps)
  if (!document) throw new AppError('OAUTH_DISABLED')
  return { data: undefined, document }
}

export const oauthHandlers = {
  getProtectedResourceMetadata: metadata,
  getProtectedResourceMetadataAlias: metadata,

  oauthConsentPage: (async ({ principal, query, deps }) => {
    const s = sessionOf(principal)
    const c = await oauth.findConnection(deps.sql, query.connection)
    if (!c || c.status === 'revoked' || (c.status === 'active' && c.consumer_id !== s.consumerId))
      throw new AppError('NOT_FOUND')
    const account = await accounts.findConsumer(deps.sql, s.consumerId)
    if (!account) throw new AppError('NOT_FOUND')
    const notStated = bi('ikke oppgitt', 'not stated')
    const claimed = c.token_email
      ? `<code id="token-email">${esc(c.token_email)}</code> ${c.token_email_verified ? bi('(bekreftet av utstederen)', '(verified by the issuer)') : bi('(<strong>ikke</strong> bekreftet av utstederen)', '(<strong>not</strong> verified by the issuer)')}`
      : notStated
    const refusal = c.status === 'pending' ? bindingRefusal(c, account.email) : null
    let action: string
    if (c.status === 'active') action = `<p>${bi('Allerede tilkoblet.', 'Already connected.')}</p>`
    else if (refusal) {
      action = `<div class="error" id="refused"><p>${bi('Denne identiteten kan ikke kobles til kontoen din', 'This identity cannot be linked to your account')}: ${bi(esc(BINDING_REFUSAL_TEXT[refusal].nb), esc(BINDING_REFUSAL_TEXT[refusal].en))}.</p>
<p>${bi('En tilkobling kobles bare til kontoen med den bekreftede e-postadressen i tilgangstokenet. Har noen andre sendt deg denne lenken, skal du ikke gjøre noe.', 'A connection is linked only to the account whose e-mail the access token carries as verified. If someone else sent you this link, do nothing.')}</p>
<p>${bi('Er dette din egen MCP-vert: logg inn hos utstederen med e-postadressen til denne kontoen, bekreft den der, la verten be om omfanget <code>email</code> og åpne lenken på nytt.', 'If this is your own MCP host: sign in at the issuer with this account’s e-mail address, verify it there, have the host request the <code>email</code> scope, and open this link again.')}</p></div>`
    } else {
      action = `<form method="post" action="/oauth/consent"><input type="hidden" name="connection" value="${esc(c.id)}"><input type="hidden" name="csrf_token" value="${esc(s.csrfToken)}"><button type="submit" id="approve">${bi('Godkjenn', 'Approve')}</button></form>`
    }
    return htmlResponse(
      page(
        'Koble til',
        `<h1>${bi('Koble en MCP-klient til kontoen', 'Connect an MCP client to your account')}</h1>
<p>${bi('Du er logget inn som', 'You are signed in as')} <code id="account-email">${esc(account.email)}</code>. ${bi('Godkjenn bare en tilkobling du selv har startet.', 'Approve only a connection you started yourself.')}</p>
<table><tbody>
<tr><th>${bi('Klient', 'Client')}</th><td>${c.token_client_id ? `<code id="token-client">${esc(c.token_client_id)}</code>` : notStated}</td></tr>
<tr><th>${bi('Utsteder', 'Issuer')}</th><td><code id="token-issuer">${esc(c.issuer)}</code></td></tr>
<tr><th>${bi('Bruker', 'Subject')}</th><td><code id="token-subject">${esc(c.subject)}</code></td></tr>
<tr><th>${bi('E-post i tokenet', 'E-mail in the token')}</th><td>${claimed}</td></tr>
</tbody></table>
<p>${bi('Klienten får en egen API-nøkkel med disse tilgangene:', 'The client gets a dedicated API key with these scopes:')} <code>${OAUTH_KEY_SCOPES.join(' ')}</code>. ${bi('Nøkkelen teller blant dine høyst tre aktive nøkler.', 'The key counts towards your three active keys.')}</p>
${action}`,
        { signedIn: { csrf: s.csrfToken } },
      ),
    )
  }) satisfies Handler<{ query: typeof ConnectionQuery }>,

  oauthConsentApprove: (async ({ principal, body, deps, state }) => {
    const s = sessionOf(principal)
    const { connection: c, reused } = await approveConnection(
      deps.sql,
      body.connection,
      s.consumerId,
      sessionActor(s, state),
    )
    const linked = `${bi('Klient', 'Client')} <code>${esc(c.token_client_id ?? '–')}</code>, ${bi('utsteder', 'issuer')} <code>${esc(c.issuer)}</code>, ${bi('bruker', 'subject')} <code>${esc(c.subject)}</code>.`
    return htmlResponse(
      page(
        'Tilkoblet',
        `<h1>${bi('MCP-klienten er tilkoblet', 'The MCP client is connected')}</h1><p>${linked}</p><p>${reused ? bi('Tilkoblingen fantes fra før.', 'The connection already existed.') : bi('Klienten kan nå bruke tilgangstokenet sitt.', 'The client can now use its access token.')}</p><p><a href="/dashboard#oauth">${bi('Til dashbordet', 'To the dashboard')}</a></p>`,
        { signedIn: { csrf: s.csrfToken } },
      ),
    )
  }) satisfies Handler<{ body: typeof ConnectionForm }>,

  dashboardDisconnectOAuth: (async ({ principal, params, body, deps, state }) => {
    const s = sessionOf(principal)
    await disconnect(deps.sql, params.id, s.consumerId, sessionActor(s, state))
    return redirect('/dashboard#oauth')
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,
}
