/**
 * The sandbox read side over real HTTP: every fixture company on every GET route, the magic
 * scenarios, the fixtures catalogue, who may call, the audit namespaces, CORS and the sandbox
 * `_meta`. Expectations come from the fixture catalogue (fixtures/sandbox/companies.ts) and the
 * spec, not from the implementation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import {
  PUBLIC_SANDBOX_ORG,
  RESERVED_ERROR_ORGS,
  SANDBOX_COMPANIES,
  type SandboxCompany,
  type Signer,
} from '../../../fixtures/sandbox/companies.ts'
import * as S from '../../../src/schemas/sandbox.ts'
import { hasValidCheckDigit } from '../../../src/lib/org-number.ts'
import { appendSandboxAudit } from '../../../src/store/sandbox-audit.ts'
import { PINNED_NOW, startApp, type TestApp } from '../../helpers.ts'
import { admin, bearer, createConsumer, createKey } from '../../helpers.ts'
import {
  call,
  company,
  expectSandboxError,
  expectSandboxMeta,
  ORG_ROUTES,
  SANDBOX,
  scenario,
  synthetic,
  withoutTimestamp,
} from '../../helpers.ts'
import { consumerSandboxNamespace } from '../../../src/domain/sandbox/namespaces.ts'
import { SANDBOX_SERIES, syntheticCompany } from '../../../src/domain/sandbox/synthetic.ts'

let app: TestApp
let realKey: string
let realConsumerId: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'free')
  realConsumerId = c.id
  realKey = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

const get = (org: string, route: string, headers: Record<string, string> = {}) =>
  call(app, `${SANDBOX}/company/${org}/${route}`, headers)
async function data(org: string, route: string, headers: Record<string, string> = {}) {
  const a = await get(org, route, headers)
  expect(a.status).toBe(200)
  return a.body.data
}

const tierOf = (c: SandboxCompany) => (c.tier_2 ? 'tier_1_2' : 'tier_1')
const people = (sets: Signer[][]) => [
  ...new Map(sets.flat().map(([role, name]) => [`${role}|${name}`, { role, name }])).values(),
]
const sortPeople = (list: { role: string | null; name: string }[]) =>
  [...list].sort((a, b) => `${a.role}|${a.name}`.localeCompare(`${b.role}|${b.name}`))

/** Numbers of each series with free digits that no fixture holds: the issue's examples. */
const SYNTHETIC_EXAMPLES = ['818123456', '999661017', '999770001']

