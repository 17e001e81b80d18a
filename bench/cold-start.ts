/**
 * The compiled binary (`npm run build` → dist/plikt), started as an operator starts it: the first
 * start on an empty data directory (initdb and every migration), then restarts on that existing
 * directory, each timed from spawning the process to the first 200 from /api/health (target < 0.5 s
 * for a restart); and its RSS idle and under load (public deadlines, 4 096 client addresses).
 */
import { appendFileSync, existsSync } from 'node:fs'
import { connections, load, machine, rounds, seconds } from './harness.ts'
import { dataDir, startService } from './service.ts'

const BINARY = 'dist/plikt'
const build = Bun.spawnSync(['bun', 'scripts/build.ts', BINARY], { stdout: 'inherit', stderr: 'inherit' })
if (build.exitCode !== 0 || !existsSync(BINARY)) throw new Error('npm run build failed')

/** Spawn → first 200 from /api/health, ms; the service is left running. */
async function startTimed(dir: string) {
  const t0 = performance.now()
  const service = await startService({ DATA_DIR: dir, UPSTREAM_MODE: 'live', TRUST_PROXY: 'true' }, { binary: BINARY })
  for (;;) {
    const ok = await fetch(`${service.url}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { service, ms: performance.now() - t0 }
  }
}

const data = dataDir()
const rows: string[] = []
try {
  const first = await startTimed(data.path)
  rows.push(`| first start (empty data directory: initdb, every migration) | ${first.ms.toFixed(0)} ms |`)
  await first.service.stop()
  const restarts: number[] = []
  let idle = 0
  let loaded = 0
  for (let i = 0; i < Math.max(rounds, 5); i++) {
    const { service, ms } = await startTimed(data.path)
    restarts.push(ms)
    if (i === 0) {
      await Bun.sleep(2000)
      idle = service.rssMb()
      // (wrk runs synchronously, so nothing samples during the load: read it as the load ends)
      await load({ url: `${service.url}/api/v1/public/deadlines?year=2026`, seconds, connections, manyIps: true })
      loaded = service.rssMb()
    }
    await service.stop()
  }
  const sorted = [...restarts].sort((a, b) => a - b)
  rows.push(
    `| restart on the existing data directory, median of ${restarts.length} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms (all: ${restarts.map((m) => m.toFixed(0)).join(', ')}) |`,
  )
  rows.push(`| RSS idle, 2 s after start | ${idle.toFixed(0)} MB |`)
  rows.push(
    `| RSS at the end of ${seconds} s of load (public deadlines, ${connections} connections) | ${loaded.toFixed(0)} MB |`,
  )
} finally {
  data.remove()
}
const table = [
  `### Compiled binary: cold start and memory — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- cold-start\` (${BINARY} from \`npm run build\`, default configuration, embedded database on disk); ${machine()}.`,
  '',
  '| measure | value |',
  '|---|---|',
  ...rows,
  '',
  'Target: a restart on an existing data directory healthy in < 500 ms.',
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
