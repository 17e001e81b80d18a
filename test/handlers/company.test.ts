/**
 * Every company route against every fixture company, over real HTTP to the fixture servers. The
 * expectations are derived from each company's scenario tags in the fixture catalogue, not from
 * the implementation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { FIXTURE_COMPANIES, byScenario, type Scenario } from '../../fixtures/data/companies.ts'
import { readBalance } from '../../src/store/credits.ts'
import { publicObligations } from '../../src/domain/rulebook/public.ts'
import type { EntityType } from '../../src/domain/rulebook/facts.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

let app: TestApp
let key: string
let consumerId: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  consumerId = c.id
  await addCredits(app, c.id, 1_000_000)
  key = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

const FAILURE_MAGIC: Scenario[] = [
  'register-timeout',
  'register-5xx',
  'register-malformed',
  'register-slow',
  'signature-down',
  'accounts-down',
]
const REAL = FIXTURE_COMPANIES.filter((c) => !c.scenarios.some((s) => FAILURE_MAGIC.includes(s) || s === 'unknown'))
const has = (c: { scenarios: Scenario[] }, s: Scenario) => c.scenarios.includes(s)
const gone = (c: { scenarios: Scenario[] }) => has(c, 'removed')
const RULEBOOK_FORMS = ['AS', 'ENK', 'ANS', 'DA', 'NUF']
const MUST_FILE = ['AS', 'ASA', 'NUF']

async function get(path: string) {
  const res = await app.get(path, { headers: { ...bearer(key), ...freshIp() } })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

/** A removed unit is unknown: 404 with the code that says so, not just the status. */
function expectNotFound(r: { status: number; body: any }) {
  expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 404, code: 'COMPANY_NOT_FOUND' })
}

async function post(path: string, body: unknown) {
  const res = await app.post(path, body, { headers: { ...bearer(key), ...freshIp() } })
  return { status: res.status, body: (await res.json()) as any }
}