describe('every fixture company, and synthetic numbers of each series', () => {
  for (const c of [...SANDBOX_COMPANIES, ...SYNTHETIC_EXAMPLES.map(syntheticCompany)]) {
    const label = `${c.org_number} ${c.name}${c.scenario ? ` [${c.scenario}]` : ''}`

    test(`context restates the fixture in the sandbox context shape: ${label}`, async () => {
      const d = await data(c.org_number, 'context')
      expect(Value.Check(S.SandboxContext, d)).toBe(true)
      expect(d).toMatchObject({
        org_number: c.org_number,
        name: c.name,
        entity_type: c.entity_type,
        data_tier: tierOf(c),
        status: c.status === 'active' ? 'ACTIVE' : 'INACTIVE',
        municipality: c.address.municipality,
        registration_date: c.registered_date,
        nace_codes: c.nace.map(([code]) => code),
      })
      if (c.tier_2) {
        expect(d.tier_2).toEqual({
          employee_count: c.tier_2.employee_count,
          annual_turnover: c.tier_2.annual_turnover_nok,
          total_assets: c.tier_2.total_assets_nok,
          mva_registered: c.vat_registered_date !== null,
          mva_registration_date: c.vat_registered_date,
        })
        expect(d.upgrade_path).toBeNull()
      } else {
        expect(d.tier_2).toBeNull()
        expect(d.upgrade_path).toContain('delegering')
      }
      expect(d.labour_register).toMatchObject({ available: false, reason: 'DELEGATION_MISSING_LABOUR_REGISTER' })
      expect(d.tax_authority).toEqual({
        mva_register: null,
        mva_meldinger: { available: false, reason: 'DELEGATION_MISSING', scope: 'tax_authority:mva-melding-list-read' },
        skatteoppgjor: { available: false, reason: 'DELEGATION_MISSING', scope: 'tax_authority:skatteoppgjor-read' },
      })
      if (c.status !== 'deleted' && c.signing.rule === 'coded')
        expect(sortPeople(d.signaturrett)).toEqual(sortPeople(people(c.signing.combinations)))
      if (c.status !== 'deleted') expect(sortPeople(d.prokura)).toEqual(sortPeople(people(c.prokura)))
    })

    test(`obligations, deadlines and summary agree and conform: ${label}`, async () => {
      const [o, dl, s] = [
        await data(c.org_number, 'obligations'),
        await data(c.org_number, 'deadlines'),
        await data(c.org_number, 'summary'),
      ]
      expect(Value.Check(S.SandboxObligations, o)).toBe(true)
      expect(Value.Check(S.SandboxDeadlines, dl)).toBe(true)
      expect(Value.Check(S.SandboxSummary, s)).toBe(true)
      const head = { org_number: c.org_number, entity_type: c.entity_type, data_tier: tierOf(c) }
      for (const d of [o, dl, s]) expect(d).toMatchObject(head)
      // The summary is the two lists together and nothing about the company itself.
      expect(Object.keys(s).sort()).toEqual([
        'data_tier',
        'deadlines',
        'entity_type',
        'obligations',
        'org_number',
        'upgrade_path',
      ])
      expect(s.obligations).toEqual(o.obligations)
      expect(s.deadlines).toEqual(dl.deadlines)
      if (c.status === 'deleted') {
        expect(o.obligations).toEqual([])
        expect(dl.deadlines).toEqual([])
        return
      }
      expect(o.obligations.length).toBeGreaterThan(0)
      const applicable = new Set(
        o.obligations.filter((x: any) => x.status === 'applicable').map((x: any) => x.obligation_id),
      )
      for (const d of dl.deadlines) expect(applicable.has(d.obligation_id)).toBe(true)
    })

    test(`each obligation's deadline_at is its first upcoming deadline: ${label}`, async () => {
      const [o, dl] = [await data(c.org_number, 'obligations'), await data(c.org_number, 'deadlines')]
      for (const ob of o.obligations) {
        const first = dl.deadlines.find(
          (d: any) => d.obligation_id === ob.obligation_id && d.status === 'upcoming' && d.deadline_at !== null,
        )
        expect({ id: ob.obligation_id, deadline_at: ob.deadline_at }).toEqual({
          id: ob.obligation_id,
          deadline_at: first?.deadline_at ?? null,
        })
      }
    })

    test(`deadlines say filed exactly for the filings on record, which only Tier 2 shows: ${label}`, async () => {
      const dl = await data(c.org_number, 'deadlines')
      const filed = dl.deadlines
        .filter((d: any) => d.status === 'filed')
        .map((d: any) => d.deadline_id)
        .sort()
      expect(filed).toEqual(c.tier_2 ? c.filed.map(([rule, period]) => deadlineIdOf(rule, period)).sort() : [])
    })

    test(`verify, authority and accounts run the production domain in its shapes: ${label}`, async () => {
      const [v, a, ac] = [
        await data(c.org_number, 'verify'),
        await data(c.org_number, 'authority'),
        await data(c.org_number, 'accounts'),
      ]
      expect(Value.Check(S.SandboxVerification, v)).toBe(true)
      expect(Value.Check(S.SandboxAuthority, a)).toBe(true)
      expect(Value.Check(S.SandboxAccounts, ac)).toBe(true)
      expect(a).not.toHaveProperty('coded_authority')
      expect([v.org_number, a.org_number, ac.org_number]).toEqual([c.org_number, c.org_number, c.org_number])
      expect(v.name).toBe(c.name)
      // Deleted, bankrupt and (forced) dissolution are all "not active" (spec: states, Verification status).
      expect(v.signals.is_active).toBe(c.status === 'active')
      if (c.status === 'deleted') return
      expect(v.signals.not_bankrupt).toBe(c.status !== 'bankrupt')
      expect(v.signals.not_under_dissolution).toBe(c.status !== 'under_dissolution')
      expect(v.signals.not_forcibly_dissolved).toBe(c.status !== 'forced_dissolution')
      expect(v.signals.mva_registered).toBe(c.vat_registered_date !== null)
      // An AS must file annual accounts, so none on record is a "no"; an ENK need not, so it is unknown.
      expect(ac.has_filed_annual_accounts).toBe(c.accounts ? true : c.entity_type === 'AS' ? false : null)
      expect(ac.key_figures?.currency ?? null).toBe(c.accounts?.currency ?? null)
    })
  }

  test('cover both entity types and both data tiers', () => {
    expect(new Set(SANDBOX_COMPANIES.map((c) => c.entity_type))).toEqual(new Set(['AS', 'ENK']))
    expect(new Set(SANDBOX_COMPANIES.map(tierOf))).toEqual(new Set(['tier_1', 'tier_1_2']))
  })
})

/** The deadline id of a filed period: `mva-termin` 2025-T4 is `mva-termin-4-2025`; months are themselves. */
function deadlineIdOf(rule: string, period: string): string {
  const term = /^(\d{4})-T(\d)$/.exec(period)
  return term ? `${rule}-${term[2]}-${term[1]}` : `${rule}-${period}`
}

