/**
 * The sandbox's own bounds on unauthenticated work and storage (issue 19, Medium 4): the private
 * sandbox is under the Category A soft limit like every keyless route, and its write side — every
 * POST, on the sandbox and its public mirror — shares one budget per client address, a minute's
 * burst and a day's total, so minted tokens and audit rows cannot pile up without bound.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PUBLIC_SANDBOX_ORG } from '../../../fixtures/sandbox/companies.ts'
import { SANDBOX_WRITES } from '../../../src/operations/index.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { freshIp } from '../../helpers.ts'
import { call, expectSandboxError } from '../../helpers.ts'
import {
  actionIdFor,
  as,
  dryRun,
  HEALTHY_ORG,
  mintRequest,
  plan,
  PUBLIC,
  SANDBOX,
  tokenRows,
  vat,
} from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

async function answer(res: Response) {
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) }
}

describe('the soft per-IP limit', () => {
  test('the private sandbox allows 1000 requests a minute per address, then 429 RATE_LIMIT_EXCEEDED with Retry-After in the sandbox envelope', async () => {
    const ip = freshIp()
    const path = `${SANDBOX}/company/818000006/context`
    for (let i = 0; i < 1000; i += 50) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () =>
          app.get(path, { headers: ip }).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      )
      expect(statuses.every((s) => s === 200)).toBe(true)
    }
    const over = await call(app, path, ip)
    expectSandboxError(over, 429, 'RATE_LIMIT_EXCEEDED')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // the same address is refused on every sandbox route, writes included, before any work
    expectSandboxError(await answer(await plan(app, vat(), ip)), 429, 'RATE_LIMIT_EXCEEDED')
    // another address is unaffected
    expect((await call(app, path, freshIp())).status).toBe(200)
  })
})

describe('the write budget per address', () => {
  test(`${SANDBOX_WRITES.per_minute} writes a minute across plan, approval token and execute; the next is 429 RATE_LIMIT_EXCEEDED with Retry-After`, async () => {
    const ip = freshIp()
    const h = { ...as(), ...ip }
    const actionId = await actionIdFor(app, vat(), h)
    let writes = 1
    for (; writes < SANDBOX_WRITES.per_minute; writes++) {
      const res =
        writes % 3 === 0
          ? await dryRun(app, vat(), h)
          : writes % 3 === 1
            ? await plan(app, vat(), h)
            : await mintRequest(app, HEALTHY_ORG, actionId, h)
      expect({ writes, status: res.status }).toEqual({ writes, status: writes % 3 === 2 ? 201 : 200 })
      await res.arrayBuffer()
    }
    const over = await answer(await plan(app, vat(), h))
    expectSandboxError(over, 429, 'RATE_LIMIT_EXCEEDED')
    expect(over.body.execution_guarantee).toBe('nothing_submitted')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(over.headers.get('ratelimit-policy')).toContain(`q=${SANDBOX_WRITES.per_minute}`)
    // reads are not writes
    expect((await call(app, `${SANDBOX}/company/818000006/context`, h)).status).toBe(200)
    // another address has a budget of its own
    expect((await plan(app, vat(), { ...as(), ...freshIp() })).status).toBe(200)
  })

  test('an approval token refused by the budget is not stored', async () => {
    const ip = freshIp()
    const h = { ...as(), ...ip }
    const actionId = await actionIdFor(app, vat(), h)
    const statuses: number[] = []
    for (let i = 1; i < SANDBOX_WRITES.per_minute + 10; i++) {
      const res = await mintRequest(app, HEALTHY_ORG, actionId, h)
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(SANDBOX_WRITES.per_minute - 1)
    expect(statuses.slice(SANDBOX_WRITES.per_minute - 1).every((s) => s === 429)).toBe(true)
    expect(await tokenRows(app, h)).toBe(SANDBOX_WRITES.per_minute - 1)
  })

  test('the sandbox and its public mirror share the budget', async () => {
    const ip = freshIp()
    // bodies of different lengths: the mirror's loop detector never sees one request twice
    const body = (i: number) => vat({ org_number: PUBLIC_SANDBOX_ORG }, { note: 'x'.repeat(i) })
    const half = SANDBOX_WRITES.per_minute / 2
    for (let i = 0; i < half; i++)
      expect({ i, status: (await plan(app, body(i), ip, PUBLIC)).status }).toEqual({ i, status: 200 })
    for (let i = 0; i < half; i++)
      expect({ i, status: (await plan(app, body(i), ip)).status }).toEqual({ i, status: 200 })
    expectSandboxError(await answer(await plan(app, body(half), ip)), 429, 'RATE_LIMIT_EXCEEDED')
    expectSandboxError(await answer(await plan(app, body(half + 1), ip, PUBLIC)), 429, 'RATE_LIMIT_EXCEEDED')
  })

  test(`${SANDBOX_WRITES.per_day} writes a day (UTC), however they are spread over the minutes`, async () => {
    // an app of its own, on a day of its own, so its clock can move
    const clock = fixedClock('2031-02-03T08:00:00.000Z')
    const own = await startApp({ clock })
    try {
      const ip = freshIp()
      let done = 0
      while (done < SANDBOX_WRITES.per_day) {
        const batch = Math.min(SANDBOX_WRITES.per_minute, SANDBOX_WRITES.per_day - done)
        const statuses = await Promise.all(
          Array.from({ length: batch }, () =>
            plan(own, vat(), ip).then(async (r) => (await r.arrayBuffer(), r.status)),
          ),
        )
        expect(statuses.every((s) => s === 200)).toBe(true)
        done += batch
        clock.advance(60_000)
      }
      const over = await answer(await plan(own, vat(), ip))
      expectSandboxError(over, 429, 'RATE_LIMIT_EXCEEDED')
      // the wait is the rest of the UTC day
      const untilMidnight = (Date.parse('2031-02-04T00:00:00Z') - clock.now().getTime()) / 1000
      expect(Number(over.headers.get('retry-after'))).toBe(untilMidnight)
      clock.set('2031-02-04T00:00:00.000Z')
      expect((await plan(own, vat(), ip)).status).toBe(200)
    } finally {
      await own.stop()
    }
  })
})
