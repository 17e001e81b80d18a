/**
 * Pending delegations, asked about at the digital agency every minute: an organisation that
 * approved (or rejected) is recorded even when no agent reads its permissions, so the fullmakt
 * state — which reports what was recorded — catches up by itself. Reads of the authorisation
 * snapshot and live filings ask for their own organisation at once, without waiting for this.
 */
import { consumerReceiptKey } from '../src/domain/actions/receipt.ts'
import { refreshGrant } from '../src/domain/delegation/fullmakt.ts'
import { pendingGrants } from '../src/store/delegations.ts'
import type { JobDeps } from './runner.ts'

/** Grants asked about per tick: the agency's rate limit, not ours, is the bound. */
export const REFRESH_BATCH = 50

export async function runDelegationRefresh(deps: JobDeps): Promise<{ asked: number; changed: number }> {
  if (!deps.digitalAgency || !deps.serverKeys) return { asked: 0, changed: 0 }
  const grants = await pendingGrants(deps.sql, REFRESH_BATCH)
  let changed = 0
  for (const g of grants) {
    const env = {
      sql: deps.sql,
      agency: deps.digitalAgency,
      signing: consumerReceiptKey(deps.serverKeys.receipts, g.consumer_id),
      consumerId: g.consumer_id,
      // the tier decides a snapshot's baseline; recording the agency's answer reads none
      tier: 'free' as const,
      now: () => deps.clock.now(),
      logger: deps.logger,
    }
    if ((await refreshGrant(env, g)).status !== g.status) changed++
  }
  return { asked: grants.length, changed }
}