describe('the magic scenarios', () => {
  const covered = new Set<string>()
  const magic = (name: string, title: string, fn: (c: SandboxCompany) => Promise<void>) => {
    covered.add(name)
    test(`${name}: ${title}`, () => fn(scenario(name)))
  }

  magic('bankrupt', 'context is INACTIVE and verification fails on the bankruptcy', async (c) => {
    expect((await data(c.org_number, 'context')).status).toBe('INACTIVE')
    const v = await data(c.org_number, 'verify')
    expect(v.signals.not_bankrupt).toBe(false)
    expect(v.signals.is_active).toBe(false)
    expect(v.verification_status).toBe('fail')
    expect(v.summary).toContain('konkurs')
  })

  magic('under_dissolution', 'context is INACTIVE and verification shows the dissolution', async (c) => {
    expect((await data(c.org_number, 'context')).status).toBe('INACTIVE')
    const v = await data(c.org_number, 'verify')
    expect(v.signals.not_under_dissolution).toBe(false)
    expect(v.verification_status).toBe('fail')
  })

  magic('forced_dissolution', 'context is INACTIVE, forced dissolution shows and no accounts are filed', async (c) => {
    expect((await data(c.org_number, 'context')).status).toBe('INACTIVE')
    const v = await data(c.org_number, 'verify')
    expect(v.signals.not_forcibly_dissolved).toBe(false)
    expect(v.signals.has_filed_annual_accounts).toBe(false)
  })

  magic('deleted', 'verification fails, context is INACTIVE and there are no obligations or deadlines', async (c) => {
    const v = await data(c.org_number, 'verify')
    expect(v.verification_status).toBe('fail')
    expect(v.signals.is_active).toBe(false)
    expect((await data(c.org_number, 'context')).status).toBe('INACTIVE')
    expect((await data(c.org_number, 'obligations')).obligations).toEqual([])
    expect((await data(c.org_number, 'deadlines')).deadlines).toEqual([])
  })

  magic('no_signing_rule', 'authority is no_authority and verification is unknown', async (c) => {
    const a = await data(c.org_number, 'authority')
    // The lookup answered that there is no rule: the combinations are known to be none.
    expect(a).toMatchObject({
      classification: 'no_authority',
      rule: 'none',
      combinations: [],
      prokura_holders: [],
      kombinasjon_available: true,
      degraded: null,
    })
    const v = await data(c.org_number, 'verify')
    expect(v.signals.has_signing_authority_defined).toBeNull()
    expect(v.verification_status).toBe('unknown')
  })

  magic('prokura_only', 'authority is prokura_only with both procurators', async (c) => {
    const a = await data(c.org_number, 'authority')
    expect(a.classification).toBe('prokura_only')
    expect([a.kombinasjon_available, a.degraded]).toEqual([true, null])
    expect(a.prokura_holders.map((h: any) => h.name).sort()).toEqual(['Ola Testmann', 'Siri Prøvdal'])
    expect((await data(c.org_number, 'context')).prokura.map((p: any) => p.name).sort()).toEqual([
      'Ola Testmann',
      'Siri Prøvdal',
    ])
  })

  magic('free_text_rule', 'authority is unknown from free text only, and the text is given', async (c) => {
    const a = await data(c.org_number, 'authority')
    expect(a).toMatchObject({ classification: 'unknown', rule: 'free_text_only' })
    expect(a.free_text).toBe(c.signing.rule === 'free_text' ? c.signing.text : 'not a free-text fixture')
    expect((await data(c.org_number, 'verify')).signals.has_signing_authority_defined).toBe(true)
  })

  magic(
    'signature_service_down',
    'authority degrades with kombinasjon_available false and verification is unknown',
    async (c) => {
      const a = await data(c.org_number, 'authority')
      expect(a.kombinasjon_available).toBe(false)
      expect(a.rule).toBe('unavailable')
      expect(a.degraded.error_code).toBe('UPSTREAM_UNAVAILABLE')
      const v = await data(c.org_number, 'verify')
      expect(v.signals.has_signing_authority_defined).toBeNull()
      expect(v.verification_status).toBe('unknown')
      expect((await get(c.org_number, 'context')).status).toBe(200)
    },
  )

  magic('accounts_missing', 'accounts and verification say no annual accounts are filed', async (c) => {
    const ac = await data(c.org_number, 'accounts')
    expect(ac.has_filed_annual_accounts).toBe(false)
    expect(ac.key_figures).toBeNull()
    expect((await data(c.org_number, 'verify')).signals.has_filed_annual_accounts).toBe(false)
  })

  magic('no_delegation', 'the catalogue shows no system user and the audit trail has no delegation', async (c) => {
    const fixtures = (await call(app, `${SANDBOX}/fixtures`)).body.data
    expect(fixtures.magic_scenarios.find((m: any) => m.org_number === c.org_number)).toMatchObject({
      system_user_authorised: false,
      delegated_scopes: [],
    })
    expect((await data(c.org_number, 'audit')).data.map((e: any) => e.action)).not.toContain('delegation.granted')
  })

  magic(
    'scopes_missing',
    'the catalogue shows a system user without scopes, and the audit trail its delegation',
    async (c) => {
      const fixtures = (await call(app, `${SANDBOX}/fixtures`)).body.data
      expect(fixtures.magic_scenarios.find((m: any) => m.org_number === c.org_number)).toMatchObject({
        system_user_authorised: true,
        delegated_scopes: [],
      })
      const audit = (await data(c.org_number, 'audit')).data
      expect(audit.map((e: any) => e.action)).toEqual(['delegation.granted'])
      expect(audit[0].details).toEqual({ system_user: true, scopes: '' })
    },
  )

  magic('not_vat_registered', 'the VAT returns do not apply and have no deadlines', async (c) => {
    const o = await data(c.org_number, 'obligations')
    const status = (id: string) => o.obligations.find((x: any) => x.obligation_id === id)?.status
    expect([status('mva-termin'), status('mva-arstermin')]).toEqual(['not_applicable', 'not_applicable'])
    for (const x of o.obligations.filter((x: any) => x.status === 'not_applicable')) expect(x.required).toBe('never')
    const dl = await data(c.org_number, 'deadlines')
    expect(dl.deadlines.filter((d: any) => d.obligation_id.startsWith('mva-'))).toEqual([])
    expect((await data(c.org_number, 'verify')).signals.mva_registered).toBe(false)
  })

  magic(
    'newly_registered',
    'its first deadlines are for 2025, its first year, and it has no accounts yet',
    async (c) => {
      expect((await data(c.org_number, 'context')).registration_date).toBe('2025-12-15')
      const ids = (await data(c.org_number, 'deadlines')).deadlines.map((d: any) => d.deadline_id)
      for (const first of ['aksjonaerregisteroppgave-2025', 'skattemelding-upersonlig-2025', 'arsregnskap-2025'])
        expect(ids).toContain(first)
      // Periods that ended before the company existed are not its obligations.
      for (const id of ids) expect(id).not.toMatch(/2024|-2025-(0\d|1[01])$/)
      expect((await data(c.org_number, 'accounts')).has_filed_annual_accounts).toBe(false)
    },
  )

  magic('foreign_currency_accounts', 'the key figures are in euro', async (c) => {
    const ac = await data(c.org_number, 'accounts')
    expect(ac.key_figures.currency).toBe('EUR')
    expect(ac.key_figures.operating_revenue).toBe(c.accounts?.revenue)
  })

  magic('multiple_combinations', 'authority lists both alternative combinations', async (c) => {
    const a = await data(c.org_number, 'authority')
    expect(a.combinations.length).toBe(2)
    expect(a.combinations.map((k: any) => k.sufficient_alone)).toEqual([true, false])
    expect(a.classification).toBe('sole')
  })

  magic('tier_1_only', 'Tier 1 only: obligations that need Tier 2 facts are insufficient_data', async (c) => {
    const ctx = await data(c.org_number, 'context')
    expect([ctx.data_tier, ctx.tier_2]).toEqual(['tier_1', null])
    const undecided = (await data(c.org_number, 'obligations')).obligations.filter(
      (x: any) => x.status === 'insufficient_data',
    )
    expect(undecided.length).toBeGreaterThan(0)
    for (const x of undecided) expect(x.required).toBe('conditionally')
  })

  test('every magic scenario in the fixtures has its test here', () => {
    const named = SANDBOX_COMPANIES.filter((c) => c.scenario !== null).map((c) => c.scenario as string)
    expect([...covered].sort()).toEqual([...named].sort())
  })
})