describe('every fixture company on every route', () => {
  test('the catalogue has at least 15 real companies', () => {
    expect(REAL.filter((c) => !gone(c)).length).toBeGreaterThanOrEqual(15)
  })

  for (const c of REAL) {
    const label = `${c.org_number} ${c.name} [${c.scenarios.join(', ')}]`

    test(`context: ${label}`, async () => {
      const r = await get(`/api/v1/company/${c.org_number}/context`)
      if (gone(c)) {
        expect(r.status).toBe(404)
        expect(r.body.error_code).toBe('COMPANY_NOT_FOUND')
        return
      }
      expect(r.status).toBe(200)
      expect(r.body.data.org_number).toBe(c.org_number)
      expect(r.body.data.name).toBe(c.name)
      expect(r.body.data.org_form.code).toBe(c.org_form)
      expect(r.body.data.entity_type).toBe(RULEBOOK_FORMS.includes(c.org_form) ? c.org_form : null)
      expect(r.body.data.status).toBe(has(c, 'deleted') ? 'deleted' : 'active')
      expect(r.body.data.data_tier).toBe('tier_1')
      expect(r.body.data.tier_2).toBeNull()
      expect(r.body.data.upgrade_path).toContain('delegering')
      if (has(c, 'vat-registered')) expect(r.body.data.mva.registered).toBe(true)
      if (has(c, 'not-vat-registered')) expect(r.body.data.mva.registered).toBe(false)
      if (has(c, 'voluntary-vat')) expect(r.body.data.mva.voluntary_registrations.length).toBeGreaterThan(0)
      if (has(c, 'bankrupt')) expect(r.body.data.distress.bankrupt).toBe(true)
      if (has(c, 'under-dissolution')) expect(r.body.data.distress.under_dissolution).toBe(true)
      if (has(c, 'forced-dissolution')) expect(r.body.data.distress.under_forced_dissolution).toBe(true)
      // Tier 1 never carries the commercial figures, even when the register has a head count.
      expect(r.body.data).not.toHaveProperty('employees')
      expect(r.body.data).not.toHaveProperty('employee_count')
      expect(r.body._meta.data_source).toContain('Enhetsregisteret')
      expect(r.body._meta.source_snapshot_id).toMatch(/^[0-9a-f-]{36}$/)
    })

    test(`verify: ${label}`, async () => {
      const r = await get(`/api/v1/company/${c.org_number}/verify`)
      if (gone(c)) return expectNotFound(r)
      expect(r.status).toBe(200)
      const d = r.body.data
      if (has(c, 'deleted')) {
        expect(d.verification_status).toBe('fail')
        expect(d.signals.is_active).toBe(false)
        return
      }
      // Bankruptcy and (forced) dissolution make a unit not active: the verdict is fail (spec: states).
      const distressed = has(c, 'bankrupt') || has(c, 'under-dissolution') || has(c, 'forced-dissolution')
      expect(d.signals.is_active).toBe(!distressed)
      const signing = has(c, 'sole-signing') || has(c, 'joint-signing') || has(c, 'free-text-rule')
      expect(d.signals.has_signing_authority_defined).toBe(signing ? true : null)
      expect(d.verification_status).toBe(distressed ? 'fail' : signing ? 'pass' : 'unknown')
      expect(d.signals.not_bankrupt).toBe(!has(c, 'bankrupt'))
      expect(d.signals.not_under_dissolution).toBe(!has(c, 'under-dissolution'))
      expect(d.signals.not_forcibly_dissolved).toBe(!has(c, 'forced-dissolution'))
      if (has(c, 'vat-registered')) expect(d.signals.mva_registered).toBe(true)
      if (has(c, 'not-vat-registered')) expect(d.signals.mva_registered).toBe(false)
      if (has(c, 'no-accounts'))
        expect(d.signals.has_filed_annual_accounts).toBe(MUST_FILE.includes(c.org_form) ? false : null)
      expect(['pass', 'fail', 'unknown']).toContain(d.verification_status)
      expect(d.summary.length).toBeGreaterThan(10)
    })

    test(`authority: ${label}`, async () => {
      const r = await get(`/api/v1/company/${c.org_number}/authority`)
      if (gone(c)) return expectNotFound(r)
      expect(r.status).toBe(200)
      const d = r.body.data
      if (has(c, 'deleted')) return
      if (has(c, 'sole-signing')) expect(d.classification).toBe('sole')
      else if (has(c, 'joint-signing')) expect(d.classification).toBe('joint')
      if (has(c, 'prokura-only')) {
        expect(d.classification).toBe('prokura_only')
        expect(d.prokura_holders.length).toBeGreaterThan(0)
      }
      if (has(c, 'no-signing-rule')) expect(d.classification).toBe('no_authority')
      if (has(c, 'free-text-rule')) {
        expect(d.classification).toBe('unknown')
        expect(d.rule).toBe('free_text_only')
        expect(d.free_text).toBeTruthy()
      }
      if (has(c, 'signature-not-supported')) {
        expect(d.rule).toBe('not_supported')
        expect(['unknown', 'prokura_only']).toContain(d.classification)
      }
      if (has(c, 'multiple-combinations')) expect(d.combinations.length).toBeGreaterThanOrEqual(2)
      for (const k of d.combinations) expect(k.sufficient_alone).toBe(k.signers.length === 1)
      // The signature lookup answered for every company here: false is only for an unreachable lookup.
      expect([d.degraded, d.kombinasjon_available]).toEqual([null, true])
      expect(JSON.stringify(d)).not.toMatch(/lov|§/i)
    })

    test(`accounts: ${label}`, async () => {
      const r = await get(`/api/v1/company/${c.org_number}/accounts`)
      expect(r.status).toBe(200)
      const d = r.body.data
      if (gone(c)) {
        expect(d.has_filed_annual_accounts).toBeNull()
        expect(d.key_figures).toBeNull()
        return
      }
      if (has(c, 'no-accounts')) {
        expect(d.key_figures).toBeNull()
        expect(d.has_filed_annual_accounts).toBe(MUST_FILE.includes(c.org_form) ? false : null)
      } else if (d.has_filed_annual_accounts) {
        expect(d.key_figures.currency).toMatch(/^[A-Z]{3}$/)
        expect(d.last_accounts_year).toBe(Number(d.key_figures.period_to.slice(0, 4)))
      }
      if (has(c, 'foreign-currency-accounts')) expect(d.key_figures.currency).not.toBe('NOK')
    })

    test(`snapshot: ${label}`, async () => {
      const r = await get(`/api/v1/company/${c.org_number}/snapshot`)
      if (gone(c)) return expectNotFound(r)
      expect(r.status).toBe(200)
      const s = r.body.data.sections
      expect(Object.keys(s).sort()).toEqual(['employer', 'risk', 'roles', 'vat', 'verify'])
      expect(s.employer).toMatchObject({ available: false, reason: 'DELEGATION_MISSING' })
      const distressed = ['bankrupt', 'under-dissolution', 'forced-dissolution', 'deleted'].some((x) =>
        has(c, x as Scenario),
      )
      expect(s.risk.level).toBe(distressed ? 'elevated' : 'clear')
      if (has(c, 'vat-registered')) expect(s.vat.mva_registered).toBe(true)
    })

    for (const route of ['summary', 'obligations', 'deadlines'] as const) {
      test(`${route}: ${label}`, async () => {
        const r = await get(`/api/v1/company/${c.org_number}/${route}`)
        if (gone(c)) return expectNotFound(r)
        expect(r.status).toBe(200)
        const d = r.body.data
        const covered = RULEBOOK_FORMS.includes(c.org_form) && !has(c, 'deleted')
        expect(d.coverage.covered).toBe(covered)
        if (route === 'deadlines') {
          if (!covered) expect(d.deadlines).toEqual([])
          else expect(d.deadlines.length).toBeGreaterThan(0)
          for (const e of d.deadlines) expect(e.filing_status).toMatch(/^(upcoming|overdue)$/)
          return
        }
        if (!covered) return expect(d.obligations).toEqual([])
        // One evaluation per rule of the entity type, ordered by rule id.
        const ids = d.obligations.map((o: { rule_id: string }) => o.rule_id)
        expect(ids).toEqual([...ids].sort())
        expect(ids.sort()).toEqual(
          publicObligations(c.org_form as EntityType)
            .map((o) => o.obligation_id)
            .sort(),
        )
        expect(r.body._meta.rule_count).toBe(ids.length)
        if (route === 'summary') {
          expect(d.data_tier).toBe('tier_1')
          expect(d.upgrade_path).toContain('delegering')
          expect(JSON.stringify(d)).not.toContain(c.name)
        }
      })
    }

    test(`profile: ${label}`, async () => {
      const r = await post('/api/v1/register/company-profile', { org_number: c.org_number })
      if (gone(c)) return expectNotFound(r)
      expect(r.status).toBe(200)
      expect(r.body.data.display_name).toBe(c.name)
      expect(r.body.data.status).toBe(has(c, 'deleted') ? 'dissolved' : 'active')
      // A deleted unit shows no roles; an active one shows the codes of its roles, which are never none.
      if (has(c, 'deleted')) return expect(r.body.data.role_codes).toEqual([])
      expect(r.body.data.roles_available).toBe(true)
      expect(r.body.data.role_codes.length).toBeGreaterThan(0)
      for (const code of r.body.data.role_codes) expect(code).toMatch(/^[A-ZÆØÅ]{3,5}$/)
    })

    test(`filing history: ${label}`, async () => {
      const r = await get(`/api/v1/company/${c.org_number}/filing-history`)
      expect(r.status).toBe(200)
      expect(r.body.data.pagination.limit).toBe(20)
      expect(r.body._meta.data_source).toContain('mock')
    })
  }
})

