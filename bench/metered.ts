/**
 * The metered company summary on PostgreSQL, from one key (an enterprise customer's single
 * integration: one balance row, the hard case) and from 200 keys, beside the commit rate of the
 * same PostgreSQL; and the embedded database's figure. Targets: ≥ 50 % of the commit rate, p99 ≤
 * 25 ms, no non-2xx. The fixture register answers the first call; every measured call is served
 * from the register cache (fresh for an hour), so the figure is Plikt's own cost.
 */
import { appendFileSync } from 'node:fs'
import { meteredVsCommits } from './metered-vs-commits.ts'

const table = await meteredVsCommits({
  path: '/api/v1/company/984661185/summary',
  label:
    'Metered company summary (key, limits, debit and ledger row, the cached register answer, the rulebook, the envelope, the access log line)',
  command: 'npm run bench -- metered',
  cases: [{ keys: 1 }, { keys: 200 }],
  target: { ratio: 0.5, p99_ms: 25 },
})
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
