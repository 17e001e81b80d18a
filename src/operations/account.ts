/** Accounts and keys: sign-up, issuance tokens, the browser session's key management, usage. */
import * as A from '../schemas/access.ts'
import { op, type Operation, type OperationLimit } from './define.ts'

/** Writes a person makes to their account (keys, issuance tokens, approvals): one budget per account, REST and pages alike. */
export const ACCOUNT_WRITES: OperationLimit = {
  group: 'account-writes',
  per: 'consumer',
  max: 30,
  window: 'hour',
  code: 'RATE_LIMITED',
}

/**
 * Every route that mails a sign-in link (the sign-up route and the /login form) draws on one budget
 * per address: the spec's 5 an hour per IP for account signup, counted in the database before the
 * mail is queued, so it holds across instances and a failed count refuses (fail closed).
 */
export const SIGN_IN_MAILS: OperationLimit = {
  group: 'sign-in-mail',
  per: 'ip',
  max: 5,
  window: 'hour',
  code: 'RATE_LIMITED',
}

/**
 * What revoking the dedicated key of an OAuth connection does (issue 18, item 1), said alike on
 * every route that revokes a key.
 */
export const OAUTH_KEY_REVOKE =
  'Revoking the dedicated key of an OAuth connection also ends the connection, in the same transaction (audited as ' +
  '`oauth_connection_revoked`, reason `key_revoked`). The MCP host’s next call gets 401 `OAUTH_SUBJECT_UNMAPPED` with a ' +
  'new `consent_url`; approving it there mints a fresh dedicated key, counted toward the three active keys.'

export const accountOperations = [
  op({
    id: 'signup',
    summaryNb: 'Registrer deg, eller logg inn igjen, med innloggingslenke på e-post',
    method: 'POST',
    path: '/api/v1/account/signup',
    category: 'A',
    format: 'envelope',
    tag: 'Account',
    summary: 'Sign up, or sign in again, by e-mailed magic link',
    description:
      '`{email, company_name, consent: true}` signs up; `{email}` alone asks for a sign-in link for an existing ' +
      'account. The answer is always `{ok: true}`, whether or not the e-mail is known; no key is issued here. ' +
      'Opening the link (valid 15 minutes, single use) creates the account with a free-tier key, shown once. ' +
      'Limited to 5 requests an hour per IP address, one budget with the sign-in form (`POST /login`).',
    request: { body: A.SignupBody },
    response: A.SignupResult,
    limits: [SIGN_IN_MAILS],
  }),
  op({
    id: 'redeemIssuanceToken',
    summaryNb: 'Løs inn et utstedelsestoken mot en read:*-nøkkel',
    method: 'POST',
    path: '/api/v1/account/issuance-tokens/redeem',
    category: 'A',
    format: 'envelope',
    tag: 'Account',
    summary: 'Redeem an issuance token for a read:* key',
    description:
      'The headless path to a key: the account owner mints a one-time token in the dashboard and hands it to the ' +
      'agent. The key is returned once. Every failure — unknown, expired, used or revoked token — is the same 401 ' +
      '`ISSUANCE_TOKEN_INVALID`; with three active keys the answer is 409 `MAX_KEYS_REACHED` and the token stays valid. ' +
      'Limited to 20 attempts an hour per IP address.',
    request: { body: A.RedeemBody },
    response: A.PlaintextKey,
    successStatus: 201,
    errors: ['ISSUANCE_TOKEN_INVALID', 'MAX_KEYS_REACHED'],
    limits: [{ per: 'ip', max: 20, window: 'hour', code: 'RATE_LIMITED' }],
    mcpTool: 'redeem_issuance_token',
  }),
  op({
    id: 'getAccount',
    method: 'GET',
    path: '/api/v1/account/me',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'The signed-in account and its CSRF token',
    description: 'Browser session only. `csrf_token` must accompany session-authenticated writes as `X-CSRF-Token`.',
    response: A.Me,
  }),
  op({
    id: 'listAccountKeys',
    method: 'GET',
    path: '/api/v1/account/keys',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'The account’s API keys (metadata only)',
    response: A.KeyList,
  }),
  op({
    id: 'createAccountKey',
    method: 'POST',
    path: '/api/v1/account/keys',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'Mint an API key (browser session)',
    description:
      'Scopes default to `read:*`; `write:`, `act:` and `delegate:` are reserved (`SCOPE_RESERVED`). At most three ' +
      'active keys (`MAX_KEYS_REACHED`): to rotate, mint the new key, switch, then revoke the old one. The key is ' +
      'returned once. Needs `X-CSRF-Token` (from `GET /api/v1/account/me`). 30 account writes (keys, tokens, approvals) an hour per account.',
    request: { body: A.MintKeyBody },
    response: A.PlaintextKey,
    successStatus: 201,
    errors: ['SCOPE_RESERVED', 'MAX_KEYS_REACHED'],
    limits: [ACCOUNT_WRITES],
  }),
  op({
    id: 'revokeAccountKey',
    method: 'DELETE',
    path: '/api/v1/account/keys/:id',
    category: 'session',
    format: 'envelope',
    tag: 'Account',
    summary: 'Revoke an API key (browser session; irreversible, effective at once)',
    description: OAUTH_KEY_REVOKE,
    request: { params: A.IdParam },
    response: A.RevokedKey,
    limits: [ACCOUNT_WRITES],
  }),
  op({
    id: 'getUsage',
    testKeys: 'own-account',
    summaryNb: 'Grenser per minutt og per døgn, og hva som er brukt',
    method: 'GET',
    path: '/api/v1/account/usage',
    category: 'B',
    auth: 'key_or_session',
    format: 'envelope',
    tag: 'Account',
    summary: 'Per-minute and per-day ceilings and what has been used',
    description:
      'With a key: that key’s counters; with the browser session: every active key of the account. Ceilings by ' +
      'tier — free 30/min and 1 000/day, starter 150/min and 20 000/day, professional 300/min and 100 000/day, ' +
      'enterprise unlimited; days are UTC.',
    response: A.Usage,
  }),
] as const satisfies readonly Operation[]
