/**
 * Enhetsregisteret and Fullmakttjenesten answers → our shapes, on fixtures written in the recorded
 * formats of the open API (reference: upstreams.md §1). Variations of a fixture are made by
 * changing one field of the parsed fixture, so every test starts from a real-format answer.
 */
import { describe, expect, test } from 'bun:test'
import {
  mapAuthority,
  mapRoles,
  mapSearch,
  mapSubUnit,
  mapUnit,
  mapUpdates,
  unitFromObject,
  type RegisterSubUnit,
  type RegisterUnit,
} from '../../../src/upstream/business-register/map.ts'
import { MalformedUpstream, type RawResponse, type UpstreamSystem } from '../../../src/upstream/raw.ts'
import { PINNED_NOW } from '../../helpers.ts'

const dir = `${import.meta.dir}/fixtures`
const fixture = (name: string) => Bun.file(`${dir}/${name}`).text()

const LIVE = '912345688'
const DELETED = '912345718'
const REMOVED = '912345726'

function raw(body: string, status = 200, system: UpstreamSystem = 'enhetsregisteret'): RawResponse {
  return {
    system,
    url: `https://data.brreg.no/enhetsregisteret/api/enheter/${LIVE}`,
    status,
    contentType: status === 404 ? null : 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8',
    body,
    fetchedAt: new Date(PINNED_NOW),
  }
}

/** A fixture with one change applied, as a 200 answer. */
async function mutated(
  name: string,
  change: (doc: any) => void,
  system: UpstreamSystem = 'enhetsregisteret',
): Promise<RawResponse> {
  const doc = JSON.parse(await fixture(name))
  change(doc)
  return raw(JSON.stringify(doc), 200, system)
}

function malformed(run: () => unknown): MalformedUpstream {
  try {
    run()
  } catch (e) {
    expect(e).toBeInstanceOf(MalformedUpstream)
    return e as MalformedUpstream
  }
  throw new Error('expected MalformedUpstream')
}

async function liveUnit(change: (doc: any) => void = () => {}): Promise<RegisterUnit> {
  const lookup = mapUnit(await mutated('enhet-live.json', change), LIVE)
  if (lookup.kind !== 'found') throw new Error(`expected found, got ${lookup.kind}`)
  return lookup.unit
}

