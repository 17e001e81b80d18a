/**
 * The change archive's other sources (src/domain/changes/observed.ts), each through the read that
 * observes it: a unit read live (VAT-register membership), an exchange-rate window ending today,
 * a Tier 2 employee count, the portal's filings, a delegation the agency decided. Each archives
 * one row when the observed value changes, none on a repeat, and only a baseline the first time.
 * On the run's shared database: each test counts rows under keys of its own (random org numbers
 * and currency codes), or counts what its own calls added.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runDelegationRefresh } from '../../../jobs/delegation-refresh.ts'
import { filedLookup, tier2Metrics } from '../../../src/domain/company/tier2.ts'
import { FRESHNESS, UpstreamReads } from '../../../src/domain/sources.ts'
import { employeeObservation, recordObservations, vatObservation } from '../../../src/domain/changes/observed.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { createLogger } from '../../../src/lib/log.ts'
import type { BusinessRegister } from '../../../src/upstream/business-register/port.ts'
import type { CentralBankClient } from '../../../src/upstream/central-bank/live.ts'
import type { FilingPortal, PortalInstance } from '../../../src/upstream/filing-portal/port.ts'
import type { LabourRegister } from '../../../src/upstream/labour-register/port.ts'
import type { RawResponse } from '../../../src/upstream/raw.ts'
import { createConsumer } from '../../helpers.ts'
import { PINNED_NOW, startApp, type TestApp } from '../../helpers.ts'
import { ORG, agent, decide, delegatedAgent, requestFullmakt } from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const randomOrg = () => String(Math.floor(100_000_000 + Math.random() * 799_999_999))
const randomCurrency = () =>
  `Q${String.fromCharCode(65 + Math.floor(Math.random() * 26))}${String.fromCharCode(65 + Math.floor(Math.random() * 26))}`

interface Row {
  seq: string
  source: string
  entity_type: string
  entity_id: string
  change_type: string
  field_path: string | null
  before_value: unknown
  after_value: unknown
  diff: unknown
  source_snapshot_id: string | null
}

async function rows(source: string, entityId: string): Promise<Row[]> {
  return app.deps.sql<Row[]>`
    select seq::text as seq, source, entity_type, entity_id, change_type, field_path, before_value, after_value, diff, source_snapshot_id
    from changes where source = ${source} and entity_id = ${entityId} order by seq`
}

async function baseline(source: string, entityId: string): Promise<unknown> {
  const [b] = await app.deps.sql<
    { value: unknown }[]
  >`select value from change_baselines where source = ${source} and entity_id = ${entityId}`
  return b?.value
}

/** UpstreamReads over scripted register and central bank answers, with a clock of its own. */
function scripted() {
  const clock = fixedClock(PINNED_NOW)
  const answers: string[] = []
  const raw = (system: RawResponse['system'], body: string): RawResponse => ({
    system,
    url: 'https://example.invalid/',
    status: 200,
    contentType: 'application/json',
    body,
    fetchedAt: clock.now(),
  })
  const next = () => {
    const b = answers.shift()
    if (b === undefined) throw new Error('unscripted upstream call')
    return b
  }
  const unscripted = () => Promise.reject(new Error('not scripted'))
  const register = {
    unit: async () => raw('enhetsregisteret', next()),
    roles: unscripted,
    signature: unscripted,
    prokura: unscripted,
    search: unscripted,
    updates: unscripted,
    updatesSince: unscripted,
    subUnit: unscripted,
    subUnitUpdates: unscripted,
    subUnitUpdatesSince: unscripted,
  } as unknown as BusinessRegister
  const centralBank = { exchangeRates: async () => raw('norges-bank', next()) } as unknown as CentralBankClient
  const reads = new UpstreamReads({
    sql: app.deps.sql,
    clock,
    logger: createLogger('error', () => {}),
    register,
    accounts: { accounts: unscripted } as never,
    centralBank,
  })
  return { clock, reads, answer: (...bodies: string[]) => answers.push(...bodies) }
}

const enhet = (org: string, vat: boolean) =>
  JSON.stringify({
    organisasjonsnummer: org,
    navn: `PRØVE ${org} AS`,
    organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
    registreringsdatoEnhetsregisteret: '2015-01-05',
    registrertIMvaregisteret: vat,
    konkurs: false,
    underAvvikling: false,
    underTvangsavviklingEllerTvangsopplosning: false,
  })

