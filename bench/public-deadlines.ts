/** GET /api/v1/public/deadlines?year=2026 (cached per year and rulebook version) beside a bare Bun.serve. Target ≥ 70 %. */
import { appendFileSync } from 'node:fs'
import { compareWithBare } from './harness.ts'

const table = await compareWithBare('GET /api/v1/public/deadlines?year=2026 vs bare Bun.serve', 'npm run bench -- public-deadlines', '/api/v1/public/deadlines?year=2026', [['200 (full body)', {}]])
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
