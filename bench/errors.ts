/**
 * GET /api/v1/errors, with and without If-None-Match, beside a bare Bun.serve answering the same
 * bytes, in one run. Prints a Markdown table; `--record` appends it to bench/RESULTS.md.
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { load, startServer, type LoadResult } from './harness.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)

const plikt = await startServer('bench/servers/plikt.ts')
const sample = await fetch(`http://127.0.0.1:${plikt.port}/api/v1/errors`)
const etag = sample.headers.get('etag')!
const bodyFile = `/tmp/plikt-bench-errors-${process.pid}.json`
writeFileSync(bodyFile, new Uint8Array(await sample.arrayBuffer()))
const bare = await startServer('bench/servers/bare.ts', { BODY_FILE: bodyFile, ETAG: etag })

const cases: [string, Record<string, string>][] = [
  ['200 (full body)', {}],
  ['304 (If-None-Match)', { 'if-none-match': etag }],
]
const rows: string[] = []
for (const [name, headers] of cases) {
  // Warm both servers before measuring.
  await load({ url: `http://127.0.0.1:${plikt.port}/api/v1/errors`, headers, seconds: 2, connections })
  await load({ url: `http://127.0.0.1:${bare.port}/api/v1/errors`, headers, seconds: 2, connections })
  const p: LoadResult = await load({ url: `http://127.0.0.1:${plikt.port}/api/v1/errors`, headers, seconds, connections })
  const b: LoadResult = await load({ url: `http://127.0.0.1:${bare.port}/api/v1/errors`, headers, seconds, connections })
  rows.push(
    `| ${name} | ${p.rps.toFixed(0)} | ${p.p50_ms.toFixed(2)} / ${p.p99_ms.toFixed(2)} | ${b.rps.toFixed(0)} | ${b.p50_ms.toFixed(2)} / ${b.p99_ms.toFixed(2)} | ${((p.rps / b.rps) * 100).toFixed(0)} % | ${p.tool} |`,
  )
}
plikt.stop()
bare.stop()

const table = [
  `### GET /api/v1/errors vs bare Bun.serve — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- errors\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}); ` +
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Bun ${Bun.version}; client and servers on the same machine.`,
  '',
  '| case | Plikt req/s | Plikt p50 / p99 ms | bare req/s | bare p50 / p99 ms | ratio | client |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
