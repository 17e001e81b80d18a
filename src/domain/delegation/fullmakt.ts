/**
 * Brokering delegations (fullmakt): an agent principal asks an organisation, through the digital
 * agency, for a system user with some scopes; a person with signing authority approves at the
 * agency; Plikt records the answer and signs a receipt at each step.
 *
 * The agency is the source of truth for what exists upstream; our rows record what we asked for
 * and what we learned. A request first writes its grant row (so a retry finds it and the agency
 * finds the request by its externalRef: never a second delegation), then asks the agency, then
 * records the answer. When one of those follow-up writes fails the delegation exists upstream
 * nonetheless: the call answers 201 with `warnings` naming what degraded, and a retry completes it.
 */
import { AppError } from '../../errors/app-error.ts'
import type { Logger } from '../../lib/log.ts'
import type { Sql } from '../../store/db.ts'
import {
  activatePrincipal,
  bindSystemUser,
  ensurePrincipal,
  findPrincipal,
  grantsOfPrincipal,
  insertDelegationReceipt,
  insertRevocations,
  liveGrantsForOrg,
  openGrant,
  recordAgencyAnswer,
  revokePrincipalRow,
  takeLeastRecentlyAsked,
  type DelegationRow,
  type PrincipalRow,
} from '../../store/delegations.ts'
import { appendChanges } from '../../store/changes.ts'
import { delegationDecided } from '../changes/observed.ts'
import type { DigitalAgency, SystemUserRequest } from '../../upstream/digital-agency/port.ts'
import type { Plan } from '../access/types.ts'
import { ACCESS_PACKAGES, checkDelegationScopes, planBaseline } from './scopes.ts'
import type { ConsumerSigning } from '../actions/receipt.ts'
import { signDelegationReceipt, type DelegationEvent, type DelegationReceipt } from './receipts.ts'

export interface DelegationEnv {
  sql: Sql
  agency: DigitalAgency
  /** the consumer's receipt key (domain/actions/receipt.ts consumerReceiptKey) and the service's Ed25519 keys */
  signing: ConsumerSigning
  consumerId: string
  plan: Plan
  now: () => Date
  logger: Logger
  /** where the agency sends the person back after deciding (the return page); none: the agency's own default */
  returnUrl?: string
}

/** What degraded after the delegation existed upstream (spec: fullmakt request and revoke). */
export type DelegationWarning =
  | 'delegation_record_failed'
  | 'principal_activation_failed'
  | 'receipt_generation_failed'
  | 'principal_revoke_failed'
  | 'delegation_not_found'
  | 'upstream_revoke_unconfirmed'

type UpstreamStatus = 'pending' | 'active' | 'rejected' | 'expired'

function statusOf(r: SystemUserRequest): UpstreamStatus {
  switch (r.status) {
    case 'New':
      return 'pending'
    case 'Accepted':
      return 'active'
    case 'Rejected':
    case 'Denied':
      return 'rejected'
    case 'Timedout':
      return 'expired'
  }
}

function principalConflict(reason: string, principalId: string): AppError {
  return new AppError('AGENT_PRINCIPAL_CONFLICT', { extra: { agent_principal_id: principalId, reason } })
}

async function receiptFor(
  env: DelegationEnv,
  event: DelegationEvent,
  g: DelegationRow,
  status: string,
  systemUserId: string | null,
): Promise<DelegationReceipt> {
  const at = env.now()
  const receipt = await signDelegationReceipt(
    {
      event,
      at,
      consumer_id: env.consumerId,
      agent_principal_id: g.principal_id,
      delegation_id: g.id,
      org_number: g.org_number,
      system_user_id: systemUserId ?? '',
      scopes: [...g.scopes].sort().join(' '),
      delegation_status: status,
    },
    env.signing,
  )
  const kept = await insertDelegationReceipt(env.sql, {
    id: receipt.receipt_id,
    consumerId: env.consumerId,
    event,
    delegationId: g.id,
    issuedAt: at,
    receipt: receipt as unknown as Record<string, unknown>,
  })
  return kept.receipt as unknown as DelegationReceipt
}

