/**
 * The service as a user starts it (`bun src/main.ts`, or the compiled binary, with the default
 * configuration: access logs on at `info`) for every benchmark, with its memory sampled from
 * /proc. Its stdout — the log, one line per request — goes to a file, as an operator's redirect or
 * journald would take it: BENCH_SERVICE_LOG, or a temporary file removed when it stops. Not a
 * benchmark itself (bench/run.ts skips it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Service {
  url: string
  pid: number
  /** the fixture brreg server's URL (UPSTREAM_MODE=fixtures) */
  businessRegisterUrl: string | null
  /** ms from spawning the process to its "listening" line */
  startMs: number
  /** resident set size now, MB */
  rssMb(): number
  stop(): Promise<void>
}

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef0123456789'
export const SERVER_SECRET = 'bench-server-secret-0123456789abcdef0123456789'

let started = 0

/**
 * `binary`: the compiled executable to run instead of `bun src/main.ts`; `cwd`: another checkout
 * whose `src/main.ts` to run (a before-and-after comparison); `logFile`: where its log goes, kept
 * after it stops.
 */
export async function startService(
  env: Record<string, string>,
  opts: { binary?: string; cwd?: string; logFile?: string } = {},
): Promise<Service> {
  const { DATABASE_URL: _unset, ...rest } = process.env
  const kept = opts.logFile ?? process.env.BENCH_SERVICE_LOG
  const logFile = kept ?? `/tmp/plikt-bench-${process.pid}-${++started}.log`
  const t0 = performance.now()
  const proc = Bun.spawn(opts.binary ? [opts.binary] : [process.execPath, 'src/main.ts'], {
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    env: { ...rest, PORT: '0', ADMIN_TOKEN, SERVER_SECRET, UPSTREAM_MODE: 'fixtures', ...env },
    stdout: Bun.file(logFile),
    stderr: 'pipe',
  })
  const reader = proc.stderr.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the service exited before listening:\n${text}`)
    text += new TextDecoder().decode(value)
    const m = /listening on (http:\/\/\S+)/.exec(text)
    if (m && text.includes('government systems')) {
      // keep draining stderr so the process never blocks on a full pipe
      void (async () => {
        for (;;) if ((await reader.read()).done) break
      })()
      const brreg = /fixture servers \(offline\): register (http:\/\/[^\s,]+)/.exec(text)?.[1] ?? null
      return {
        url: m[1]!.replace('localhost', '127.0.0.1'),
        pid: proc.pid,
        businessRegisterUrl: brreg,
        startMs: performance.now() - t0,
        rssMb: () => rssMb(proc.pid),
        stop: async () => {
          proc.kill('SIGTERM')
          await proc.exited
          if (!kept) rmSync(logFile, { force: true })
        },
      }
    }
  }
}

/**
 * The fixture servers in a process of their own (`bun fixtures/servers/main.ts`, free ports), so
 * that a benchmark's service RSS is the service's alone: the fixture keeps a log of every request.
 */
export async function startFixtures(): Promise<{
  businessRegisterUrl: string
  centralBankUrl: string
  stop(): Promise<void>
}> {
  const ports = Object.fromEntries(
    ['BRREG', 'NORGES_BANK', 'MASKINPORTEN', 'ALTINN', 'SKATTEETATEN', 'AAREG'].map((n) => [`FIXTURE_${n}_PORT`, '0']),
  )
  const proc = Bun.spawn([process.execPath, 'fixtures/servers/main.ts'], {
    env: { ...process.env, ...ports },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = proc.stdout.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the fixture servers exited:\n${text}`)
    text += new TextDecoder().decode(value)
    if (text.includes('control API')) break
  }
  void (async () => {
    for (;;) if ((await reader.read()).done) break
  })()
  return {
    businessRegisterUrl: /data\.brreg\.no fixtures:\s+(\S+)/.exec(text)![1]!,
    centralBankUrl: /data\.norges-bank\.no fixtures:\s+(\S+)/.exec(text)![1]!,
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : 0
}

/** Samples the RSS every 50 ms until stopped; the peak, MB. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = rssMb(pid)
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid))
    } catch {}
  }, 50)
  return {
    stop() {
      clearInterval(timer)
      return peak
    },
  }
}

export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

/**
 * Runs a job through the operator route and answers the run's own duration (its tick's claimed →
 * finished), in ms. A run longer than the server's 60 s idle timeout outlives its request: then the
 * outcome is read from the job list once the manual tick has finished.
 */
export async function runJob(base: string, name: string): Promise<{ ms: number; result: any }> {
  const listed = async () =>
    ((await (await fetch(`${base}/api/v1/admin/jobs`, { headers: adminHeaders })).json()) as any).data.jobs.find(
      (j: { name: string }) => j.name === name,
    ).last_runs as any[]
  const asked = Date.now()
  const out = await fetch(`${base}/api/v1/admin/jobs/${name}/run`, { method: 'POST', headers: adminHeaders })
    .then(async (r) => ((await r.json()) as any).data)
    .catch(() => null)
  if (out && !out.ok) throw new Error(`job ${name}: ${JSON.stringify(out)}`)
  for (;;) {
    const tick = (await listed()).find((r) =>
      out ? r.tick === out.tick : r.manual && Date.parse(r.claimed_at) >= asked - 1000,
    )
    if (tick?.finished_at) {
      if (tick.error) throw new Error(`job ${name}: ${tick.error}`)
      return { ms: Date.parse(tick.finished_at) - Date.parse(tick.claimed_at), result: out?.result ?? null }
    }
    await Bun.sleep(500)
  }
}

/**
 * `n` enterprise consumers (counted, never rate-limited) with a key each, minted and credited
 * through the operator API as an operator would; the keys' plaintexts.
 */
export async function mintKeys(base: string, n: number, tag = 'bench'): Promise<string[]> {
  const keys: string[] = []
  for (let i = 0; i < n; i++) {
    const consumer = (
      await (
        await fetch(`${base}/api/v1/admin/consumers`, {
          method: 'POST',
          headers: adminHeaders,
          body: JSON.stringify({ email: `${tag}-${Date.now()}-${i}@example.no`, tier: 'enterprise' }),
        })
      ).json()
    ).data.consumer_id
    // The largest single credit the operator route takes: 2 million calls at 50 øre, more than a run makes.
    const credited = await fetch(`${base}/api/v1/admin/credits`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ consumer_id: consumer, amount_ore: 100_000_000, reason: 'benchmark' }),
    })
    if (!credited.ok) throw new Error(`crediting a benchmark account failed: ${await credited.text()}`)
    keys.push(
      (
        await (
          await fetch(`${base}/api/v1/admin/keys`, {
            method: 'POST',
            headers: adminHeaders,
            body: JSON.stringify({ consumer_id: consumer }),
          })
        ).json()
      ).data.plaintext_key,
    )
  }
  return keys
}

/** A fresh on-disk data directory for one service; removed by the returned function. */
export function dataDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'plikt-bench-data-'))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}
