/**
 * Load generation for the benchmarks: wrk when installed (a C client costs the server less CPU on
 * a 2-core machine), otherwise autocannon. Each result is requests/s and latency percentiles.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import autocannon from 'autocannon'

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
  seconds: number
  connections: number
}

const hasWrk = spawnSync('sh', ['-c', 'command -v wrk']).status === 0

function wrk(o: LoadOptions): LoadResult {
  // A Lua report prints the numbers as JSON on the last line.
  const script = `done = function(summary, latency, requests)
  io.write(string.format('{"rps":%f,"p50":%f,"p99":%f,"non2xx":%d}\\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status))
end`
  const path = `/tmp/plikt-wrk-${process.pid}.lua`
  writeFileSync(path, script)
  const args = ['-t', '1', '-c', String(o.connections), '-d', `${o.seconds}s`, '--latency', '-s', path]
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`)
  const out = spawnSync('wrk', [...args, o.url], { encoding: 'utf8' })
  const line = out.stdout.trim().split('\n').at(-1)!
  const r = JSON.parse(line)
  return { tool: 'wrk', rps: r.rps, p50_ms: r.p50, p99_ms: r.p99, non2xx: r.non2xx }
}

async function cannon(o: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({ url: o.url, headers: o.headers, duration: o.seconds, connections: o.connections })
  return { tool: 'autocannon', rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx }
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  return hasWrk ? wrk(o) : cannon(o)
}

export async function startServer(script: string, env: Record<string, string> = {}): Promise<{ port: number; stop(): void }> {
  const proc = Bun.spawn(['bun', script], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'inherit' })
  const reader = proc.stdout.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${script} exited before it was ready`)
    text += new TextDecoder().decode(value)
    const m = /ready (\d+)/.exec(text)
    if (m) return { port: Number(m[1]), stop: () => proc.kill() }
  }
}