describe('mapUnit: a live Enhet (v2)', () => {
  test('is found and active, with number, name and organisation form', async () => {
    const unit = await liveUnit()
    expect(unit).toMatchObject({
      org_number: LIVE,
      name: 'FJORDLYS TEKNIKK AS',
      org_form: { code: 'AS', description: 'Aksjeselskap' },
      status: 'active',
      deleted_date: null,
    })
  })

  test('reads registration and foundation dates', async () => {
    const unit = await liveUnit()
    expect(unit.registered_date).toBe('2013-06-14')
    expect(unit.founded_date).toBe('2013-05-30')
  })

  test('naeringskode1, 2 and 3 become the NACE list in order', async () => {
    const unit = await liveUnit()
    expect(unit.nace).toEqual([
      { code: '62.010', description: 'Programmeringstjenester' },
      { code: '70.220', description: 'Bedriftsrådgivning og annen administrativ rådgivning' },
      { code: '68.209', description: 'Utleie av egen eller leid fast eiendom ellers' },
    ])
  })

  test('the institutional sector code is kept with its description', async () => {
    expect((await liveUnit()).sector).toEqual({ code: '2100', description: 'Private aksjeselskaper mv.' })
  })

  test('address lines that are null or "" are dropped; the rest of the address is kept', async () => {
    const unit = await liveUnit()
    expect(unit.business_address).toEqual({
      lines: ['Strandkaien 2'],
      postal_code: '5011',
      city: 'BERGEN',
      municipality_number: '4601',
      municipality: 'BERGEN',
      country_code: 'NO',
      country: 'Norge',
    })
    expect(unit.postal_address?.lines).toEqual(['Postboks 1234'])
  })

  test('harRegistrertAntallAnsatte false with antallAnsatte absent: employees unknown (null), not 0', async () => {
    const unit = await liveUnit()
    expect(unit.has_registered_employees).toBe(false)
    expect(unit.employees).toBeNull()
  })

  test('a registered employee count is read as a number', async () => {
    const unit = await liveUnit((d) => {
      d.harRegistrertAntallAnsatte = true
      d.antallAnsatte = 17
    })
    expect(unit.employees).toBe(17)
    expect(unit.has_registered_employees).toBe(true)
  })

  test('kapital (observed live, not in the schema) becomes capital with amount, currency and type', async () => {
    expect((await liveUnit()).capital).toEqual({ amount: 30000, currency: 'NOK', type: 'Aksjekapital' })
  })

  test('no kapital: capital is null', async () => {
    expect((await liveUnit((d) => delete d.kapital)).capital).toBeNull()
  })

  test('sisteInnsendteAarsregnskap, a string year, becomes a number', async () => {
    expect((await liveUnit()).last_accounts_year).toBe(2024)
  })

  test('VAT registration, its date and the voluntary VAT descriptions are read', async () => {
    const unit = await liveUnit()
    expect(unit.vat_registered).toBe(true)
    expect(unit.vat_registered_date).toBe('2013-07-01')
    expect(unit.voluntary_vat).toEqual(['Utleier av bygg eller anlegg'])
  })

  test('the enterprise register flag and its date are read', async () => {
    const unit = await liveUnit()
    expect(unit.in_enterprise_register).toBe(true)
    expect(unit.enterprise_registered_date).toBe('2013-06-15')
  })

  test('bankruptcy and dissolution flags false are false, their dates null', async () => {
    const unit = await liveUnit()
    expect(unit).toMatchObject({
      bankrupt: false,
      bankrupt_date: null,
      under_dissolution: false,
      under_dissolution_date: null,
      under_forced_dissolution: false,
      forced_dissolution_date: null,
    })
  })

  test('bankruptcy with its date is read', async () => {
    const unit = await liveUnit((d) => {
      d.konkurs = true
      d.konkursdato = '2025-11-20'
    })
    expect(unit.bankrupt).toBe(true)
    expect(unit.bankrupt_date).toBe('2025-11-20')
  })

  test("the forced-dissolution date is the earliest of the register's forced-dissolution dates", async () => {
    const unit = await liveUnit((d) => {
      d.underTvangsavviklingEllerTvangsopplosning = true
      d.tvangsopplostPgaManglendeRevisorDato = '2025-09-01'
      d.tvangsopplostPgaManglendeDagligLederDato = '2025-06-15'
      d.tvangsopplostPgaMangelfulltStyreDato = ''
    })
    expect(unit.under_forced_dissolution).toBe(true)
    expect(unit.forced_dissolution_date).toBe('2025-06-15')
  })

  test('the website is read; the parent and home-country registration are null when absent', async () => {
    const unit = await liveUnit()
    expect(unit.website).toBe('www.fjordlys-teknikk.no')
    expect(unit.parent_org_number).toBeNull()
    expect(unit.home_country_registration).toBeNull()
  })

  test('overordnetEnhet (public-sector parent) is read as the parent org number', async () => {
    expect((await liveUnit((d) => (d.overordnetEnhet = '912345742'))).parent_org_number).toBe('912345742')
  })
})

