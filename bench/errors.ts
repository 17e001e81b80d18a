/** GET /api/v1/errors, with and without If-None-Match, beside a bare Bun.serve serving the same bytes. */
import { appendFileSync } from 'node:fs'
import { compareWithBare } from './harness.ts'

const table = await compareWithBare(
  'GET /api/v1/errors vs bare Bun.serve',
  'npm run bench -- errors',
  '/api/v1/errors',
  [
    ['200 (full body)', {}],
    ['304 (If-None-Match)', { 'if-none-match': '$ETAG' }],
  ],
)
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
