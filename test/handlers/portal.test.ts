/**
 * POST /api/v1/portal/list-acting-capacity over real HTTP against the fixture register: roles and
 * action tokens for Posten Norge AS's role holders, matched by the birth date their fnr encodes;
 * validation that names `fnr` and never echoes it; the audit row that keeps only the HMAC; scope
 * and price; and no fnr in any log line of this file. Identity numbers were built by hand for the
 * fixture people's birth dates (DDMMYY, an individual number, control digits by the published weights).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { byScenario } from '../../fixtures/data/companies.ts'
import { readBalance } from '../../src/store/credits.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { bearer, createConsumer, createKey, freshIp } from '../helpers.ts'
import { FIXTURE_PEOPLE } from '../helpers.ts'

const PATH = '/api/v1/portal/list-acting-capacity'
const POSTEN = '984661185'
/** Posten's general manager, born 12 April 1968. */
const DAGL_FNR = FIXTURE_PEOPLE.postenGeneralManager
/** Posten's chair, born 3 November 1959. */
const LEDE_FNR = FIXTURE_PEOPLE.postenChair
/** Posten's deputy chair, born 19 February 1971. */
const NEST_FNR = FIXTURE_PEOPLE.postenDeputyChair
/** The register-magic companies' chair, born 1 January 1970. */
const MAGIC_LEDE_FNR = FIXTURE_PEOPLE.magicChair
/** DAGL_FNR with its last control digit wrong. */
const WRONG_CONTROL = `${FIXTURE_PEOPLE.postenGeneralManager.slice(0, 10)}2`

/** Every number this file sends: none may appear in a log line, an error body or the database. */
const SENT = [DAGL_FNR, LEDE_FNR, NEST_FNR, MAGIC_LEDE_FNR, WRONG_CONTROL]

let app: TestApp
let key: string
let consumerId: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'free')
  consumerId = c.id
  key = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

async function list(body: unknown, k = key) {
  const res = await app.post(PATH, body, { headers: { ...bearer(k), ...freshIp() } })
  const text = await res.text()
  return { status: res.status, correlationId: res.headers.get('x-correlation-id'), text, body: JSON.parse(text) as any }
}

const hmac = (fnr: string) => createHmac('sha256', app.deps.serverKeys.fnr).update(fnr).digest('hex')

describe('roles and actions of a matched person', () => {
  test('Posten’s general manager: the DAGL role and act_in_daily_management under aksjeloven', async () => {
    const r = await list({ fnr: DAGL_FNR, org_number: POSTEN })
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      org_number: POSTEN,
      name: 'POSTEN NORGE AS',
      org_form: 'AS',
      matching: { basis: 'birth_date', persons_matched: 1, ambiguous: false },
    })
    expect(r.body.data.roles).toEqual([
      {
        code: 'DAGL',
        register_code: 'DAGL',
        description: 'Daglig leder',
        group_code: 'DAGL',
        holder_name: 'Ingrid Sætre',
        elected_by: null,
      },
    ])
    expect(r.body.data.actions.map((a: any) => [a.token, a.legal_reference])).toEqual([
      ['act_in_daily_management', 'asl. §§ 6-14, 6-32 (1)'],
    ])
  })

  test('only the HMAC of the fnr comes back, as actor.fnr_hmac', async () => {
    const r = await list({ fnr: DAGL_FNR, org_number: POSTEN })
    expect(r.body.data.actor).toEqual({ fnr_hmac: hmac(DAGL_FNR), fnr_hmac_algorithm: 'HMAC-SHA256' })
    expect(r.text).not.toContain(DAGL_FNR)
  })

  test('the chair may sign alone under Posten’s registered signature rule', async () => {
    const r = await list({ fnr: LEDE_FNR, org_number: POSTEN })
    expect(r.body.data.actions.map((a: any) => a.token)).toEqual(['sign_with_the_whole_board', 'sign_alone'])
    expect(r.body.data.signing_rule).toMatchObject({
      available: true,
      covered: true,
      descriptions: ['Styrets leder alene eller to styremedlemmer i fellesskap.'],
    })
  })

  test('the deputy chair is NEST, the register’s code, and signs jointly with one other', async () => {
    const r = await list({ fnr: NEST_FNR, org_number: POSTEN })
    expect(r.body.data.roles.map((x: any) => [x.code, x.register_code])).toEqual([['NEST', 'NEST']])
    expect(r.body.data.actions.find((a: any) => a.token === 'sign_jointly')).toMatchObject({
      basis: { kind: 'signature_rule', co_signers_required: 1 },
    })
  })

  test('an integer org number of nine digits is read as the number', async () => {
    const r = await list({ fnr: DAGL_FNR, org_number: Number(POSTEN) })
    expect(r.status).toBe(200)
    expect(r.body.data.org_number).toBe(POSTEN)
  })

  test('with the signature lookup down the answer degrades: 200, the rule unavailable, the role actions kept', async () => {
    const r = await list({ fnr: MAGIC_LEDE_FNR, org_number: byScenario('signature-down') })
    expect(r.status).toBe(200)
    expect(r.body.data.signing_rule.available).toBe(false)
    expect(r.body.data.actions.map((a: any) => a.token)).toEqual(['sign_with_the_whole_board'])
  })

  test('the lookup is audited with the HMAC only', async () => {
    const r = await list({ fnr: LEDE_FNR, org_number: POSTEN })
    const rows = await app.deps.sql<{ org_number: string; details: Record<string, unknown> }[]>`
      select org_number, details from audit_log
      where consumer_id = ${consumerId} and action = 'acting_capacity_listed' and correlation_id = ${r.correlationId}`
    expect([...rows]).toEqual([
      { org_number: POSTEN, details: { fnr_hmac: hmac(LEDE_FNR), persons_matched: 1, roles: 1 } },
    ])
  })
})

