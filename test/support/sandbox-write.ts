/**
 * The sandbox write side over real HTTP: plan → approval token → execute, as an agent calls it.
 * Every helper takes the caller's headers, so a test picks its own namespace (`as()`), and a fresh
 * namespace per test keeps a PostgreSQL database reused across runs from mattering.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { expect } from 'bun:test'
import type { TestApp } from './app.ts'
import { freshIp } from './access.ts'
import { SANDBOX } from './sandbox-read.ts'

/** 818000006: every check passes, the delegation holds both scopes. */
export const HEALTHY_ORG = '818000006'

export type HeaderMap = Record<string, string>

export interface ActionBody {
  org_number: string
  action_type: 'mva_melding' | 'a_melding'
  period: string
  payload: Record<string, unknown>
}

/** The synthetic bearer of a namespace of its own (or of the suffix given). */
export function as(suffix = `t${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`): HeaderMap {
  return { authorization: `Bearer svc_sandbox_test_${suffix}` }
}

/** The namespace a caller's writes live in: `sandbox:<suffix>` for the synthetic bearer, else the anonymous one. */
export function namespaceOf(h: HeaderMap): string {
  const m = /^Bearer svc_sandbox_test_(.+)$/.exec(h.authorization ?? '')
  return m ? `sandbox:${m[1]}` : 'sandbox/anonymous'
}

/** An mva_melding for 2026-T1 (due 2026-04-10: in time on the default effective date). */
export function vat(over: Partial<ActionBody> = {}, payload: Record<string, unknown> = {}): ActionBody {
  return {
    org_number: HEALTHY_ORG,
    action_type: 'mva_melding',
    period: '2026-T1',
    payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250, ...payload },
    ...over,
  }
}

export function aMelding(over: Partial<ActionBody> = {}): ActionBody {
  return {
    org_number: HEALTHY_ORG,
    action_type: 'a_melding',
    period: '2026-01',
    payload: { employee_count: 12, gross_salary_nok: 640_000 },
    ...over,
  }
}

/**
 * Every sandbox POST counts against a per-address write budget (60 a minute), and the run's clock
 * is pinned: each write here comes from an address of its own unless the caller names one.
 */
function writer(h: HeaderMap): HeaderMap {
  return 'x-forwarded-for' in h ? h : { ...freshIp(), ...h }
}

export function plan(app: TestApp, body: unknown, h: HeaderMap = {}, base = SANDBOX, query = ''): Promise<Response> {
  return app.send('POST', `${base}/actions/plan${query}`, body, writer(h))
}

export function mintRequest(
  app: TestApp,
  org: string,
  actionId: string,
  h: HeaderMap = {},
  base = SANDBOX,
  query = '',
): Promise<Response> {
  return app.send('POST', `${base}/auth/approval-token${query}`, { org_number: org, action_id: actionId }, writer(h))
}

export function dryRun(app: TestApp, body: unknown, h: HeaderMap = {}, base = SANDBOX, query = ''): Promise<Response> {
  return app.send('POST', `${base}/actions/execute?dry_run=true${query}`, body, writer(h))
}

/** A live execute; `key`/`token` null leave the header out. */
export function live(
  app: TestApp,
  body: unknown,
  o: { h?: HeaderMap; key?: string | null; token?: string | null; base?: string; query?: string } = {},
): Promise<Response> {
  const headers: HeaderMap = writer({ ...o.h })
  const key = o.key === undefined ? crypto.randomUUID() : o.key
  if (key !== null) headers['idempotency-key'] = key
  if (o.token !== undefined && o.token !== null) headers['x-approval-token'] = o.token
  return app.send('POST', `${o.base ?? SANDBOX}/actions/execute${o.query ? `?${o.query}` : ''}`, body, headers)
}

