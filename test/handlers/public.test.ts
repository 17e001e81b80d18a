import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { PublicDeadlines, PublicObligations } from '../../src/schemas/rulebook.ts'
import { canonicalJson } from '../../src/lib/canonical-json.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { createConsumer, createKey } from '../helpers.ts'
import { startApp, type TestApp, PINNED_NOW } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

describe('GET /api/v1/public/deadlines', () => {
  test('defaults to the current Oslo year and matches its schema', async () => {
    const body = await (await app.get('/api/v1/public/deadlines')).json()
    expect(body.data.year).toBe(2026)
    expect(Value.Check(PublicDeadlines, body.data)).toBe(true)
    expect(body._meta).toMatchObject({ rulebook_version: '1.1.0', served_from: 'static' })
    expect(body._meta.legal_basis).toContain('§ 5-5')
    expect(body._meta.response_hash).toBe(`sha256:${sha256Hex(canonicalJson(body.data))}`)
  })

  test('the default year follows Oslo midnight, not UTC', async () => {
    app.clock.set('2026-12-31T23:30:00Z') // 00:30 on 1 January 2027 in Oslo
    try {
      expect((await (await app.get('/api/v1/public/deadlines')).json()).data.year).toBe(2027)
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('gives the shifted March 2026 a-melding with the legal date and why it moved', async () => {
    const { data } = await (await app.get('/api/v1/public/deadlines?year=2026')).json()
    const e = data.deadlines.find((d: { obligation_id: string }) => d.obligation_id === 'a-melding-2026-03')
    expect(e).toMatchObject({
      rule_id: 'a-melding',
      period: '2026-03',
      deadline: '2026-04-07T23:59:59+02:00',
      submission_window_closes: '2026-04-07T23:59:59+02:00',
      adjusted_from: '2026-04-05T23:59:59+02:00',
      business_day_adjusted: true,
      applies_to_entity_types: ['AS', 'ENK', 'ANS', 'DA', 'NUF'],
    })
    expect(e.adjustment.reason.nb).toContain('andre påskedag')
    expect(e.adjustment.skipped.map((s: { date: string }) => s.date)).toEqual(['2026-04-05', '2026-04-06'])
    expect(e.legal_reference).toContain('a-opplysningsforskriften')
  })

  test('shows the contested Q2 reverse-charge date: the earlier date answered, both dates and their sources in the entry', async () => {
    const { data } = await (await app.get('/api/v1/public/deadlines?year=2025')).json()
    const e = data.deadlines.find(
      (d: { obligation_id: string }) => d.obligation_id === 'mva-omvendt-avgiftsplikt-2-2025',
    )
    expect(e).toMatchObject({
      rule_id: 'mva-omvendt-avgiftsplikt',
      period: '2025-Q2',
      deadline: '2025-08-11T23:59:59+02:00',
      adjusted_from: '2025-08-10T23:59:59+02:00',
    })
    expect(e.uncertainties).toHaveLength(1)
    expect(e.uncertainties[0]).toMatchObject({
      id: 'mva-omvendt-avgiftsplikt-q2',
      as_of: '2025-10-27',
      scope: 'periods',
    })
    expect(
      e.uncertainties[0].contested_dates.map((c: { date: string; answered: boolean }) => [c.date, c.answered]),
    ).toEqual([
      ['2025-08-10', true],
      ['2025-08-31', false],
    ])
    expect(e.uncertainties[0].sources.length).toBe(3)
  })

  test('an entry without open points has no uncertainties field', async () => {
    const { data } = await (await app.get('/api/v1/public/deadlines?year=2026')).json()
    expect(
      data.deadlines.find((d: { obligation_id: string }) => d.obligation_id === 'a-melding-2026-03'),
    ).not.toHaveProperty('uncertainties')
  })

  test('lists an entry under the year its deadline falls in', async () => {
    const y2026 = (await (await app.get('/api/v1/public/deadlines?year=2026')).json()).data.deadlines.map(
      (d: { obligation_id: string }) => d.obligation_id,
    )
    expect(y2026).toContain('mva-termin-6-2025')
    expect(y2026).not.toContain('mva-termin-6-2026')
  })

  test('is sorted by deadline', async () => {
    const { data } = await (await app.get('/api/v1/public/deadlines?year=2027')).json()
    const dates = data.deadlines.map((d: { deadline: string }) => d.deadline.slice(0, 10))
    expect(dates).toEqual([...dates].sort())
  })

  test('is byte-identical between calls for the same year', async () => {
    const a = await (await app.get('/api/v1/public/deadlines?year=2031')).json()
    const b = await (await app.get('/api/v1/public/deadlines?year=2031')).json()
    expect(a.data).toEqual(b.data)
    expect(a._meta.response_hash).toBe(b._meta.response_hash)
  })

  test.each(['2020', '2100'])('accepts the bound %s', async (year) => {
    expect((await app.get(`/api/v1/public/deadlines?year=${year}`)).status).toBe(200)
  })

  test.each(['2019', '2101', 'abc', '2026.5', '', '-2026', '20260'])(
    'rejects year=%p with VALIDATION_FAILED on year',
    async (year) => {
      const res = await app.get(`/api/v1/public/deadlines?year=${year}`)
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.error_code).toBe('VALIDATION_FAILED')
      expect(body.explanation.details.map((d: { field: string }) => d.field)).toContain('year')
    },
  )

  test('filters to the deadlines that can concern one company type', async () => {
    const { data } = await (await app.get('/api/v1/public/deadlines?year=2026&entity_type=AS')).json()
    expect(data.entity_type).toBe('AS')
    const rules = new Set(data.deadlines.map((d: { rule_id: string }) => d.rule_id))
    expect(rules.has('aksjonaerregisteroppgave')).toBe(true)
    expect(rules.has('selskapsmelding')).toBe(false)
    expect(rules.has('skattemelding-naering')).toBe(false)
    expect(
      data.deadlines.every((d: { applies_to_entity_types: string[] }) => d.applies_to_entity_types.includes('AS')),
    ).toBe(true)
    const all = (await (await app.get('/api/v1/public/deadlines?year=2026')).json()).data
    expect(all.entity_type).toBeNull()
    expect(all.deadlines.length).toBeGreaterThan(data.deadlines.length)
  })

  test('rejects an unknown entity_type filter', async () => {
    const res = await app.get('/api/v1/public/deadlines?entity_type=ASA')
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details.map((d: { field: string }) => d.field)).toContain('entity_type')
  })

  test('rejects an unknown query parameter', async () => {
    const res = await app.get('/api/v1/public/deadlines?yaer=2026')
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details.map((d: { field: string }) => d.field)).toContain('yaer')
  })
})