describe('a bad fnr is 400 VALIDATION_FAILED naming fnr, never echoing it', () => {
  test.each([
    ['a wrong control digit', WRONG_CONTROL],
    ['10 digits', DAGL_FNR.slice(0, 10)],
    ['12 digits', `${DAGL_FNR}1`],
    ['letters', '1204682344A'],
    ['a JSON number', Number(DAGL_FNR)],
  ])('%s', async (_, fnr) => {
    const r = await list({ fnr, org_number: POSTEN })
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('VALIDATION_FAILED')
    expect([...new Set(r.body.explanation.details.map((d: { field: string }) => d.field))]).toEqual(['fnr'])
    expect(r.text).not.toContain(String(fnr))
  })

  test('a missing fnr names it', async () => {
    const r = await list({ org_number: POSTEN })
    expect(r.status).toBe(400)
    expect(r.body.explanation.details[0].field).toBe('fnr')
  })

  test('a bad control digit together with a bad org number is VALIDATION_FAILED, not the checksum code', async () => {
    const r = await list({ fnr: 'x', org_number: '984661186' })
    expect(r.body.error_code).toBe('VALIDATION_FAILED')
  })
})

describe('the organisation, the key and the price', () => {
  test('an org number failing MOD-11 is ORG_NUMBER_INVALID_CHECKSUM', async () => {
    const r = await list({ fnr: DAGL_FNR, org_number: '984661186' })
    expect([r.status, r.body.error_code]).toEqual([400, 'ORG_NUMBER_INVALID_CHECKSUM'])
    expect(r.text).not.toContain(DAGL_FNR)
  })

  test('an unknown organisation is 404 COMPANY_NOT_FOUND', async () => {
    const r = await list({ fnr: DAGL_FNR, org_number: byScenario('unknown') })
    expect([r.status, r.body.error_code]).toEqual([404, 'COMPANY_NOT_FOUND'])
  })

  test('with the register down the answer is 503 REGISTER_DOWN, and the fnr is in no line it logged', async () => {
    const before = app.logs.length
    const r = await list({ fnr: MAGIC_LEDE_FNR, org_number: byScenario('register-5xx') })
    expect([r.status, r.body.error_code]).toEqual([503, 'REGISTER_DOWN'])
    expect(app.logs.length).toBeGreaterThan(before)
    expect(app.logs.slice(before).filter((l) => l.includes(MAGIC_LEDE_FNR))).toEqual([])
  })

  test('a key without read:portal is 403 SCOPE_INSUFFICIENT', async () => {
    const c = await createConsumer(app, 'free')
    const narrow = (await createKey(app, c.id, ['read:register'])).key
    const r = await list({ fnr: DAGL_FNR, org_number: POSTEN }, narrow)
    expect([r.status, r.body.error_code]).toEqual([403, 'SCOPE_INSUFFICIENT'])
  })

  test('it is not metered: an account with no credits is answered and charged nothing', async () => {
    const c = await createConsumer(app, 'free')
    const k = (await createKey(app, c.id)).key
    const r = await list({ fnr: DAGL_FNR, org_number: POSTEN }, k)
    expect(r.status).toBe(200)
    expect((await readBalance(app.deps.sql, c.id)).balance_ore).toBe(0)
  })
})

describe('the fnr is never kept in clear', () => {
  test('no log line of this file holds any fnr it sent', () => {
    expect(app.logs.length).toBeGreaterThan(0)
    expect(app.logs.filter((line) => SENT.some((f) => line.includes(f)))).toEqual([])
  })

  test('no audit row holds any fnr it sent', async () => {
    const holding = async (values: string[]) => {
      const patterns = values.map((v) => `%${v}%`)
      const [row] = await app.deps.sql<{ n: number }[]>`
        select count(*)::int as n from audit_log
        where details::text like any(${patterns}::text[]) or coalesce(org_number, '') like any(${patterns}::text[]) or actor like any(${patterns}::text[])`
      return row!.n
    }
    // The search finds what is there: the HMACs are.
    expect(await holding([hmac(LEDE_FNR)])).toBeGreaterThan(0)
    expect(await holding(SENT)).toBe(0)
  })
})