describe('GET /fixtures', () => {
  test('lists every sandbox company, ordinary or magic, exactly once', async () => {
    const d = (await call(app, `${SANDBOX}/fixtures`)).body.data
    const listed = [...d.companies, ...d.magic_scenarios].map((c: any) => c.org_number).sort()
    expect(listed).toEqual(SANDBOX_COMPANIES.map((c) => c.org_number).sort())
  })

  test('names each magic scenario once, on a MOD-11 valid 999660XXX number', async () => {
    const { magic_scenarios } = (await call(app, `${SANDBOX}/fixtures`)).body.data
    expect(magic_scenarios.length).toBeGreaterThan(0)
    for (const m of magic_scenarios) {
      expect(m.org_number).toMatch(/^999660\d{3}$/)
      expect(hasValidCheckDigit(m.org_number)).toBe(true)
      expect(m.scenario).toBe(company(m.org_number).scenario)
    }
    expect(new Set(magic_scenarios.map((m: any) => m.scenario)).size).toBe(magic_scenarios.length)
  })

  test('describes the four valid series with their patterns, fixtures and synthetic numbers', async () => {
    const { valid_series, synthetic_companies } = (await call(app, `${SANDBOX}/fixtures`)).body.data
    const inSeries = (prefix: string) =>
      SANDBOX_COMPANIES.filter((c) => c.org_number.startsWith(prefix)).map((c) => c.org_number)
    expect(valid_series).toEqual([
      {
        prefix: '818',
        pattern: '^818[0-9]{6}$',
        size: 1_000_000,
        fixtures: inSeries('818'),
        other_numbers: 'synthetic',
      },
      {
        prefix: '99966',
        pattern: '^99966[0-9]{4}$',
        size: 10_000,
        fixtures: inSeries('99966'),
        other_numbers: 'synthetic',
      },
      {
        prefix: '99977',
        pattern: '^99977[0-9]{4}$',
        size: 10_000,
        fixtures: inSeries('99977'),
        other_numbers: 'synthetic',
      },
      { prefix: '999000002', pattern: '^999000002$', size: 1, fixtures: ['999000002'], other_numbers: null },
    ])
    expect(inSeries('818').length).toBeGreaterThan(0)
    for (const org of SYNTHETIC_EXAMPLES)
      expect(valid_series.some((s: any) => new RegExp(s.pattern).test(org))).toBe(true)
    expect(synthetic_companies.description_en).toContain('same number always gives the same company')
    expect(synthetic_companies.description_nb).toContain('samme nummer gir alltid samme selskap')
  })

  test('puts every ordinary company in a valid series (or the public mirror’s own org)', async () => {
    const { companies } = (await call(app, `${SANDBOX}/fixtures`)).body.data
    expect(companies.length).toBeGreaterThan(0)
    for (const c of companies) {
      const inSeries =
        /^(818|99966|99977)\d+$/.test(c.org_number) ||
        c.org_number === '999000002' ||
        c.org_number === PUBLIC_SANDBOX_ORG
      expect({ org: c.org_number, inSeries }).toEqual({ org: c.org_number, inSeries: true })
      expect(c).toMatchObject({
        entity_type: company(c.org_number).entity_type,
        data_tier: tierOf(company(c.org_number)),
      })
    }
  })

  test('lists the four reserved error orgs with their codes', async () => {
    const d = (await call(app, `${SANDBOX}/fixtures`)).body.data
    expect(d.reserved_error_org_numbers).toEqual([
      { org_number: '999000901', error_code: 'AUTH_MISSING_DELEGATION' },
      { org_number: '999000902', error_code: 'AUTH_EXPIRED_TOKEN' },
      { org_number: '999000903', error_code: 'VALIDATION_FAILED' },
      { org_number: '999000904', error_code: 'SCOPE_MISSING' },
    ])
  })

  test('answers in the sandbox envelope', async () => {
    const a = await call(app, `${SANDBOX}/fixtures`)
    expect(a.status).toBe(200)
    expect(a.body.success).toBe(true)
    expectSandboxMeta(a.body._meta)
  })
})

