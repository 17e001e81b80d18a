/**
 * The write side for synthetic numbers of the valid series (spec: Sandbox knobs, valid sandbox
 * orgs): plan, approval token and execute answer for them as for the hand-written fixtures, and
 * what they answer follows the synthetic company's delegation. The read side is in company.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { syntheticCompany } from '../../../src/domain/sandbox/synthetic.ts'
import { startApp, type TestApp } from '../../helpers.ts'
import { approve, as, auditOf, clientVerifies, dryRun, expectWriteError, file, live, plan, vat } from '../../helpers.ts'

let app: TestApp
// The first file of a run may start the embedded database: allow more than the 5 s hook default.
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

/** The first synthetic 99977… number whose company is VAT registered and has (or has not) delegated. */
function syntheticOrg(delegated: boolean): string {
  for (let i = 1; i < 10_000; i++) {
    const org = `99977${String(i).padStart(4, '0')}`
    const c = syntheticCompany(org)
    if (c.vat_registered_date !== null && (c.tier_2 !== null) === delegated) return org
  }
  throw new Error('no such synthetic company')
}

describe('a synthetic company that has delegated', () => {
  test('plans ready, mints an approval token and files live with a receipt that verifies, then shows the filing in its audit trail', async () => {
    const org = syntheticOrg(true)
    const h = as()
    const planned = await plan(app, vat({ org_number: org }), h)
    expect(planned.status).toBe(200)
    expect((await planned.json()).data).toMatchObject({ org_number: org, ready: true })
    const filed = await file(app, vat({ org_number: org }), h)
    expect(filed.data).toMatchObject({ dry_run: false, filed_late: false, receipt: { org_number: org } })
    expect(clientVerifies(filed.data.receipt)).toBe(true)
    expect((await auditOf(app, org, h)).map((e) => e.action)).toContain('submit_mva')
  })
})

describe('a synthetic company without a delegation', () => {
  test('its dry run fails system_user_authorised and scopes_delegated, as the register says', async () => {
    const org = syntheticOrg(false)
    const res = await dryRun(app, vat({ org_number: org }), as())
    expect(res.status).toBe(200)
    const checks = (await res.json()).data.validation.checks
    expect(checks.filter((c: { passed: boolean }) => !c.passed).map((c: { name: string }) => c.name)).toEqual([
      'system_user_authorised',
      'scopes_delegated',
    ])
  })

  test('a live execute is refused for the missing delegation before the token is used, and nothing is submitted', async () => {
    const org = syntheticOrg(false)
    const h = as()
    const { token } = await approve(app, vat({ org_number: org }), h)
    const err = await expectWriteError(
      await live(app, vat({ org_number: org }), { h, token }),
      422,
      'AUTH_MISSING_DELEGATION',
    )
    expect(err.failed_checks).toEqual(['system_user_authorised', 'scopes_delegated'])
  })
})