describe('authority: kombinasjon_available', () => {
  // The signature lookup answered for each: no rule registered, a form the service does not cover,
  // procuration only. Only an unreachable lookup makes it false (spec: Signing authority).
  const answered: [string, string][] = [
    ['929770404', 'no_authority'],
    ['915241700', 'unknown'],
    ['912883604', 'prokura_only'],
  ]
  for (const [org, classification] of answered) {
    test(`is true when the lookup answered without combinations: ${org} (${classification})`, async () => {
      const r = await get(`/api/v1/company/${org}/authority`)
      expect(r.status).toBe(200)
      expect(r.body.data).toMatchObject({
        classification,
        combinations: [],
        degraded: null,
        kombinasjon_available: true,
      })
    })
  }
})

describe('search', () => {
  test('finds a company by part of its name, with at most 10 candidates', async () => {
    const r = await get('/api/v1/company/search?name=posten')
    expect(r.status).toBe(200)
    expect(r.body.data.candidates[0]).toMatchObject({
      org_number: '984661185',
      org_form: 'AS',
      status: 'active',
      municipality: 'OSLO',
    })
    expect(r.body.data.count).toBeLessThanOrEqual(10)
  })

  test('trims the name before searching and echoes it', async () => {
    const r = await get('/api/v1/company/search?name=%20%20posten%20%20')
    expect(r.body.data.query).toBe('posten')
  })

  test('zero hits is 404 NOT_FOUND', async () => {
    const r = await get('/api/v1/company/search?name=zzzqqqxxx')
    expect(r.status).toBe(404)
    expect(r.body.error_code).toBe('NOT_FOUND')
  })

  for (const name of ['a', '%20%20a%20%20', 'x'.repeat(101)]) {
    test(`a name of ${decodeURIComponent(name).trim().length} characters after trimming is VALIDATION_FAILED`, async () => {
      const r = await get(`/api/v1/company/search?name=${name}`)
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('VALIDATION_FAILED')
    })
  }
})