/** Runs a follow-up write; a failure becomes a warning (logged without secrets), never an error. */
async function followUp<T>(
  env: DelegationEnv,
  warnings: DelegationWarning[],
  warning: DelegationWarning,
  write: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await write()
  } catch (e) {
    env.logger.error('delegation follow-up write failed', {
      warning,
      error: e instanceof Error ? e.message : String(e),
    })
    warnings.push(warning)
    return undefined
  }
}

export interface FullmaktRequest {
  agent_principal_id: string
  org_number: string
  scopes: string[]
}

export interface FullmaktGrant {
  agent_principal_id: string
  org_number: string
  scopes: string[]
  access_packages: string[]
  delegation_id: string
  delegation_status: UpstreamStatus | 'requesting'
  delegation_url: string | null
  principal_state: PrincipalRow['state']
  system_user_id: string | null
  warnings: DelegationWarning[]
  signed_receipt: DelegationReceipt | null
}

export async function requestFullmakt(env: DelegationEnv, req: FullmaktRequest): Promise<FullmaktGrant> {
  const scopes = checkDelegationScopes(req.scopes)
  const principal = await ensurePrincipal(env.sql, env.consumerId, req.agent_principal_id, req.org_number, env.now())
  if (principal.state === 'revoked')
    throw new AppError('AGENT_PRINCIPAL_REVOKED', { extra: { agent_principal_id: principal.id } })
  if (principal.org_number !== req.org_number)
    throw principalConflict(
      `the principal acts for ${principal.org_number}; use a new agent_principal_id for another organisation`,
      principal.id,
    )
  const grant = await openGrant(env.sql, {
    id: crypto.randomUUID(),
    consumerId: env.consumerId,
    principalId: principal.id,
    orgNumber: req.org_number,
    scopes,
    now: env.now(),
    maxOpen: MAX_OPEN_REQUESTS,
  })
  if (grant === 'limit') {
    throw new AppError('DELEGATION_REQUESTS_LIMIT', {
      context: { org_number: req.org_number },
      extra: { limit: MAX_OPEN_REQUESTS, agent_principal_id: principal.id },
    })
  }
  if (!grant) throw new AppError('AGENT_PRINCIPAL_REVOKED', { extra: { agent_principal_id: principal.id } })
  if (grant.scopes.join(' ') !== scopes.join(' ')) {
    throw principalConflict(
      `the principal has an open delegation for ${grant.scopes.join(', ')}; revoke it and use a new agent_principal_id to ask for other scopes`,
      principal.id,
    )
  }

  // Idempotent at the agency by externalRef: a retry returns the request made the first time.
  const upstream = await env.agency.requestSystemUser({
    partyOrgNo: req.org_number,
    externalRef: grant.external_ref!,
    accessPackages: scopes.map((s) => ACCESS_PACKAGES[s]!),
    ...(env.returnUrl ? { redirectUrl: env.returnUrl } : {}),
  })
  const status = statusOf(upstream)
  const warnings: DelegationWarning[] = []
  let systemUserId = grant.system_user_id
  if (status === 'active' && systemUserId === null)
    systemUserId = (await env.agency.systemUser(req.org_number, grant.external_ref!))?.id ?? null

  // A request the agency had decided already (a retry after the person chose) is archived with the answer, as refreshGrant does.
  const recorded = await followUp(env, warnings, 'delegation_record_failed', () =>
    env.sql.begin(async (t) => {
      const tx = t as unknown as Sql
      const ok = await recordAgencyAnswer(
        tx,
        grant.id,
        { requestId: upstream.id, delegationUrl: upstream.confirmUrl, status, systemUserId },
        env.now(),
      )
      if (ok && status !== 'pending')
        await appendChanges(tx, [delegationDecided(req.org_number, upstream.id, status, env.now())], env.now())
      return ok
    }),
  )
  if (recorded === false && (await findPrincipal(env.sql, env.consumerId, principal.id))?.state === 'revoked') {
    // Revoked while we asked: withdraw what we just asked for, and say so.
    await env.agency.revoke(req.org_number, grant.external_ref!).catch(() => undefined)
    throw new AppError('AGENT_PRINCIPAL_REVOKED', { extra: { agent_principal_id: principal.id } })
  }
  await followUp(env, warnings, 'principal_activation_failed', async () => {
    await activatePrincipal(env.sql, env.consumerId, principal.id, env.now())
    if (systemUserId) await bindSystemUser(env.sql, env.consumerId, principal.id, systemUserId, env.now())
  })
  const receiptGrant = { ...grant, scopes }
  const receipt = await followUp(env, warnings, 'receipt_generation_failed', () =>
    receiptFor(env, 'delegation_granted', receiptGrant, status === 'active' ? 'active' : 'pending', systemUserId),
  )
  const now = await findPrincipal(env.sql, env.consumerId, principal.id)
  return {
    agent_principal_id: principal.id,
    org_number: req.org_number,
    scopes,
    access_packages: scopes.map((s) => ACCESS_PACKAGES[s]!),
    delegation_id: grant.id,
    delegation_status: status,
    delegation_url: status === 'pending' ? upstream.confirmUrl : null,
    principal_state: now?.state ?? principal.state,
    system_user_id: systemUserId,
    warnings,
    signed_receipt: receipt ?? null,
  }
}

