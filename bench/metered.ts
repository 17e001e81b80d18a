/**
 * An authenticated, rate-limited, metered request on real PostgreSQL beside the raw commit rate of
 * the same PostgreSQL. Target: at least half of it.
 */
import { meteredVsCommits } from './metered-vs-commits.ts'

await meteredVsCommits({
  path: '/api/v1/test/metered',
  label: 'Metered request (key from the cache, confirmed in the charge; 2 rate-limit windows counted; debit, ledger row and batch hold in one group-committed statement; hold released after the call)',
  command: 'npm run bench -- metered',
  target: 0.5,
})