describe('bad organisation numbers', () => {
  test('a well-formed number failing MOD-11 is 400 ORG_NUMBER_INVALID_CHECKSUM, and nothing is charged', async () => {
    const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
    const r = await get('/api/v1/company/984661186/context')
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('ORG_NUMBER_INVALID_CHECKSUM')
    expect((await readBalance(app.deps.sql, consumerId)).balance_ore).toBe(before)
  })

  for (const bad of ['98466118', '9846611850', '98466118a', 'abcdefghi']) {
    test(`"${bad}" is 400 VALIDATION_FAILED`, async () => {
      const r = await get(`/api/v1/company/${bad}/verify`)
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('VALIDATION_FAILED')
    })
  }

  test('the profile body is checked the same way', async () => {
    expect((await post('/api/v1/register/company-profile', { org_number: '984661186' })).body.error_code).toBe(
      'ORG_NUMBER_INVALID_CHECKSUM',
    )
    expect((await post('/api/v1/register/company-profile', { org_number: '123' })).body.error_code).toBe(
      'VALIDATION_FAILED',
    )
    expect(
      (await post('/api/v1/register/company-profile', { org_number: '984661185', extra: 1 })).body.error_code,
    ).toBe('VALIDATION_FAILED')
  })

  test('a nine-digit JSON integer in the profile body is read as that organisation number', async () => {
    const r = await post('/api/v1/register/company-profile', { org_number: 984661185 })
    expect(r.status).toBe(200)
    expect(r.body.data.org_number).toBe('984661185')
  })

  test('a nine-digit JSON integer failing MOD-11 is ORG_NUMBER_INVALID_CHECKSUM, as the string is', async () => {
    const r = await post('/api/v1/register/company-profile', { org_number: 984661186 })
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe('ORG_NUMBER_INVALID_CHECKSUM')
  })

  for (const bad of [984661185.5, -98466118, -984661185, 98466118, 9846611850, true]) {
    test(`the JSON value ${bad} for an organisation number is 400 VALIDATION_FAILED, and nothing is charged`, async () => {
      const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
      const r = await post('/api/v1/register/company-profile', { org_number: bad })
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('VALIDATION_FAILED')
      expect(r.body.explanation.details.map((d: { field: string }) => d.field)).toEqual(['org_number'])
      expect((await readBalance(app.deps.sql, consumerId)).balance_ore).toBe(before)
    })
  }

  test('an organisation number the register does not know is 404 COMPANY_NOT_FOUND, and nothing is charged', async () => {
    const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
    const r = await get(`/api/v1/company/${byScenario('unknown')}/context`)
    expect(r.status).toBe(404)
    expect(r.body.error_code).toBe('COMPANY_NOT_FOUND')
    expect((await readBalance(app.deps.sql, consumerId)).balance_ore).toBe(before)
  })

  test('accounts of an unknown organisation is 200 with nulls', async () => {
    const r = await get(`/api/v1/company/${byScenario('unknown')}/accounts`)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ has_filed_annual_accounts: null, last_accounts_year: null, key_figures: null })
  })
})

