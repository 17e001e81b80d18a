/**
 * MCP `tools/call` vs its REST twin in one run, with the same key (enterprise: counted, never
 * limited; credited so every call is charged): the metered company tool `get_company_summary` vs
 * `GET /api/v1/company/984661185/summary` (target: ≥ 60 % of REST). The service runs as shipped
 * (`bun src/main.ts`, default configuration, access log on, on-disk embedded database,
 * TRUST_PROXY=true); the fixture register runs in a process of its own and answers the first call,
 * so every measured call is a cache hit. Both sides run the same wrk script with the same headers
 * (the key, both content negotiation headers, one of 4 096 client addresses); they alternate
 * rounds, and the median round's ratio is reported.
 */
import { appendFileSync } from 'node:fs'
import { connections, load, machine, rounds, seconds, type LoadResult } from './harness.ts'
import { dataDir, mintKeys, startFixtures, startService } from './service.ts'

const ORG = '984661185'
const fixtures = await startFixtures()
const data = dataDir()
const service = await startService({
  UPSTREAM_MODE: 'live',
  BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
  CENTRAL_BANK_URL: fixtures.centralBankUrl,
  TRUST_PROXY: 'true',
  DATA_DIR: data.path,
})
let table: string
try {
  const [key] = await mintKeys(service.url, 1, 'mcp-bench')
  const headers = {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  }
  const rest = { url: `${service.url}/api/v1/company/${ORG}/summary`, headers, connections, manyIps: true }
  const rpc = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_company_summary', arguments: { org_number: ORG } },
  })
  const mcp = { url: `${service.url}/api/mcp`, headers, connections, manyIps: true, body: rpc }
  const warm = await fetch(rest.url, { headers })
  if (!warm.ok) throw new Error(`warming the summary failed: ${warm.status} ${await warm.text()}`)
  const called = await (await fetch(mcp.url, { method: 'POST', headers, body: rpc })).json()
  if (!called.result || called.result.isError)
    throw new Error(`the tool call failed: ${JSON.stringify(called).slice(0, 500)}`)
  await load({ ...rest, seconds: 2 })
  await load({ ...mcp, seconds: 2 })
  const runs: { r: LoadResult; m: LoadResult; ratio: number }[] = []
  for (let i = 0; i < rounds; i++) {
    const r = await load({ ...rest, seconds })
    const m = await load({ ...mcp, seconds })
    runs.push({ r, m, ratio: m.rps / r.rps })
  }
  const mid = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)]!
  table = [
    `### MCP tools/call get_company_summary vs its REST twin, one key — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`npm run bench -- mcp\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, BENCH_ROUNDS=${rounds}, REST and MCP alternating); the service as shipped, on-disk embedded database, fixture register in its own process; ${machine()}.`,
    '',
    '| round | REST req/s | REST p50 / p99 ms | MCP req/s | MCP p50 / p99 ms | ratio | non-2xx (REST / MCP) |',
    '|---|---|---|---|---|---|---|',
    ...runs.map(
      (x, i) =>
        `| ${i + 1}${x === mid ? ' (median)' : ''} | ${x.r.rps.toFixed(0)} | ${x.r.p50_ms.toFixed(2)} / ${x.r.p99_ms.toFixed(2)} | ${x.m.rps.toFixed(0)} | ${x.m.p50_ms.toFixed(2)} / ${x.m.p99_ms.toFixed(2)} | ${(x.ratio * 100).toFixed(0)} % | ${x.r.non2xx} / ${x.m.non2xx} |`,
    ),
    '',
    `Median ratio ${(mid.ratio * 100).toFixed(0)} % (target ≥ 60 %).`,
    '',
  ].join('\n')
} finally {
  await service.stop()
  await fixtures.stop()
  data.remove()
}
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
