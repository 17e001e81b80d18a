/**
 * docs/deploy.md's HAProxy cache, exercised: HAProxy with the guide's own configuration in front of
 * the real app. A repeated public read is answered by the proxy (an `Age` header, the instance's
 * request count unchanged); keyed answers are never kept; a reload empties the cache (the purge
 * story of a new rulebook). Skipped where HAProxy is not installed, except in CI (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { freePort, HAPROXY_BIN, localConfig, startHaproxy, type Haproxy } from '../helpers.ts'

describe.skipIf(!HAPROXY_BIN && !process.env.CI)('HAProxy with the deploy guide’s cache', () => {
  let app: TestApp
  let proxy: Haproxy
  beforeAll(async () => {
    app = await startApp()
    const port = freePort()
    proxy = await startHaproxy(localConfig(port, [new URL(app.url).host]), port)
  }, 60_000)
  afterAll(async () => {
    await proxy?.stop()
    await app?.stop()
  })

  /** Requests the instance itself answered on `route` (its access log). */
  const originCount = (route: string) =>
    app.logs.filter((l) => l.includes('"msg":"request"') && JSON.parse(l).route === route).length
  // A new connection each time: after a reload, a kept-alive one may still reach the old worker.
  const read = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${proxy.url}${path}`, { headers, keepalive: false })
    return { status: res.status, age: res.headers.get('age'), etag: res.headers.get('etag'), body: await res.text() }
  }
  const DEADLINES = '/api/v1/public/deadlines'

  test('a repeated public read is answered by the cache: an Age header, the instance not asked again', async () => {
    const first = await read(`${DEADLINES}?year=2031`)
    const asked = originCount(DEADLINES)
    const again = await read(`${DEADLINES}?year=2031`)
    expect([first.status, again.status]).toEqual([200, 200])
    expect(first.age).toBeNull()
    expect(again.age).toMatch(/^\d+$/)
    expect(again.body).toBe(first.body)
    expect(originCount(DEADLINES)).toBe(asked)
  })

  test('the proxy answers an If-None-Match that names its copy with 304, without asking the instance', async () => {
    const { etag } = await read(`${DEADLINES}?year=2032`)
    const asked = originCount(DEADLINES)
    const again = await read(`${DEADLINES}?year=2032`, { 'if-none-match': etag! })
    expect([again.status, again.body]).toEqual([304, ''])
    expect(originCount(DEADLINES)).toBe(asked)
  })

  test('a public read that carries a key passes the cache by, so a made-up key is refused as the instance refuses it', async () => {
    await read('/api/v1/public/obligations?entity_type=ENK')
    const asked = originCount('/api/v1/public/obligations')
    const again = await read('/api/v1/public/obligations?entity_type=ENK', bearer('svc_free_not_a_real_key_0123456789'))
    expect(again.status).toBe(401)
    expect(originCount('/api/v1/public/obligations')).toBe(asked + 1)
  })

  test('a keyed, metered answer is never kept: each read reaches the instance', async () => {
    const c = await createConsumer(app, 'enterprise')
    await addCredits(app, c.id, 10_000)
    const { key } = await createKey(app, c.id)
    const route = '/api/v1/company/:org/summary'
    const before = originCount(route)
    const a = await read('/api/v1/company/984661185/summary', bearer(key))
    const b = await read('/api/v1/company/984661185/summary', bearer(key))
    expect([a.status, b.status, b.age]).toEqual([200, 200, null])
    expect(originCount(route)).toBe(before + 2)
  })

  test('a reload of HAProxy empties its cache: the next read reaches the instance', async () => {
    await read(`${DEADLINES}?year=2033`)
    expect((await read(`${DEADLINES}?year=2033`)).age).not.toBeNull()
    const asked = originCount(DEADLINES)
    await proxy.reload()
    const after = await read(`${DEADLINES}?year=2033`)
    expect([after.status, after.age]).toEqual([200, null])
    expect(originCount(DEADLINES)).toBe(asked + 1)
  }, 20_000)
})