describe('GET /api/v1/public/obligations', () => {
  test.each(['AS', 'ENK', 'ANS', 'DA', 'NUF'])('lists the obligations of %s and matches the schema', async (type) => {
    const body = await (await app.get(`/api/v1/public/obligations?entity_type=${type}`)).json()
    expect(body.data.entity_type).toBe(type)
    expect(Value.Check(PublicObligations, body.data)).toBe(true)
    const ids = body.data.obligations.map((o: { obligation_id: string }) => o.obligation_id)
    expect(ids).toEqual([...ids].sort())
  })

  test('marks what needs Tier 2 data for an AS as the rulebook matrix says', async () => {
    const { data } = await (await app.get('/api/v1/public/obligations?entity_type=AS')).json()
    const t2 = Object.fromEntries(
      data.obligations.map((o: { obligation_id: string; tier_2_required: boolean }) => [
        o.obligation_id,
        o.tier_2_required,
      ]),
    )
    expect(t2).toMatchObject({
      aksjonaerregisteroppgave: false,
      arsregnskap: false,
      'skattemelding-upersonlig': false,
      'reelle-rettighetshavere': false,
      'mva-termin': false,
      'a-melding': true,
      'arbeidsgiveravgift-termin': true,
      revisjon: true,
      'forskuddsskatt-upersonlig': true,
      'mva-arstermin': true,
    })
  })

  test('the 1.1.0 rules for an AS: the general meeting decided from the register, the conditional ones needing Tier 2', async () => {
    const { data } = await (await app.get('/api/v1/public/obligations?entity_type=AS')).json()
    const t2 = Object.fromEntries(
      data.obligations.map((o: { obligation_id: string; tier_2_required: boolean }) => [
        o.obligation_id,
        o.tier_2_required,
      ]),
    )
    expect(t2).toMatchObject({
      generalforsamling: false,
      'arsregnskap-fastsetting': false,
      tilleggsforskudd: true,
      'mva-manedlig': true,
      'mva-arstermin-primaer': true,
      'mva-omvendt-avgiftsplikt': true,
      'apenhetsloven-redegjorelse': true,
    })
  })

  test('a sole proprietorship needs Tier 2 data for its accounts duty but not for its tax return', async () => {
    const { data } = await (await app.get('/api/v1/public/obligations?entity_type=ENK')).json()
    const byId = Object.fromEntries(data.obligations.map((o: { obligation_id: string }) => [o.obligation_id, o]))
    expect(byId.arsregnskap.tier_2_required).toBe(true)
    expect(byId['skattemelding-naering'].tier_2_required).toBe(false)
    expect(byId['reelle-rettighetshavere']).toBeUndefined()
  })

  test.each(['', 'as', 'ASA', 'SA'])('rejects entity_type=%p with VALIDATION_FAILED', async (type) => {
    const res = await app.get(`/api/v1/public/obligations?entity_type=${type}`)
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details.map((d: { field: string }) => d.field)).toContain('entity_type')
  })

  test('requires entity_type', async () => {
    const res = await app.get('/api/v1/public/obligations')
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details).toContainEqual({ field: 'entity_type', message: 'is required' })
  })
})

describe('a credential presented on a keyless route (spec Credentials: never downgraded to keyless)', () => {
  test('a revoked key, an unknown one or a header that is not a bearer is refused 401 AUTH_INVALID_KEY', async () => {
    const c = await createConsumer(app)
    const k = await createKey(app, c.id)
    expect(
      (
        await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, {
          authorization: `Bearer ${app.config.adminToken}`,
        })
      ).status,
    ).toBe(200)
    for (const authorization of [`Bearer ${k.key}`, 'Bearer svc_free_not-a-key', 'Basic YWJjOmRlZg==']) {
      const res = await app.get('/api/v1/public/deadlines?year=2026', { headers: { authorization } })
      expect([authorization.slice(0, 12), res.status]).toEqual([authorization.slice(0, 12), 401])
      expect((await res.json()).error_code).toBe('AUTH_INVALID_KEY')
    }
  })

  test('a live key is served as keyless, whatever its scopes', async () => {
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id, ['read:changes'])
    expect(
      (await app.get('/api/v1/public/deadlines?year=2026', { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(200)
  })
})