describe('metering', () => {
  test('a successful company call costs 50 øre', async () => {
    const before = (await readBalance(app.deps.sql, consumerId)).balance_ore
    const res = await app.get('/api/v1/company/984661185/summary', { headers: { ...bearer(key), ...freshIp() } })
    expect(res.status).toBe(200)
    expect(Number(res.headers.get('x-credits-balance-ore'))).toBe(before - 50)
  })

  test('without credits the call is 402 INSUFFICIENT_CREDITS and the register is not asked', async () => {
    const c = await createConsumer(app, 'enterprise')
    const k = (await createKey(app, c.id)).key
    await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`, { method: 'DELETE' })
    const res = await app.get('/api/v1/company/984661185/verify', { headers: { ...bearer(k), ...freshIp() } })
    expect(res.status).toBe(402)
    expect((await res.json()).error_code).toBe('INSUFFICIENT_CREDITS')
    expect(await (await fetch(`${app.fixtures.businessRegisterUrl}/__control/requests`)).json()).toEqual([])
  })

  test('without read:register the call is 403 SCOPE_INSUFFICIENT', async () => {
    const c = await createConsumer(app, 'enterprise')
    const k = (await createKey(app, c.id, ['read:rulebook'])).key
    const res = await app.get('/api/v1/company/984661185/verify', { headers: { ...bearer(k), ...freshIp() } })
    expect(res.status).toBe(403)
    expect((await res.json()).error_code).toBe('SCOPE_INSUFFICIENT')
  })
})

describe('deadlines query', () => {
  test('defaults to 12 months from today in Oslo', async () => {
    const r = await get('/api/v1/company/984661185/deadlines')
    expect(r.body.data).toMatchObject({ from_date: '2026-03-14', horizon_months: 12, to_date: '2027-03-14' })
  })

  test('takes from_date and horizon_months', async () => {
    const r = await get('/api/v1/company/984661185/deadlines?from_date=2026-06-01&horizon_months=1')
    expect(r.body.data).toMatchObject({ from_date: '2026-06-01', to_date: '2026-07-01' })
  })

  for (const q of [
    'horizon_months=0',
    'horizon_months=61',
    'horizon_months=abc',
    'from_date=2026-02-30',
    'from_date=tomorrow',
    'unknown=1',
  ]) {
    test(`${q} is 400 VALIDATION_FAILED`, async () => {
      const r = await get(`/api/v1/company/984661185/deadlines?${q}`)
      expect(r.status).toBe(400)
      expect(r.body.error_code).toBe('VALIDATION_FAILED')
    })
  }
})