/** A Norges Bank EXR answer (SDMX-JSON) for one currency, one observation per [date, value]. */
function exr(currency: string, obs: [string, string][]) {
  const attr = (id: string, value: string) => ({
    id,
    relationship: { dimensions: ['FREQ', 'BASE_CUR', 'QUOTE_CUR', 'TENOR'] },
    values: [{ id: value, name: value }],
  })
  return JSON.stringify({
    data: {
      dataSets: [
        {
          series: {
            '0:0:0:0': {
              attributes: [0, 0],
              observations: Object.fromEntries(obs.map(([, v], i) => [String(i), [v]])),
            },
          },
        },
      ],
      structure: {
        dimensions: {
          series: [
            { id: 'FREQ', values: [{ id: 'B' }] },
            { id: 'BASE_CUR', values: [{ id: currency }] },
            { id: 'QUOTE_CUR', values: [{ id: 'NOK' }] },
            { id: 'TENOR', values: [{ id: 'SP' }] },
          ],
          observation: [{ id: 'TIME_PERIOD', values: obs.map(([d]) => ({ id: d })) }],
        },
        attributes: { series: [attr('DECIMALS', '4'), attr('UNIT_MULT', '0')] },
      },
    },
  })
}

describe('the tax authority: VAT-register membership, from units read live', () => {
  test('the first reading is a baseline; a repeat adds nothing; a change adds one row citing the answer; its repeat nothing', async () => {
    const s = scripted()
    const org = randomOrg()
    const later = () => s.clock.advance(FRESHNESS.unit.fresh + 1)
    s.answer(enhet(org, false), enhet(org, false), enhet(org, true), enhet(org, true))
    await s.reads.unit(org)
    expect([await rows('tax_authority', org), await baseline('tax_authority', org)]).toEqual([[], false])
    later()
    await s.reads.unit(org)
    expect(await rows('tax_authority', org)).toEqual([])
    later()
    const changed = await s.reads.unit(org)
    later()
    await s.reads.unit(org)
    expect(await rows('tax_authority', org)).toEqual([
      {
        seq: expect.any(String),
        source: 'tax_authority',
        entity_type: 'vat_registration',
        entity_id: org,
        change_type: 'updated',
        field_path: '/mva_registered',
        before_value: false,
        after_value: true,
        diff: [{ op: 'replace', path: '/mva_registered', value: true }],
        source_snapshot_id: changed.source.snapshotId,
      },
    ])
  })

  test('a unit served from the cache is not an observation: no upstream answer, no row', async () => {
    const s = scripted()
    const org = randomOrg()
    s.answer(enhet(org, true))
    await s.reads.unit(org)
    await app.deps
      .sql`update change_baselines set value = 'false'::jsonb where source = 'tax_authority' and entity_id = ${org}`
    await s.reads.unit(org) // fresh: from the cache
    expect(await rows('tax_authority', org)).toEqual([])
  })
})

describe('the central bank: an exchange-rate series’ new value', () => {
  const today = '2026-03-04'
  test('a window ending today archives the series’ newest rate once; an older reading changes nothing', async () => {
    const s = scripted()
    const cur = randomCurrency()
    const later = () => s.clock.advance(FRESHNESS.rates.fresh + 1)
    s.answer(
      exr(cur, [
        ['2026-03-02', '10.5550'],
        ['2026-03-03', '10.6010'],
      ]),
      exr(cur, [
        ['2026-03-02', '10.5550'],
        ['2026-03-03', '10.6010'],
      ]),
      exr(cur, [
        ['2026-03-03', '10.6010'],
        ['2026-03-04', '10.6120'],
      ]),
      exr(cur, [
        ['2026-03-03', '10.6010'],
        ['2026-03-04', '10.6120'],
      ]),
      exr(cur, [['2026-03-02', '10.5550']]),
    )
    await s.reads.exchangeRates(cur, '2026-03-02', today, today)
    expect([await rows('centralbank', cur), await baseline('centralbank', cur)]).toEqual([
      [],
      { date: '2026-03-03', rate: 10.601 },
    ])
    later()
    await s.reads.exchangeRates(cur, '2026-03-02', today, today)
    later()
    const changed = await s.reads.exchangeRates(cur, '2026-03-02', today, today)
    later()
    await s.reads.exchangeRates(cur, '2026-03-02', today, today)
    later()
    await s.reads.exchangeRates(cur, '2026-03-01', today, today) // a reading that ends before the baseline's date
    expect(await rows('centralbank', cur)).toEqual([
      {
        seq: expect.any(String),
        source: 'centralbank',
        entity_type: 'exchange_rate',
        entity_id: cur,
        change_type: 'updated',
        field_path: '/rate',
        before_value: 10.601,
        after_value: 10.612,
        diff: [
          { op: 'replace', path: '/rate', value: 10.612 },
          { op: 'replace', path: '/date', value: '2026-03-04' },
        ],
        source_snapshot_id: changed.source.snapshotId,
      },
    ])
    expect(await baseline('centralbank', cur)).toEqual({ date: '2026-03-04', rate: 10.612 })
  })

  test('a window that ended before today is history, not an observation of the series', async () => {
    const s = scripted()
    const cur = randomCurrency()
    s.answer(exr(cur, [['2026-02-02', '9.1000']]))
    await s.reads.exchangeRates(cur, '2026-02-01', '2026-02-03', today)
    expect(await baseline('centralbank', cur)).toBeUndefined()
  })
})

