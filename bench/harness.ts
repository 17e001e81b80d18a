/**
 * Load generation for the benchmarks: wrk when installed (a C client costs the server less CPU on
 * a 2-core machine), otherwise autocannon. Each result is requests/s and latency percentiles.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import autocannon from 'autocannon'
import { dataDir, startFixtures, startService } from './service.ts'

export interface LoadResult {
  tool: 'wrk' | 'autocannon'
  rps: number
  p50_ms: number
  p99_ms: number
  non2xx: number
}

export interface LoadOptions {
  url: string
  headers?: Record<string, string>
  /** rotate these Authorization values across requests (many callers rather than one) */
  bearers?: string[]
  /** a random X-Forwarded-For per request from 4 096 client addresses, as behind a real proxy */
  manyIps?: boolean
  seconds: number
  connections: number
  /** POST this body instead of a GET */
  body?: string
}

const hasWrk = spawnSync('sh', ['-c', 'command -v wrk']).status === 0

function wrk(o: LoadOptions): LoadResult {
  // A Lua report prints the numbers as JSON on the last line.
  // One request function for every case, so both sides of a ratio run the same Lua per request.
  // wrk.format replaces wrk.headers (the -H headers) with the table it is given: copy them in.
  const keys = o.bearers?.length ? `local keys = {${o.bearers.map((b) => `"${b}"`).join(',')}}\nlocal i = 0\n` : ''
  const perRequest = [
    o.bearers?.length ? '  i = (i % #keys) + 1\n  h["Authorization"] = "Bearer " .. keys[i]\n' : '',
    o.manyIps ? '  h["X-Forwarded-For"] = "10.0." .. math.random(0, 15) .. "." .. math.random(0, 255)\n' : '',
  ].join('')
  const request = perRequest
    ? `${keys}request = function()\n  local h = {}\n  for k, v in pairs(wrk.headers) do h[k] = v end\n${perRequest}  return wrk.format(nil, nil, h)\nend\n`
    : ''
  const method = o.body === undefined ? '' : `wrk.method = "POST"\nwrk.body = ${JSON.stringify(o.body)}\n`
  const script = `${method}${request}done = function(summary, latency, requests)
  io.write(string.format('{"rps":%f,"p50":%f,"p99":%f,"non2xx":%d}\\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status))
end`
  const path = `/tmp/plikt-wrk-${process.pid}.lua`
  writeFileSync(path, script)
  const args = ['-t', '1', '-c', String(o.connections), '-d', `${o.seconds}s`, '--latency', '-s', path]
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`)
  const out = spawnSync('wrk', [...args, o.url], { encoding: 'utf8' })
  const r = JSON.parse(out.stdout.trim().split('\n').at(-1)!)
  return { tool: 'wrk', rps: r.rps, p50_ms: r.p50, p99_ms: r.p99, non2xx: r.non2xx }
}

async function cannon(o: LoadOptions): Promise<LoadResult> {
  const requests =
    o.bearers?.map((b) => ({ method: 'GET' as const, headers: { ...o.headers, authorization: `Bearer ${b}` } })) ??
    (o.manyIps
      ? Array.from({ length: 256 }, (_, i) => ({
          method: 'GET' as const,
          headers: { ...o.headers, 'x-forwarded-for': `10.0.${i}.1` },
        }))
      : undefined)
  const r = await autocannon({
    url: o.url,
    headers: o.headers,
    duration: o.seconds,
    connections: o.connections,
    ...(o.body === undefined ? {} : { method: 'POST' as const, body: o.body }),
    ...(requests
      ? { requests: requests.map((q) => (o.body === undefined ? q : { ...q, method: 'POST' as const, body: o.body })) }
      : {}),
  })
  return { tool: 'autocannon', rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx }
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  return hasWrk ? wrk(o) : cannon(o)
}

export async function startServer(
  script: string,
  env: Record<string, string> = {},
): Promise<{ port: number; pid: number; stop(): void }> {
  const proc = Bun.spawn(['bun', script], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'inherit' })
  const reader = proc.stdout.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${script} exited before it was ready`)
    text += new TextDecoder().decode(value)
    const m = /ready (\d+)/.exec(text)
    if (m) return { port: Number(m[1]), pid: proc.pid, stop: () => proc.kill() }
  }
}

export const seconds = Number(process.env.BENCH_SECONDS ?? 10)
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
export const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

