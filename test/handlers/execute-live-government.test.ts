/**
 * The delegation and filing flow with GOVERNMENT_MODE=live: the live clients over real HTTP against
 * the government fixture servers (token service, Altinn, the tax authority, the labour register),
 * with faults injected there. The token service going down opens its breaker; a filing then fails
 * fast with a retryable error, and the approval token is neither spent nor anything charged.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { confirmedToken } from '../helpers.ts'
import { agent, MVA, type Agent } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp({ government: 'live' })
}, 30_000)
afterAll(() => app.stop())

const PAYLOAD = { total_revenue_nok: 125000, output_vat_nok: 31250 }

/** As the organisation's administrator, at the Altinn fixture. */
async function acceptAtAltinn(delegationId: string) {
  const state = await (await fetch(`${app.fixtures.filingPortalUrl}/__control/state`)).json()
  const request = state.requests.find((r: { externalRef: string }) => r.externalRef === delegationId)
  const res = await fetch(`${app.fixtures.filingPortalUrl}/__control/systemuser-requests/${request.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'Accepted' }),
  })
  expect(res.status).toBe(200)
}

async function delegated(org: string): Promise<Agent> {
  const a = await agent(app)
  const res = await app.send(
    'POST',
    '/api/v1/fullmakt/request',
    { agent_principal_id: crypto.randomUUID(), org_number: org, scopes: [MVA] },
    a.auth,
  )
  expect(res.status).toBe(201)
  const { data } = await res.json()
  expect(data.delegation_url).toStartWith(app.fixtures.filingPortalUrl)
  await acceptAtAltinn(data.delegation_id)
  const snapshot = (await (await app.get(`/api/v1/auth/permissions/${org}`, { headers: a.auth })).json()).data
  expect(snapshot.status).toBe('full')
  return a
}

async function token(a: Agent, body: Record<string, unknown>): Promise<string> {
  const { data } = await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)).json()
  expect(data.validation.all_passed).toBe(true)
  return confirmedToken(app, a, body as Parameters<typeof confirmedToken>[2])
}

function file(a: Agent, body: unknown, approval: string, idempotencyKey: string = crypto.randomUUID()) {
  return app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': idempotencyKey,
    'x-approval-token': approval,
  })
}

describe('GOVERNMENT_MODE=live against the fixture servers', () => {
  test('the agency is given the service’s return page as the request’s redirectUrl', async () => {
    const a = await agent(app)
    const { data } = await (
      await app.send(
        'POST',
        '/api/v1/fullmakt/request',
        { agent_principal_id: crypto.randomUUID(), org_number: '923609016', scopes: [MVA] },
        a.auth,
      )
    ).json()
    const state = await (await fetch(`${app.fixtures.filingPortalUrl}/__control/state`)).json()
    const request = state.requests.find((r: { externalRef: string }) => r.externalRef === data.delegation_id)
    expect(request.redirectUrl).toBe(`${app.url}/fullmakt/returned`)
  })

  test('a delegation approved at the agency lets the agent file: the portal’s receipt, not a mock one', async () => {
    // An organisation and period no other test file files: the conflict lock outlives a test (600 s on the pinned clock).
    const a = await delegated('923609016')
    const body = { org_number: '923609016', action_type: 'mva_melding', period: '2026-T1', payload: PAYLOAD }
    const res = await file(a, body, await token(a, body))
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.receipt.altinn_receipt_id).not.toStartWith('MOCK-')
    const state = await (await fetch(`${app.fixtures.filingPortalUrl}/__control/state`)).json()
    expect(
      state.instances.filter(
        (i: { instanceOwner: { organisationNumber: string } }) => i.instanceOwner.organisationNumber === '923609016',
      ),
    ).toHaveLength(1)
  }, 30_000)

  test('the token service down: the breaker opens, the filing fails fast and retryably, the token stays unspent and works once the service is back', async () => {
    const org = '996501205'
    const a = await delegated(org)
    const body = { org_number: org, action_type: 'mva_melding', period: '2026-T1', payload: PAYLOAD }
    const approval = await token(a, body)
    const fault = await (
      await fetch(`${app.fixtures.tokenServiceUrl}/__control/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: '/token', mode: 'status', status: 503 }),
      })
    ).json()
    try {
      let last: { status: number; code: string; retryable: boolean } | null = null
      for (let i = 0; i < 6 && last?.code !== 'EXECUTION_CIRCUIT_OPEN'; i++) {
        const res = await file(a, body, approval)
        const err = await res.json()
        last = { status: res.status, code: err.error_code, retryable: err.retryable }
        expect(res.status).toBeGreaterThanOrEqual(500)
        expect(err.retryable).toBe(true)
      }
      expect(last!.code).toBe('EXECUTION_CIRCUIT_OPEN')
      await fetch(`${app.fixtures.tokenServiceUrl}/__control/requests`, { method: 'DELETE' })
      const fast = await file(a, body, approval)
      expect((await fast.json()).error_code).toBe('EXECUTION_CIRCUIT_OPEN')
      const calls = await (await fetch(`${app.fixtures.tokenServiceUrl}/__control/requests`)).json()
      expect(calls).toHaveLength(0)
      const [t] = await app.deps
        .sql`select consumed_at from approval_tokens where namespace = ${`consumer:${a.consumerId}`}`
      expect(t!.consumed_at).toBeNull()
    } finally {
      await fetch(`${app.fixtures.tokenServiceUrl}/__control/faults/${fault.id}`, { method: 'DELETE' })
    }
    app.clock.advance(31_000)
    try {
      const res = await file(a, body, approval)
      expect(res.status).toBe(200)
    } finally {
      app.clock.set(PINNED_NOW)
    }
  }, 60_000)

  test('a portal process that waits for a person: 422 FOLLOWUP_REQUIRED naming the step and the instance, audited, final for its Idempotency-Key', async () => {
    // A period no other test file files for this organisation: the conflict lock outlives a test.
    const org = '984661185'
    const a = await delegated(org)
    const body = { org_number: org, action_type: 'mva_melding', period: '2026-A', payload: PAYLOAD }
    const approval = await token(a, body)
    const key = crypto.randomUUID()
    const setProcess = (personTask: unknown) =>
      fetch(`${app.fixtures.filingPortalUrl}/__control/app-process`, {
        method: 'PUT',
        body: JSON.stringify({ personTask }),
      })
    await setProcess({ elementId: 'Task_4', name: 'Signering', altinnTaskType: 'signing' })
    try {
      const res = await file(a, body, approval, key)
      expect(res.status).toBe(422)
      const err = await res.json()
      expect(err.error_code).toBe('FOLLOWUP_REQUIRED')
      expect(err.explanation.summary_en).toBe('The submission needs a follow-up.')
      expect(err.outcome.followup_action).toMatchObject({ who: 'portal_user', task: 'signing', task_name: 'Signering' })
      const state = await (await fetch(`${app.fixtures.filingPortalUrl}/__control/state`)).json()
      const mine = state.instances.filter(
        (i: { instanceOwner: { organisationNumber: string } }) => i.instanceOwner.organisationNumber === org,
      )
      expect(mine.map((i: { id: string }) => i.id)).toEqual([err.outcome.instance_id])
      const [audit] = await app.deps.sql`
        select details from audit_log where consumer_id = ${a.consumerId} and action = 'submit_mva_failed'`
      expect(audit!.details.error_code).toBe('FOLLOWUP_REQUIRED')
      // The token is spent: the key hears the same answer again, and nothing is filed twice.
      const again = await file(a, body, approval, key)
      expect([again.status, (await again.json()).error_code]).toEqual([422, 'FOLLOWUP_REQUIRED'])
    } finally {
      await setProcess(null)
    }
  }, 30_000)
})