async function json(res: Response, status: number, what: string): Promise<any> {
  const text = await res.text()
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text}`)
  return JSON.parse(text)
}

export async function actionIdFor(app: TestApp, body: ActionBody, h: HeaderMap = {}, base = SANDBOX): Promise<string> {
  return (await json(await plan(app, body, h, base), 200, 'plan')).data.action_id
}

/** Plans the action and mints its approval token (shown once). */
export async function approve(
  app: TestApp,
  body: ActionBody,
  h: HeaderMap = {},
  base = SANDBOX,
): Promise<{ actionId: string; token: string }> {
  const actionId = await actionIdFor(app, body, h, base)
  const minted = await json(await mintRequest(app, body.org_number, actionId, h, base), 201, 'approval token')
  return { actionId, token: minted.data.approval_token }
}

/** Plans, approves and files the action live; the 200 body. */
export async function file(
  app: TestApp,
  body: ActionBody,
  h: HeaderMap = {},
  key: string = crypto.randomUUID(),
): Promise<any> {
  const { token } = await approve(app, body, h)
  return json(await live(app, body, { h, key, token }), 200, 'execute')
}

/** The caller's audit trail of a company, newest first. */
export async function auditOf(
  app: TestApp,
  org: string,
  h: HeaderMap = {},
): Promise<{ id: string; action: string; timestamp: string; details: Record<string, unknown> }[]> {
  return (await json(await app.get(`${SANDBOX}/company/${org}/audit`, { headers: h }), 200, 'audit')).data.data
}

/** The caller's own rows (the fixture history is `sandbox_fixture`). */
export async function ownAudit(app: TestApp, org: string, h: HeaderMap = {}) {
  return (await auditOf(app, org, h)).filter((e) => (e as { initiated_by?: string }).initiated_by === 'sandbox_caller')
}

/** Approval-token rows of the caller's namespace, straight from the table (bad input must not add one). */
export async function tokenRows(app: TestApp, h: HeaderMap): Promise<number> {
  const [row] = await app.deps.sql<
    { n: number }[]
  >`select count(*)::int as n from approval_tokens where namespace = ${namespaceOf(h)}`
  return row!.n
}

/** Audit rows of the caller's namespace, straight from the table. */
export async function auditRows(app: TestApp, h: HeaderMap): Promise<number> {
  const [row] = await app.deps.sql<
    { n: number }[]
  >`select count(*)::int as n from sandbox_audit where namespace = ${namespaceOf(h)}`
  return row!.n
}

/**
 * Asserts a write-side error: the code and status, and the promise every write-side error makes —
 * nothing was submitted — with whether the token was consumed. Returns the body.
 */
export async function expectWriteError(res: Response, status: number, code: string, consumed = false): Promise<any> {
  const text = await res.text()
  const body = JSON.parse(text)
  expect({ status: res.status, code: body.error_code }).toEqual({ status, code })
  expect(body.success).toBe(false)
  expect(body.execution_guarantee).toBe('nothing_submitted')
  expect(body.outcome).toEqual({
    submitted: false,
    status: consumed ? 'rejected' : 'not_attempted',
    approval_token_consumed: consumed,
  })
  return body
}

// -- receipts, from the documentation alone --------------------------------------------------------

/** docs/receipt-signature.md: the public sandbox key, copied from the document, not imported. */
export const DOCUMENTED_SANDBOX_KEY = 'plikt-sandbox-receipt-key-v1-public-not-secret'

/** A client's verification, per docs/receipt-signature.md, with node:crypto only. */
export function clientVerifies(receipt: Record<string, unknown>): boolean {
  if (receipt.signature_algorithm !== 'HMAC-SHA256-v1') return false
  const fields = [
    receipt.altinn_receipt_id,
    receipt.audit_log_id,
    receipt.org_number,
    receipt.filing_type,
    receipt.timestamp,
  ]
  if (fields.some((f) => typeof f !== 'string' || f.includes('\x1f'))) return false
  const signature = typeof receipt.signature === 'string' ? receipt.signature : ''
  if (!/^[0-9a-f]{64}$/.test(signature)) return false
  const expected = createHmac('sha256', DOCUMENTED_SANDBOX_KEY)
    .update(['PLIKT-RECEIPT-v1', ...fields].join('\x1f'), 'utf8')
    .digest()
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'))
}