/**
 * Asks the agency how a pending grant stands and records what changed: approval binds the system
 * user (to the grant and, once, to the principal) and signs a `delegation_granted` receipt in
 * state `active`. An agency failure leaves the recorded state as it was.
 */
export async function refreshGrant(env: DelegationEnv, g: DelegationRow): Promise<DelegationRow> {
  if (g.status !== 'pending' || g.revoked || g.request_id === null) return g
  try {
    const upstream = await env.agency.requestStatus(g.request_id)
    if (upstream === null) return g
    const status = statusOf(upstream)
    if (status === 'pending') return g
    const systemUserId =
      status === 'active' ? ((await env.agency.systemUser(g.org_number, g.external_ref!))?.id ?? null) : null
    if (status === 'active' && systemUserId === null) return g
    // One transaction: a reader never sees the delegation active while its principal has no system user yet.
    const recorded = await env.sql.begin(async (t) => {
      const tx = t as unknown as Sql
      if (
        !(await recordAgencyAnswer(
          tx,
          g.id,
          { requestId: g.request_id!, delegationUrl: g.delegation_url ?? upstream.confirmUrl, status, systemUserId },
          env.now(),
        ))
      )
        return false
      if (status === 'active') await bindSystemUser(tx, env.consumerId, g.principal_id, systemUserId!, env.now())
      // The agency's decision, archived with the answer that records it (domain/changes/observed.ts).
      await appendChanges(tx, [delegationDecided(g.org_number, g.request_id!, status, env.now())], env.now())
      return true
    })
    if (!recorded) return g
    if (status === 'active') await receiptFor(env, 'delegation_granted', g, 'active', systemUserId)
    return { ...g, status, system_user_id: systemUserId, activated_at: status === 'active' ? env.now() : null }
  } catch (e) {
    env.logger.warn('delegation status refresh failed; the recorded state stands', {
      delegation_id: g.id,
      error: e instanceof Error ? e.message : String(e),
    })
    return g
  }
}

/**
 * Open (requesting or pending) delegation requests one account may hold per organisation (spec
 * Limits; documented on the request operation). Each is asked about at the agency, so the cap
 * bounds that work.
 */
export const MAX_OPEN_REQUESTS = 100

/** Pending grants one read (permissions, dry run, live filing) asks the agency about, at most. */
export const MAX_ASKED_PER_READ = 10

/**
 * The consumer's unrevoked grants for the organisation; with `refresh`, pending ones asked about
 * first — at most MAX_ASKED_PER_READ of them, the least recently asked, so one call's work at the
 * agency is bounded whatever the account holds; the rest are as recorded.
 */
export async function currentGrants(env: DelegationEnv, org: string, refresh: boolean): Promise<DelegationRow[]> {
  const grants = await liveGrantsForOrg(env.sql, env.consumerId, org)
  if (!refresh) return grants
  const askable = grants.filter((g) => g.status === 'pending' && !g.revoked && g.request_id !== null)
  if (askable.length === 0) return grants
  const now = env.now()
  const chosen = new Set(
    await takeLeastRecentlyAsked(
      env.sql,
      askable.map((g) => g.id),
      MAX_ASKED_PER_READ,
      now,
      new Date(now.getTime() + 5_000),
    ),
  )
  return Promise.all(grants.map((g) => (chosen.has(g.id) ? refreshGrant(env, g) : g)))
}

