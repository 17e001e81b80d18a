/** The MCP server, its manifest, and OAuth for MCP clients (protected-resource metadata, consent). */
import { Type } from '@sinclair/typebox'
import * as A from '../schemas/access.ts'
import * as P from '../schemas/pages.ts'
import { ACCOUNT_WRITES } from './account.ts'
import { CACHE, op, type Operation } from './define.ts'

/** The consent pages' binding rule (issue 19, Medium 2): a link goes only to the token holder's own account. */
const OAUTH_BINDING_RULE =
  'Binding rule: a connection is linked only to the account whose e-mail the access token that asked for it carried as verified — ' +
  'an `email` claim equal to the signed-in account’s e-mail (trimmed, case-insensitive) together with `email_verified: true`. ' +
  'A token without `email`, or with `email_verified` absent or not `true`, cannot be linked to any account; a pending connection takes the claims of the newest token its subject presents, so the host can sign in again with the `email` scope and reuse the same link.'

/**
 * What the MCP server's entry says. It names the keyless tools, which only the joined registry
 * knows: index.ts sets it once every area is in, so the text cannot drift from tools/list.
 */
export function mcpDescription(keylessTools: readonly string[]): string {
  return (
    `Tools are listed per credential: with no Authorization header only the keyless tools (${keylessTools.join(', ')}; 100 calls an hour per IP); ` +
    'with a key, the tools its scopes allow. A tool hidden from the key’s scopes, or unknown, is JSON-RPC error -32602; ' +
    'but a `tools/call` of a keyed tool with no Authorization header at all is answered 401 `AUTH_MISSING` with the ' +
    'bare `WWW-Authenticate: Bearer realm="svc-mcp"` challenge, with no error code since no credential was sent (RFC 6750 §3.1; with OAuth on, it also names `resource_metadata`). Every result is ' +
    '`{result, justification, metadata, _meta}`; a failure has `result: null` and `metadata.error_code`, ' +
    '`retryable`, `remediation`. A present but invalid Authorization header is refused with 401 and ' +
    '`WWW-Authenticate: Bearer realm="svc-mcp", error="invalid_token"`. Without a key, every JSON-RPC message ' +
    '(tools/list and initialize too) counts against the soft limit of 1 000 requests a minute per IP, and the keyless ' +
    'tools keep their 100-an-hour budget under the sandbox bearer as well. A batch holds at most 10 messages; a larger ' +
    'one is refused whole with 400 `VALIDATION_FAILED`. A tool whose operation declares idempotency takes an ' +
    '`idempotency_key` argument (a UUID) with REST’s Idempotency-Key rules: a retry with the same key and arguments ' +
    'replays the first answer (`metadata.idempotent_replayed: true`) without running or charging again. A tool whose ' +
    'operation declares approval takes an `approval_token` argument, REST’s `X-Approval-Token`: single use, bound to ' +
    'one action of one organisation, spent only when the preconditions pass. `submit_vat_return` (the sandbox execute ' +
    'for a VAT return; synthetic sandbox bearer only) is a dry run unless an `approval_token` is given or `dry_run` is false. ' +
    'tools/list gives each tool a `title`, an `outputSchema` and `annotations`, all from the registry. The `outputSchema` ' +
    'describes `structuredContent`, which is the whole envelope: an object whatever shape the result has, its `result` the ' +
    'REST twin’s `data` (under the sandbox bearer, a mirrored tool’s sandbox `data`) or null on a failure. `readOnlyHint`: ' +
    'the operation changes nothing (a GET, or a POST that only reads; a metered read’s charge aside); `destructiveHint`: ' +
    'a revoke (DELETE) or a filing (it needs an approval token); `idempotentHint`: a read, a PUT or DELETE, or a write ' +
    'that demands an idempotency key; `openWorldHint`: it reads an outside system (a register, the portal, Norges Bank), ' +
    'not only our own rulebook.'
  )
}

