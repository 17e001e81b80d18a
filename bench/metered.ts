/**
 * An authenticated, rate-limited, metered request on real PostgreSQL (key lookup, two window
 * upserts, debit with hold, settle) beside the raw commit rate. Target: at least half of it.
 */
import { meteredVsCommits } from './metered-vs-commits.ts'

await meteredVsCommits({
  path: '/api/v1/test/metered',
  label: 'Metered request (key + 2 limit windows + debit/hold + settle)',
  command: 'npm run bench -- metered',
})