describe('the valid series', () => {
  test('every synthetic example answers 200 on every route, with the same company throughout', async () => {
    for (const org of SYNTHETIC_EXAMPLES) {
      const c = syntheticCompany(org)
      for (const route of ORG_ROUTES) {
        const a = await get(org, route)
        expect({ org, route, status: a.status }).toEqual({ org, route, status: 200 })
        expectSandboxMeta(a.body._meta)
      }
      expect((await data(org, 'context')).name).toBe(c.name)
      expect((await data(org, 'verify')).name).toBe(c.name)
      expect((await data(org, 'authority')).name).toBe(c.name)
    }
  })

  test('the first and last number of each series with free digits answer too', async () => {
    for (const prefix of SANDBOX_SERIES.filter((p) => p.length < 9)) {
      for (const org of [prefix.padEnd(9, '0'), prefix.padEnd(9, '9')])
        expect({ org, status: (await get(org, 'summary')).status }).toEqual({ org, status: 200 })
    }
  })

  test('a synthetic company the register shows as delegated is tier_1_2 with its figures; one that is not, tier_1', async () => {
    const orgs = Array.from({ length: 40 }, (_, i) => `818${String(200_000 + i).padStart(6, '0')}`)
    const delegated = orgs.find((org) => syntheticCompany(org).tier_2 !== null)!
    const undelegated = orgs.find((org) => syntheticCompany(org).tier_2 === null)!
    const t = syntheticCompany(delegated).tier_2!
    expect((await data(delegated, 'context')).tier_2).toMatchObject({
      employee_count: t.employee_count,
      annual_turnover: t.annual_turnover_nok,
      total_assets: t.total_assets_nok,
    })
    expect((await data(delegated, 'obligations')).data_tier).toBe('tier_1_2')
    expect((await data(undelegated, 'context')).tier_2).toBeNull()
    expect((await data(undelegated, 'obligations')).data_tier).toBe('tier_1')
  })
})

