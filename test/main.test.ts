import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// `npm start` as a user runs it: the real entry point in its own process, on the embedded database.
const dir = mkdtempSync(join(tmpdir(), 'plikt-main-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function start(env: Record<string, string>) {
  const { DATABASE_URL: _ignored, BASE_URL: _unset, ...rest } = process.env
  return Bun.spawn(['bun', 'src/main.ts'], { env: { ...rest, PORT: '0', DATA_DIR: dir, ...env }, stdout: 'pipe', stderr: 'pipe' })
}

async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
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

test('starts on the embedded database, says where it listens and how to try it, and stops cleanly', async () => {
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
}, 120_000)

test('with PORT=0 and no BASE_URL, links carry the port actually bound', async () => {
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
}, 120_000)

test('refuses to start on invalid configuration, naming the variable', async () => {
  const proc = start({ PORT: 'eighty' })
  expect(await proc.exited).toBe(1)
  expect(await new Response(proc.stderr).text()).toContain('PORT must be an integer')
})
