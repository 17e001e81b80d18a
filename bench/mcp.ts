/**
 * MCP `tools/call` vs its REST twin in one run, with the same key (enterprise: counted, never
 * limited): `get_credit_balance` vs `GET /api/v1/account/credits/balance`. The benchmark is
 * a metered company tool; company tools do not exist yet, so this measures the MCP layer on the
 * nearest keyed tool. Target for the company tool: ≥ 60 % of REST.
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { connections, load, machine, seconds, startServer } from './harness.ts'

const ADMIN = 'bench-admin-token-0123456789abcdef0123'
const server = await startServer('bench/servers/plikt.ts', { ADMIN_TOKEN: ADMIN })
const base = `http://127.0.0.1:${server.port}`
const h = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
const consumer = (await (await fetch(`${base}/api/v1/admin/consumers`, { method: 'POST', headers: h, body: JSON.stringify({ email: 'mcp-bench@example.no', tier: 'enterprise' }) })).json()).data.consumer_id
const key = (await (await fetch(`${base}/api/v1/admin/keys`, { method: 'POST', headers: h, body: JSON.stringify({ consumer_id: consumer }) })).json()).data.plaintext_key

const lua = `/tmp/plikt-mcp-${process.pid}.lua`
const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_credit_balance', arguments: {} } })
writeFileSync(
  lua,
  `wrk.method = "POST"\nwrk.body = '${rpc}'\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Accept"] = "application/json, text/event-stream"\nwrk.headers["Authorization"] = "Bearer ${key}"\n` +
    `done = function(summary, latency, requests)\n  io.write(string.format('{"rps":%f,"p50":%f,"p99":%f,"non2xx":%d}\\n', summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))\nend\n`,
)
const mcp = (s: number) => JSON.parse(spawnSync('wrk', ['-t', '1', '-c', String(connections), '-d', `${s}s`, '--latency', '-s', lua, `${base}/api/mcp`], { encoding: 'utf8' }).stdout.trim().split('\n').at(-1)!) as { rps: number; p50: number; p99: number; non2xx: number }
const rest = `${base}/api/v1/account/credits/balance`
await load({ url: rest, headers: { authorization: `Bearer ${key}` }, seconds: 2, connections })
const r = await load({ url: rest, headers: { authorization: `Bearer ${key}` }, seconds, connections })
mcp(2)
const m = mcp(seconds)
server.stop()
const table = [
  `### MCP tools/call vs REST with one key (get_credit_balance) — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- mcp\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, embedded database); machine: ${machine()}.`,
  '',
  '| surface | req/s | p50 / p99 ms | non-2xx |',
  '|---|---|---|---|',
  `| REST GET /api/v1/account/credits/balance | ${r.rps.toFixed(0)} | ${r.p50_ms.toFixed(2)} / ${r.p99_ms.toFixed(2)} | ${r.non2xx} |`,
  `| MCP tools/call get_credit_balance | ${m.rps.toFixed(0)} | ${m.p50.toFixed(2)} / ${m.p99.toFixed(2)} | ${m.non2xx} |`,
  `| ratio | ${((m.rps / r.rps) * 100).toFixed(0)} % | | |`,
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