describe('organisations the sandbox does not serve', () => {
  test('a nine-digit org outside the series and the fixtures is 404 COMPANY_NOT_FOUND on every route', async () => {
    for (const org of ['123456785', '817999999', '999000003', '999650001']) {
      for (const route of ORG_ROUTES) {
        const body = expectSandboxError(await get(org, route), 404, 'COMPANY_NOT_FOUND')
        expect(body._meta).not.toHaveProperty('simulated')
      }
    }
  })

  test('an org that is not nine digits is 400 VALIDATION_FAILED', async () => {
    const body = expectSandboxError(await get('81800000', 'context'), 400, 'VALIDATION_FAILED')
    expect(body.explanation.details[0].field).toBe('org')
  })

  const reserved = Object.entries(RESERVED_ERROR_ORGS)
  const statusOf: Record<string, number> = {
    AUTH_MISSING_DELEGATION: 403,
    AUTH_EXPIRED_TOKEN: 401,
    VALIDATION_FAILED: 400,
    SCOPE_MISSING: 403,
  }
  for (const [org, code] of reserved) {
    test(`reserved ${org} answers ${code} on every route, marked simulated`, async () => {
      for (const route of ORG_ROUTES) {
        const body = expectSandboxError(await get(org, route), statusOf[code]!, code)
        expect(body._meta.simulated).toBe(true)
      }
    })
  }
})

describe('who may call', () => {
  test('no credential is needed', async () => {
    const a = await get('818000006', 'context')
    expect(a.status).toBe(200)
    expect(a.body.data.org_number).toBe('818000006')
  })

  test('a real key is accepted and gets the same mock answer as anyone', async () => {
    for (const route of ['context', 'deadlines', 'authority'] as const) {
      const [anonymous, keyed] = [await get('818000006', route), await get('818000006', route, bearer(realKey))]
      expect(keyed.status).toBe(200)
      expect(withoutTimestamp(keyed.text)).toBe(withoutTimestamp(anonymous.text))
    }
  })

  test('the synthetic bearer gets the same answer as anyone on the reads', async () => {
    const [anonymous, synth] = [await get('818000006', 'summary'), await get('818000006', 'summary', synthetic())]
    expect(synth.status).toBe(200)
    expect(withoutTimestamp(synth.text)).toBe(withoutTimestamp(anonymous.text))
  })

  test('an invalid real-looking key is 401 AUTH_INVALID_KEY in the sandbox envelope', async () => {
    expectSandboxError(
      await get('818000006', 'context', bearer('svc_live_0123456789abcdef0123456789abcdef')),
      401,
      'AUTH_INVALID_KEY',
    )
  })

  test('a real key of a deactivated consumer is 403 AUTH_CONSUMER_INACTIVE in the sandbox envelope, as its registry entry documents', async () => {
    const c = await createConsumer(app, 'free')
    const key = (await createKey(app, c.id)).key
    expect((await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { active: false }, admin)).status).toBe(200)
    expectSandboxError(await get('818000006', 'context', bearer(key)), 403, 'AUTH_CONSUMER_INACTIVE')
  })

  test('the synthetic bearer is 401 AUTH_INVALID_KEY on a production route', async () => {
    const a = await call(app, '/api/v1/company/984661185/context', synthetic())
    expect(a.status).toBe(401)
    expect(a.body.error_code).toBe('AUTH_INVALID_KEY')
    expect(a.body._meta.is_sandbox).toBeUndefined()
  })

  test('a suffix outside the charset is 400 VALIDATION_FAILED and its bytes are not echoed', async () => {
    const secret = 'hunter2.Secret+Value'
    const a = await get('818000006', 'context', { authorization: `Bearer svc_sandbox_test_${secret}` })
    const body = expectSandboxError(a, 400, 'VALIDATION_FAILED')
    expect(body.explanation.details.map((d: any) => d.field)).toEqual(['Authorization'])
    expect(a.text).not.toContain('hunter2')
    expect(app.logs.join('\n')).not.toContain('hunter2')
  })

  test('an empty suffix is 400 VALIDATION_FAILED', async () => {
    expectSandboxError(
      await get('818000006', 'context', { authorization: 'Bearer svc_sandbox_test_' }),
      400,
      'VALIDATION_FAILED',
    )
  })

  test('a suffix of 64 characters is accepted and one of 65 is not', async () => {
    expect((await get('818000006', 'context', synthetic('a'.repeat(64)))).status).toBe(200)
    expectSandboxError(await get('818000006', 'context', synthetic('a'.repeat(65))), 400, 'VALIDATION_FAILED')
  })
})

