/**
 * The metered company summary served from the cache on real PostgreSQL: key, limits, debit, one
 * cached register read (a primary-key lookup), the rulebook evaluation and the envelope — beside the
 * raw commit rate of the same PostgreSQL in one run. The fixture register answers the first call;
 * every measured call is a cache hit (the cache stays fresh for an hour).
 */
import { startFixtureServers } from '../fixtures/servers/index.ts'
import { meteredVsCommits } from './metered-vs-commits.ts'

const fixtures = await startFixtureServers()
try {
  await meteredVsCommits({
    path: '/api/v1/company/984661185/summary',
    label: 'Metered company summary from cache (key from the cache, confirmed in the charge; limits counted and debit written in one group-committed statement; one cached register read; rulebook; envelope)',
    command: 'npm run bench -- company-summary',
    env: { BRREG_BASE_URL: fixtures.brregUrl, NORGES_BANK_BASE_URL: fixtures.norgesBankUrl },
  })
} finally {
  await fixtures.stop()
}
