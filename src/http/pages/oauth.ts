import { AppError } from '../../errors/app-error.ts'
import { approveConnection, disconnect, IDENTITY_SCOPES, OAUTH_KEY_SCOPES } from '../../domain/access/oauth.ts'
import * as oauth from '../../store/oauth.ts'
import type { IdParam } from '../../schemas/access.ts'
import type { ConnectionForm, ConnectionQuery, CsrfForm } from '../../schemas/pages.ts'
import type { Handler } from '../../pipeline/context.ts'
import { bi, esc, htmlResponse, page, redirect } from '../html.ts'
import { sessionActor, sessionOf } from '../../pipeline/admission.ts'

const metadata: Handler = ({ deps }) => {
  const o = deps.config.oauth
  if (!o) throw new AppError('OAUTH_DISABLED')
  return {
    data: {
      resource: `${deps.config.baseUrl}/api/mcp`,
      authorization_servers: [o.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: IDENTITY_SCOPES,
      resource_name: 'Plikt MCP server',
      resource_documentation: `${deps.config.baseUrl}/docs`,
    },
  }
}

export const oauthHandlers = {
  getProtectedResourceMetadata: metadata,
  getProtectedResourceMetadataAlias: metadata,

  oauthConsentPage: (async ({ principal, query, deps }) => {
    const s = sessionOf(principal)
    const c = await oauth.findConnection(deps.sql, query.connection)
    if (!c || c.status === 'revoked' || (c.status === 'active' && c.consumer_id !== s.consumerId)) throw new AppError('NOT_FOUND')
    return htmlResponse(
      page(
        'Koble til',
        `<h1>${bi('Koble en MCP-klient til kontoen', 'Connect an MCP client to your account')}</h1>
<p>${bi('Utsteder', 'Issuer')}: <code>${esc(c.issuer)}</code><br>${bi('Bruker', 'Subject')}: <code>${esc(c.subject)}</code></p>
<p>${bi('Klienten får en egen API-nøkkel med disse tilgangene:', 'The client gets a dedicated API key with these scopes:')} <code>${OAUTH_KEY_SCOPES.join(' ')}</code>. ${bi('Nøkkelen teller blant dine høyst tre aktive nøkler.', 'The key counts towards your three active keys.')}</p>
${c.status === 'active' ? `<p>${bi('Allerede tilkoblet.', 'Already connected.')}</p>` : `<form method="post" action="/oauth/consent"><input type="hidden" name="connection" value="${esc(c.id)}"><input type="hidden" name="csrf_token" value="${esc(s.csrfToken)}"><button type="submit" id="approve">${bi('Godkjenn', 'Approve')}</button></form>`}`,
        { signedIn: { csrf: s.csrfToken } },
      ),
    )
  }) satisfies Handler<{ query: typeof ConnectionQuery }>,

  oauthConsentApprove: (async ({ principal, body, deps, state }) => {
    const s = sessionOf(principal)
    const { reused } = await approveConnection(deps.sql, body.connection, s.consumerId, sessionActor(s, state))
    return htmlResponse(
      page('Tilkoblet', `<h1>${bi('MCP-klienten er tilkoblet', 'The MCP client is connected')}</h1><p>${reused ? bi('Tilkoblingen fantes fra før.', 'The connection already existed.') : bi('Klienten kan nå bruke tilgangstokenet sitt.', 'The client can now use its access token.')}</p><p><a href="/dashboard#oauth">${bi('Til dashbordet', 'To the dashboard')}</a></p>`, { signedIn: { csrf: s.csrfToken } }),
    )
  }) satisfies Handler<{ body: typeof ConnectionForm }>,

  dashboardDisconnectOAuth: (async ({ principal, params, body, deps, state }) => {
    const s = sessionOf(principal)
    await disconnect(deps.sql, params.id, s.consumerId, sessionActor(s, state))
    return redirect('/dashboard#oauth')
  }) satisfies Handler<{ params: typeof IdParam; body: typeof CsrfForm }>,
}