describe('mapUnit: tolerance', () => {
  test('flags as the strings "true" and "false" are booleans', async () => {
    const unit = await liveUnit((d) => {
      d.konkurs = 'true'
      d.underAvvikling = 'false'
      d.registrertIMvaregisteret = 'false'
      d.harRegistrertAntallAnsatte = 'true'
    })
    expect(unit.bankrupt).toBe(true)
    expect(unit.under_dissolution).toBe(false)
    expect(unit.vat_registered).toBe(false)
    expect(unit.has_registered_employees).toBe(true)
  })

  test('a missing flag is unknown (null), never false', async () => {
    const unit = await liveUnit((d) => {
      for (const k of [
        'konkurs',
        'underAvvikling',
        'underTvangsavviklingEllerTvangsopplosning',
        'registrertIMvaregisteret',
        'registrertIForetaksregisteret',
        'harRegistrertAntallAnsatte',
      ])
        delete d[k]
    })
    expect(unit.bankrupt).toBeNull()
    expect(unit.under_dissolution).toBeNull()
    expect(unit.under_forced_dissolution).toBeNull()
    expect(unit.vat_registered).toBeNull()
    expect(unit.in_enterprise_register).toBeNull()
    expect(unit.has_registered_employees).toBeNull()
  })

  test('a flag that is neither boolean nor "true"/"false" is unknown (null)', async () => {
    expect((await liveUnit((d) => (d.konkurs = 'ja'))).bankrupt).toBeNull()
  })

  test('"" dates are null', async () => {
    const unit = await liveUnit((d) => {
      d.registreringsdatoEnhetsregisteret = ''
      d.stiftelsesdato = ''
      d.registreringsdatoMerverdiavgiftsregisteret = ''
      d.registreringsdatoForetaksregisteret = ''
      d.konkursdato = ''
    })
    expect(unit).toMatchObject({
      registered_date: null,
      founded_date: null,
      vat_registered_date: null,
      enterprise_registered_date: null,
      bankrupt_date: null,
    })
  })

  test('the VAT date falls back to registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret', async () => {
    const unit = await liveUnit((d) => {
      delete d.registreringsdatoMerverdiavgiftsregisteret
      d.registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret = '2013-07-02'
    })
    expect(unit.vat_registered_date).toBe('2013-07-02')
  })

  test('an empty or missing sisteInnsendteAarsregnskap is null', async () => {
    expect((await liveUnit((d) => (d.sisteInnsendteAarsregnskap = ''))).last_accounts_year).toBeNull()
    expect((await liveUnit((d) => delete d.sisteInnsendteAarsregnskap)).last_accounts_year).toBeNull()
  })

  test('an address with no adresse array has no lines', async () => {
    expect((await liveUnit((d) => delete d.forretningsadresse.adresse)).business_address?.lines).toEqual([])
  })

  test('absent naeringskoder give an empty NACE list, absent addresses null', async () => {
    const unit = await liveUnit((d) => {
      delete d.naeringskode1
      delete d.naeringskode2
      delete d.naeringskode3
      delete d.forretningsadresse
      delete d.postadresse
    })
    expect(unit.nace).toEqual([])
    expect(unit.business_address).toBeNull()
    expect(unit.postal_address).toBeNull()
  })
})

describe('mapUnit: deleted, removed, unknown', () => {
  test('SlettetEnhet (HTTP 200) is found with status deleted and its deletion date', async () => {
    const lookup = mapUnit(raw(await fixture('enhet-slettet.json')), DELETED)
    expect(lookup.kind).toBe('found')
    if (lookup.kind !== 'found') return
    expect(lookup.unit).toMatchObject({
      org_number: DELETED,
      name: 'GAMLE HAVNA KAFÉ AS',
      org_form: { code: 'AS' },
      status: 'deleted',
      deleted_date: '2022-11-03',
    })
  })

  test('a deleted unit says nothing about its former state: flags unknown, lists empty', async () => {
    const lookup = mapUnit(raw(await fixture('enhet-slettet.json')), DELETED)
    if (lookup.kind !== 'found') throw new Error('expected found')
    expect(lookup.unit).toMatchObject({
      bankrupt: null,
      vat_registered: null,
      employees: null,
      nace: [],
      voluntary_vat: [],
      business_address: null,
    })
  })

  test('slettedato alone marks a unit deleted, whatever respons_klasse says', async () => {
    const r = await mutated('enhet-live.json', (d) => {
      d.slettedato = '2025-01-31'
    })
    const lookup = mapUnit(r, LIVE)
    if (lookup.kind !== 'found') throw new Error('expected found')
    expect(lookup.unit.status).toBe('deleted')
    expect(lookup.unit.deleted_date).toBe('2025-01-31')
  })

  test('HTTP 410 is "removed" for the org number asked for, with the deletion date of its body', async () => {
    expect(mapUnit(raw(await fixture('enhet-410.json'), 410), REMOVED)).toEqual({
      kind: 'removed',
      org_number: REMOVED,
      deleted_date: '2021-08-19',
    })
  })

  test('HTTP 410 with an empty body is still "removed"', () => {
    expect(mapUnit(raw('', 410), REMOVED)).toEqual({ kind: 'removed', org_number: REMOVED, deleted_date: null })
  })

  test('HTTP 404 with an empty body is "unknown"', () => {
    expect(mapUnit(raw('', 404), LIVE)).toEqual({ kind: 'unknown' })
  })

  test('HTTP 400 with the register\'s error body is MalformedUpstream, not "unknown"', async () => {
    const body = await fixture('error-400.json')
    const e = malformed(() => mapUnit(raw(body, 400), '12345'))
    expect(e.system).toBe('enhetsregisteret')
  })
})

