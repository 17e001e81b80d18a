/**
 * The sandbox write side over real HTTP: plan, dry run and live execute (spec: Sandbox actions) —
 * receipts verified as a client would, the magic VAT values, Idempotency-Key, the write-side error
 * envelope, knobs and reserved orgs, the public mirror, namespaces and the audit trail, and the
 * whole journey an agent makes. Approval-token behaviour has its own file (approval.test.ts).
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { DryRunOutcome, SandboxExecuteResult, SandboxPlan } from '../../../src/schemas/sandbox.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { freshIp } from '../../helpers.ts'
import {
  aMelding,
  actionIdFor,
  approve,
  as,
  auditOf,
  auditRows,
  clientVerifies,
  dryRun,
  expectWriteError,
  file,
  HEALTHY_ORG,
  live,
  mintRequest,
  namespaceOf,
  ownAudit,
  plan,
  PUBLIC,
  SANDBOX,
  tokenRows,
  vat,
  type ActionBody,
} from '../../helpers.ts'

let app: TestApp
// The first file of a run may start the embedded database: allow more than the 5 s hook default.
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const CHECKS = [
  'company_exists',
  'system_user_authorised',
  'scopes_delegated',
  'data_format_valid',
  'deadline_in_future',
]

// -- independent derivations (docs/receipt-signature.md), not the service's code ------------------

/** RFC 8785 for what these tests send: objects with sorted keys, strings and integers. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v)
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

function uuidV5(name: string, namespace: string): string {
  const b = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16)
  b[6] = (b[6]! & 0x0f) | 0x50
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const documentedActionId = (a: ActionBody) =>
  `act_${sha256(canonical({ org_number: a.org_number, action_type: a.action_type, period: a.period, payload: a.payload })).slice(0, 32)}`
const AUDIT_NAMESPACE = 'c96f517a-4048-5376-bb72-fc21bc4a1d53'

// -------------------------------------------------------------------------------------------------

describe('plan', () => {
  test('answers the action id, the dry run and the two steps that would file it', async () => {
    const body = vat()
    const res = await plan(app, body, as())
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(Value.Check(SandboxPlan, data)).toBe(true)
    expect(data.action_id).toBe(documentedActionId(body))
    expect(data).toMatchObject({
      org_number: body.org_number,
      action_type: 'mva_melding',
      period: '2026-T1',
      ready: true,
    })
    expect(data.dry_run.validation.all_passed).toBe(true)
    expect(data.steps.map((s: { method: string; path: string }) => `${s.method} ${s.path}`)).toEqual([
      `POST ${SANDBOX}/auth/approval-token`,
      `POST ${SANDBOX}/actions/execute`,
    ])
    expect(data.steps[0].body).toEqual({ org_number: body.org_number, action_id: data.action_id })
  })

  test('the action id does not depend on the payload’s key order', async () => {
    const a = await actionIdFor(app, vat({ payload: { total_revenue_nok: 10, output_vat_nok: 2 } }))
    const b = await actionIdFor(app, vat({ payload: { output_vat_nok: 2, total_revenue_nok: 10 } }))
    expect(a).toBe(b)
  })

  test('the action id changes with any figure', async () => {
    const a = await actionIdFor(app, vat({ payload: { total_revenue_nok: 10 } }))
    const b = await actionIdFor(app, vat({ payload: { total_revenue_nok: 11 } }))
    expect(a).not.toBe(b)
  })

  test('a plan whose checks fail is ready: false, names the failed check, and still answers 200', async () => {
    const res = await plan(app, vat({ org_number: '999660126' }))
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.ready).toBe(false)
    expect(
      data.dry_run.validation.checks.filter((c: { passed: boolean }) => !c.passed).map((c: { name: string }) => c.name),
    ).toEqual(['scopes_delegated'])
  })

  test('planning writes nothing: no token, no audit row', async () => {
    const h = as()
    expect((await plan(app, vat(), h)).status).toBe(200)
    expect([await tokenRows(app, h), await auditRows(app, h)]).toEqual([0, 0])
  })

  test('the public mirror’s steps point at the public mirror', async () => {
    const res = await plan(app, vat({ org_number: '999999999' }), freshIp(), PUBLIC)
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.steps.map((s: { path: string }) => s.path)).toEqual([
      `${PUBLIC}/auth/approval-token`,
      `${PUBLIC}/actions/execute`,
    ])
  })
})

describe('dry run (?dry_run=true)', () => {
  test('answers the dry-run outcome: five checks in the fixed order, the disclaimer, the payload verbatim', async () => {
    const body = vat({}, { extra_document: { lines: [{ code: '3', amount: 100 }], note: 'æøå' } })
    const res = await dryRun(app, body)
    expect(res.status).toBe(200)
    const { data, _meta } = await res.json()
    expect(Value.Check(DryRunOutcome, data)).toBe(true)
    expect(_meta.is_sandbox).toBe(true)
    expect(data).toMatchObject({ dry_run: true, org_number: body.org_number, action: 'mva_melding' })
    expect(data.would_be_payload).toEqual(body.payload)
    expect(data.validation.checks.map((c: { name: string }) => c.name)).toEqual(CHECKS)
    for (const c of data.validation.checks)
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['name', 'passed', 'explanation_summary']))
    expect(data.validation.all_passed).toBe(true)
    expect(data.validation.disclaimer.length).toBeGreaterThan(0)
    expect(data.preview_notice.length).toBeGreaterThan(0)
  })

  test.each([
    ['a healthy company', [], vat()],
    [
      'a bankrupt company without a delegation (999660002)',
      ['company_exists', 'system_user_authorised', 'scopes_delegated'],
      vat({ org_number: '999660002' }),
    ],
    [
      'a company without a system user (999660118)',
      ['system_user_authorised', 'scopes_delegated'],
      vat({ org_number: '999660118' }),
    ],
    ['a system user without scopes (999660126)', ['scopes_delegated'], vat({ org_number: '999660126' })],
    ['an a-melding by a VAT-only system user (818000022)', ['scopes_delegated'], aMelding({ org_number: '818000022' })],
    ['a VAT return by a VAT-only system user (818000022)', [], vat({ org_number: '818000022' })],
    [
      'a term whose deadline has passed (2025-T5, due 10 December 2025)',
      ['deadline_in_future'],
      vat({ period: '2025-T5' }),
    ],
    ['a term still in time (2025-T6, due 10 February 2026)', [], vat({ period: '2025-T6' })],
    ['the annual term (2026-A)', [], vat({ period: '2026-A' })],
    ['a monthly VAT term (2025-12)', [], vat({ period: '2025-12' })],
    ['a seventh two-month term', ['data_format_valid', 'deadline_in_future'], vat({ period: '2026-T7' })],
    ['a term form for an a-melding', ['data_format_valid', 'deadline_in_future'], aMelding({ period: '2026-T1' })],
    ['a month 13', ['data_format_valid', 'deadline_in_future'], vat({ period: '2026-13' })],
    ['a VAT return without total_revenue_nok', ['data_format_valid'], vat({ payload: { output_vat_nok: 1 } })],
    ['a negative figure', ['data_format_valid'], vat({}, { output_vat_nok: -1 })],
    ['a fractional figure', ['data_format_valid'], aMelding({ payload: { employee_count: 1.5, gross_salary_nok: 1 } })],
  ])('%s fails exactly %p', async (_what, failing, body) => {
    const res = await dryRun(app, body)
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(
      data.validation.checks.filter((c: { passed: boolean }) => !c.passed).map((c: { name: string }) => c.name),
    ).toEqual(failing)
    expect(data.validation.all_passed).toBe(failing.length === 0)
  })

  test('mock_date moves the effective date: 2026-T1 is in time on its deadline day, 10 April, and late the day after', async () => {
    const passed = async (date: string) =>
      (await (await dryRun(app, vat(), {}, SANDBOX, `&mock_date=${date}`)).json()).data.validation.checks[4].passed
    expect([await passed('2026-04-10'), await passed('2026-04-11')]).toEqual([true, false])
  })

  test('a dry run needs neither Idempotency-Key nor approval token, and writes nothing', async () => {
    const h = as()
    expect((await dryRun(app, vat(), h)).status).toBe(200)
    expect(await auditRows(app, h)).toBe(0)
  })

  test('a dry run answers an a-melding, which cannot be filed live', async () => {
    const { data } = await (await dryRun(app, aMelding())).json()
    expect(data).toMatchObject({ dry_run: true, action: 'a_melding', validation: { all_passed: true } })
  })
})

describe('live execute', () => {
  test('files an mva_melding: 200 with dry_run false, filed_late false, a sandbox receipt and the top-level marker', async () => {
    const h = as()
    const body = vat()
    const res = await live(app, body, { h, token: (await approve(app, body, h)).token })
    expect(res.status).toBe(200)
    const out = await res.json()
    expect(Value.Check(SandboxExecuteResult, out.data)).toBe(true)
    expect(out._sandbox_marker).toBe('SANDBOX_NOT_REAL_GOV_RESPONSE')
    expect(out.data).toMatchObject({ dry_run: false, filed_late: false })
    expect(out.data.receipt).toMatchObject({
      altinn_receipt_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      audit_log_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      timestamp: '2026-01-01T00:00:00.000+01:00',
      org_number: body.org_number,
      filing_type: 'mva_melding',
      rule_version: 'sandbox',
      government_response_raw: { _sandbox_marker: 'SANDBOX_NOT_REAL_GOV_RESPONSE' },
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      signature_algorithm: 'HMAC-SHA256-v1',
    })
  })

  test('the receipt received over HTTP verifies with the documented recipe and node:crypto alone', async () => {
    const { data } = await file(app, vat(), as())
    expect(clientVerifies(data.receipt)).toBe(true)
  })

  test.each([
    ['org_number', '999000002'],
    ['timestamp', '2026-01-01T00:00:00.001+01:00'],
    ['audit_log_id', '00000000-0000-5000-8000-000000000000'],
    ['filing_type', 'a_melding'],
  ])('the receipt no longer verifies once %s is changed', async (field, value) => {
    const { data } = await file(app, vat(), as())
    expect(clientVerifies({ ...data.receipt, [field]: value })).toBe(false)
  })

  test('the receipt’s ids derive from namespace, Idempotency-Key and action id, as documented', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const body = vat()
    const { receipt } = (await file(app, body, h, key)).data
    const material = JSON.stringify([namespaceOf(h), key, documentedActionId(body)])
    expect([receipt.altinn_receipt_id, receipt.audit_log_id]).toEqual([
      sha256(material).slice(0, 32),
      uuidV5(material, AUDIT_NAMESPACE),
    ])
  })

  test('the same Idempotency-Key and content under another namespace give another receipt', async () => {
    const key = crypto.randomUUID()
    const a = (await file(app, vat(), as(), key)).data.receipt
    const b = (await file(app, vat(), as(), key)).data.receipt
    expect(b.altinn_receipt_id).not.toBe(a.altinn_receipt_id)
    expect(b.audit_log_id).not.toBe(a.audit_log_id)
  })

  test.each([
    ['2026-01-01', '2026-T1', '2026-01-01T00:00:00.000+01:00'],
    ['2026-03-29', '2026-T1', '2026-03-29T00:00:00.000+01:00'],
    ['2026-03-30', '2026-T1', '2026-03-30T00:00:00.000+02:00'],
    ['2026-07-01', '2026-T3', '2026-07-01T00:00:00.000+02:00'],
    ['2026-10-25', '2026-T5', '2026-10-25T00:00:00.000+02:00'],
    ['2026-10-26', '2026-T5', '2026-10-26T00:00:00.000+01:00'],
  ])(
    'on mock_date %s the receipt is stamped with that date’s first millisecond in Oslo',
    async (date, period, timestamp) => {
      const h = as()
      const body = vat({ period })
      const { token } = await approve(app, body, h)
      const res = await live(app, body, { h, token, query: `mock_date=${date}` })
      expect(res.status).toBe(200)
      expect((await res.json()).data.receipt.timestamp).toBe(timestamp)
    },
  )

  test('payload.period before the effective month is filed late', async () => {
    const { data } = await file(app, vat({}, { period: '2025-12' }), as())
    expect(data.filed_late).toBe(true)
  })

  test('payload.period in the effective month is not late', async () => {
    const { data } = await file(app, vat({}, { period: '2026-01' }), as())
    expect(data.filed_late).toBe(false)
  })

  test('a payload.period that is no month is not taken as a late filing', async () => {
    const { data } = await file(app, vat({}, { period: '2025-13' }), as())
    expect(data.filed_late).toBe(false)
  })

  test('99999999 is 422 GOVERNMENT_VALIDATION_REJECTED with a government-shaped upstream marked as sandbox', async () => {
    const h = as()
    const body = vat({}, { total_revenue_nok: 99_999_999 })
    const res = await live(app, body, { h, token: (await approve(app, body, h)).token })
    const err = await expectWriteError(res, 422, 'GOVERNMENT_VALIDATION_REJECTED', true)
    expect(err.upstream).toMatchObject({ system: 'Skatteetaten', _sandbox_marker: 'SANDBOX_NOT_REAL_GOV_RESPONSE' })
  })

  test('99999999 passes the dry run: only the “government” rejects it', async () => {
    const { data } = await (await dryRun(app, vat({}, { total_revenue_nok: 99_999_999 }))).json()
    expect(data.validation.all_passed).toBe(true)
  })

  test.each([
    ['plan', (b: ActionBody) => plan(app, b)],
    ['dry run', (b: ActionBody) => dryRun(app, b)],
    ['live execute', (b: ActionBody) => live(app, b, { token: 'apt_irrelevant' })],
  ])('total_revenue_nok 0 is 400 VALIDATION_FAILED naming the field on %s', async (_route, send) => {
    const err = await expectWriteError(await send(vat({}, { total_revenue_nok: 0 })), 400, 'VALIDATION_FAILED')
    expect(err.explanation.details.map((d: { field: string }) => d.field)).toEqual(['payload.total_revenue_nok'])
  })

  test('an a-melding live is 403 PLAN_INSUFFICIENT and its token stays unconsumed', async () => {
    const h = as()
    const body = aMelding()
    const { token } = await approve(app, body, h)
    await expectWriteError(await live(app, body, { h, token }), 403, 'PLAN_INSUFFICIENT')
    const [row] = await app.deps.sql<
      { consumed_at: Date | null }[]
    >`select consumed_at from approval_tokens where namespace = ${namespaceOf(h)}`
    expect(row!.consumed_at).toBeNull()
  })

  test.each([
    [
      'a bankrupt company',
      'COMPANY_INACTIVE',
      ['company_exists', 'system_user_authorised', 'scopes_delegated'],
      vat({ org_number: '999660002' }),
    ],
    [
      'a deleted company (999660037)',
      'COMPANY_INACTIVE',
      ['company_exists', 'system_user_authorised', 'scopes_delegated'],
      vat({ org_number: '999660037' }),
    ],
    [
      'a company without a delegation',
      'AUTH_MISSING_DELEGATION',
      ['system_user_authorised', 'scopes_delegated'],
      vat({ org_number: '999660118' }),
    ],
    ['a system user without scopes', 'SCOPE_MISSING', ['scopes_delegated'], vat({ org_number: '999660126' })],
    ['a passed deadline', 'DEADLINE_PASSED', ['deadline_in_future'], vat({ period: '2025-T5' })],
    [
      'a malformed period',
      'VALIDATION_FAILED',
      ['data_format_valid', 'deadline_in_future'],
      vat({ period: '2026-T7' }),
    ],
  ])(
    '%s fails the preconditions: 422 %s naming every failed check %p, the checks attached',
    async (_what, code, failed, body) => {
      const h = as()
      const { token } = await approve(app, body, h)
      const err = await expectWriteError(await live(app, body, { h, token }), 422, code)
      expect(err.failed_checks).toEqual(failed)
      expect(err.checks.map((c: { name: string }) => c.name)).toEqual(CHECKS)
    },
  )

  test('a malformed period fails as 422 VALIDATION_FAILED listing the field in the details', async () => {
    const h = as()
    const body = vat({ period: '2026-T7' })
    const { token } = await approve(app, body, h)
    const err = await expectWriteError(await live(app, body, { h, token }), 422, 'VALIDATION_FAILED')
    expect(err.explanation.details.map((d: { field: string }) => d.field)).toEqual(['period'])
  })

  test('an authorisation failure writes an execute_authorization_failed audit row naming the failed checks', async () => {
    const h = as()
    const body = vat({ org_number: '999660118' })
    const { token } = await approve(app, body, h)
    await expectWriteError(await live(app, body, { h, token }), 422, 'AUTH_MISSING_DELEGATION')
    const rows = (await ownAudit(app, '999660118', h)).filter((r) => r.action === 'execute_authorization_failed')
    expect(rows.map((r) => r.details.failed_checks)).toEqual(['system_user_authorised,scopes_delegated'])
  })

  test('a bankrupt company’s 422 says it exists but is not active, naming the organisation', async () => {
    const h = as()
    const body = vat({ org_number: '999660002' })
    const { token } = await approve(app, body, h)
    const err = await expectWriteError(await live(app, body, { h, token }), 422, 'COMPANY_INACTIVE')
    expect(err.explanation.summary_en).toContain('999660002')
    expect(err.explanation.summary_en).toContain('no longer active')
  })

  test('dry_run with any value but “true” is live mode', async () => {
    const res = await live(app, vat(), { query: 'dry_run=yes' })
    await expectWriteError(res, 400, 'APPROVAL_TOKEN_REQUIRED')
  })
})

describe('Idempotency-Key on a live execute', () => {
  test('is required: 400 IDEMPOTENCY_KEY_REQUIRED naming the action', async () => {
    const h = as()
    const body = vat()
    const { token } = await approve(app, body, h)
    const err = await expectWriteError(await live(app, body, { h, token, key: null }), 400, 'IDEMPOTENCY_KEY_REQUIRED')
    expect(err.action_id).toBe(documentedActionId(body))
  })

  test.each([['not-a-uuid'], ['12345'], ['00000000-0000-0000-0000-00000000000g']])(
    'must be a UUID: %p is 400 IDEMPOTENCY_KEY_INVALID_FORMAT',
    async (key) => {
      const h = as()
      const { token } = await approve(app, vat(), h)
      await expectWriteError(await live(app, vat(), { h, token, key }), 400, 'IDEMPOTENCY_KEY_INVALID_FORMAT')
    },
  )

  test('the same key and body replay the stored answer byte for byte, marked idempotent-replayed', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const { token } = await approve(app, vat(), h)
    const first = await live(app, vat(), { h, key, token })
    const replay = await live(app, vat(), { h, key, token })
    expect([first.status, replay.status]).toEqual([200, 200])
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await replay.text()).toBe(await first.text())
  })

  test('a dry run never claims the key: a live execute with the same key then files', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const { token } = await approve(app, vat(), h)
    const dry = await dryRun(app, vat(), { ...h, 'idempotency-key': key })
    expect(((await dry.json()) as any).data.dry_run).toBe(true)
    expect(
      ((await (await dryRun(app, vat({ period: '2026-T2' }), { ...h, 'idempotency-key': key })).json()) as any).data
        .dry_run,
    ).toBe(true)
    const filed = await live(app, vat(), { h, key, token })
    expect(filed.status).toBe(200)
    expect(filed.headers.get('idempotent-replayed')).toBeNull()
    expect(((await filed.json()) as any).data.dry_run).toBe(false)
  })

  test('a failure after the token was consumed is final: a retry with the key replays it', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const body = vat({}, { total_revenue_nok: 99999999 })
    const { token } = await approve(app, body, h)
    const first = await live(app, body, { h, key, token })
    const firstText = await first.text()
    expect(first.status).toBe(422)
    expect(JSON.parse(firstText).outcome.approval_token_consumed).toBe(true)
    const retry = await live(app, body, { h, key, token })
    expect(retry.status).toBe(422)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.text()).toBe(firstText)
  })

  test('a replay writes no second audit row', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const { token } = await approve(app, vat(), h)
    for (let i = 0; i < 3; i++) expect((await live(app, vat(), { h, key, token })).status).toBe(200)
    expect((await ownAudit(app, HEALTHY_ORG, h)).filter((r) => r.action === 'submit_mva')).toHaveLength(1)
  })

  test('the key is matched whatever its letter case', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const { token } = await approve(app, vat(), h)
    expect((await live(app, vat(), { h, key, token })).status).toBe(200)
    const replay = await live(app, vat(), { h, key: key.toUpperCase(), token })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
  })

  test('the same key with another body is 422 IDEMPOTENCY_KEY_MISMATCH and files nothing', async () => {
    const h = as()
    const key = crypto.randomUUID()
    expect((await live(app, vat(), { h, key, token: (await approve(app, vat(), h)).token })).status).toBe(200)
    const other = vat({}, { total_revenue_nok: 1 })
    const { token } = await approve(app, other, h)
    await expectWriteError(await live(app, other, { h, key, token }), 422, 'IDEMPOTENCY_KEY_MISMATCH')
    expect((await ownAudit(app, HEALTHY_ORG, h)).filter((r) => r.action === 'submit_mva')).toHaveLength(1)
  })

  test('5 parallel requests with one key and one token file once: the others replay it or are told the key is in progress', async () => {
    const h = as()
    const key = crypto.randomUUID()
    const { token } = await approve(app, vat(), h)
    const responses = await Promise.all(Array.from({ length: 5 }, () => live(app, vat(), { h, key, token })))
    const bodies = await Promise.all(responses.map((r) => r.json()))
    const original = responses.findIndex((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null)
    expect(original).toBeGreaterThanOrEqual(0)
    for (const [i, r] of responses.entries()) {
      if (i === original) continue
      if (r.status === 200)
        expect([r.headers.get('idempotent-replayed'), bodies[i].data.receipt]).toEqual([
          'true',
          bodies[original].data.receipt,
        ])
      else expect([r.status, bodies[i].error_code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS'])
    }
    expect((await ownAudit(app, HEALTHY_ORG, h)).filter((r) => r.action === 'submit_mva')).toHaveLength(1)
  })

  test('keys are per namespace: the same key under another suffix files on its own', async () => {
    const key = crypto.randomUUID()
    await file(app, vat(), as(), key)
    const other = as()
    const { token } = await approve(app, vat(), other)
    const res = await live(app, vat(), { h: other, key, token })
    expect(res.status).toBe(200)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
  })

  test('a live execute that failed does not hold its key: the corrected request files under it', async () => {
    const h = as()
    const key = crypto.randomUUID()
    await expectWriteError(await live(app, vat(), { h, key }), 400, 'APPROVAL_TOKEN_REQUIRED')
    const { token } = await approve(app, vat(), h)
    expect((await live(app, vat(), { h, key, token })).status).toBe(200)
  })
})

describe('write-side errors', () => {
  const routes: [string, (b: ActionBody, h: Record<string, string>, q?: string) => Promise<Response>][] = [
    ['plan', (b, h, q = '') => plan(app, b, h, SANDBOX, q ? `?${q}` : '')],
    [
      'approval token',
      (b, h, q = '') => mintRequest(app, b.org_number, `act_${'0'.repeat(32)}`, h, SANDBOX, q ? `?${q}` : ''),
    ],
    ['dry run', (b, h, q = '') => dryRun(app, b, h, SANDBOX, q ? `&${q}` : '')],
    ['live execute', (b, h, q) => live(app, b, { h, token: 'apt_irrelevant', ...(q ? { query: q } : {}) })],
  ]

  test.each(routes)(
    'an unknown organisation is 400 VALIDATION_FAILED (not 404) on %s, and writes nothing',
    async (_route, send) => {
      const h = as()
      const err = await expectWriteError(await send(vat({ org_number: '123456789' }), h), 400, 'VALIDATION_FAILED')
      expect(err.explanation.details.map((d: { field: string }) => d.field)).toEqual(['org_number'])
      expect([await tokenRows(app, h), await auditRows(app, h)]).toEqual([0, 0])
    },
  )

  test.each(
    routes.flatMap(([route, send]) =>
      (
        [
          ['999000901', 403, 'AUTH_MISSING_DELEGATION'],
          ['999000902', 401, 'AUTH_EXPIRED_TOKEN'],
          ['999000903', 400, 'VALIDATION_FAILED'],
          ['999000904', 403, 'SCOPE_MISSING'],
        ] as const
      ).map(([org, status, code]) => [route, org, status, code, send] as const),
    ),
  )('%s for the reserved org %s answers %i %s', async (_route, org, status, code, send) => {
    const err = await expectWriteError(await send(vat({ org_number: org }), as()), status, code)
    expect(err._meta.simulated).toBe(true)
  })

  test.each(routes)(
    'simulate_error=portal_timeout on %s is 504 EXECUTION_DEADLINE_EXCEEDED with the government-shaped upstream',
    async (_route, send) => {
      const err = await expectWriteError(
        await send(vat(), as(), 'simulate_error=portal_timeout'),
        504,
        'EXECUTION_DEADLINE_EXCEEDED',
      )
      expect(err.upstream).toMatchObject({ system: 'Altinn 3', error: 'timeout' })
      expect(err._meta.simulated).toBe(true)
    },
  )

  test.each(
    routes.flatMap(([route, send]) =>
      (
        [
          ['error_500', 500, 'INTERNAL_ERROR'],
          ['timeout', 504, 'EXECUTION_DEADLINE_EXCEEDED'],
          ['rate_limit', 429, 'RATE_LIMIT_EXCEEDED'],
        ] as const
      ).map(([value, status, code]) => [route, value, status, code, send] as const),
    ),
  )(
    '%s with X-Service-Simulate: %s and the synthetic bearer answers %i %s',
    async (_route, value, status, code, send) => {
      await expectWriteError(await send(vat(), { ...as(), 'x-service-simulate': value }), status, code)
    },
  )

  test.each(routes)(
    'X-Service-Simulate on %s without the synthetic bearer is 403 SANDBOX_TEST_KEY_REQUIRED',
    async (_route, send) => {
      await expectWriteError(await send(vat(), { 'x-service-simulate': 'error_500' }), 403, 'SANDBOX_TEST_KEY_REQUIRED')
    },
  )

  test.each([
    ['an empty period', { ...vat(), period: '' }],
    ['a period over 20 characters', { ...vat(), period: '2026-T1'.padEnd(21, 'x') }],
    ['an unknown action type', { ...vat(), action_type: 'skattemelding' }],
    ['a payload that is not an object', { ...vat(), payload: [1, 2] }],
    ['an org number of eight digits', { ...vat(), org_number: '81800000' }],
    ['a member the schema does not know', { ...vat(), submit_now: true }],
    ['no payload', { org_number: HEALTHY_ORG, action_type: 'mva_melding', period: '2026-T1' }],
  ])('%s is 400 VALIDATION_FAILED on every write route, with the write-side outcome', async (_what, body) => {
    for (const path of ['/actions/plan', '/actions/execute?dry_run=true', '/actions/execute']) {
      await expectWriteError(
        await app.send('POST', `${SANDBOX}${path}`, body, { 'idempotency-key': crypto.randomUUID() }),
        400,
        'VALIDATION_FAILED',
      )
    }
  })

  test('a body that is not JSON is 400 VALIDATION_FAILED with the write-side outcome', async () => {
    const res = await fetch(`${app.url}${SANDBOX}/actions/plan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"org_number":',
    })
    await expectWriteError(res, 400, 'VALIDATION_FAILED')
  })

  test('a body over 256 KiB is 413 REQUEST_TOO_LARGE with the write-side outcome', async () => {
    const res = await app.send('POST', `${SANDBOX}/actions/plan`, vat({}, { filler: 'x'.repeat(300 * 1024) }))
    await expectWriteError(res, 413, 'REQUEST_TOO_LARGE')
  })
})

describe('public mirror', () => {
  test('plans, approves and files for 999999999 without a bearer', async () => {
    const ip = freshIp()
    const body = vat({ org_number: '999999999' })
    const { token } = await approve(app, body, ip, PUBLIC)
    const res = await live(app, body, { h: ip, token, base: PUBLIC })
    expect(res.status).toBe(200)
    const out = await res.json()
    expect(out._sandbox_marker).toBe('SANDBOX_NOT_REAL_GOV_RESPONSE')
    expect(clientVerifies(out.data.receipt)).toBe(true)
  })

  test.each([
    ['plan', (ip: Record<string, string>) => plan(app, vat(), ip, PUBLIC)],
    ['dry run', (ip: Record<string, string>) => dryRun(app, vat(), ip, PUBLIC)],
    [
      'live execute',
      (ip: Record<string, string>) => live(app, vat(), { h: ip, token: 'apt_irrelevant', base: PUBLIC }),
    ],
  ])('refuses another org on %s with 403 PUBLIC_SANDBOX_ORG_NOT_PERMITTED', async (_route, send) => {
    await expectWriteError(await send(freshIp()), 403, 'PUBLIC_SANDBOX_ORG_NOT_PERMITTED')
  })

  test.each([['/actions/plan'], ['/actions/execute?dry_run=true'], ['/auth/approval-token']])(
    'a body over 32 KiB to %s is 413 PUBLIC_SANDBOX_BODY_TOO_LARGE with the write-side outcome',
    async (path) => {
      const big = vat({ org_number: '999999999' }, { filler: 'x'.repeat(33 * 1024) })
      await expectWriteError(
        await app.send('POST', `${PUBLIC}${path}`, big, freshIp()),
        413,
        'PUBLIC_SANDBOX_BODY_TOO_LARGE',
      )
    },
  )

  test('a body just under 32 KiB is served', async () => {
    const body = vat({ org_number: '999999999' }, { filler: '' })
    const size = JSON.stringify(body).length
    const res = await dryRun(
      app,
      vat({ org_number: '999999999' }, { filler: 'x'.repeat(32 * 1024 - size) }),
      freshIp(),
      PUBLIC,
    )
    expect(res.status).toBe(200)
  })
})

describe('namespaces and the audit trail', () => {
  test('a live filing writes submit_mva whose id is the receipt’s audit_log_id', async () => {
    const h = as()
    const { data } = await file(app, vat(), h)
    const row = (await ownAudit(app, HEALTHY_ORG, h)).find((r) => r.action === 'submit_mva')
    expect(row).toMatchObject({
      id: data.receipt.audit_log_id,
      details: { receipt_id: data.receipt.altinn_receipt_id, period: '2026-T1', filed_late: false },
    })
  })

  test('the submission’s audit row is dated at the receipt’s timestamp (the sandbox’s pinned clock)', async () => {
    const h = as()
    const { data } = await file(app, vat(), h)
    const rows = await ownAudit(app, HEALTHY_ORG, h)
    expect(rows.find((r) => r.action === 'submit_mva')!.timestamp).toBe(data.receipt.timestamp)
    expect(rows.find((r) => r.action === 'approval_token.minted')!.timestamp).toBe(data.receipt.timestamp)
  })

  test('a magic rejection writes submit_mva_failed and no submit_mva', async () => {
    const h = as()
    const body = vat({}, { total_revenue_nok: 99_999_999 })
    expect((await live(app, body, { h, token: (await approve(app, body, h)).token })).status).toBe(422)
    const actions = (await ownAudit(app, HEALTHY_ORG, h)).map((r) => r.action)
    expect(actions.sort()).toEqual(['approval_token.minted', 'submit_mva_failed'])
  })

  test('a failed precondition writes no submission row', async () => {
    const h = as()
    const body = vat({ period: '2025-T5' })
    expect((await live(app, body, { h, token: (await approve(app, body, h)).token })).status).toBe(422)
    expect((await ownAudit(app, HEALTHY_ORG, h)).map((r) => r.action)).toEqual(['approval_token.minted'])
  })

  test('the caller’s rows come first, newest first, above the fixture history', async () => {
    const h = as()
    const { data } = await file(app, vat(), h)
    const trail = await auditOf(app, HEALTHY_ORG, h)
    expect(trail.slice(0, 2).map((r) => r.id)).toEqual([data.receipt.audit_log_id, expect.any(String)])
    expect(trail[1]!.action).toBe('approval_token.minted')
    expect(trail.length).toBeGreaterThan(2)
  })

  test('rows written under one suffix are visible to that suffix only, not to another suffix nor without a bearer', async () => {
    const mine = as()
    const { data } = await file(app, vat(), mine)
    const ids = async (h: Record<string, string>) => (await auditOf(app, HEALTHY_ORG, h)).map((r) => r.id)
    expect(await ids(mine)).toContain(data.receipt.audit_log_id)
    expect(await ids(as())).not.toContain(data.receipt.audit_log_id)
    expect(await ids({})).not.toContain(data.receipt.audit_log_id)
  })
})

describe('the whole journey', () => {
  test('fixtures → context → obligations → deadlines → plan → approval token → live execute → audit → the receipt verifies', async () => {
    const h = as()
    const get = async (path: string) => {
      const res = await app.get(`${SANDBOX}${path}`, { headers: h })
      expect(res.status).toBe(200)
      return (await res.json()).data
    }

    // Pick the company the catalogue says files end to end: both scopes delegated.
    const fixtures = await get('/fixtures')
    const company = fixtures.companies.find((c: { org_number: string }) => c.org_number === HEALTHY_ORG)
    expect(company).toMatchObject({ system_user_authorised: true, status: 'active' })
    expect(company.delegated_scopes).toContain('skatteetaten:mva-melding')

    const context = await get(`/company/${HEALTHY_ORG}/context`)
    expect(context.org_number).toBe(HEALTHY_ORG)

    const obligations = await get(`/company/${HEALTHY_ORG}/obligations`)
    expect(
      obligations.obligations.find((o: { obligation_id: string }) => o.obligation_id === 'mva-termin')?.status,
    ).toBe('applicable')

    // The next VAT term still open on the effective date: its deadline comes after 2026-01-01.
    const deadlines = await get(`/company/${HEALTHY_ORG}/deadlines`)
    const next = deadlines.deadlines.find(
      (d: { obligation_id: string; status: string }) => d.obligation_id === 'mva-termin' && d.status === 'upcoming',
    )
    expect(next).toBeDefined()
    const [, term, year] = /^mva-termin-(\d)-(\d{4})$/.exec(next.deadline_id)!
    const body = vat({ period: `${year}-T${term}` })

    const planned = await plan(app, body, h)
    expect(planned.status).toBe(200)
    const { action_id, ready } = (await planned.json()).data
    expect(ready).toBe(true)

    const minted = await mintRequest(app, HEALTHY_ORG, action_id, h)
    expect(minted.status).toBe(201)
    const { approval_token } = (await minted.json()).data

    const executed = await live(app, body, { h, token: approval_token })
    expect(executed.status).toBe(200)
    const { receipt } = (await executed.json()).data

    const trail = await auditOf(app, HEALTHY_ORG, h)
    expect(trail.find((r) => r.id === receipt.audit_log_id)).toMatchObject({
      action: 'submit_mva',
      details: { action_id, period: body.period },
    })
    expect(clientVerifies(receipt)).toBe(true)
  })
})
