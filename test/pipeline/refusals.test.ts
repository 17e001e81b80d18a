/**
 * Refused credentials are audited, boundedly (issue 19, Medium 4; src/domain/access/refusals.ts):
 * an address gets 20 refusals a minute, then 429 before any lookup; the first refusal of a kind in
 * an hour has its own audit row and the repeats are counted into one more row by the sweep — no
 * refusal goes unrecorded, and a flood of bogus bearers no longer writes a row each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { REFUSALS_PER_MINUTE } from '../../src/domain/access/refusals.ts'
import { runExpirySweep } from '../../jobs/expiry-sweep.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { createLogger } from '../../src/lib/log.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey } from '../helpers.ts'

// A day of its own, so the clock can move without touching other files' windows.
const START = '2031-04-05T10:00:00.000Z'
const clock = fixedClock(START)
let app: TestApp
beforeAll(async () => {
  app = await startApp({ clock })
})
afterAll(() => app.stop())

/**
 * An address of its own, different on every run: the audit log is append-only and, on a reused
 * PostgreSQL database, still holds the rows an earlier run wrote on this same pinned clock.
 */
const hex = () => Math.floor(Math.random() * 0x10000).toString(16)
const freshIp = () => ({ 'x-forwarded-for': `2001:db8:${hex()}:${hex()}:${hex()}:${hex()}::1` })

const BALANCE = '/api/v1/account/credits/balance'
const USAGE = '/api/v1/account/usage'
const bogus = () => bearer(`svc_free_${crypto.randomUUID().replaceAll('-', '')}`)

interface AuditRow {
  actor: string
  correlation_id: string | null
  details: { error_code: string; operation: string | null; ip: string; count: number; repeated?: boolean }
}
const auditOf = (ip: string) =>
  app.deps.sql<
    AuditRow[]
  >`select actor, correlation_id, details from audit_log where action = 'authorization_failed' and details->>'ip' = ${ip} order by occurred_at, id`
const tallied = async (ip: string) =>
  (
    await app.deps.sql<
      { n: number }[]
    >`select coalesce(sum(refusals), 0)::int as n from refusal_tallies where ip = ${ip}`
  )[0]!.n
const sweep = (at: Date) =>
  runExpirySweep({ sql: app.deps.sql, clock: fixedClock(at.toISOString()), logger: createLogger('error') })
const total = (rows: AuditRow[]) => rows.reduce((n, r) => n + r.details.count, 0)

async function status(path: string, headers: Record<string, string>): Promise<number> {
  const res = await app.get(path, { headers })
  await res.arrayBuffer()
  return res.status
}

describe('the budget per address', () => {
  test(`${REFUSALS_PER_MINUTE} refusals a minute, then 429 RATE_LIMIT_EXCEEDED with Retry-After before any lookup — even for a valid key — until the minute ends`, async () => {
    clock.set('2031-04-05T10:00:10.000Z')
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id)
    const ip = freshIp()
    const address = ip['x-forwarded-for']!
    for (let i = 0; i < REFUSALS_PER_MINUTE; i++)
      expect({ i, status: await status(BALANCE, { ...bogus(), ...ip }) }).toEqual({ i, status: 401 })
    const over = await app.get(BALANCE, { headers: { ...bogus(), ...ip } })
    expect(over.status).toBe(429)
    expect((await over.json()).error_code).toBe('RATE_LIMIT_EXCEEDED')
    expect(over.headers.get('retry-after')).toBe('50')
    // no lookup: a valid key from the address is refused the same way, and nothing more is counted
    expect(await status(BALANCE, { ...bearer(key), ...ip })).toBe(429)
    for (let i = 0; i < 5; i++) expect(await status(USAGE, { ...bogus(), ...ip })).toBe(429)
    expect(await tallied(address)).toBe(REFUSALS_PER_MINUTE)
    // keyless routes and requests without a credential are not refused
    expect(await status('/api/v1/public/obligations?entity_type=AS', ip)).toBe(200)
    expect(await status(BALANCE, ip)).toBe(401)
    // another address is unaffected
    expect(await status(BALANCE, { ...bearer(key), ...freshIp() })).toBe(200)
    // the next minute the address starts again
    clock.set('2031-04-05T10:01:00.000Z')
    expect(await status(BALANCE, { ...bearer(key), ...ip })).toBe(200)
    expect(await status(BALANCE, { ...bogus(), ...ip })).toBe(401)
  })

  test('a flood of bogus bearers in flight at once: 20 are answered 401, the rest 429, and the audit log gains two rows that count every refusal', async () => {
    clock.set('2031-04-05T11:00:05.000Z')
    const ip = freshIp()
    const address = ip['x-forwarded-for']!
    const statuses = await Promise.all(Array.from({ length: 300 }, () => status(BALANCE, { ...bogus(), ...ip })))
    expect(statuses.filter((s) => s === 401)).toHaveLength(REFUSALS_PER_MINUTE)
    expect(statuses.filter((s) => s === 429)).toHaveLength(300 - REFUSALS_PER_MINUTE)
    const counted = await tallied(address)
    expect(counted).toBeGreaterThanOrEqual(REFUSALS_PER_MINUTE)
    expect(counted).toBeLessThanOrEqual(300)
    // at once: the first refusal's own row
    expect((await auditOf(address)).map((r) => r.details)).toEqual([
      { error_code: 'AUTH_INVALID_KEY', operation: 'getCreditBalance', ip: address, count: 1 },
    ])
    // after the hour: one more row with the rest, and the tally is gone
    await sweep(new Date('2031-04-05T12:00:00.000Z'))
    const rows = await auditOf(address)
    expect(rows).toHaveLength(2)
    expect(rows[1]!.details).toMatchObject({
      error_code: 'AUTH_INVALID_KEY',
      operation: 'getCreditBalance',
      ip: address,
      count: counted - 1,
      repeated: true,
    })
    expect(total(rows)).toBe(counted)
    expect(await tallied(address)).toBe(0)
  })
})