describe('mapUnit: garbage is MalformedUpstream', () => {
  test("HTTP 500 with the register's error body", () => {
    const body = JSON.stringify({
      timestamp: '2026-03-14T09:30:00.000+00:00',
      status: 500,
      error: 'Internal Server Error',
      message: '',
      path: `/enhetsregisteret/api/enheter/${LIVE}`,
      trace: 'b3f0c2a1-1111-4222-8333-944455556666',
    })
    malformed(() => mapUnit(raw(body, 500), LIVE))
  })

  test('a unit answering for another org number than the one asked for', async () => {
    const body = await fixture('enhet-live.json')
    const e = malformed(() => mapUnit(raw(body), '912345696'))
    expect(e.reason).toContain('912345688')
  })

  test('a body that is not JSON', () => {
    malformed(() => mapUnit(raw('<html><body>Service Unavailable</body></html>'), LIVE))
  })

  test('an empty 200 body', () => {
    malformed(() => mapUnit(raw(''), LIVE))
  })

  test('a JSON array instead of an object', () => {
    malformed(() => mapUnit(raw('[]'), LIVE))
  })

  test('navn missing', async () => {
    const r = await mutated('enhet-live.json', (d) => delete d.navn)
    malformed(() => mapUnit(r, LIVE))
  })

  test('organisasjonsform.kode missing', async () => {
    const r = await mutated('enhet-live.json', (d) => delete d.organisasjonsform.kode)
    malformed(() => mapUnit(r, LIVE))
  })

  test('organisasjonsnummer as a number instead of a string', async () => {
    const r = await mutated('enhet-live.json', (d) => (d.organisasjonsnummer = 912345688))
    malformed(() => mapUnit(r, LIVE))
  })
})

describe('unitFromObject', () => {
  test('maps an Enhet object on its own (as it appears in a search page)', async () => {
    const doc = JSON.parse(await fixture('enhet-live.json'))
    const unit = unitFromObject(raw('{}'), doc)
    expect(unit.org_number).toBe(LIVE)
    expect(unit.status).toBe('active')
  })
})

describe('mapSearch (HAL)', () => {
  test('with _embedded: each hit is a unit, in order, and total is page.totalElements', async () => {
    const page = mapSearch(raw(await fixture('search-hits.json')))
    expect(page.units.map((u) => u.org_number)).toEqual(['912345688', '912345734'])
    expect(page.total).toBe(5)
  })

  test('hits carry the fields of a unit (employees, dissolution)', async () => {
    const [first, second] = mapSearch(raw(await fixture('search-hits.json'))).units
    expect(first).toMatchObject({ name: 'FJORDLYS TEKNIKK AS', employees: 12, has_registered_employees: true })
    expect(second).toMatchObject({
      name: 'FJORDLYS EIENDOM AS',
      under_dissolution: true,
      under_dissolution_date: '2025-10-01',
      employees: null,
    })
  })

  test('without _embedded (no hits): no units and total 0', async () => {
    expect(mapSearch(raw(await fixture('search-empty.json')))).toEqual({ units: [], total: 0 })
  })

  test('without page: total is the number of hits', async () => {
    const r = await mutated('search-hits.json', (d) => delete d.page)
    expect(mapSearch(r).total).toBe(2)
  })

  test('_embedded.enheter that is not an array is MalformedUpstream', async () => {
    const r = await mutated('search-hits.json', (d) => (d._embedded.enheter = { '0': d._embedded.enheter[0] }))
    malformed(() => mapSearch(r))
  })

  test('a hit without organisasjonsnummer is MalformedUpstream', async () => {
    const r = await mutated('search-hits.json', (d) => delete d._embedded.enheter[1].organisasjonsnummer)
    malformed(() => mapSearch(r))
  })

  test('a deep-paging 400 is MalformedUpstream', async () => {
    const body = await fixture('error-400.json')
    malformed(() => mapSearch(raw(body, 400)))
  })
})