describe('the labour register: a delegated company’s employee count', () => {
  test('a changed count adds one row that withholds the values (Tier 2); a repeat adds nothing', async () => {
    const a = await delegatedAgent(app)
    let count = 7
    const labourRegister: LabourRegister = { mock: false, employeeCount: async () => count }
    const deps = {
      sql: app.deps.sql,
      clock: app.clock,
      logger: app.deps.logger,
      reads: app.deps.reads,
      tokenService: app.deps.government.tokenService,
      labourRegister,
      filingPortal: app.deps.filingPortal,
    }
    // The organisation may have a baseline from another test already: count what these calls add.
    await tier2Metrics(deps, ORG, a.consumerId)
    const before = (await rows('labour_register', ORG)).length
    await tier2Metrics(deps, ORG, a.consumerId)
    expect(await rows('labour_register', ORG)).toHaveLength(before)
    count = 8
    const m = await tier2Metrics(deps, ORG, a.consumerId)
    await tier2Metrics(deps, ORG, a.consumerId)
    expect(m.metrics.employee_count).toBe(8)
    const added = (await rows('labour_register', ORG)).slice(before)
    expect(added).toEqual([
      {
        seq: expect.any(String),
        source: 'labour_register',
        entity_type: 'employees',
        entity_id: ORG,
        change_type: 'updated',
        field_path: '/employee_count',
        before_value: null,
        after_value: null,
        diff: [{ op: 'replace', path: '/employee_count' }],
        source_snapshot_id: null,
      },
    ])
  })

  test('a first observation is a baseline only', async () => {
    const org = randomOrg()
    expect(await recordObservations(app.deps.sql, employeeObservation(org, 3), app.clock.now())).toEqual({
      baselined: 1,
      changes: 0,
    })
    expect([await rows('labour_register', org), await baseline('labour_register', org)]).toEqual([[], 3])
  })
})

describe('observers at once', () => {
  test('five observers of one change archive it once; five first observations write one baseline and no row', async () => {
    const org = randomOrg()
    const now = app.clock.now()
    const first = await Promise.all(
      Array.from({ length: 5 }, () => recordObservations(app.deps.sql, employeeObservation(org, 1), now)),
    )
    expect(first.reduce((n, r) => n + r.baselined + r.changes, 0)).toBe(1)
    const second = await Promise.all(
      Array.from({ length: 5 }, () => recordObservations(app.deps.sql, employeeObservation(org, 2), now)),
    )
    expect(second.reduce((n, r) => n + r.changes, 0)).toBe(1)
    expect(await rows('labour_register', org)).toHaveLength(1)
  })
})

describe('the filing portal: an organisation’s filings', () => {
  const instance = (org: string, guid: string, ended: string | null): PortalInstance => ({
    id: `50001234/${guid}`,
    appId: 'skd/mva-melding-innsending-v1',
    org,
    instanceOwner: { partyId: '50001234', organisationNumber: org },
    title: { nb: 'Mva-melding 2026-T1', en: 'VAT return 2026-T1' },
    lastChanged: '2026-03-01T10:00:00Z',
    status: { isArchived: ended !== null, archived: ended, isSoftDeleted: false },
    process: { ended, currentTask: ended === null ? 'Task_1' : null },
  })

  test('a filing that appears, then one that is submitted, add a row each (values withheld); repeats add nothing', async () => {
    const org = randomOrg()
    let list: PortalInstance[] = []
    const filingPortal: FilingPortal = { mock: false, instances: async () => list }
    const look = () => filedLookup({ sql: app.deps.sql, logger: app.deps.logger, filingPortal }, org, app.clock.now())
    await look()
    await look()
    expect([await rows('portal', org), await baseline('portal', org)]).toEqual([[], {}])
    list = [instance(org, 'a1', null)]
    await look()
    await look()
    expect(await rows('portal', org)).toHaveLength(1)
    list = [instance(org, 'a1', '2026-03-10T08:00:00Z')]
    await look()
    await look()
    const r = await rows('portal', org)
    expect(r).toHaveLength(2)
    expect(r.map((x) => [x.entity_type, x.field_path, x.before_value, x.after_value, x.diff])).toEqual(
      Array(2).fill(['filings', '/filings', null, null, [{ op: 'replace', path: '/filings' }]]),
    )
    expect(await baseline('portal', org)).toEqual({ [`50001234/a1`]: 'submitted' })
  })

  test('a portal that cannot be read is no observation', async () => {
    const org = randomOrg()
    const filingPortal: FilingPortal = { mock: false, instances: async () => Promise.reject(new Error('down')) }
    await filedLookup({ sql: app.deps.sql, logger: app.deps.logger, filingPortal }, org, app.clock.now())
    expect(await baseline('portal', org)).toBeUndefined()
  })
})

