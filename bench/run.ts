/** `npm run bench [-- <name> [--record]]`: runs bench/<name>.ts (default: every benchmark). */
import { readdirSync } from 'node:fs'

const skip = new Set(['run.ts', 'harness.ts', 'metered-vs-commits.ts', 'service.ts'])
const all = readdirSync('bench')
  .filter((f) => f.endsWith('.ts') && !skip.has(f))
  .map((f) => f.slice(0, -3))
const args = process.argv.slice(2)
const chosen = args.filter((a) => !a.startsWith('--'))
const flags = args.filter((a) => a.startsWith('--'))
for (const name of chosen.length ? chosen : all) {
  if (!all.includes(name)) {
    console.error(`no benchmark bench/${name}.ts; have: ${all.join(', ')}`)
    process.exit(2)
  }
  const proc = Bun.spawn(['bun', `bench/${name}.ts`, ...flags], { stdout: 'inherit', stderr: 'inherit' })
  if ((await proc.exited) !== 0) process.exit(1)
}