describe('mapRoles', () => {
  test('current roles of every group, in order; resigned (fratraadt) and deregistered roles dropped', async () => {
    const { found, roles } = mapRoles(raw(await fixture('roller.json')))
    expect(found).toBe(true)
    expect(roles.map((r) => `${r.group.code}/${r.role.code}/${r.holder.name}`)).toEqual([
      'DAGL/DAGL/Ingrid Solheim',
      'STYR/LEDE/Per Olav Hansen',
      'STYR/MEDL/Kari Nordmann',
      'REVI/REVI/REVISJON VEST AS',
    ])
  })

  test('a person holder has the joined name, birth date and deceased flag', async () => {
    const lede = mapRoles(raw(await fixture('roller.json'))).roles[1]!
    expect(lede.holder).toEqual({ kind: 'person', name: 'Per Olav Hansen', birth_date: '1966-05-04', deceased: false })
    expect(lede.elected_by).toEqual({ code: 'A-AK', description: 'Representant for A-aksjonærene' })
    expect(lede.order).toBe(0)
    expect(lede.group).toEqual({ code: 'STYR', description: 'Styre' })
  })

  test('an entity holder: its navn array is joined into one name, with its org number', async () => {
    const revi = mapRoles(raw(await fixture('roller.json'))).roles[3]!
    expect(revi.holder).toEqual({ kind: 'entity', org_number: '912345696', name: 'REVISJON VEST AS', deleted: false })
  })

  test('DTPR partners carry their ansvarsandel', async () => {
    const { roles } = mapRoles(raw(await fixture('roller-da.json')))
    expect(roles.map((r) => [r.role.code, r.holder.kind, r.holder.name, r.liability_share])).toEqual([
      ['DTPR', 'person', 'Liv Berg', '50%'],
      ['DTPR', 'entity', 'BERG HOLDING AS', '50%'],
    ])
  })

  test('a role without ansvarsandel has liability_share null', async () => {
    expect(mapRoles(raw(await fixture('roller.json'))).roles[0]!.liability_share).toBeNull()
  })

  test('404 and 410 are "no roles", not an error', () => {
    expect(mapRoles(raw('', 404))).toEqual({ found: false, roles: [] })
    expect(mapRoles(raw('{"organisasjonsnummer":"912345726","slettedato":"2021-08-19"}', 410))).toEqual({
      found: false,
      roles: [],
    })
  })

  test('a role with neither person nor enhet is MalformedUpstream', async () => {
    const r = await mutated('roller.json', (d) => delete d.rollegrupper[0].roller[0].person)
    malformed(() => mapRoles(r))
  })

  test('rollegrupper missing is MalformedUpstream', async () => {
    const r = await mutated('roller.json', (d) => delete d.rollegrupper)
    malformed(() => mapRoles(r))
  })

  test('a role without type is MalformedUpstream', async () => {
    const r = await mutated('roller.json', (d) => delete d.rollegrupper[1].roller[0].type)
    malformed(() => mapRoles(r))
  })

  test('a body that is not JSON is MalformedUpstream', () => {
    malformed(() => mapRoles(raw('Bad Gateway')))
  })
})