describe('the digital agency: a delegation it decided', () => {
  const jobDeps = () => ({
    sql: app.deps.sql,
    clock: app.clock,
    logger: app.deps.logger,
    register: app.deps.register,
    digitalAgency: app.deps.digitalAgency,
    serverKeys: app.deps.serverKeys,
  })
  const decidedRows = async (requestId: string) => [
    ...(await app.deps.sql<
      { entity_id: string; change_type: string; field_path: string; before_value: unknown; after_value: unknown }[]
    >`
      select entity_id, change_type, field_path, before_value, after_value from changes where source = 'directorate' and source_ref like ${`digital-agency:request:${requestId}:%`}`),
  ]

  test('an approval adds one row when recorded, none when asked again; a request made is no change', async () => {
    const { data } = await (await requestFullmakt(app, await agent(app))).json()
    const [g] = await app.deps.sql<
      { request_id: string }[]
    >`select request_id from delegations where id = ${data.delegation_id}`
    await runDelegationRefresh(jobDeps())
    expect(await decidedRows(g!.request_id)).toEqual([])
    await decide(app, data.delegation_url)
    app.clock.advance(6_000) // asked a moment ago: due again after 5 s
    await runDelegationRefresh(jobDeps())
    app.clock.advance(6_000)
    await runDelegationRefresh(jobDeps())
    expect(await decidedRows(g!.request_id)).toEqual([
      { entity_id: ORG, change_type: 'updated', field_path: '/status', before_value: 'pending', after_value: 'active' },
    ])
  })

  test('a request repeated after the person approved archives the decision once, whichever step sees it', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const { data } = await (await requestFullmakt(app, a, { agent_principal_id: principal })).json()
    const [g] = await app.deps.sql<
      { request_id: string }[]
    >`select request_id from delegations where id = ${data.delegation_id}`
    await decide(app, data.delegation_url)
    const again = await requestFullmakt(app, a, { agent_principal_id: principal })
    expect(again.status).toBeLessThan(300)
    app.clock.advance(6_000)
    await runDelegationRefresh(jobDeps())
    expect((await decidedRows(g!.request_id)).map((r) => r.after_value)).toEqual(['active'])
  })

  test('a rejection is archived as rejected, with no person in the row', async () => {
    const { data } = await (await requestFullmakt(app, await agent(app))).json()
    const [g] = await app.deps.sql<
      { request_id: string }[]
    >`select request_id from delegations where id = ${data.delegation_id}`
    await decide(app, data.delegation_url, 'Rejected')
    await runDelegationRefresh(jobDeps())
    const r = await app.deps
      .sql`select * from changes where source = 'directorate' and source_ref like ${`digital-agency:request:${g!.request_id}:%`}`
    expect(r.map((x) => x.after_value)).toEqual(['rejected'])
    expect(JSON.stringify(r)).not.toContain('Kari')
    expect(JSON.stringify(r)).not.toContain('Nordmann')
  })
})

describe('webhooks', () => {
  test('rows of the other sources queue no delivery, even for a subscription whose columns name them', async () => {
    const consumer = [await createConsumer(app, 'professional')]
    const subs = [
      { source: 'register', entity_type: 'annual_accounts', change_type: 'updated' },
      { source: 'tax_authority', entity_type: 'vat_registration', change_type: 'updated' },
    ]
    const ids: string[] = []
    for (const f of subs) {
      const id = crypto.randomUUID()
      ids.push(id)
      await app.deps
        .sql`insert into webhook_subscriptions (id, consumer_id, webhook_url, filter_source, filter_entity_type, filter_change_type, secret_ciphertext, created_at)
        values (${id}, ${consumer[0]!.id}, 'https://receiver.example.com/hook', ${f.source}, ${f.entity_type}, ${f.change_type}, 'x', ${app.clock.now()})`
    }
    try {
      const org = randomOrg()
      await recordObservations(
        app.deps.sql,
        vatObservation({ org_number: org, status: 'active', vat_registered: false } as never, null),
        app.clock.now(),
      )
      expect(
        await recordObservations(
          app.deps.sql,
          vatObservation({ org_number: org, status: 'active', vat_registered: true } as never, null),
          app.clock.now(),
        ),
      ).toEqual({ baselined: 0, changes: 1 })
      const queued = await app.deps
        .sql`select d.id from webhook_deliveries d join changes c on c.id = d.change_id where c.entity_id = ${org}`
      expect(queued).toHaveLength(0)
    } finally {
      await app.deps
        .sql`update webhook_subscriptions set active = false, deactivation_reason = 'deleted', deactivated_at = ${app.clock.now()} where id in ${app.deps.sql(ids)}`
    }
  })
})
