import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freeFixedPort } from './helpers.ts'

// `npm start` as a user runs it: the real entry point in its own process, on the embedded database.
const dir = mkdtempSync(join(tmpdir(), 'plikt-main-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * These start processes of their own on an embedded database whatever DATABASE_URL says, so they run
 * once per suite: in the embedded run (on PostgreSQL they would repeat it exactly).
 */
const embeddedRun = test.skipIf(Boolean(process.env.DATABASE_URL))

function start(env: Record<string, string>) {
  const { DATABASE_URL: _ignored, BASE_URL: _unset, ...rest } = process.env
  return Bun.spawn(['bun', 'src/main.ts'], {
    env: { ...rest, PORT: '0', DATA_DIR: dir, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

async function readUntil(
  stream: ReadableStream<Uint8Array>,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<RegExpExecArray> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
    const m = pattern.exec(text)
    if (m) {
      reader.releaseLock()
      return m
    }
  }
  throw new Error(`never saw ${pattern} in:\n${text}`)
}

embeddedRun(
  'starts on the embedded database, says where it listens and how to try it, and stops cleanly',
  async () => {
    const proc = start({})
    const [, url] = await readUntil(proc.stderr, /listening on (http:\/\/\S+)[\s\S]*curl \S+\/api\/health/)
    const health = await (await fetch(`${url}/api/health`)).json()
    expect(health.database).toMatchObject({ status: 'up', kind: 'embedded' })
    expect(existsSync(join(dir, 'plikt.lock'))).toBe(true)

    const second = start({})
    expect(await second.exited).toBe(1)
    expect(await new Response(second.stderr).text()).toContain('in use by another Plikt process')

    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    expect(existsSync(join(dir, 'plikt.lock'))).toBe(false)
  },
  120_000,
)

embeddedRun(
  'with PORT=0 and no BASE_URL, links carry the port actually bound',
  async () => {
    const proc = start({})
    try {
      const [, url, port] = await readUntil(proc.stderr, /listening on (http:\/\/[^\s:]+:(\d+))/)
      expect(Number(port)).toBeGreaterThan(0)
      const manifest = await (await fetch(`${url}/.well-known/mcp.json`)).json()
      expect(manifest.url).toBe(`http://localhost:${port}/api/mcp`)
      const refused = await (await fetch(`${url}/api/v1/company/984661185`)).json()
      expect(refused.docs_url).toStartWith(`http://localhost:${port}/`)
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
  },
  120_000,
)

embeddedRun('refuses to start on invalid configuration, naming the variable', async () => {
  const proc = start({ PORT: 'eighty' })
  expect(await proc.exited).toBe(1)
  expect(await new Response(proc.stderr).text()).toContain('PORT must be an integer')
})

embeddedRun(
  'with UPSTREAM_MODE=fixtures and GOVERNMENT_MODE=live the government systems are the fixture servers, needing no credentials',
  async () => {
    const proc = start({ UPSTREAM_MODE: 'fixtures', GOVERNMENT_MODE: 'live' })
    try {
      const [, tokenService] = await readUntil(
        proc.stderr,
        /government systems: live, token service (http:\/\/127\.0\.0\.1:\d+),/,
      )
      const meta = await (await fetch(`${tokenService}/.well-known/oauth-authorization-server`)).json()
      expect(meta.token_endpoint).toBe(`${tokenService}/token`)
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
  },
  120_000,
)

embeddedRun(
  'a DATA_DIR that cannot be used stops start-up with a message naming it, exit 1',
  async () => {
    const blocker = join(dir, 'not-a-directory')
    await Bun.write(blocker, 'a file where the data directory should be')
    const proc = start({ DATA_DIR: blocker })
    expect(await proc.exited).toBe(1)
    const err = await new Response(proc.stderr).text()
    expect(err).toContain(`DATA_DIR ${blocker} cannot be used: a file is in the way of the directory`)
    expect(err).not.toContain('    at ')
  },
  60_000,
)

embeddedRun(
  'with METRICS_PORT the metrics are served on that port too, and nothing else is',
  async () => {
    const metricsPort = String(freeFixedPort())
    const proc = start({ METRICS_TOKEN: 'main-test-metrics-token-0123', METRICS_PORT: metricsPort })
    try {
      await readUntil(proc.stderr, /listening on (http:\/\/\S+)/)
      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
        headers: { authorization: 'Bearer main-test-metrics-token-0123' },
      })
      expect(scrape.status).toBe(200)
      expect(await scrape.text()).toContain('# TYPE plikt_http_requests_total counter')
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401)
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404)
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
  },
  60_000,
)

embeddedRun(
  'WEBHOOK_ALLOW_LOOPBACK=true starts with a warning that it is for development only',
  async () => {
    const proc = start({ WEBHOOK_ALLOW_LOOPBACK: 'true' })
    try {
      const [line] = await readUntil(proc.stdout, /\{[^\n]*WEBHOOK_ALLOW_LOOPBACK[^\n]*\}/)
      expect(JSON.parse(line)).toMatchObject({ level: 'warn' })
      expect(line).toContain('never in production')
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
  },
  120_000,
)

embeddedRun(
  'an old variable name starts the service with a warning naming its current name',
  async () => {
    const proc = start({ BRREG_BASE_URL: 'https://data.brreg.no' })
    try {
      const [line] = await readUntil(proc.stdout, /\{[^\n]*BRREG_BASE_URL[^\n]*\}/)
      expect(JSON.parse(line)).toMatchObject({
        level: 'warn',
        msg: 'BRREG_BASE_URL is deprecated: use BUSINESS_REGISTER_URL',
      })
      await readUntil(proc.stderr, /listening on (http:\/\/\S+)/)
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
  },
  120_000,
)
