/**
 * Pending delegations, asked about at the digital agency: young requests every few seconds, older
 * ones every minute, fairly across accounts (domain/delegation/refresh.ts). An organisation that
 * approved (or rejected) is recorded even when no agent reads its permissions, so the fullmakt
 * state — which reports what was recorded — catches up by itself within seconds. A queue job:
 * each grant is claimed for its ask, so every instance may sweep at once.
 */
import { sweepPendingGrants, type SweepOutcome } from '../src/domain/delegation/refresh.ts'
import type { JobDeps } from './runner.ts'

export async function runDelegationRefresh(deps: JobDeps): Promise<SweepOutcome> {
  if (!deps.digitalAgency || !deps.serverKeys) return { asked: 0, changed: 0 }
  return sweepPendingGrants({ sql: deps.sql, digitalAgency: deps.digitalAgency, serverKeys: deps.serverKeys, clock: deps.clock, logger: deps.logger })
}