/** How busy the machine's cores were between two calls, % of all cores (from /proc/stat). */
export function cpuBusy(): () => number {
  const read = () => {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    return { idle: f[3]! + f[4]!, total: f.reduce((a, b) => a + b, 0) }
  }
  const a = read()
  return () => {
    const b = read()
    return 100 * (1 - (b.idle - a.idle) / (b.total - a.total))
  }
}

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model.trim()}, Bun ${Bun.version}; client and servers on the same machine`
}

/**
 * One GET path of the real service beside a bare Bun.serve answering with the bytes the service
 * sent, for each case of request headers (`$ETAG` in a value is replaced by the response's ETag).
 * Returns a Markdown section.
 */
export async function compareWithBare(
  title: string,
  command: string,
  path: string,
  cases: [string, Record<string, string>][],
): Promise<string> {
  const fixtures = await startFixtures()
  const data = dataDir()
  const svc = await startService({
    UPSTREAM_MODE: 'live',
    BUSINESS_REGISTER_URL: fixtures.businessRegisterUrl,
    CENTRAL_BANK_URL: fixtures.centralBankUrl,
    TRUST_PROXY: 'true',
    DATA_DIR: data.path,
  })
  const plikt = { port: Number(new URL(svc.url).port) }
  const sample = await fetch(`http://127.0.0.1:${plikt.port}${path}`)
  const etag = sample.headers.get('etag') ?? ''
  const bodyFile = `/tmp/plikt-bench-${process.pid}.json`
  writeFileSync(bodyFile, new Uint8Array(await sample.arrayBuffer()))
  const bare = await startServer('bench/servers/bare.ts', {
    BODY_FILE: bodyFile,
    ETAG: etag,
    CACHE_CONTROL: sample.headers.get('cache-control') ?? '',
  })
  const rows: string[] = []
  try {
    for (const [name, raw] of cases) {
      const headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.replace('$ETAG', etag)]))
      const urls = [plikt, bare].map((s) => `http://127.0.0.1:${s.port}${path}`)
      // Many client addresses, so the per-IP soft limit of Category A does what it does in production
      // (counts, does not refuse) instead of answering the benchmark with 429s.
      for (const url of urls) await load({ url, headers, seconds: 2, connections, manyIps: true }) // warm-up
      // Alternating rounds, so a noisy moment on a shared machine hits both sides; the row is the
      // round with the median ratio, and every round's ratio is listed beside it.
      const runs: { p: LoadResult; b: LoadResult; ratio: number }[] = []
      for (let i = 0; i < rounds; i++) {
        const p = await load({ url: urls[0]!, headers, seconds, connections, manyIps: true })
        const b = await load({ url: urls[1]!, headers, seconds, connections, manyIps: true })
        runs.push({ p, b, ratio: p.rps / b.rps })
      }
      const sorted = [...runs].sort((x, y) => x.ratio - y.ratio)
      const { p, b, ratio } = sorted[Math.floor(sorted.length / 2)]!
      rows.push(
        `| ${name} | ${p.rps.toFixed(0)} | ${p.p50_ms.toFixed(2)} / ${p.p99_ms.toFixed(2)} | ${b.rps.toFixed(0)} | ${b.p50_ms.toFixed(2)} / ${b.p99_ms.toFixed(2)} | ${(ratio * 100).toFixed(0)} % (rounds: ${runs.map((r) => `${(r.ratio * 100).toFixed(0)} %`).join(', ')}) | ${p.tool} | ${runs.reduce((n, r) => n + r.p.non2xx, 0)} |`,
      )
    }
  } finally {
    await svc.stop()
    bare.stop()
    await fixtures.stop()
    data.remove()
  }
  return [
    `### ${title} — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`${command}\` (BENCH_SECONDS=${seconds}, BENCH_CONNECTIONS=${connections}, BENCH_ROUNDS=${rounds}, Plikt and bare alternating). Plikt as shipped: \`bun src/main.ts\`, default configuration (access log at info, to a file), on-disk embedded database, TRUST_PROXY=true; every request of both sides from one of 4 096 X-Forwarded-For addresses, the same wrk script. Machine: ${machine()}.`,
    '',
    '| case | Plikt req/s | Plikt p50 / p99 ms | bare req/s | bare p50 / p99 ms | ratio (median round) | client | Plikt non-2xx |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}
