/** The operator's routes, behind ADMIN_TOKEN. */
import * as A from '../schemas/access.ts'
import * as J from '../schemas/jobs.ts'
import { OAUTH_KEY_REVOKE } from './account.ts'
import { op, type Operation } from './define.ts'

/** Every operator route: ADMIN_TOKEN (so AUTH_MISSING, AUTH_INVALID_KEY), the envelope, one tag. */
const OPERATOR = { category: 'admin', format: 'envelope', tag: 'Operator' } as const

export const adminOperations = [
  op({
    id: 'adminCreateKey',
    summaryNb: 'Lag en nøkkel for en kunde (klartekst én gang)',
    method: 'POST',
    path: '/api/v1/admin/keys',
    ...OPERATOR,
    summary: 'Mint a key for a consumer (plaintext once)',
    request: { body: A.AdminMintKeyBody },
    response: A.PlaintextKey,
    successStatus: 201,
    errors: ['SCOPE_RESERVED', 'MAX_KEYS_REACHED'],
  }),
  op({
    id: 'adminListKeys',
    summaryNb: 'En kundes nøkler (bare metadata, aldri klartekst)',
    method: 'GET',
    path: '/api/v1/admin/keys',
    ...OPERATOR,
    summary: 'A consumer’s keys (metadata only, never plaintext)',
    request: { query: A.AdminKeysQuery },
    response: A.AdminKeyList,
  }),
  op({
    id: 'adminRevokeKey',
    summaryNb: 'Trekk tilbake en hvilken som helst nøkkel (kan ikke angres)',
    method: 'DELETE',
    path: '/api/v1/admin/keys/:id',
    ...OPERATOR,
    summary: 'Revoke any key (irreversible)',
    description: OAUTH_KEY_REVOKE,
    request: { params: A.IdParam },
    response: A.AdminRevoked,
  }),
  op({
    id: 'adminCreateConsumer',
    summaryNb: 'Opprett en kunde (201), eller gi tilbake den som finnes for e-postadressen (200)',
    method: 'POST',
    path: '/api/v1/admin/consumers',
    ...OPERATOR,
    summary: 'Create a consumer (201), or return the existing one for that e-mail (200)',
    request: { body: A.AdminConsumerBody },
    response: A.AdminConsumer,
    successStatus: 201,
  }),
  op({
    id: 'adminUpdateConsumer',
    summaryNb: 'Endre en kundes nivå eller deaktiver kunden (nøklene svarer da AUTH_CONSUMER_INACTIVE)',
    method: 'PATCH',
    path: '/api/v1/admin/consumers/:id',
    ...OPERATOR,
    summary: 'Change a consumer’s tier or deactivate it (its keys then answer AUTH_CONSUMER_INACTIVE)',
    request: { params: A.IdParam, body: A.AdminConsumerPatch },
    response: A.AdminConsumer,
  }),
  op({
    id: 'adminAddCredits',
    summaryNb: 'Fyll på en kundes saldo (send Idempotency-Key: et nytt forsøk skal ikke betale to ganger)',
    method: 'POST',
    path: '/api/v1/admin/credits',
    ...OPERATOR,
    summary: 'Credit a consumer’s balance (send Idempotency-Key: a retry must not pay twice)',
    request: { body: A.AdminCreditsBody },
    response: A.AdminCredits,
    idempotency: 'optional',
  }),
  op({
    id: 'adminListOutbox',
    summaryNb: 'E-post som holdes tilbake fordi SMTP_URL ikke er satt (nyeste først; beholdes ett døgn)',
    method: 'GET',
    path: '/api/v1/admin/outbox',
    ...OPERATOR,
    summary: 'Mail kept because SMTP_URL is unset (newest first; kept one day)',
    request: { query: A.OutboxQuery },
    response: A.Outbox,
  }),
  op({
    id: 'adminListPrivacyRequests',
    summaryNb: 'Åpne personvernforespørsler, den med tidligst frist først',
    method: 'GET',
    path: '/api/v1/admin/privacy-requests',
    ...OPERATOR,
    summary: 'Open data-subject requests, the one due first first',
    request: { query: A.PrivacyRequestsQuery },
    response: A.PrivacyRequests,
  }),
  op({
    id: 'adminApproveTopup',
    summaryNb: 'Godkjenn en ventende påfylling uten kortbetaling: beløpet godskrives én gang',
    method: 'POST',
    path: '/api/v1/admin/topup-requests/:id/approve',
    ...OPERATOR,
    summary: 'Approve a pending top-up request without card checkout: the amount is credited once',
    request: { params: A.IdParam },
    response: A.ApprovedTopup,
  }),
  op({
    id: 'adminBackup',
    summaryNb: 'En konsistent kopi av den innebygde databasen (det `plikt backup <fil>` ber en kjørende instans om)',
    method: 'POST',
    path: '/api/v1/admin/backup',
    category: 'admin',
    format: 'json',
    tag: 'Operator',
    summary: 'A consistent copy of the embedded database (what `plikt backup <file>` asks a running instance for)',
    description:
      'Answers `application/gzip`: the embedded data directory as a tarball of one instant, without the server secret, which `plikt backup <file>` (on the same machine) packs with the secret into a backup that `plikt restore <file>` loads into an empty DATA_DIR. On PostgreSQL (DATABASE_URL set) it answers 404 `NOT_FOUND`: use pg_dump.',
    response: null,
    errors: ['NOT_FOUND'],
  }),
  op({
    id: 'adminListJobs',
    summaryNb: 'Planlagte jobber og køjobber: navn, tidsplaner og siste kjøringer',
    method: 'GET',
    path: '/api/v1/admin/jobs',
    ...OPERATOR,
    summary: 'The scheduled and queue jobs: names, schedules and last runs',
    response: J.JobList,
  }),
  op({
    id: 'adminRunJob',
    summaryNb: 'Kjør en jobb nå og svar med utfallet (`accounts-diff`, `anchor`, …)',
    method: 'POST',
    path: '/api/v1/admin/jobs/:name/run',
    ...OPERATOR,
    summary: 'Run a job now and answer its outcome (`accounts-diff`, `anchor`, …)',
    description:
      'A scheduled job runs one tick of its own, claimed in the database like any other (so at most once however many ' +
      'instances are asked), marked manual in the list of last runs; a queue job runs one pass. The answer waits for the run ' +
      'and carries what it reports; a run that failed is `ok: false` with its error. `accounts-diff` run this way observes ' +
      'every covered company again, whenever it was last observed. An unknown name is 404 `NOT_FOUND`.',
    request: { params: J.JobParams },
    response: J.JobOutcome,
  }),
] as const satisfies readonly Operation[]
