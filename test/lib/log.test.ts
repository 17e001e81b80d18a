/** The log line: one JSON object per line, fields after ts/level/msg, secret-named fields redacted. */
import { describe, expect, test } from 'bun:test'
import { bufferedStdout, createLogger } from '../../src/lib/log.ts'

function lines(level: 'debug' | 'info' | 'warn' | 'error' = 'info') {
  const out: string[] = []
  return { out, logger: createLogger(level, (l) => out.push(l)) }
}

test('a line is one JSON object: ts, level, msg, then the fields in their order', () => {
  const { out, logger } = lines()
  logger.info('request', { method: 'GET', status: 200, duration_ms: 0.53, consumer_id: null, nested: { a: [1, 'x'] } })
  expect(out).toHaveLength(1)
  expect(out[0]).not.toContain('\n')
  const parsed = JSON.parse(out[0]!)
  expect(Object.keys(parsed)).toEqual([
    'ts',
    'level',
    'msg',
    'method',
    'status',
    'duration_ms',
    'consumer_id',
    'nested',
  ])
  expect(parsed).toMatchObject({
    level: 'info',
    msg: 'request',
    method: 'GET',
    status: 200,
    duration_ms: 0.53,
    consumer_id: null,
    nested: { a: [1, 'x'] },
  })
  expect(Date.parse(parsed.ts)).toBeGreaterThan(0)
})

test('a field whose name suggests a secret is written as [redacted], whatever its value', () => {
  const { out, logger } = lines()
  logger.warn('x', {
    authorization: 'Bearer svc_live_abc',
    api_key: 'k',
    ApiKey: 'k2',
    webhook_secret: 's',
    fnr: '12046823441',
    session_cookie: 'c',
    token_count: 3,
    ok: 'kept',
  })
  expect(JSON.parse(out[0]!)).toMatchObject({
    authorization: '[redacted]',
    api_key: '[redacted]',
    ApiKey: '[redacted]',
    webhook_secret: '[redacted]',
    fnr: '[redacted]',
    session_cookie: '[redacted]',
    token_count: '[redacted]',
    ok: 'kept',
  })
  expect(out[0]).not.toContain('svc_live_abc')
  expect(out[0]).not.toContain('12046823441')
})

test('undefined fields are left out, quotes and newlines in values are escaped, and fields cannot overwrite ts, level or msg', () => {
  const { out, logger } = lines()
  logger.error('he said "hi"\nthen left', {
    gone: undefined,
    text: 'a"b\\c\nd',
    ts: 'forged',
    level: 'debug',
    msg: 'forged',
  })
  const parsed = JSON.parse(out[0]!)
  expect(parsed).toEqual({ ts: parsed.ts, level: 'error', msg: 'he said "hi"\nthen left', text: 'a"b\\c\nd' })
  expect(parsed.ts).not.toBe('forged')
})

test('lines below the level are not written', () => {
  const { out, logger } = lines('warn')
  logger.info('quiet')
  logger.debug('quieter')
  logger.warn('loud')
  expect(out.map((l) => JSON.parse(l).msg)).toEqual(['loud'])
})

test('numbers are written as JSON writes them: NaN and infinities as null', () => {
  const { out, logger } = lines()
  logger.info('n', { a: 0.25, b: -0, c: NaN, d: Infinity, e: 1e21 })
  expect(JSON.parse(out[0]!)).toMatchObject({ a: 0.25, b: 0, c: null, d: null, e: 1e21 })
  expect(out[0]).toContain(`"e":${JSON.stringify(1e21)}`)
})

describe('the buffered stdout sink', () => {
  function recorder() {
    const writes: string[] = []
    const text = (chunk: string | ArrayBufferView | ArrayBuffer | SharedArrayBuffer) =>
      typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk as Uint8Array)
    return {
      writes,
      out: {
        write: (chunk: string | ArrayBufferView | ArrayBuffer | SharedArrayBuffer) => (writes.push(text(chunk)), 0),
        flush: () => 0,
      },
    }
  }

  test('lines logged across many event-loop turns reach the writer together, on the timer', async () => {
    const { writes, out } = recorder()
    const stdout = bufferedStdout(50, 64 * 1024, out)
    for (let i = 0; i < 20; i++) {
      stdout.sink(`line ${i}`)
      await Bun.sleep(0)
    }
    expect(writes).toEqual([])
    await Bun.sleep(120)
    expect(writes.join('')).toBe(Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(''))
    expect(writes.length).toBeLessThanOrEqual(2)
    await stdout.flush()
  })

  test('a full buffer is written at once, without waiting for the timer', async () => {
    const { writes, out } = recorder()
    const stdout = bufferedStdout(60_000, 100, out)
    const lines = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(19))
    for (const line of lines) stdout.sink(line)
    // room is kept for 3 bytes a character: three 20-byte lines fill a 100-byte buffer
    expect(writes).toHaveLength(3)
    expect(writes.join('')).toBe(
      lines
        .slice(0, 9)
        .map((l) => `${l}\n`)
        .join(''),
    )
    await stdout.flush()
    expect(writes.join('')).toBe(lines.map((l) => `${l}\n`).join(''))
  })

  test('lines outside ASCII and a line longer than the buffer arrive whole and in order', async () => {
    const { writes, out } = recorder()
    const stdout = bufferedStdout(60_000, 64, out)
    stdout.sink('blåbærsyltetøy – «ære»')
    stdout.sink('ø'.repeat(100))
    stdout.sink('etter')
    await stdout.flush()
    expect(writes.join('')).toBe(`blåbærsyltetøy – «ære»\n${'ø'.repeat(100)}\netter\n`)
  })

  test('flush writes every line still held, so none is lost when the service stops', async () => {
    const { writes, out } = recorder()
    const stdout = bufferedStdout(60_000, 64 * 1024, out)
    stdout.sink('a')
    stdout.sink('b')
    await stdout.flush()
    expect(writes).toEqual(['a\nb\n'])
  })
})