describe('audit', () => {
  /** The history the fixture implies: its delegation and its filings, newest first. */
  function expectedHistory(c: SandboxCompany) {
    const out: { at: number; action: string; details: Record<string, unknown> }[] = []
    if (c.delegation.system_user)
      out.push({
        at: Date.parse('2025-06-02T09:00:00+02:00'),
        action: 'delegation.granted',
        details: { system_user: true, scopes: c.delegation.scopes.join(' ') },
      })
    for (const [rule, period, at] of c.filed) {
      out.push({
        at: Date.parse(at),
        action: rule === 'a-melding' ? 'submit_a_melding' : 'submit_mva',
        details: { rule_id: rule, period, outcome: 'ACCEPTED' },
      })
    }
    return out.sort((a, b) => b.at - a.at)
  }
  const shape = (entries: any[]) =>
    entries.map((e) => ({ at: Date.parse(e.timestamp), action: e.action, details: e.details }))
  const row = (org: string, action: string) => ({
    id: crypto.randomUUID(),
    org_number: org,
    occurred_at: new Date(PINNED_NOW),
    action,
    initiated_by: 'sandbox_caller',
    details: { action_id: 'act_test', amount: 12, late: false, note: null },
  })

  test('lists the fixture history, newest first, in the audit-entry shape', async () => {
    const c = company('818000006')
    const d = await data(c.org_number, 'audit')
    expect(Value.Check(S.SandboxAudit, d)).toBe(true)
    expect(shape(d.data)).toEqual(expectedHistory(c))
    for (const e of d.data) expect(e).toMatchObject({ org_number: c.org_number, initiated_by: 'sandbox_fixture' })
  })

  test('shows the same fixture history to the anonymous caller, any synthetic bearer and a real key', async () => {
    const answers = [
      await get('818000006', 'audit'),
      await get('818000006', 'audit', synthetic()),
      await get('818000006', 'audit', bearer(realKey)),
    ]
    const [first, ...rest] = answers.map((a) => withoutTimestamp(a.text))
    for (const other of rest) expect(other).toBe(first!)
  })

  test('never paginates: limit 1 to 200 is accepted, answers at most that many entries and is echoed as 50 with has_more false', async () => {
    const history = expectedHistory(company('818000006'))
    for (const limit of [1, 50, 200]) {
      const d = await data('818000006', `audit?limit=${limit}`)
      expect(d.pagination).toEqual({ limit: 50, has_more: false })
      expect(shape(d.data)).toEqual(history.slice(0, limit))
    }
  })

  test('a namespace with many rows is answered its newest 50 by default, its newest `limit` up to 200, never more', async () => {
    const suffix = `many-${crypto.randomUUID()}`
    const base = Date.parse(PINNED_NOW)
    // 250 rows, one a minute: row i is the i-th newest when counted from the end.
    const rows = Array.from({ length: 250 }, (_, i) => ({
      ...row('999661009', 'approval_token.minted'),
      occurred_at: new Date(base + i * 60_000),
    }))
    for (const r of rows) await appendSandboxAudit(app.deps.sql, `sandbox:${suffix}`, r)
    const newest = rows.map((r) => r.id).reverse()
    const ids = async (query: string) =>
      ((await data('999661009', `audit${query}`, synthetic(suffix))).data as { id: string }[]).map((e) => e.id)
    expect(await ids('')).toEqual(newest.slice(0, S.SANDBOX_AUDIT_LIMIT.default))
    expect(await ids('?limit=7')).toEqual(newest.slice(0, 7))
    expect(await ids('?limit=200')).toEqual(newest.slice(0, 200))
    expectSandboxError(await get('999661009', 'audit?limit=201', synthetic(suffix)), 400, 'VALIDATION_FAILED')
  })

  test('the fixture history fills what the namespace’s own rows leave of the limit', async () => {
    const suffix = `few-${crypto.randomUUID()}`
    const own = row('818000006', 'submit_mva')
    await appendSandboxAudit(app.deps.sql, `sandbox:${suffix}`, own)
    const history = expectedHistory(company('818000006'))
    expect(history.length).toBeGreaterThan(1)
    const d = await data('818000006', `audit?limit=${history.length}`, synthetic(suffix))
    expect(d.data[0].id).toBe(own.id)
    expect(shape(d.data.slice(1))).toEqual(history.slice(0, history.length - 1))
  })

  test('a limit outside 1 to 200 is 400 VALIDATION_FAILED', async () => {
    for (const limit of [0, 201])
      expectSandboxError(await get('818000006', `audit?limit=${limit}`), 400, 'VALIDATION_FAILED')
  })

  test('rows written in a synthetic bearer’s namespace are shown to that bearer only, before the history', async () => {
    const suffix = `reader-${crypto.randomUUID()}`
    const own = row('999661009', 'submit_mva')
    await appendSandboxAudit(app.deps.sql, `sandbox:${suffix}`, own)
    const mine = await data('999661009', 'audit', synthetic(suffix))
    expect(Value.Check(S.SandboxAudit, mine)).toBe(true)
    expect(mine.data[0]).toEqual({
      id: own.id,
      timestamp: '2026-03-14T10:30:00.000+01:00',
      org_number: '999661009',
      action: 'submit_mva',
      initiated_by: 'sandbox_caller',
      details: own.details,
    })
    expect(shape(mine.data.slice(1))).toEqual(expectedHistory(company('999661009')))
    for (const other of [synthetic(), {}, bearer(realKey)]) {
      expect((await data('999661009', 'audit', other)).data.map((e: any) => e.id)).not.toContain(own.id)
    }
  })

  test('a namespace’s rows about another org stay out of this org’s trail', async () => {
    const suffix = `reader-${crypto.randomUUID()}`
    const elsewhere = row('999000002', 'approval_token.minted')
    await appendSandboxAudit(app.deps.sql, `sandbox:${suffix}`, elsewhere)
    expect((await data('999661009', 'audit', synthetic(suffix))).data.map((e: any) => e.id)).not.toContain(elsewhere.id)
    expect((await data('999000002', 'audit', synthetic(suffix))).data[0].id).toBe(elsewhere.id)
  })

  test('a real key’s rows live in its consumer’s namespace and are shown to it only', async () => {
    const own = row('999771009', 'submit_mva')
    await appendSandboxAudit(app.deps.sql, consumerSandboxNamespace(realConsumerId), own)
    expect((await data('999771009', 'audit', bearer(realKey))).data[0].id).toBe(own.id)
    expect((await data('999771009', 'audit')).data.map((e: any) => e.id)).not.toContain(own.id)
  })

  test('the anonymous namespace’s own rows are not shown, not even to the anonymous caller', async () => {
    const shared = row('999000002', 'approval_token.minted')
    await appendSandboxAudit(app.deps.sql, 'anonymous', shared)
    expect((await data('999000002', 'audit')).data.map((e: any) => e.id)).not.toContain(shared.id)
  })
})

