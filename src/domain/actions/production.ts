/**
 * The production environment of the execute flow (execute.ts): facts from the business register
 * and the consumer's recorded delegations, a conflict lock per organisation, form and period, the
 * token service and the tax authority's validation before the approval token is spent, the filing
 * portal after it, and receipts signed with the consumer's own key. One 8-second budget covers
 * every upstream call of a filing (spec Limits: execution budget).
 */
import { AppError } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { canonicalJson } from '../../lib/canonical-json.ts'
import { uuidV5 } from '../../lib/uuid-v5.ts'
import { appendAuditAt } from '../../store/audit.ts'
import type { Sql } from '../../store/db.ts'
import { acquireActionLock, actingSystemUser, recordFiling, releaseActionLock } from '../../store/delegations.ts'
import {
  MVA_SUBMIT_SCOPES,
  MVA_VALIDATION_SCOPE,
  type Government as GovernmentSystems,
} from '../../upstream/government.ts'
import type { CompanyReads } from '../sources.ts'
import { activeScopesOf, currentGrants, type DelegationEnv } from '../delegation/fullmakt.ts'
import { RULEBOOK_VERSION } from '../rulebook/version.ts'
import { isActive } from '../company/verify.ts'
import { resolveOrg, subUnitRefusal } from '../company/register.ts'
import { isPlainObject } from './payload.ts'
import { ACTION_SCOPES, type ActionFacts, type ActionInput } from './dry-run.ts'
import type { ApprovalGate } from './approval.ts'
import { PRODUCTION_REFUSALS, type ExecuteEnv, type FilingSubmitter } from './execute.ts'
import type { ActionType } from './period.ts'
import type { ConsumerSigning } from './receipt.ts'

/** Total time for every upstream call of one filing. */
export const EXECUTION_BUDGET_MS = 8_000

/**
 * Conflict lock TTLs, seconds, of every write the spec names (spec Limits: mva 600; a-melding 300;
 * tax return 1200; annual accounts 1800; token-service delegate 60). Only the filings of
 * `LOCK_TTL_SECONDS` take a lock today: tax returns and annual accounts are not filed through Plikt,
 * and a delegate call takes none (the capabilities document says which are taken).
 */
export const CONFLICT_LOCK_TTL_SECONDS = {
  mva_melding: 600,
  a_melding: 300,
  tax_return: 1200,
  annual_accounts: 1800,
  token_service_delegate: 60,
} as const

/** The conflict locks a live filing takes, by action type. */
export const LOCK_TTL_SECONDS: Record<ActionType, number> = {
  mva_melding: CONFLICT_LOCK_TTL_SECONDS.mva_melding,
  a_melding: CONFLICT_LOCK_TTL_SECONDS.a_melding,
}

/** uuid v5 of `urn:plikt:audit-log` in the RFC's URL namespace: production receipts' audit ids. */
const AUDIT_NAMESPACE = 'b1a3f0f2-6c1e-5d8e-9a47-3f0c2a1d7e55'

/** What a filing needs of the government systems (upstream/government.ts builds them from config). */
export type Government = Pick<GovernmentSystems, 'tokenService' | 'taxAuthority' | 'filingSubmitter'>

export interface ProductionCaller {
  consumerId: string
  /**
   * the agent (one key): a conflict lock's holder is this and the filing's Idempotency-Key, so
   * only a retry of the same filing re-enters it
   */
  holder: string
  /** `key:<id>` for the audit log */
  actor: string
  correlationId: string | null
}

/** What the five checks need, as the register and the recorded delegations say. */
export async function productionFacts(
  reads: CompanyReads,
  delegation: DelegationEnv,
  org: string,
): Promise<ActionFacts> {
  const { value } = await reads.unit(org)
  if (value.kind === 'unknown') {
    // Only a legal entity files: a sub-unit's number is refused with its parent's in the fix.
    const sub = await resolveOrg(reads, org)
    if (sub.kind === 'entity' && sub.entity.subUnit) throw subUnitRefusal(sub.entity.subUnit)
    if (sub.kind === 'missing' && sub.subUnit) throw sub.error
  }
  if (value.kind !== 'found')
    return { company: { exists: false, active: false }, systemUserAuthorised: false, delegatedScopes: [] }
  const active = isActive(value.unit)
  const grants = (await currentGrants(delegation, org, true)).filter((g) => g.status === 'active')
  return {
    company: { exists: true, active },
    systemUserAuthorised: grants.some((g) => g.system_user_id !== null),
    delegatedScopes: activeScopesOf(grants),
  }
}

function retryAfter(until: Date, now: Date): string {
  return String(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)))
}

/**
 * The portal behind a conflict lock and a budget. The lock is taken before anything else and kept
 * after a filing reached the portal (a second agent must not file the same period on top of it);
 * it is given back only when nothing was sent, and only by the attempt that took it: another
 * attempt of the same key with another Idempotency-Key is another filing and meets the lock.
 */
