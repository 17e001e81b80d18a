/** The log line: one JSON object per line, fields after ts/level/msg, secret-named fields redacted. */
import { expect, test } from 'bun:test'
import { createLogger } from '../../src/lib/log.ts'

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
  expect(Object.keys(parsed)).toEqual(['ts', 'level', 'msg', 'method', 'status', 'duration_ms', 'consumer_id', 'nested'])
  expect(parsed).toMatchObject({ level: 'info', msg: 'request', method: 'GET', status: 200, duration_ms: 0.53, consumer_id: null, nested: { a: [1, 'x'] } })
  expect(Date.parse(parsed.ts)).toBeGreaterThan(0)
})

test('a field whose name suggests a secret is written as [redacted], whatever its value', () => {
  const { out, logger } = lines()
  logger.warn('x', { authorization: 'Bearer svc_live_abc', api_key: 'k', ApiKey: 'k2', webhook_secret: 's', fnr: '12046823441', session_cookie: 'c', token_count: 3, ok: 'kept' })
  expect(JSON.parse(out[0]!)).toMatchObject({ authorization: '[redacted]', api_key: '[redacted]', ApiKey: '[redacted]', webhook_secret: '[redacted]', fnr: '[redacted]', session_cookie: '[redacted]', token_count: '[redacted]', ok: 'kept' })
  expect(out[0]).not.toContain('svc_live_abc')
  expect(out[0]).not.toContain('12046823441')
})

test('undefined fields are left out, quotes and newlines in values are escaped, and fields cannot overwrite ts, level or msg', () => {
  const { out, logger } = lines()
  logger.error('he said "hi"\nthen left', { gone: undefined, text: 'a"b\\c\nd', ts: 'forged', level: 'debug', msg: 'forged' })
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