describe('the sandbox _meta', () => {
  test('carries the pinned freshness, the sandbox rulebook and no hash or snapshot id', async () => {
    for (const route of ORG_ROUTES) {
      const a = await get('999000002', route)
      expect(a.status).toBe(200)
      expectSandboxMeta(a.body._meta)
      expect(a.body._meta).not.toHaveProperty('as_of')
      expect(a.body._meta).not.toHaveProperty('simulated')
    }
  })

  test('schema_version equals the OpenAPI info.version', async () => {
    const doc = await (await app.get('/openapi.json')).json()
    expect((await get('999000002', 'context')).body._meta.schema_version).toBe(doc.info.version)
  })

  test('response_timestamp carries +01:00 in winter', async () => {
    expect((await get('999000002', 'context')).body._meta.response_timestamp).toBe('2026-03-14T10:30:00.000+01:00')
  })

  test('response_timestamp carries +02:00 in summer', async () => {
    app.clock.set('2026-07-01T10:15:00.000Z')
    try {
      expect((await get('999000002', 'context')).body._meta.response_timestamp).toBe('2026-07-01T12:15:00.000+02:00')
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('response_timestamp switches offset at 01:00 UTC on the last Sunday of March', async () => {
    try {
      app.clock.set('2026-03-29T00:59:59.000Z')
      expect((await get('999000002', 'context')).body._meta.response_timestamp).toBe('2026-03-29T01:59:59.000+01:00')
      app.clock.set('2026-03-29T01:00:00.000Z')
      expect((await get('999000002', 'context')).body._meta.response_timestamp).toBe('2026-03-29T03:00:00.000+02:00')
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('the data does not move with the clock: only response_timestamp differs', async () => {
    const before = await get('818000006', 'summary')
    app.clock.set('2027-09-01T08:00:00.000Z')
    try {
      const later = await get('818000006', 'summary')
      expect(withoutTimestamp(later.text)).toBe(withoutTimestamp(before.text))
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })
})

describe('CORS', () => {
  test('a preflight is answered 204 with the origin open and the sandbox headers allowed', async () => {
    const res = await fetch(`${app.url}${SANDBOX}/company/818000006/context`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, x-service-simulate',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const allowed = (res.headers.get('access-control-allow-headers') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
    for (const h of ['authorization', 'idempotency-key', 'x-approval-token', 'x-service-simulate'])
      expect(allowed).toContain(h)
    expect(res.headers.get('access-control-allow-methods')).toContain('GET')
  })

  test('a success carries the open origin and exposes the correlation id', async () => {
    const a = await get('818000006', 'context')
    expect(a.headers.get('access-control-allow-origin')).toBe('*')
    expect(a.headers.get('access-control-expose-headers')).toContain('x-correlation-id')
  })

  test('errors carry the open origin too: 404, 400, 401 and an unknown sandbox path', async () => {
    const answers = [
      await get('123456785', 'context'),
      await get('818000006', 'context?simulate_latency=x'),
      await get('818000006', 'context', bearer('svc_live_nope')),
      await call(app, `${SANDBOX}/no-such-route`),
    ]
    expect(answers.map((a) => a.status)).toEqual([404, 400, 401, 404])
    for (const a of answers) expect(a.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('production routes stay without the open origin', async () => {
    expect((await app.get('/api/v1/errors')).headers.get('access-control-allow-origin')).toBeNull()
  })
})
