import { describe, expect, test } from 'bun:test'
import {
  CATALOGUE,
  ERROR_CODES,
  NEUTRAL_NOUNS,
  PLACEHOLDERS,
  type CatalogueEntry,
} from '../../src/errors/catalogue/index.ts'

const entries = ERROR_CODES.map((code) => [code, CATALOGUE[code] as CatalogueEntry] as const)

/** Every code the spec's Errors section names, including the sandbox-only ones in its prose. */
const SPEC_CODES = `AUTH_INSUFFICIENT_ROLE AUTH_NO_DELEGATION AUTH_MISSING_DELEGATION AUTH_EXPIRED_TOKEN AUTH_MISSING
AUTH_INVALID_KEY AUTH_CONSUMER_INACTIVE FULLMAKT_PACKAGE_NOT_GRANTED ISSUANCE_TOKEN_INVALID OAUTH_TOKEN_INVALID
OAUTH_TOKEN_EXPIRED OAUTH_AUDIENCE_MISMATCH OAUTH_SUBJECT_UNMAPPED OAUTH_JWKS_UNAVAILABLE OAUTH_DISABLED VALIDATION_FAILED
NOT_FOUND COMPANY_NOT_FOUND ORG_NUMBER_INVALID_CHECKSUM DEADLINE_PASSED REQUEST_TOO_LARGE INVALID_CURRENCY INVALID_DATE
UNSUPPORTED_CURRENCY_PAIR NO_RATE_AVAILABLE SCOPE_MISSING SCOPE_INSUFFICIENT SCOPE_INSUFFICIENT_FOR_ACTION SCOPE_RESERVED
PLAN_INSUFFICIENT IDEMPOTENCY_KEY_REQUIRED IDEMPOTENCY_KEY_INVALID_FORMAT IDEMPOTENCY_KEY_MISMATCH IDEMPOTENCY_IN_PROGRESS
INSUFFICIENT_CREDITS CREDIT_CHECK_UNAVAILABLE TOPUP_BELOW_MINIMUM TOPUP_CEILING_EXCEEDED MAX_KEYS_REACHED BILLING_NOT_CONFIGURED
APPROVAL_TOKEN_REQUIRED APPROVAL_TOKEN_INVALID APPROVAL_TOKEN_USED APPROVAL_TOKEN_EXPIRED APPROVAL_TOKEN_MISMATCH RISK_ELEVATED
EXECUTION_FAILED EXECUTION_TIMEOUT FOLLOWUP_REQUIRED EXECUTION_DEADLINE_EXCEEDED EXECUTION_CIRCUIT_OPEN RETRY_BUDGET_EXHAUSTED
UPSTREAM_UNAVAILABLE UPSTREAM_TIMEOUT GOVERNMENT_API_ERROR GOVERNMENT_RATE_LIMITED GOVERNMENT_UNAVAILABLE
GOVERNMENT_VALIDATION_REJECTED TOKEN_SERVICE_AUTH_FAILED PORTAL_DELEGATION_MISSING PORTAL_ACK_UNPARSEABLE REGISTER_DOWN
COMPANY_LOOKUP_FAILED RATE_LIMIT_EXCEEDED RATE_LIMITED SANDBOX_TEST_KEY_REQUIRED SANDBOX_TOOL_UNAVAILABLE
PUBLIC_SANDBOX_ORG_NOT_PERMITTED PUBLIC_SANDBOX_BODY_TOO_LARGE AGENT_LOOP_DETECTED SANDBOX_TEMPORARILY_UNAVAILABLE
INTERNAL_ERROR SERVER_ERROR UNKNOWN`.split(/\s+/)

/** Statuses the spec fixes. */
const SPEC_STATUS: Record<string, number> = {
  AUTH_INVALID_KEY: 401,
  ISSUANCE_TOKEN_INVALID: 401,
  OAUTH_DISABLED: 404,
  ORG_NUMBER_INVALID_CHECKSUM: 400,
  PLAN_INSUFFICIENT: 403,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  INSUFFICIENT_CREDITS: 402,
  CREDIT_CHECK_UNAVAILABLE: 503,
  TOPUP_BELOW_MINIMUM: 400,
  TOPUP_CEILING_EXCEEDED: 400,
  MAX_KEYS_REACHED: 409,
  BILLING_NOT_CONFIGURED: 503,
  RATE_LIMITED: 429,
  SANDBOX_TEST_KEY_REQUIRED: 403,
  AGENT_LOOP_DETECTED: 429,
  SANDBOX_TEMPORARILY_UNAVAILABLE: 503,
  GOVERNMENT_VALIDATION_REJECTED: 422,
  EXECUTION_DEADLINE_EXCEEDED: 504,
  REQUEST_TOO_LARGE: 413,
}