describe('mapAuthority (Fullmakttjenesten signatur/prokura)', () => {
  const fm = (body: string, status = 200) => raw(body, status, 'fullmakt')

  test('each kombinasjon is one sufficient set of signers: OR across combinations, AND within', async () => {
    const a = mapAuthority(fm(await fixture('signatur.json')))
    expect(a.combinations.map((c) => c.persons.map((p) => p.name))).toEqual([
      ['Per Olav Hansen'],
      ['Kari Nordmann', 'Nils Dahl'],
    ])
    expect(a.combinations.map((c) => [c.id, c.code, c.description])).toEqual([
      ['1', 'R0012', 'Styrets leder alene'],
      ['2', 'R0012', 'To styremedlemmer i fellesskap'],
    ])
  })

  test('dd.MM.yyyy birth dates become yyyy-MM-dd, and roles are kept', async () => {
    const a = mapAuthority(fm(await fixture('signatur.json')))
    expect(a.combinations[0]!.persons[0]).toEqual({
      name: 'Per Olav Hansen',
      birth_date: '1966-05-04',
      role: { code: 'LEDE', description: 'Styrets leder' },
    })
    expect(a.combinations[1]!.persons.map((p) => p.birth_date)).toEqual(['1980-09-23', '1985-12-12'])
  })

  test('the statuses, rule id, basis code and free text are read', async () => {
    const a = mapAuthority(fm(await fixture('signatur.json')))
    expect(a).toMatchObject({
      found: true,
      routine_status: 'OK',
      routine_text: 'Oppslaget er utført',
      combination_status: 'OK',
      rule_status: 'RF',
      rule_id: 'R0012',
      basis_code: 'SF',
      free_text: 'Styrets leder alene eller to styremedlemmer i fellesskap.',
    })
  })

  test('the possible signing holders are listed', async () => {
    const a = mapAuthority(fm(await fixture('signatur.json')))
    expect(a.possible_holders.map((p) => [p.name, p.birth_date, p.role?.code])).toEqual([
      ['Per Olav Hansen', '1966-05-04', 'LEDE'],
      ['Kari Nordmann', '1980-09-23', 'MEDL'],
      ['Nils Dahl', '1985-12-12', 'MEDL'],
    ])
  })

  test('RI: the rule is only in the free text, kept verbatim beside the default combination', async () => {
    const a = mapAuthority(fm(await fixture('signatur-ri.json')))
    expect(a.rule_status).toBe('RI')
    expect(a.rule_id).toBeNull()
    expect(a.free_text).toBe(
      'Daglig leder og ett styremedlem i fellesskap, eller to styremedlemmer i fellesskap med styrets leder.',
    )
    expect(a.combinations).toHaveLength(1)
  })

  test('a person named in both role lists is listed once among the possible holders', async () => {
    const a = mapAuthority(fm(await fixture('signatur-ri.json')))
    expect(a.possible_holders.map((p) => p.name)).toEqual(['Tor Vik', 'Sigrid Lie'])
  })

  test('NA: the organisation form is not covered; found, with no combinations and no rule', async () => {
    const a = mapAuthority(fm(await fixture('signatur-na.json')))
    expect(a).toEqual({
      found: true,
      routine_status: 'NA',
      routine_text: 'Organisasjonsformen er ikke støttet',
      combination_status: null,
      rule_status: null,
      rule_id: null,
      basis_code: null,
      free_text: null,
      possible_holders: [],
      combinations: [],
    })
  })

  test('IK: no combination available; the free text and possible holders remain', async () => {
    const a = mapAuthority(fm(await fixture('prokura-ik.json')))
    expect(a.combination_status).toBe('IK')
    expect(a.combinations).toEqual([])
    expect(a.free_text).toBe('Prokura hver for seg.')
    expect(a.possible_holders).toEqual([
      { name: 'Ingrid Solheim', birth_date: '1975-02-11', role: { code: 'POHV', description: 'Prokura hver for seg' } },
    ])
  })

  test('404 is "not found", not an error', () => {
    expect(mapAuthority(fm('', 404)).found).toBe(false)
  })

  test('a combination without kombinasjonsId is numbered by its position', async () => {
    const r = await mutated(
      'signatur.json',
      (d) => d.signeringsKombinasjon.kombinasjon.forEach((k: any) => delete k.kombinasjonsId),
      'fullmakt',
    )
    expect(mapAuthority(r).combinations.map((c) => c.id)).toEqual(['1', '2'])
  })

  test('status missing is MalformedUpstream of fullmakt', async () => {
    const r = await mutated('signatur.json', (d) => delete d.status, 'fullmakt')
    expect(malformed(() => mapAuthority(r)).system).toBe('fullmakt')
  })

  test('kombinasjon that is not an array is MalformedUpstream', async () => {
    const r = await mutated(
      'signatur.json',
      (d) => (d.signeringsKombinasjon.kombinasjon = d.signeringsKombinasjon.kombinasjon[0]),
      'fullmakt',
    )
    malformed(() => mapAuthority(r))
  })

  test('a person without navn is MalformedUpstream', async () => {
    const r = await mutated(
      'signatur.json',
      (d) => delete d.signeringsKombinasjon.kombinasjon[1].personRolleKombinasjon[0].navn,
      'fullmakt',
    )
    malformed(() => mapAuthority(r))
  })

  test('HTTP 500 is MalformedUpstream', () => {
    malformed(() => mapAuthority(fm('{"status":500}', 500)))
  })
})