/** Tells the agency; a failure is a warning, the local revocation stands regardless. */
async function revokeUpstream(
  env: DelegationEnv,
  grants: readonly DelegationRow[],
  warnings: DelegationWarning[],
): Promise<void> {
  for (const g of grants) {
    if (g.status === 'rejected' || g.status === 'expired') continue
    try {
      const outcome = await env.agency.revoke(g.org_number, g.external_ref!)
      // The system user lives on at the agency until the organisation deletes it; Plikt no longer uses it.
      if (outcome === 'unconfirmed' && !warnings.includes('upstream_revoke_unconfirmed'))
        warnings.push('upstream_revoke_unconfirmed')
    } catch (e) {
      env.logger.warn('upstream revoke failed; revoked locally', {
        delegation_id: g.id,
        error: e instanceof Error ? e.message : String(e),
      })
      if (!warnings.includes('upstream_revoke_unconfirmed')) warnings.push('upstream_revoke_unconfirmed')
    }
  }
}

export interface Revocation {
  agent_principal_id: string
  principal_state: 'revoked'
  revoked_at: string | null
  already_revoked: boolean
  revoked_delegations: string[]
  warnings: DelegationWarning[]
  signed_receipt: DelegationReceipt | null
}

/**
 * pending or active → revoked, terminal. The revocation markers come first (in one transaction,
 * serialised on the principal), so a request racing this revoke cannot activate the principal
 * afterwards; the agency is then told, and the principal row follows.
 */
export async function revokePrincipal(env: DelegationEnv, principalId: string, reason: string): Promise<Revocation> {
  const principal = await findPrincipal(env.sql, env.consumerId, principalId)
  if (!principal)
    throw new AppError('NOT_FOUND', {
      context: { field: 'agent_principal_id' },
      extra: { agent_principal_id: principalId },
    })
  const warnings: DelegationWarning[] = []
  if (principal.state === 'revoked') {
    return {
      agent_principal_id: principalId,
      principal_state: 'revoked',
      revoked_at: principal.revoked_at?.toISOString() ?? null,
      already_revoked: true,
      revoked_delegations: [],
      warnings,
      signed_receipt: null,
    }
  }
  const superseded = await insertRevocations(env.sql, env.consumerId, principalId, reason, env.now())
  await revokeUpstream(env, superseded, warnings)
  const principalRevoked = await followUp(env, warnings, 'principal_revoke_failed', () =>
    revokePrincipalRow(env.sql, env.consumerId, principalId, reason, env.now()),
  )
  if (principalRevoked !== undefined) {
    // A request that opened a grant between the markers and the principal's row: caught here, as
    // no grant can be opened for a revoked principal from now on.
    const late = await insertRevocations(env.sql, env.consumerId, principalId, reason, env.now())
    await revokeUpstream(env, late, warnings)
    superseded.push(...late)
  }
  if (superseded.length === 0 && (await grantsOfPrincipal(env.sql, env.consumerId, principalId)).length === 0)
    warnings.push('delegation_not_found')
  let receipt: DelegationReceipt | null = null
  for (const g of superseded) {
    const r = await followUp(env, warnings, 'receipt_generation_failed', () =>
      receiptFor(env, 'delegation_revoked', g, 'revoked', g.system_user_id),
    )
    receipt = r ?? receipt
  }
  const after = await findPrincipal(env.sql, env.consumerId, principalId)
  return {
    agent_principal_id: principalId,
    principal_state: 'revoked',
    revoked_at: after?.revoked_at?.toISOString() ?? null,
    already_revoked: false,
    revoked_delegations: superseded.map((g) => g.id),
    warnings: [...new Set(warnings)],
    signed_receipt: receipt,
  }
}

export type OverallStatus = 'full' | 'partial' | 'none'

/** full: the plan baseline is delegated and active; partial: something is active; none: nothing is. */
export function overallStatus(activeScopes: readonly string[], baseline: readonly string[]): OverallStatus {
  if (activeScopes.length === 0) return 'none'
  return baseline.every((s) => activeScopes.includes(s)) ? 'full' : 'partial'
}

export function activeScopesOf(grants: readonly DelegationRow[]): string[] {
  return [...new Set(grants.filter((g) => g.status === 'active').flatMap((g) => g.scopes))].sort()
}

export { planBaseline }