export const mcpOperations = [
  op({
    id: 'mcp',
    summaryNb: 'MCP-server: JSON-RPC 2.0 over tilstandsløs strømmbar HTTP (JSON-svar)',
    method: 'POST',
    path: '/api/mcp',
    category: 'A',
    format: 'json',
    bodyType: 'raw',
    selfLimited: true,
    tag: 'MCP',
    summary: 'MCP server: JSON-RPC 2.0 over stateless streamable HTTP (JSON responses)',
    // description: mcpDescription(…), set by index.ts once the registry is joined
    request: {
      body: Type.Object(
        {
          jsonrpc: Type.Literal('2.0'),
          method: Type.String(),
          id: Type.Optional(Type.Union([Type.String(), Type.Number()])),
          params: Type.Optional(Type.Object({}, { additionalProperties: true })),
        },
        { description: 'a JSON-RPC 2.0 request' },
      ),
    },
    response: Type.Object({}, { additionalProperties: true, description: 'a JSON-RPC 2.0 response' }),
    // keyless to the pipeline: the server resolves a key (or an OAuth token) itself
    errors: [
      'AUTH_MISSING',
      'AUTH_INVALID_KEY',
      'AUTH_CONSUMER_INACTIVE',
      'OAUTH_TOKEN_INVALID',
      'OAUTH_TOKEN_EXPIRED',
      'OAUTH_AUDIENCE_MISMATCH',
      'OAUTH_SUBJECT_UNMAPPED',
      'OAUTH_JWKS_UNAVAILABLE',
    ],
  }),
  op({
    id: 'getMcpManifest',
    cache: CACHE.discovery,
    summaryNb: 'MCP-serveren: adresse, transport, autentisering og verktøy',
    method: 'GET',
    path: '/.well-known/mcp.json',
    category: 'discovery',
    format: 'json',
    tag: 'MCP',
    summary: 'The MCP server: URL, transport, authentication and tools',
    description:
      '`schema_version` is the tool manifest’s version; `name` and `version` are the ones `initialize` reports as `serverInfo`, and `version` equals `schema_version`.',
    response: Type.Object(
      { name: Type.String(), version: Type.String(), schema_version: Type.String(), url: Type.String() },
      { additionalProperties: true },
    ),
  }),
  op({
    id: 'getProtectedResourceMetadata',
    cache: CACHE.discovery,
    summaryNb:
      'OAuth-metadata for MCP-serveren som beskyttet ressurs (RFC 9728); 404 OAUTH_DISABLED når OAuth er slått av',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/api/mcp',
    category: 'discovery',
    format: 'json',
    tag: 'MCP',
    summary: 'OAuth protected-resource metadata of the MCP server (RFC 9728); 404 OAUTH_DISABLED when OAuth is off',
    response: Type.Object(
      {
        resource: Type.String(),
        authorization_servers: Type.Array(Type.String()),
        bearer_methods_supported: Type.Array(Type.String()),
        scopes_supported: Type.Array(Type.String()),
      },
      { additionalProperties: true },
    ),
    errors: ['OAUTH_DISABLED'],
  }),
  op({
    id: 'getProtectedResourceMetadataAlias',
    cache: CACHE.discovery,
    summaryNb: 'Annen adresse for /.well-known/oauth-protected-resource/api/mcp',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    category: 'discovery',
    format: 'json',
    tag: 'MCP',
    summary: 'Alias of /.well-known/oauth-protected-resource/api/mcp',
    response: Type.Object({ resource: Type.String() }, { additionalProperties: true }),
    errors: ['OAUTH_DISABLED'],
  }),
  op({
    id: 'oauthConsentPage',
    method: 'GET',
    path: '/oauth/consent',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Approve an MCP client’s OAuth identity (the consent_url of OAUTH_SUBJECT_UNMAPPED)',
    description:
      OAUTH_BINDING_RULE +
      ' The page shows the client (`client_id`, else `azp`), issuer, subject and claimed e-mail of the token that asked for the connection, and the signed-in account’s e-mail; it offers Approve only when the rule holds, and otherwise says why the identity cannot be linked.' +
      ' A connection ended by a disconnect, or by revoking its key, is gone (its link answers 404): the host’s next call gets a new `consent_url`, and approving that mints a fresh key.',
    response: null,
    request: { query: P.ConnectionQuery },
  }),
  op({
    id: 'oauthConsentApprove',
    method: 'POST',
    path: '/oauth/consent',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary:
      'Approve the connection: one dedicated key (read:register read:portal read:directorate read:centralbank read:changes)',
    description:
      OAUTH_BINDING_RULE +
      ' When it does not hold, nothing is linked, the refusal is audited on the signed-in account (`oauth_connection_refused`) and the answer is 403 `OAUTH_IDENTITY_MISMATCH`. With three active keys the answer is 409 `MAX_KEYS_REACHED`.' +
      ' Approving an active connection again reuses it and its key.',
    response: null,
    request: { body: P.ConnectionForm },
    bodyType: 'form',
    limits: [ACCOUNT_WRITES],
  }),
  op({
    id: 'dashboardDisconnectOAuth',
    method: 'POST',
    path: '/dashboard/oauth-connections/:id/disconnect',
    category: 'session',
    format: 'html',
    tag: 'Pages',
    summary: 'Disconnect an OAuth connection: the mapping and its key are revoked together',
    response: null,
    request: { params: A.IdParam, body: P.CsrfForm },
    bodyType: 'form',
    limits: [ACCOUNT_WRITES],
  }),
] as const satisfies readonly Operation[]