describe('mapUpdates (unit update feed)', () => {
  test('with _embedded: each update with id, time, org number and change type, in order', async () => {
    expect(mapUpdates(raw(await fixture('oppdateringer.json')))).toEqual([
      { id: 9400339, at: '2026-03-13T04:01:22.299Z', org_number: '912345688', change: 'Endring' },
      { id: 9400340, at: '2026-03-13T04:01:23.101Z', org_number: '912345718', change: 'Sletting' },
      { id: 9400341, at: '2026-03-13T04:02:00.000Z', org_number: '912345726', change: 'Fjernet' },
      { id: 9400342, at: '2026-03-13T04:05:10.500Z', org_number: '912345769', change: 'Ny' },
    ])
  })

  test('without _embedded (nothing new): no updates', async () => {
    expect(mapUpdates(raw(await fixture('oppdateringer-empty.json')))).toEqual([])
  })

  test('an update without endringstype is Ukjent', async () => {
    const r = await mutated('oppdateringer.json', (d) => delete d._embedded.oppdaterteEnheter[0].endringstype)
    expect(mapUpdates(r)[0]!.change).toBe('Ukjent')
  })

  test('an update without oppdateringsid is MalformedUpstream', async () => {
    const r = await mutated('oppdateringer.json', (d) => delete d._embedded.oppdaterteEnheter[2].oppdateringsid)
    malformed(() => mapUpdates(r))
  })

  test('oppdaterteEnheter that is not an array is MalformedUpstream', async () => {
    const r = await mutated('oppdateringer.json', (d) => (d._embedded.oppdaterteEnheter = 'x'))
    malformed(() => mapUpdates(r))
  })

  test('a 400 (e.g. oppdateringsid 0) is MalformedUpstream', async () => {
    const body = await fixture('error-400.json')
    malformed(() => mapUpdates(raw(body, 400)))
  })
})

// -- sub-units ----------------------------------------------------------------------------------

const SUB = '912345807'
const SUB_DELETED = '912345815'

async function subUnit(name: string, org: string, change: (doc: any) => void = () => {}): Promise<RegisterSubUnit> {
  const lookup = mapSubUnit(await mutated(name, change), org)
  if (lookup.kind !== 'found') throw new Error(`expected found, got ${lookup.kind}`)
  return lookup.sub_unit
}

