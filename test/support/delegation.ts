/**
 * Shared steps of the delegation and execute tests: a keyed consumer, a brokered fullmakt, a
 * person's decision.
 *
 * A live filing holds its conflict lock for the form's TTL on the pinned clock, across test files
 * (they share the database): each file files its own (organisation, period) pairs. Taken so far —
 * execute.test.ts: 984661185 months 2026-03…12, 996501205 2026-T2, 993718807 months;
 * tier2.test.ts: 984661185 2026-T1; delegation-flow.e2e: 984661185 2026-T3; mcp/delegation-tools:
 * 984661185 2026-T6; execute-live-government: 923609016 and 996501205 2026-T1;
 * execute-conflict-lock: 996501205 2026-T3…T6; execute-lock-kill: 923609016 2026-T2;
 * receipt-ed25519: 923609016 2026-T4; approval-confirmation: 984661185 2026-T4 and 2026-T5.
 */
import { decideMockRequest } from '../../src/store/mock-agency.ts'
import { createConsumer, createKey } from './access.ts'
import type { TestApp } from './app.ts'

export const ORG = '984661185'
export const MVA = 'skatteetaten:mva-melding'
export const AMELDING = 'altinn:a-melding'

export interface Agent {
  consumerId: string
  /** the account's e-mail: its owner signs in with it to confirm a filing (test/approval-helpers.ts) */
  email: string
  key: string
  keyId: string
  auth: Record<string, string>
}

export async function agent(
  app: TestApp,
  tier: 'free' | 'starter' | 'professional' | 'enterprise' = 'free',
): Promise<Agent> {
  const c = await createConsumer(app, tier)
  const k = await createKey(app, c.id)
  return { consumerId: c.id, email: c.email, key: k.key, keyId: k.id, auth: { authorization: `Bearer ${k.key}` } }
}

export async function requestFullmakt(
  app: TestApp,
  a: Agent,
  body: { agent_principal_id?: string; org_number?: string; scopes?: string[] } = {},
  headers: Record<string, string> = {},
) {
  return app.send(
    'POST',
    '/api/v1/fullmakt/request',
    { agent_principal_id: crypto.randomUUID(), org_number: ORG, scopes: [MVA], ...body },
    { ...a.auth, ...headers },
  )
}

/** The id of the mock agency's request a delegation_url points to. */
export function requestIdOf(delegationUrl: string): string {
  return delegationUrl.split('/').at(-1)!
}

/** A person with signing authority decides at the mock agency (the approval page's own tests drive the browser). */
export async function decide(app: TestApp, delegationUrl: string, status: 'Accepted' | 'Rejected' = 'Accepted') {
  const row = await decideMockRequest(app.deps.sql, requestIdOf(delegationUrl), {
    status,
    byName: 'Kari Nordmann',
    byBasis: 'DAGL',
    at: app.clock.now(),
  })
  if (!row) throw new Error(`decide: request ${delegationUrl} was not open`)
  return row
}

/** An agent whose delegation for the organisation is approved and active. */
export async function delegatedAgent(
  app: TestApp,
  org = ORG,
  scopes = [MVA],
  tier: 'free' | 'professional' = 'free',
): Promise<Agent & { principalId: string }> {
  const a = await agent(app, tier)
  const principalId = crypto.randomUUID()
  const res = await requestFullmakt(app, a, { agent_principal_id: principalId, org_number: org, scopes })
  if (res.status !== 201) throw new Error(`delegatedAgent: ${res.status} ${await res.text()}`)
  await decide(app, (await res.json()).data.delegation_url)
  const snapshot = await app.get(`/api/v1/auth/permissions/${org}`, { headers: a.auth })
  if ((await snapshot.json()).data.active_scopes.length === 0)
    throw new Error('delegatedAgent: the delegation did not become active')
  return { ...a, principalId }
}

export async function receiptKey(app: TestApp, a: Agent): Promise<Buffer> {
  const res = await app.get('/api/v1/auth/receipt-key', { headers: a.auth })
  return Buffer.from((await res.json()).data.key_hex, 'hex')
}