const worstCase = (s: string) => s.replace(/\{[a-z_]+\}/g, 'x'.repeat(64))

describe('error catalogue', () => {
  test('holds every code of the spec', () => {
    expect(SPEC_CODES.filter((c) => !(ERROR_CODES as string[]).includes(c))).toEqual([])
  })

  test("only adds AGENT_PRINCIPAL_CONFLICT and AGENT_PRINCIPAL_REVOKED (409), AUTH_SESSION_REQUIRED (a session-only route without a session, 401), COMPANY_INACTIVE (a filing for a registered but inactive company, 422), DELEGATION_REQUESTS_LIMIT (over 100 open delegation requests for one organisation, 409), EXECUTION_CONFLICT (another agent holds the filing lock, 409), FEED_RATE_LIMITED (a portfolio's calendar feed read over its per-feed limit, 429), METHOD_NOT_ALLOWED, OAUTH_IDENTITY_MISMATCH (a consent refused for another holder's identity, 403), TEST_KEY_PRODUCTION_ONLY (a test key on an operation without a synthetic answer, 403), ORG_NUMBER_IS_SUB_UNIT (a delegation or filing for a sub-unit's number, 422) and SUB_UNIT_DELETED (a deleted sub-unit naming no parent, 404), APPROVAL_TOKEN_UNCONFIRMED and APPROVAL_TOKEN_DECLINED (a production token its owner has not confirmed, or declined, 403) beyond the spec", () => {
    expect(ERROR_CODES.filter((c) => !SPEC_CODES.includes(c)).sort()).toEqual([
      'AGENT_PRINCIPAL_CONFLICT',
      'AGENT_PRINCIPAL_REVOKED',
      'APPROVAL_TOKEN_DECLINED',
      'APPROVAL_TOKEN_UNCONFIRMED',
      'AUTH_SESSION_REQUIRED',
      'COMPANY_INACTIVE',
      'DELEGATION_REQUESTS_LIMIT',
      'EXECUTION_CONFLICT',
      'FEED_RATE_LIMITED',
      'METHOD_NOT_ALLOWED',
      'OAUTH_IDENTITY_MISMATCH',
      'ORG_NUMBER_IS_SUB_UNIT',
      'SUB_UNIT_DELETED',
      'TEST_KEY_PRODUCTION_ONLY',
    ])
    expect(CATALOGUE.ORG_NUMBER_IS_SUB_UNIT.status).toBe(422)
    expect(CATALOGUE.SUB_UNIT_DELETED.status).toBe(404)
    expect(CATALOGUE.TEST_KEY_PRODUCTION_ONLY.status).toBe(403)
    expect(CATALOGUE.EXECUTION_CONFLICT.status).toBe(409)
    expect(CATALOGUE.FEED_RATE_LIMITED.status).toBe(429)
    expect(CATALOGUE.AGENT_PRINCIPAL_REVOKED.status).toBe(409)
    expect(CATALOGUE.AUTH_SESSION_REQUIRED.status).toBe(401)
    expect(CATALOGUE.OAUTH_IDENTITY_MISMATCH.status).toBe(403)
    expect(CATALOGUE.COMPANY_INACTIVE.status).toBe(422)
    // a production approval token no person has confirmed, or one the person declined (issue 31 item 10)
    expect(CATALOGUE.APPROVAL_TOKEN_UNCONFIRMED.status).toBe(403)
    expect(CATALOGUE.APPROVAL_TOKEN_DECLINED.status).toBe(403)
  })

  test('uses the HTTP status the spec gives', () => {
    for (const [code, status] of Object.entries(SPEC_STATUS))
      expect(`${code} ${CATALOGUE[code as keyof typeof CATALOGUE].status}`).toBe(`${code} ${status}`)
  })

  test('gives every code a 4xx/5xx status, a category and a retry flag', () => {
    const categories = ['auth', 'scope', 'validation', 'not_found', 'rate_limit', 'upstream', 'internal', 'billing']
    for (const [code, e] of entries) {
      expect(e.status >= 400 && e.status <= 599, code).toBe(true)
      expect(categories, code).toContain(e.category)
      expect(typeof e.retryable, code).toBe('boolean')
    }
  })

  test('marks transient failures retryable and input or credential failures not', () => {
    for (const code of [
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_TIMEOUT',
      'RATE_LIMIT_EXCEEDED',
      'RATE_LIMITED',
      'CREDIT_CHECK_UNAVAILABLE',
      'OAUTH_JWKS_UNAVAILABLE',
    ] as const) {
      expect(CATALOGUE[code].retryable, code).toBe(true)
    }
    for (const code of [
      'VALIDATION_FAILED',
      'AUTH_INVALID_KEY',
      'AUTH_MISSING',
      'INSUFFICIENT_CREDITS',
      'ORG_NUMBER_INVALID_CHECKSUM',
      'PORTAL_ACK_UNPARSEABLE',
    ] as const) {
      expect(CATALOGUE[code].retryable, code).toBe(false)
    }
    const oauthRetryable = ERROR_CODES.filter((c) => c.startsWith('OAUTH_') && CATALOGUE[c].retryable)
    expect(oauthRetryable).toEqual(['OAUTH_JWKS_UNAVAILABLE'])
  })

  test('has the machine-actionable attributes for at least 28 codes and full explanations for at least 40', () => {
    const actionable = entries.filter(([, e]) => e.fix_hint_en.trim() && e.fix_hint_nb.trim())
    const explained = entries.filter(
      ([, e]) => e.explanation.summary && e.explanation.why && e.explanation.fix_steps.length >= 2,
    )
    expect(actionable.length).toBeGreaterThanOrEqual(28)
    expect(explained.length).toBeGreaterThanOrEqual(40)
  })

  test('keeps summary ≤ 140 and why ≤ 240 characters, even with 64-character context values', () => {
    for (const [code, { explanation: x }] of entries) {
      expect(worstCase(x.summary).length, code).toBeLessThanOrEqual(140)
      expect(worstCase(x.summary_en).length, code).toBeLessThanOrEqual(140)
      expect(worstCase(x.why).length, code).toBeLessThanOrEqual(240)
      expect(worstCase(x.why_en).length, code).toBeLessThanOrEqual(240)
    }
  })

  test('gives 2 to 5 fix steps, the same number in both languages', () => {
    for (const [code, { explanation: x }] of entries) {
      expect(x.fix_steps.length >= 2 && x.fix_steps.length <= 5, code).toBe(true)
      expect(x.fix_steps_en.length, code).toBe(x.fix_steps.length)
    }
  })

  test('writes Norwegian and English texts that differ', () => {
    for (const [code, { explanation: x }] of entries) {
      expect(x.summary, code).not.toBe(x.summary_en)
      expect(x.why, code).not.toBe(x.why_en)
    }
  })

  test('uses only known placeholders', () => {
    for (const [code, e] of entries) {
      for (const [, name] of JSON.stringify(e).matchAll(/\{([a-z_]+)\}/g))
        expect(PLACEHOLDERS as readonly string[], code).toContain(name!)
    }
    expect(Object.keys(NEUTRAL_NOUNS.nb).sort()).toEqual([...PLACEHOLDERS].sort())
    expect(Object.keys(NEUTRAL_NOUNS.en).sort()).toEqual([...PLACEHOLDERS].sort())
  })

  test('keeps fix hints free of placeholders: they are sent as they are', () => {
    for (const [code, e] of entries) {
      expect(e.fix_hint_en, code).not.toMatch(/\{[a-z_]+\}/)
      expect(e.fix_hint_nb, code).not.toMatch(/\{[a-z_]+\}/)
    }
  })

  test('links only to https URLs', () => {
    for (const [code, { explanation: x }] of entries)
      if (x.relevant_link !== null) expect(new URL(x.relevant_link).protocol, code).toBe('https:')
  })

  test('hands over to a person where only a person can act', () => {
    for (const code of [
      'AUTH_NO_DELEGATION',
      'AUTH_MISSING_DELEGATION',
      'FULLMAKT_PACKAGE_NOT_GRANTED',
      'PORTAL_DELEGATION_MISSING',
      'RISK_ELEVATED',
    ] as const) {
      expect((CATALOGUE[code] as CatalogueEntry).explanation.handover?.who, code).toBe('company_admin')
    }
    expect((CATALOGUE.VALIDATION_FAILED as CatalogueEntry).explanation.handover).toBeNull()
    for (const [code, { explanation: x }] of entries) {
      if (!x.handover) continue
      expect(['company_admin', 'accountant', 'portal_user', 'service_support'], code).toContain(x.handover.who)
      for (const k of ['where', 'what', 'what_en', 'why', 'why_en'] as const)
        expect(x.handover[k].length > 0, `${code}.${k}`).toBe(true)
    }
  })
})