describe('mapSubUnit: an Underenhet (v2)', () => {
  test('is found and active, with number, name, form and the parent it belongs to', async () => {
    const s = await subUnit('underenhet.json', SUB)
    expect(s).toMatchObject({
      org_number: SUB,
      name: 'FJORDLYS TEKNIKK AS AVD ÅLESUND',
      org_form: { code: 'BEDR', description: 'Underenhet til næringsdrivende og offentlig forvaltning' },
      status: 'active',
      parent_org_number: LIVE,
    })
  })

  test('reads beliggenhetsadresse as the location and postadresse as the postal address, empty lines dropped', async () => {
    const s = await subUnit('underenhet.json', SUB)
    expect(s.location_address).toEqual({
      lines: ['Moloveien 14'],
      postal_code: '6010',
      city: 'ÅLESUND',
      municipality_number: '1508',
      municipality: 'ÅLESUND',
      country_code: 'NO',
      country: 'Norge',
    })
    expect(s.postal_address?.lines).toEqual(['Postboks 330'])
  })

  test('reads the registration, start and change-of-owner dates; no closing or deletion date', async () => {
    const s = await subUnit('underenhet.json', SUB)
    expect([s.registered_date, s.started_date, s.owner_change_date, s.closed_date, s.deleted_date]).toEqual([
      '2016-08-22',
      '2016-09-01',
      '2019-01-01',
      null,
      null,
    ])
  })

  test('reads activity, employees and VAT registration', async () => {
    const s = await subUnit('underenhet.json', SUB)
    expect({ nace: s.nace, employees: s.employees, has: s.has_registered_employees, vat: s.vat_registered }).toEqual({
      nace: [{ code: '33.120', description: 'Reparasjon av maskiner' }],
      employees: 17,
      has: true,
      vat: true,
    })
  })

  test('a closed-down sub-unit (nedleggelsesdato) is still registered, with its closing date', async () => {
    const s = await subUnit('underenhet.json', SUB, (d) => (d.nedleggelsesdato = '2025-12-31'))
    expect({ status: s.status, closed: s.closed_date, parent: s.parent_org_number }).toEqual({
      status: 'active',
      closed: '2025-12-31',
      parent: LIVE,
    })
  })

  test('an AAFY sub-unit (of a unit outside business life) is read the same way', async () => {
    const s = await subUnit(
      'underenhet.json',
      SUB,
      (d) => (d.organisasjonsform = { kode: 'AAFY', beskrivelse: 'Underenhet til ikke-næringsdrivende' }),
    )
    expect(s.org_form.code).toBe('AAFY')
  })

  test('a parent that is not nine digits is unknown (null)', async () => {
    const s = await subUnit('underenhet.json', SUB, (d) => (d.overordnetEnhet = '12345'))
    expect(s.parent_org_number).toBeNull()
  })
})

describe('mapSubUnit: the deleted stub, 410 and 404', () => {
  test('SlettetUnderEnhet is found and deleted, with its deletion date and no parent', async () => {
    const s = await subUnit('underenhet-slettet.json', SUB_DELETED)
    expect(s).toMatchObject({
      org_number: SUB_DELETED,
      name: 'FJORDLYS TEKNIKK AS AVD VOLDA',
      org_form: { code: 'BEDR' },
      status: 'deleted',
      deleted_date: '2024-02-29',
      parent_org_number: null,
      location_address: null,
    })
  })

  test('a stub without respons_klasse is still deleted when slettedato is set', async () => {
    const s = await subUnit('underenhet-slettet.json', SUB_DELETED, (d) => delete d.respons_klasse)
    expect(s.status).toBe('deleted')
  })

  test('404 (empty body) is unknown', () => {
    expect(mapSubUnit(raw('', 404), SUB)).toEqual({ kind: 'unknown' })
  })

  test('410 is removed, with the deletion date from the body', () => {
    expect(mapSubUnit(raw(JSON.stringify({ organisasjonsnummer: SUB, slettedato: '2025-11-20' }), 410), SUB)).toEqual({
      kind: 'removed',
      org_number: SUB,
      deleted_date: '2025-11-20',
    })
  })

  test('an answer for another number is malformed', async () => {
    const r = await mutated('underenhet.json', () => {})
    malformed(() => mapSubUnit(r, '912345823'))
  })

  test('an answer without organisasjonsform is malformed', async () => {
    const r = await mutated('underenhet.json', (d) => delete d.organisasjonsform)
    malformed(() => mapSubUnit(r, SUB))
  })
})

describe('mapUpdates (sub-unit update feed)', () => {
  test('reads _embedded.oppdaterteUnderenheter', async () => {
    expect(mapUpdates(raw(await fixture('oppdateringer-underenheter.json')), true)).toEqual([
      { id: 21390729, at: '2026-03-13T04:03:11.402Z', org_number: SUB, change: 'Endring' },
      { id: 21390730, at: '2026-03-13T04:03:12.018Z', org_number: SUB_DELETED, change: 'Sletting' },
    ])
  })

  test('the unit feed’s key is not read as sub-units (nor the other way round)', async () => {
    expect(mapUpdates(raw(await fixture('oppdateringer.json')), true)).toEqual([])
    expect(mapUpdates(raw(await fixture('oppdateringer-underenheter.json')))).toEqual([])
  })
})
