import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { addCredits } from '../helpers.ts'
import { confirmedToken } from '../helpers.ts'
import { ORG, agent, delegatedAgent, receiptKey, type Agent } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const PAYLOAD = { total_revenue_nok: 125000, output_vat_nok: 31250 }

/** Each test files its own period: the conflict lock is per organisation, form and period. */
let month = 0
function nextPeriod(): string {
  month++
  return `2026-${String(3 + (month % 10)).padStart(2, '0')}`
}

function action(period: string, org = ORG) {
  return { org_number: org, action_type: 'mva_melding', period, payload: PAYLOAD }
}

async function dryRun(a: Agent, body: unknown) {
  return app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)
}

/** A token the account's owner has confirmed on its page (test/approval-helpers.ts). */
function approve(a: Agent, body: ReturnType<typeof action>): Promise<string> {
  return confirmedToken(app, a, body)
}

function file(a: Agent, body: unknown, token: string, idem = crypto.randomUUID()) {
  return app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': idem,
    'x-approval-token': token,
  })
}

/** docs/receipt-signature.md: written from the document, not imported. */
function verifiesWith(r: Record<string, string>, key: Buffer): boolean {
  const message = [
    'PLIKT-RECEIPT-v1',
    r.altinn_receipt_id,
    r.audit_log_id,
    r.org_number,
    r.filing_type,
    r.timestamp,
  ].join('\x1f')
  return timingSafeEqual(createHmac('sha256', key).update(message, 'utf8').digest(), Buffer.from(r.signature!, 'hex'))
}

describe('dry run', () => {
  test('without a delegation the five checks run and system_user_authorised fails; nothing is submitted', async () => {
    const res = await dryRun(await agent(app), action(nextPeriod()))
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.dry_run).toBe(true)
    expect(data.validation.checks.map((c: { name: string; passed: boolean }) => [c.name, c.passed])).toEqual([
      ['company_exists', true],
      ['system_user_authorised', false],
      ['scopes_delegated', false],
      ['data_format_valid', true],
      ['deadline_in_future', true],
    ])
    expect(data.would_be_payload).toEqual(PAYLOAD)
  })

  test('with an approved delegation every check passes', async () => {
    const { data } = await (await dryRun(await delegatedAgent(app), action(nextPeriod()))).json()
    expect(data.validation.all_passed).toBe(true)
  })

  test('an a_melding dry run is accepted', async () => {
    const res = await dryRun(await agent(app), {
      org_number: ORG,
      action_type: 'a_melding',
      period: '2026-03',
      payload: {},
    })
    expect(res.status).toBe(200)
    expect((await res.json()).data.action).toBe('a_melding')
  })

  test('validate_action’s REST twin answers what the dry run answers', async () => {
    const a = await agent(app)
    const body = action(nextPeriod())
    const dry = (await (await dryRun(a, body)).json()).data
    const validated = (await (await app.send('POST', '/api/v1/actions/validate', body, a.auth)).json()).data
    expect(validated).toEqual(dry)
  })
})

describe('bad input is a 400 naming the field, and changes nothing', () => {
  test('the dry run takes a payload over 64 KiB: execute is bounded by the 256 KB write-body cap (spec Limits)', async () => {
    const res = await dryRun(await agent(app), {
      ...action(nextPeriod()),
      payload: { ...action(nextPeriod()).payload, note: 'x'.repeat(100 * 1024) },
    })
    expect(res.status).toBe(200)
  })

  test('a body over the 256 KB write-body cap is refused at the edge', async () => {
    const res = await dryRun(await agent(app), { ...action(nextPeriod()), payload: { note: 'x'.repeat(256 * 1024) } })
    expect(res.status).toBe(413)
    expect((await res.json()).error_code).toBe('REQUEST_TOO_LARGE')
  })

  test('validate_action’s REST twin refuses a payload over 64 KiB, naming it', async () => {
    const a = await agent(app)
    const res = await app.send(
      'POST',
      '/api/v1/actions/validate',
      { ...action(nextPeriod()), payload: { note: 'x'.repeat(64 * 1024) } },
      a.auth,
    )
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details[0].field).toBe('payload')
  })

  test('validate_action’s REST twin takes a payload of exactly 64 KiB', async () => {
    const a = await agent(app)
    const filler = 64 * 1024 - JSON.stringify({ note: '' }).length
    const res = await app.send(
      'POST',
      '/api/v1/actions/validate',
      { ...action(nextPeriod()), payload: { note: 'x'.repeat(filler) } },
      a.auth,
    )
    expect(res.status).toBe(200)
  })

  test('an unknown action type', async () => {
    const res = await dryRun(await agent(app), { ...action(nextPeriod()), action_type: 'skattemelding' })
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details[0].field).toContain('action_type')
  })

  test('a period of no known form', async () => {
    for (const period of ['2026-T7', '2026-13', 'last month', '2026-A1']) {
      const res = await dryRun(await agent(app), action(period))
      expect(res.status).toBe(400)
      expect((await res.json()).explanation.details[0].field).toBe('period')
    }
  })

  test('an a_melding period in the bimonthly form', async () => {
    const res = await dryRun(await agent(app), { ...action('2026-T2'), action_type: 'a_melding' })
    expect(res.status).toBe(400)
  })
})