describe('repeats within the budget', () => {
  test('the first refusal of a kind is audited at once; its repeats in the hour become one row with their count when the hour is over', async () => {
    clock.set('2031-04-05T13:10:00.000Z')
    const c = await createConsumer(app)
    const narrow = await createKey(app, c.id, ['read:changes'])
    const ip = freshIp()
    const address = ip['x-forwarded-for']!
    const correlated = (id: string) => ({ ...ip, 'x-correlation-id': id })
    // five unknown keys on one route, three on another, two refusals of one key's scope: three kinds
    for (let i = 0; i < 5; i++)
      expect(await status(BALANCE, { ...bogus(), ...correlated(`refusal-balance-${i}-${crypto.randomUUID()}`) })).toBe(
        401,
      )
    for (let i = 0; i < 3; i++) expect(await status(USAGE, { ...bogus(), ...ip })).toBe(401)
    clock.set('2031-04-05T13:40:00.000Z')
    for (let i = 0; i < 2; i++)
      expect(await status('/api/v1/company/923609016/context', { ...bearer(narrow.key), ...ip })).toBe(403)
    const now = await auditOf(address)
    expect(now.map((r) => [r.actor, r.details.operation, r.details.error_code, r.details.count])).toEqual([
      ['anonymous', 'getCreditBalance', 'AUTH_INVALID_KEY', 1],
      ['anonymous', 'getUsage', 'AUTH_INVALID_KEY', 1],
      [`key:${narrow.id}`, 'getCompanyContext', 'SCOPE_INSUFFICIENT', 1],
    ])
    expect(now[0]!.correlation_id).toStartWith('refusal-balance-0-')
    // the hour is not over: nothing is flushed yet
    await sweep(new Date('2031-04-05T13:59:59.000Z'))
    expect(await auditOf(address)).toHaveLength(3)
    await sweep(new Date('2031-04-05T14:00:00.000Z'))
    const after = await auditOf(address)
    expect(
      after
        .slice(3)
        .map((r) => [r.actor, r.details.operation, r.details.count, r.details.repeated])
        .sort(),
    ).toEqual(
      [
        ['anonymous', 'getCreditBalance', 4, true],
        ['anonymous', 'getUsage', 2, true],
        [`key:${narrow.id}`, 'getCompanyContext', 1, true],
      ].sort(),
    )
    expect(total(after)).toBe(10)
    // a second sweep writes nothing twice
    await sweep(new Date('2031-04-05T14:05:00.000Z'))
    expect(await auditOf(address)).toHaveLength(6)
  })

  test('a refusal that is the only one of its kind gets no second row', async () => {
    clock.set('2031-04-05T15:00:00.000Z')
    const ip = freshIp()
    expect(await status(BALANCE, { ...bogus(), ...ip })).toBe(401)
    await sweep(new Date('2031-04-05T16:00:00.000Z'))
    expect((await auditOf(ip['x-forwarded-for']!)).map((r) => r.details.count)).toEqual([1])
  })
})
