/** Shared by the sandbox read-side tests: paths, bearers, and the sandbox `_meta` contract. */
import { expect } from 'bun:test'
import { SANDBOX_COMPANIES, type SandboxCompany } from '../../fixtures/sandbox/companies.ts'
import type { TestApp } from './app.ts'

export const SANDBOX = '/api/v1/sandbox'
export const PUBLIC = '/api/v1/sandbox/public'

/** Every GET route of a sandbox company. */
export const ORG_ROUTES = [
  'context',
  'obligations',
  'deadlines',
  'summary',
  'audit',
  'verify',
  'authority',
  'accounts',
] as const
export type OrgRoute = (typeof ORG_ROUTES)[number]

export const PINNED_DATA_AS_OF = '2026-01-01T00:00:00+01:00'

/** The synthetic bearer with a fresh suffix (or the one given), as headers. */
export function synthetic(suffix: string = crypto.randomUUID()): Record<string, string> {
  return { authorization: `Bearer svc_sandbox_test_${suffix}` }
}

export function company(org: string): SandboxCompany {
  const c = SANDBOX_COMPANIES.find((x) => x.org_number === org)
  if (!c) throw new Error(`no sandbox company ${org}`)
  return c
}

export function scenario(name: string): SandboxCompany {
  const c = SANDBOX_COMPANIES.find((x) => x.scenario === name)
  if (!c) throw new Error(`no sandbox scenario ${name}`)
  return c
}

export interface Answer {
  status: number
  headers: Headers
  text: string
  body: any
}

export async function call(
  app: TestApp,
  path: string,
  headers: Record<string, string> = {},
  init: RequestInit = {},
): Promise<Answer> {
  const res = await app.get(path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null }
}

/** The body with its one non-deterministic field blanked: what the determinism contract compares. */
export function withoutTimestamp(text: string): string {
  return text.replace(/"response_timestamp":"[^"]*"/g, '"response_timestamp":""')
}

/** The sandbox `_meta` every sandbox envelope carries (spec: Sandbox `_meta`). */
export function expectSandboxMeta(meta: any): void {
  expect(meta.is_sandbox).toBe(true)
  expect(meta.rulebook_version).toBe('sandbox')
  expect(meta.data_freshness).toBe(PINNED_DATA_AS_OF)
  expect(meta.last_verified).toBe(PINNED_DATA_AS_OF)
  expect(meta.source).toBe('plikt')
  expect(meta.schema_version).toBe('1.0.7')
  expect(meta.response_timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+0[12]:00$/)
  expect(typeof meta.sandbox_notice).toBe('string')
  expect(meta.sandbox_notice.length).toBeGreaterThan(20)
  expect(meta).not.toHaveProperty('response_hash')
  expect(meta).not.toHaveProperty('source_snapshot_id')
}

/** The sandbox error envelope: `{ success: false, error_code, explanation, _meta }` with open CORS. */
export function expectSandboxError(a: Answer, status: number, code: string): any {
  expect({ status: a.status, code: a.body?.error_code }).toEqual({ status, code })
  expect(a.body.success).toBe(false)
  expect(typeof a.body.explanation.summary_en).toBe('string')
  expectSandboxMeta(a.body._meta)
  expect(a.headers.get('access-control-allow-origin')).toBe('*')
  return a.body
}

/** The short body of AGENT_LOOP_DETECTED and SANDBOX_TEMPORARILY_UNAVAILABLE: exactly three fields. */
export function expectShortBody(a: Answer, status: number, code: string): void {
  expect(a.status).toBe(status)
  expect(Object.keys(a.body).sort()).toEqual(['error_code', 'message', 'success'])
  expect(a.body.success).toBe(false)
  expect(a.body.error_code).toBe(code)
  expect(typeof a.body.message).toBe('string')
  expect(a.headers.get('access-control-allow-origin')).toBe('*')
}