describe('live execute', () => {
  test('files the VAT return: a MOCK- receipt that verifies with the caller’s receipt key, and a submit_mva audit row', async () => {
    const a = await delegatedAgent(app)
    const body = action(nextPeriod())
    const res = await file(a, body, await approve(a, body))
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.dry_run).toBe(false)
    expect(data.receipt.altinn_receipt_id).toStartWith('MOCK-')
    expect(data.receipt).toMatchObject({
      org_number: ORG,
      filing_type: 'mva_melding',
      signature_algorithm: 'HMAC-SHA256-v1',
    })
    expect(verifiesWith(data.receipt, await receiptKey(app, a))).toBe(true)
    const [row] = await app.deps.sql<
      { action: string; org_number: string }[]
    >`select action, org_number from audit_log where id = ${data.receipt.audit_log_id}`
    expect(row).toEqual({ action: 'submit_mva', org_number: ORG })
  })

  test('the filing shows in the filing history, paired with the caller’s audit row', async () => {
    const a = await delegatedAgent(app, '993718807')
    await addCredits(app, a.consumerId, 1000)
    const body = action(nextPeriod(), '993718807')
    const { data } = await (await file(a, body, await approve(a, body))).json()
    const history = (
      await (await app.get('/api/v1/company/993718807/filing-history?limit=100', { headers: a.auth })).json()
    ).data
    const mine = history.filings.find((f: { filed_via_service: boolean }) => f.filed_via_service)
    expect(mine).toMatchObject({
      service_record: { audit_log_id: data.receipt.audit_log_id },
      title: `Mva-melding ${body.period}`,
    })
  })

  test('without Idempotency-Key is IDEMPOTENCY_KEY_REQUIRED and the token stays usable', async () => {
    const a = await delegatedAgent(app)
    const body = action(nextPeriod())
    const token = await approve(a, body)
    const res = await app.send('POST', '/api/v1/actions/execute', body, { ...a.auth, 'x-approval-token': token })
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('IDEMPOTENCY_KEY_REQUIRED')
    expect((await file(a, body, token)).status).toBe(200)
  })

  test('without a delegation the checks fail with 422 and the token is not consumed; an execute_authorization_failed row is written', async () => {
    const a = await agent(app)
    const body = action(nextPeriod())
    const token = await approve(a, body)
    const res = await file(a, body, token)
    expect(res.status).toBe(422)
    const err = await res.json()
    expect(err.error_code).toBe('AUTH_NO_DELEGATION')
    expect(err.failed_checks).toEqual(['system_user_authorised', 'scopes_delegated'])
    const [t] = await app.deps
      .sql`select consumed_at from approval_tokens where namespace = ${`consumer:${a.consumerId}`}`
    expect(t!.consumed_at).toBeNull()
    const audit = await app.deps
      .sql`select action from audit_log where consumer_id = ${a.consumerId} and action = 'execute_authorization_failed'`
    expect(audit).toHaveLength(1)
  })

  test('a_melding live is PLAN_INSUFFICIENT', async () => {
    const a = await delegatedAgent(app)
    const res = await file(
      a,
      { org_number: ORG, action_type: 'a_melding', period: '2026-03', payload: {} },
      'apt_whatever',
    )
    expect(res.status).toBe(403)
    expect((await res.json()).error_code).toBe('PLAN_INSUFFICIENT')
  })

  test('a token for other content is APPROVAL_TOKEN_MISMATCH', async () => {
    const a = await delegatedAgent(app)
    const token = await approve(a, action(nextPeriod()))
    const res = await file(a, action(nextPeriod()), token)
    expect(res.status).toBe(403)
    expect((await res.json()).error_code).toBe('APPROVAL_TOKEN_MISMATCH')
  })

  test('20 concurrent live executes with one token, each its own Idempotency-Key, file exactly once: one receipt, 19 refused as a spent token or a held lock', async () => {
    const a = await delegatedAgent(app)
    const body = action(nextPeriod())
    const token = await approve(a, body)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        file(a, body, token).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    )
    const ok = answers.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    // each key is another filing: it meets the first one's lock (EXECUTION_CONFLICT), or a spent token
    expect(
      answers.filter((r) => r.body.error_code === 'APPROVAL_TOKEN_USED' || r.body.error_code === 'EXECUTION_CONFLICT'),
    ).toHaveLength(19)
    const filings = await app.deps.sql`select id from filings where consumer_id = ${a.consumerId}`
    expect(filings).toHaveLength(1)
  })

  test('a retry with the same Idempotency-Key replays the receipt', async () => {
    const a = await delegatedAgent(app)
    const body = action(nextPeriod())
    const token = await approve(a, body)
    const idem = crypto.randomUUID()
    const first = await (await file(a, body, token, idem)).json()
    const again = await file(a, body, token, idem)
    expect(again.status).toBe(200)
    expect((await again.json()).data.receipt).toEqual(first.data.receipt)
  })

  test('two agents filing the same organisation and period: one proceeds, the other gets EXECUTION_CONFLICT with Retry-After and keeps its token; after the lock’s TTL it may file', async () => {
    const one = await delegatedAgent(app, '996501205')
    const two = await delegatedAgent(app, '996501205')
    const body = action('2026-T2', '996501205')
    const [t1, t2] = [await approve(one, body), await approve(two, body)]
    const [r1, r2] = await Promise.all([file(one, body, t1), file(two, body, t2)])
    const statuses = [r1.status, r2.status].sort()
    expect(statuses).toEqual([200, 409])
    const loser = r1.status === 409 ? r1 : r2
    const loserAgent = r1.status === 409 ? one : two
    const loserToken = r1.status === 409 ? t1 : t2
    expect((await loser.json()).error_code).toBe('EXECUTION_CONFLICT')
    expect(Number(loser.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(loser.headers.get('retry-after'))).toBeLessThanOrEqual(600)
    app.clock.advance(600_000)
    try {
      const later = await file(loserAgent, body, loserToken)
      // the token was minted 15 minutes' lifetime ago at most: 10 minutes later it still approves
      expect(later.status).toBe(200)
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })
})
