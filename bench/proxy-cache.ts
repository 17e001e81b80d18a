/**
 * Public deadlines through the deploy guide's HAProxy with its cache, through the same HAProxy
 * without the cache rules, and straight from a bare Bun.serve answering the same bytes — side by
 * side in one run, rounds alternating (issue 34). The service is the shipped entry point with its
 * default configuration (bench/service.ts); HAProxy runs docs/deploy.md's configuration (TLS bind
 * and servers replaced: test/support/haproxy.ts). Needs haproxy installed.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { connections, load, machine, rounds, seconds, startServer, type LoadResult } from './harness.ts'
import { dataDir, startFixtures, startService } from './service.ts'
import { freePort, HAPROXY_BIN, localConfig, startHaproxy } from '../test/support/haproxy.ts'

if (!HAPROXY_BIN) {
  console.error('bench/proxy-cache: haproxy is not installed (apt-get install haproxy)')
  process.exit(2)
}
const PATH = '/api/v1/public/deadlines?year=2026'
const fixtures = await startFixtures()
const data = dataDir()
// The load client's X-Forwarded-For stands for the clients' own proxy and HAProxy appends its
// peer: two hops, so per-IP limits see the 4 096 client addresses, as in production.
const svc = await startService({
  UPSTREAM_MODE: 'live',
  BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
  CENTRAL_BANK_URL: fixtures.centralBankUrl,
  TRUST_PROXY: 'true',
  TRUSTED_PROXY_HOPS: '2',
  DATA_DIR: data.path,
})
const origin = new URL(svc.url).host
const sample = await fetch(`${svc.url}${PATH}`)
const bodyFile = `/tmp/plikt-bench-${process.pid}.json`
writeFileSync(bodyFile, new Uint8Array(await sample.arrayBuffer()))
const bare = await startServer('bench/servers/bare.ts', {
  BODY_FILE: bodyFile,
  ETAG: sample.headers.get('etag') ?? '',
  CACHE_CONTROL: sample.headers.get('cache-control') ?? '',
})
const [cachedPort, plainPort] = [freePort(), freePort()]
const cached = await startHaproxy(localConfig(cachedPort, [origin]), cachedPort)
const plain = await startHaproxy(localConfig(plainPort, [origin], { cache: false }), plainPort)

const cases: [string, string][] = [
  ['HAProxy with its cache → Plikt', `${cached.url}${PATH}`],
  ['HAProxy without cache → Plikt', `${plain.url}${PATH}`],
  ['bare Bun.serve (same bytes)', `http://127.0.0.1:${bare.port}${PATH}`],
]
const results = new Map<string, LoadResult[]>(cases.map(([n]) => [n, []]))
const load1 = () => Number(/^([\d.]+)/.exec(readFileSync('/proc/loadavg', 'utf8'))![1])
const loadBefore = load1()
try {
  for (const [, url] of cases) await load({ url, seconds: 2, connections, manyIps: true }) // warm-up (and fills the cache)
  for (let i = 0; i < rounds; i++)
    for (const [name, url] of cases) results.get(name)!.push(await load({ url, seconds, connections, manyIps: true }))
} finally {
  await cached.stop()
  await plain.stop()
  bare.stop()
  await svc.stop()
  await fixtures.stop()
  data.remove()
}
const median = (xs: LoadResult[]) => [...xs].sort((a, b) => a.rps - b.rps)[Math.floor(xs.length / 2)]!
const bareMedian = median(results.get('bare Bun.serve (same bytes)')!).rps
const rows = cases.map(([name]) => {
  const rs = results.get(name)!
  const m = median(rs)
  return `| ${name} | ${m.rps.toFixed(0)} | ${m.p50_ms.toFixed(2)} / ${m.p99_ms.toFixed(2)} | ${rs.map((r) => r.rps.toFixed(0)).join(', ')} | ${((m.rps / bareMedian) * 100).toFixed(0)} % | ${rs.reduce((n, r) => n + r.non2xx, 0)} |`
})
const table = [
  `### Public deadlines through HAProxy with its cache, without it, and a bare Bun.serve — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- proxy-cache\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, BENCH_ROUNDS=${rounds}, the three cases alternating each round). GET ${PATH}; Plikt as shipped (\`bun src/main.ts\`, default configuration, access log at info to a file, on-disk embedded database, TRUST_PROXY=true with TRUSTED_PROXY_HOPS=2: the load client's X-Forwarded-For stands for the clients' proxy); HAProxy ${Bun.spawnSync([HAPROXY_BIN, '-v']).stdout.toString().split('\n')[0]!.split(' ')[2]} with docs/deploy.md's configuration (bind and servers replaced), one instance behind it; every request from one of 4 096 X-Forwarded-For addresses. Machine: ${machine()}; load average ${loadBefore.toFixed(1)} when it started.`,
  '',
  '| case | req/s (median round) | p50 / p99 ms | rounds req/s | of bare | non-2xx |',
  '|---|---|---|---|---|---|',
  ...rows,
  '',
]
console.log(table.join('\n'))
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table.join('\n')}`)
