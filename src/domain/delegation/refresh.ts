/**
 * Asking the digital agency about pending delegations, so that a person's approval is recorded
 * within seconds although no agent reads its permissions (spec: Delegation state machine; the
 * agency is asked, its answer recorded). Young requests — the first 15 minutes, while the person
 * is most likely at the agency's page — are asked about every 5 seconds, older ones every minute
 * until they expire at the agency. Each sweep asks at most SWEEP_BATCH grants, a few at a time,
 * round-robin over the accounts (store/delegations.ts claimDueGrants), so one account's
 * unanswered requests never hold back another's, and the agency sees at most
 * SWEEP_BATCH / SWEEP_SECONDS status reads a second from one instance.
 *
 * The person's return from the agency (the return page, `DELEGATION_RETURN_PATH`, given to the
 * agency as each request's redirectUrl) asks about young requests at once: the agency does not
 * say which request the visit is about, so every young one not asked in the last second is.
 * Return visits on one instance share one sweep at a time, at most one per RETURN_GAP_MS.
 */
import type { Logger } from '../../lib/log.ts'
import type { ServerKeys } from '../../lib/server-secret.ts'
import type { Sql } from '../../store/db.ts'
import { claimDueGrants, type AskCadence, type DelegationRow } from '../../store/delegations.ts'
import type { DigitalAgency } from '../../upstream/digital-agency/port.ts'
import { consumerSigning } from '../actions/receipt.ts'
import { refreshGrant } from './fullmakt.ts'

/** Where the agency sends the person back after deciding (operations/pages.ts names the same path). */
export const DELEGATION_RETURN_PATH = '/fullmakt/returned'

export const ASK_CADENCE: AskCadence = { youngMs: 15 * 60_000, youngEveryMs: 5_000, oldEveryMs: 60_000, slackMs: 1_000 }

/** The refresh's period (jobs/runner.ts QUEUE_JOBS) and the most grants one sweep asks about. */
export const SWEEP_SECONDS = 5
export const SWEEP_BATCH = 50
/** Grants asked about at once within a sweep. */
export const SWEEP_CONCURRENCY = 4
/** A return visit asks about a young grant not asked about for this long. */
export const RETURN_MIN_GAP_MS = 1_000
/** Return visits on one instance start a sweep at most this often. */
export const RETURN_GAP_MS = 2_000

export interface RefreshDeps {
  sql: Sql
  digitalAgency: DigitalAgency
  serverKeys: ServerKeys
  clock: { now(): Date }
  logger: Logger
}

export interface SweepOutcome {
  asked: number
  changed: number
}

async function ask(deps: RefreshDeps, g: DelegationRow): Promise<boolean> {
  const env = {
    sql: deps.sql,
    agency: deps.digitalAgency,
    signing: consumerSigning(deps.sql, deps.serverKeys, g.consumer_id, () => deps.clock.now()),
    consumerId: g.consumer_id,
    // the plan decides a snapshot's baseline; recording the agency's answer reads none
    plan: 'free' as const,
    now: () => deps.clock.now(),
    logger: deps.logger,
  }
  return (await refreshGrant(env, g)).status !== g.status
}

/** One sweep: claims the due grants (or, `onlyYoung`, the young ones) and asks about each. */
export async function sweepPendingGrants(deps: RefreshDeps, opts: { onlyYoung?: boolean } = {}): Promise<SweepOutcome> {
  const grants = await claimDueGrants(
    deps.sql,
    deps.clock.now(),
    SWEEP_BATCH,
    ASK_CADENCE,
    opts.onlyYoung ? { onlyYoung: true, minGapMs: RETURN_MIN_GAP_MS } : {},
  )
  let changed = 0
  let next = 0
  const worker = async () => {
    while (next < grants.length) {
      const g = grants[next++]!
      if (await ask(deps, g)) changed++
    }
  }
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, grants.length) }, worker))
  return { asked: grants.length, changed }
}

/**
 * One instance's sweeps for return visits: a visit joins the sweep in flight or starts one, but
 * never sooner than RETURN_GAP_MS after the last one started (a visit then joins that one).
 */
export interface DelegationReturns {
  afterReturn(): Promise<SweepOutcome>
}

export function returnSweeps(deps: RefreshDeps): DelegationReturns {
  let current: Promise<SweepOutcome> | null = null
  let startedAt = -Infinity
  return {
    afterReturn() {
      const now = performance.now()
      if (current && now - startedAt < RETURN_GAP_MS) return current
      startedAt = now
      current = sweepPendingGrants(deps, { onlyYoung: true })
      return current
    },
  }
}