export function productionSubmitter(
  sql: Sql,
  gov: Government,
  caller: ProductionCaller,
  now: () => Date,
): FilingSubmitter {
  let deadline = 0
  let tokens: { filing: string } | null = null
  const left = () => deadline - now().getTime()
  const budget = () => {
    const ms = left()
    if (ms <= 0) throw new AppError('EXECUTION_DEADLINE_EXCEEDED', { context: { upstream_system: 'Altinn' } })
    return ms
  }
  return {
    async prepare(f) {
      deadline = now().getTime() + EXECUTION_BUDGET_MS
      // This attempt's own lock: its id, not the holder, decides who may give it back.
      const lock = {
        org: f.input.org_number,
        kind: f.input.action_type,
        period: f.input.period,
        holder: lockHolderOf(caller, f.idempotency_key),
        attempt: crypto.randomUUID(),
      }
      const got = await acquireActionLock(sql, {
        ...lock,
        now: now(),
        ttlMs: LOCK_TTL_SECONDS[f.input.action_type] * 1000,
      })
      if (!got.acquired) {
        throw new AppError('EXECUTION_CONFLICT', {
          headers: { 'retry-after': retryAfter(got.expiresAt, now()) },
          context: { org_number: f.input.org_number },
          extra: {
            lock: {
              org_number: lock.org,
              action_type: lock.kind,
              period: lock.period,
              expires_at: got.expiresAt.toISOString(),
            },
          },
        })
      }
      const release = async () => {
        if (got.owned) await releaseActionLock(sql, lock)
      }
      try {
        // The system user the consumer's own delegation made, named by its externalRef: another
        // consumer's system user for the same organisation is never used.
        const acting = await actingSystemUser(
          sql,
          caller.consumerId,
          f.input.org_number,
          ACTION_SCOPES[f.input.action_type],
        )
        if (!acting) throw new AppError('PORTAL_DELEGATION_MISSING', { context: { org_number: f.input.org_number } })
        const systemUser = { org: f.input.org_number, externalRef: acting.external_ref }
        const validationToken = await gov.tokenService.token({
          scope: MVA_VALIDATION_SCOPE,
          systemUser,
          budgetMs: budget(),
        })
        const filingToken = await gov.tokenService.token({ scope: MVA_SUBMIT_SCOPES, systemUser, budgetMs: budget() })
        const payload = isPlainObject(f.input.payload) ? f.input.payload : {}
        const checked = await gov.taxAuthority.validateVatReturn(
          { org_number: f.input.org_number, period: f.input.period, payload },
          validationToken.access_token,
        )
        if (
          checked.avvikVedMeldingslevering === 'ugyldig skattemelding' ||
          checked.avvikVedMeldingslevering === 'mangelfull skattemelding'
        ) {
          throw new AppError('GOVERNMENT_VALIDATION_REJECTED', {
            status: 422,
            context: { upstream_system: 'Skatteetaten' },
            extra: { upstream: { system: 'Skatteetaten', valideringsresultat: checked } },
          })
        }
        tokens = { filing: filingToken.access_token }
      } catch (e) {
        await release()
        throw e
      }
      return { release }
    },
    async submit(f) {
      if (!tokens) throw new Error('productionSubmitter: submit before prepare')
      const payload = isPlainObject(f.input.payload) ? f.input.payload : {}
      const portal = await gov.filingSubmitter.submitVatReturn(
        {
          org_number: f.input.org_number,
          period: f.input.period,
          payload,
          action_id: f.action_id,
          idempotency_key: f.idempotency_key,
        },
        tokens.filing,
        budget(),
      )
      await recordFiling(sql, {
        id: auditIdOf(caller.consumerId, f.idempotency_key, f.action_id),
        consumerId: caller.consumerId,
        org: f.input.org_number,
        actionType: f.input.action_type,
        period: f.input.period,
        receiptId: portal.receipt_id,
        instanceId: portal.instance_id,
        at: now(),
      })
      return {
        receipt_id: portal.receipt_id,
        government_response_raw: portal.government_response_raw,
        audit_details: { portal_instance_id: portal.instance_id, mock_portal: gov.filingSubmitter.mock },
      }
    },
  }
}

/** Who may re-enter a conflict lock: the same key retrying the same filing (its Idempotency-Key). */
export function lockHolderOf(caller: Pick<ProductionCaller, 'holder'>, idempotencyKey: string): string {
  return `${caller.holder}|idempotency:${idempotencyKey}`
}

/** Deterministic, so a replayed filing names the same audit row. */
export function auditIdOf(consumerId: string, idempotencyKey: string, actionId: string): string {
  return uuidV5(canonicalJson([consumerId, idempotencyKey, actionId]), AUDIT_NAMESPACE)
}

export interface ProductionExecute {
  sql: Sql
  reads: CompanyReads
  delegation: DelegationEnv
  gov: Government
  caller: ProductionCaller
  approval: ApprovalGate
  signing: ConsumerSigning
  /** the organisation filed for: its audit rows name it */
  org: string
  today: LocalDate
  now: () => Date
}

export function productionEnv(p: ProductionExecute): ExecuteEnv {
  const at = p.now()
  return {
    facts: (input: ActionInput) => productionFacts(p.reads, p.delegation, input.org_number),
    approval: p.approval,
    submitter: productionSubmitter(p.sql, p.gov, p.caller, p.now),
    signing: { key: p.signing.key, rule_version: RULEBOOK_VERSION, ed25519: p.signing.ed25519 },
    auditId: (f) => auditIdOf(p.caller.consumerId, f.idempotency_key, f.action_id),
    audit: (action, id, details) =>
      appendAuditAt(p.sql, {
        id,
        occurredAt: at,
        consumerId: p.caller.consumerId,
        actor: p.caller.actor,
        action,
        orgNumber: p.org,
        correlationId: p.caller.correlationId,
        details,
      }),
    today: p.today,
    at,
    refusals: PRODUCTION_REFUSALS,
  }
}
