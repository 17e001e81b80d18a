import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SoftLimiter } from '../../src/pipeline/soft-limit.ts'
import { AppError } from '../../src/errors/app-error.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { freshIp, signIn } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

test('Category A allows 1000 requests a minute per IP, then 429 RATE_LIMIT_EXCEEDED; other addresses are unaffected', async () => {
  const ip = freshIp()
  for (let i = 0; i < 1000; i += 50) {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app
          .get('/api/v1/public/obligations?entity_type=AS', { headers: ip })
          .then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    )
    expect(statuses.every((s) => s === 200)).toBe(true)
  }
  const refused = await app.get('/api/v1/public/obligations?entity_type=AS', { headers: ip })
  expect(refused.status).toBe(429)
  const body = await refused.json()
  expect(body.error_code).toBe('RATE_LIMIT_EXCEEDED')
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  expect((await app.get('/api/v1/public/obligations?entity_type=AS', { headers: freshIp() })).status).toBe(200)
})

test('account writes are limited to 30 an hour per account: then 429 RATE_LIMITED', async () => {
  const s = await signIn(app)
  const headers = { cookie: s.cookie, 'x-csrf-token': s.csrf }
  // Mint and revoke in turn (three active keys at most); each is one write.
  let writes = 0
  while (writes < 30) {
    const minted = await (await app.send('POST', '/api/v1/account/keys', {}, headers)).json()
    writes++
    if (writes === 30) break
    expect((await app.send('DELETE', `/api/v1/account/keys/${minted.data.key.id}`, undefined, headers)).status).toBe(
      200,
    )
    writes++
  }
  const res = await app.send('POST', '/api/v1/account/keys', {}, headers)
  expect(res.status).toBe(429)
  expect((await res.json()).error_code).toBe('RATE_LIMITED')
})

test('the per-IP count stays exact enough at scale: 60 000 other addresses do not push one address over the limit early', () => {
  const now = new Date('2031-05-05T12:00:30Z')
  const limiter = new SoftLimiter()
  for (let i = 0; i < 60_000; i++) limiter.hit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, now)
  for (let i = 0; i < 1000; i++) limiter.hit('192.0.2.7', now)
  expect(() => limiter.hit('192.0.2.7', now)).toThrow(AppError)
  // the next minute starts from zero
  expect(() => limiter.hit('192.0.2.7', new Date('2031-05-05T12:01:00Z'))).not.toThrow()
})

test('two app instances in one process count apart', () => {
  const now = new Date('2031-05-05T12:00:30Z')
  const [a, b] = [new SoftLimiter(), new SoftLimiter()]
  for (let i = 0; i < 1000; i++) a.hit('192.0.2.8', now)
  expect(() => a.hit('192.0.2.8', now)).toThrow(AppError)
  expect(() => b.hit('192.0.2.8', now)).not.toThrow()
})
