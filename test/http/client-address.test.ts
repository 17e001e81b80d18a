import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { clientAddress } from '../../src/http/client-address.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { uniqueEmail } from '../helpers.ts'

describe('clientAddress', () => {
  test('one trusted hop: the right-most entry, which our proxy appended', () => {
    expect(clientAddress('6.6.6.6, 203.0.113.7', () => '10.0.0.1', 1)).toBe('203.0.113.7')
  })

  test('two trusted hops: the second entry from the right', () => {
    expect(clientAddress('6.6.6.6, 203.0.113.7, 10.0.0.2', () => '10.0.0.1', 2)).toBe('203.0.113.7')
  })

  test('IPv6 entries are addresses too', () => {
    expect(clientAddress('2001:db8::1', () => '10.0.0.1', 1)).toBe('2001:db8::1')
  })

  test('an entry that is not an IP address gives the connection address', () => {
    expect(clientAddress('6.6.6.6, evil', () => '10.0.0.1', 1)).toBe('10.0.0.1')
    expect(clientAddress('', () => '10.0.0.1', 1)).toBe('10.0.0.1')
  })

  test('fewer entries than trusted hops give the connection address', () => {
    expect(clientAddress('203.0.113.7', () => '10.0.0.1', 2)).toBe('10.0.0.1')
  })

  test('without trusted proxies the header is ignored', () => {
    expect(clientAddress('203.0.113.7', () => '10.0.0.1', 0)).toBe('10.0.0.1')
  })
})

describe('behind one appending proxy (TRUST_PROXY=true)', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app.stop())

  test('per-IP limits cannot be escaped by prepending fresh addresses to X-Forwarded-For', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await app.send(
        'POST',
        '/api/v1/privacy/dsr',
        { email: uniqueEmail('xff'), request_type: 'access' },
        { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.77` },
      )
      statuses.push(res.status)
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429])
  })

  test('the audited address of a refused credential is the one the proxy appended', async () => {
    const res = await app.get('/api/v1/account/usage', {
      headers: { authorization: 'Bearer svc_live_bogus', 'x-forwarded-for': '198.51.100.1, 203.0.113.78' },
    })
    expect(res.status).toBe(401)
    const id = res.headers.get('x-correlation-id')!
    const rows = await app.deps.sql`select details->>'ip' as ip from audit_log where correlation_id = ${id}`
    expect(rows.map((r) => r.ip)).toEqual(['203.0.113.78'])
  })
})
