/**
 * GET /api/v1/public/deadlines?year=2026 (cached per year and rulebook version) beside a bare
 * Bun.serve, the full answer and the 304 to its own ETag (the service's 304 path against its 200
 * path, and each against bare). Target ≥ 70 %.
 */
import { appendFileSync } from 'node:fs'
import { compareWithBare } from './harness.ts'

const table = await compareWithBare(
  'GET /api/v1/public/deadlines?year=2026 vs bare Bun.serve',
  'npm run bench -- public-deadlines',
  '/api/v1/public/deadlines?year=2026',
  [
    ['200 (full body)', {}],
    ['304 (If-None-Match)', { 'if-none-match': '$ETAG' }],
  ],
)
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
