/**
 * Ways to write the access log without blocking a request, side by side, each writing the same
 * access lines to a file: the shipped sink (src/lib/log.ts `bufferedStdout`: lines encoded into a
 * 64 KB buffer handed to Bun's stdout FileSink on a timer or when full), Bun's FileSink given each
 * line as it comes (the sink before), and pino's asynchronous destination (sonic-boom). One line per
 * event-loop turn, as a loaded service writes about one access line per turn: a writer that flushes
 * at the end of every turn shows it here. Measured: what a line costs the writing thread (the
 * request path), net of the same loop writing nothing, and how long until every line is on disk
 * after the last write. Each writer runs in a child process of its own whose stdout is the file,
 * as an operator's redirect would be.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { machine, rounds } from './harness.ts'

const LINES = Number(process.env.BENCH_LOG_LINES ?? 1_000_000)

if (process.argv[2] === '--child') {
  const kind = process.argv[3]!
  const { formatLine, bufferedStdout } = await import('../src/lib/log.ts')
  const fields = () => ({
    method: 'GET',
    route: '/api/v1/public/deadlines',
    status: 200,
    duration_ms: 0.53,
    correlation_id: crypto.randomUUID(),
    consumer_id: null,
  })
  let write: (fields: Record<string, unknown>) => void
  let finish: () => Promise<void>
  if (kind === 'none') {
    write = () => {}
    finish = async () => {}
  } else if (kind === 'shipped') {
    const out = bufferedStdout()
    write = (f) => out.sink(formatLine('info', 'request', f))
    finish = () => out.flush()
  } else if (kind === 'filesink') {
    const out = Bun.stdout.writer({ highWaterMark: 64 * 1024 })
    write = (f) => void out.write(`${formatLine('info', 'request', f)}\n`)
    finish = async () => void (await out.flush())
  } else {
    const { default: pino } = await import('pino')
    const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 })
    const logger = pino(
      {
        base: null,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label: string) => ({ level: label }) },
      },
      dest,
    )
    write = (f) => logger.info(f, 'request')
    finish = () => new Promise<void>((resolve) => dest.flush(() => resolve()))
  }
  const t0 = performance.now()
  for (let i = 0; i < LINES; i++) {
    write(fields())
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  const written = performance.now() - t0
  await finish()
  process.stderr.write(`${JSON.stringify({ written, flushed: performance.now() - t0 })}\n`)
  process.exit(0)
}

const dir = mkdtempSync(join(tmpdir(), 'plikt-logbench-'))
const KINDS = ['none', 'shipped', 'filesink', 'pino'] as const
const results: Record<string, { written: number; flushed: number; bytes: number }[]> = Object.fromEntries(
  KINDS.map((k) => [k, []]),
)
try {
  for (let r = 0; r < rounds; r++) {
    for (const kind of KINDS) {
      const file = join(dir, `${kind}-${r}.log`)
      const proc = Bun.spawn([process.execPath, import.meta.path, '--child', kind], {
        stdout: Bun.file(file),
        stderr: 'pipe',
      })
      const err = await new Response(proc.stderr).text()
      if ((await proc.exited) !== 0) throw new Error(`${kind}: ${err}`)
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length
      if (lines !== (kind === 'none' ? 0 : LINES)) throw new Error(`${kind} wrote ${lines} of ${LINES} lines`)
      results[kind]!.push({ ...JSON.parse(err.trim().split('\n').at(-1)!), bytes: statSync(file).size })
      rmSync(file)
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const idle = median(results.none!.map((x) => x.written))
const row = (name: string, rs: { written: number; flushed: number; bytes: number }[]) => {
  const net = median(rs.map((x) => x.written)) - idle
  return `| ${name} | ${((net * 1000) / LINES).toFixed(2)} µs | ${((LINES / net) * 1000).toFixed(0)} | ${(median(rs.map((x) => x.flushed)) - idle).toFixed(0)} ms | ${(rs[0]!.bytes / LINES).toFixed(0)} B |`
}
const table = [
  `### Access-log writers: the shipped buffer, Bun's FileSink line by line, pino — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Command: \`npm run bench -- log-writers\` (${LINES} access lines per writer, one per event-loop turn, BENCH_ROUNDS=${rounds}, median; cost net of the same loop writing nothing, ${((idle * 1000) / LINES).toFixed(2)} µs a turn; stdout redirected to a file); ${machine()}.`,
  '',
  '| writer | cost per line on the writing thread | lines/s | writing and flushing every line (net of the loop) | bytes per line |',
  '|---|---|---|---|---|',
  row('formatLine + bufferedStdout (64 KB buffer to the FileSink, 100 ms timer) — shipped', results.shipped!),
  row('formatLine + Bun.stdout.writer (FileSink) given each line — before', results.filesink!),
  row('pino 10 + pino.destination (sonic-boom, async)', results.pino!),
  '',
].join('\n')
console.log(table)
if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
