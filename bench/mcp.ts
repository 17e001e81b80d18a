/**
 * MCP `tools/call` vs its REST twin in one run, with the same key (enterprise: counted, never
 * limited; credited so every call is charged): the metered company tool `get_company_summary` vs
 * `GET /api/v1/company/984661185/summary` (the target: ≥ 60 % of REST), and the unmetered
 * `get_credit_balance` vs `GET /api/v1/account/credits/balance`. The register is the fixture
 * server; the first call fills the cache, so every measured call is a cache hit.
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { startFixtureServers } from '../fixtures/servers/index.ts'
import { connections, load, machine, seconds, startServer } from './harness.ts'

const ADMIN = 'bench-admin-token-0123456789abcdef0123'
const fixtures = await startFixtureServers()
const server = await startServer('bench/servers/plikt.ts', { ADMIN_TOKEN: ADMIN, BRREG_BASE_URL: fixtures.brregUrl, NORGES_BANK_BASE_URL: fixtures.norgesBankUrl })
const base = `http://127.0.0.1:${server.port}`
const h = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
const consumer = (await (await fetch(`${base}/api/v1/admin/consumers`, { method: 'POST', headers: h, body: JSON.stringify({ email: `mcp-bench-${Date.now()}@example.no`, tier: 'enterprise' }) })).json()).data.consumer_id
// The largest single credit the operator route takes: 2 million calls at 50 øre, more than a run makes.
const credited = await fetch(`${base}/api/v1/admin/credits`, { method: 'POST', headers: h, body: JSON.stringify({ consumer_id: consumer, amount_ore: 100_000_000, reason: 'benchmark' }) })
if (!credited.ok) throw new Error(`crediting the benchmark account failed: ${await credited.text()}`)
const key = (await (await fetch(`${base}/api/v1/admin/keys`, { method: 'POST', headers: h, body: JSON.stringify({ consumer_id: consumer }) })).json()).data.plaintext_key

function mcpRunner(tool: string, args: Record<string, unknown>) {
  const lua = `/tmp/plikt-mcp-${process.pid}-${tool}.lua`
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } })
  writeFileSync(
    lua,
    `wrk.method = "POST"\nwrk.body = '${rpc}'\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Accept"] = "application/json, text/event-stream"\nwrk.headers["Authorization"] = "Bearer ${key}"\n` +
      `done = function(summary, latency, requests)\n  io.write(string.format('{"rps":%f,"p50":%f,"p99":%f,"non2xx":%d}\\n', summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))\nend\n`,
  )
  return (s: number) => JSON.parse(spawnSync('wrk', ['-t', '1', '-c', String(connections), '-d', `${s}s`, '--latency', '-s', lua, `${base}/api/mcp`], { encoding: 'utf8' }).stdout.trim().split('\n').at(-1)!) as { rps: number; p50: number; p99: number; non2xx: number }
}

async function pair(restPath: string, tool: string, args: Record<string, unknown>) {
  const rest = `${base}${restPath}`
  const headers = { authorization: `Bearer ${key}` }
  // One call fills the register cache while this process (which also runs the fixture register)
  // is free: the load generator blocks it during a run.
  const warm = await fetch(rest, { headers })
  if (!warm.ok) throw new Error(`warming ${restPath} failed: ${warm.status} ${await warm.text()}`)
  await load({ url: rest, headers, seconds: 2, connections })
  const r = await load({ url: rest, headers, seconds, connections })
  if (r.non2xx > 0) throw new Error(`REST ${restPath} answered ${r.non2xx} non-2xx responses: the run is void`)
  const mcp = mcpRunner(tool, args)
  mcp(2)
  const m = mcp(seconds)
  return [
    `| REST GET ${restPath} | ${r.rps.toFixed(0)} | ${r.p50_ms.toFixed(2)} / ${r.p99_ms.toFixed(2)} | ${r.non2xx} |`,
    `| MCP tools/call ${tool} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(2)} / ${m.p99.toFixed(2)} | ${m.non2xx} |`,
    `| ratio | ${((m.rps / r.rps) * 100).toFixed(0)} % | | |`,
  ]
}

let rows: string[]
try {
  rows = [...(await pair('/api/v1/company/984661185/summary', 'get_company_summary', { org_number: '984661185' })), ...(await pair('/api/v1/account/credits/balance', 'get_credit_balance', {}))]
} finally {
  server.stop()
  await fixtures.stop()
}
const table = [
  `### MCP tools/call vs REST with one key — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- mcp\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, embedded database, fixture register); machine: ${machine()}.`,
  '',
  '| surface | req/s | p50 / p99 ms | non-2xx |',
  '|---|---|---|---|',
  ...rows,
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
