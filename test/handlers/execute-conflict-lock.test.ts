/**
 * The conflict lock of live filings under real concurrency (issue: the same VAT period filed
 * twice). An agent sends, at the same moment, returns the tax authority rejects and one it takes,
 * each with its own Idempotency-Key; a second account then files the same period. Whatever order
 * the race settles in, the period reaches the portal once: an attempt gives back only the lock it
 * took, so a rejected attempt never frees the lock a filing holds.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApp, type TestApp } from '../helpers.ts'
import { confirmedToken } from '../helpers.ts'
import { delegatedAgent, MVA, type Agent } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

/** Registered in delegation-helpers.ts' list: these periods of this organisation are this file's. */
const ORG = '996501205'
const GOOD = { total_revenue_nok: 125000, output_vat_nok: 31250 }
/** base × rate is not the line's VAT (R019): `ugyldig`, the tax authority's 422 */
const rejected = (n: number) => ({ total_revenue_nok: 125000, output_vat_nok: 99990 + n })

async function approve(a: Agent, body: Record<string, unknown>): Promise<string> {
  const dry = await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)).json()
  expect(dry.data.validation.all_passed).toBe(true)
  return confirmedToken(app, a, body as Parameters<typeof confirmedToken>[2])
}

async function file(
  a: Agent,
  body: Record<string, unknown>,
  token: string,
): Promise<{ status: number; code: string | null }> {
  const res = await app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': crypto.randomUUID(),
    'x-approval-token': token,
  })
  const json = await res.json()
  return { status: res.status, code: json.error_code ?? null }
}

/** The good return (index 3) is sent first; the rejected ones once it holds the period's lock or has answered. */
async function goodFirst(
  a: Agent,
  period: string,
  bodies: Record<string, unknown>[],
  tokens: string[],
): Promise<{ status: number; code: string | null }[]> {
  let settled = false
  const good = file(a, bodies[3]!, tokens[3]!).finally(() => (settled = true))
  while (!settled) {
    const [held] = await app.deps.sql`select 1 from action_locks where org_number = ${ORG} and period = ${period}`
    if (held) break
    await Bun.sleep(2)
  }
  const rejected = await Promise.all([0, 1, 2].map((k) => file(a, bodies[k]!, tokens[k]!)))
  return [await good, ...rejected]
}

test('rejected attempts racing an agent’s filing never free its lock: the period is filed once, and another account then gets EXECUTION_CONFLICT', async () => {
  // professional keys: a round is more calls than a free key's minute allows on the pinned clock
  const a = await delegatedAgent(app, ORG, [MVA], 'professional')
  const b = await delegatedAgent(app, ORG, [MVA], 'professional')
  const rounds = ['2026-T3', '2026-T4', '2026-T5', '2026-T6']
  let aFiled = 0
  for (const [i, period] of rounds.entries()) {
    const bodies = [
      ...[1, 2, 3].map((n) => ({ org_number: ORG, action_type: 'mva_melding', period, payload: rejected(n) })),
      { org_number: ORG, action_type: 'mva_melding', period, payload: GOOD },
    ]
    const tokens = await Promise.all(bodies.map((body) => approve(a, body)))
    // Half the rounds send the rejected returns first, all at once; half let the good one take the
    // lock first (or finish), then send the rejected ones: both orders of the race, the second for sure.
    const order = i % 2 === 0 ? [0, 1, 2, 3] : [3, 0, 1, 2]
    const answers =
      i % 2 === 0
        ? await Promise.all(order.map((k) => file(a, bodies[k]!, tokens[k]!)))
        : await goodFirst(a, period, bodies, tokens)
    const good = answers[order.indexOf(3)]!
    for (const [j, ans] of answers.entries()) {
      if (order[j] === 3) expect([200, 409]).toContain(ans.status)
      else
        expect([
          [422, 'GOVERNMENT_VALIDATION_REJECTED'],
          [409, 'EXECUTION_CONFLICT'],
        ]).toContainEqual([ans.status, ans.code!])
    }
    const goodBody = bodies[3]!
    const second = await file(b, goodBody, await approve(b, goodBody))
    // (on PostgreSQL the database outlives a run: only this run's two accounts are looked at)
    const filings = await app.deps
      .sql`select consumer_id from filings where org_number = ${ORG} and period = ${period} and consumer_id in (${a.consumerId}, ${b.consumerId})`
    if (good.status === 200) {
      aFiled++
      expect(second).toEqual({ status: 409, code: 'EXECUTION_CONFLICT' })
      expect(filings.map((f) => f.consumer_id)).toEqual([a.consumerId])
    } else {
      // the lock was a rejected attempt's, which gave it back: the other account files, once
      expect(second.status).toBe(200)
      expect(filings.map((f) => f.consumer_id)).toEqual([b.consumerId])
    }
  }
  // the good-first rounds file for the agent
  expect(aFiled).toBeGreaterThanOrEqual(2)
}, 60_000)
