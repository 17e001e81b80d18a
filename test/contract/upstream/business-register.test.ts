/**
 * Enhetsregisteret's own OpenAPI document (contracts/brreg-enhetsregisteret/, SOURCES.md) judges what
 * the fixture server answers the live adapter and what we recorded as real answers (issue 26, item 2).
 * The document models units (`Enhet`, and `Underenhet` on Brønnøysund's later branch); roles, the
 * update feed, Fullmakttjenesten and the error bodies have no published schema (SOURCES.md, "What the
 * publisher does not give"), so they are not judged here. The document has no example answers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { COMPANIES } from '../../../fixtures/data/companies.ts'
import { SUB_UNITS } from '../../../fixtures/data/sub-units.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { READ_POLICY, UpstreamClient } from '../../../src/upstream/http.ts'
import { LiveBusinessRegister } from '../../../src/upstream/business-register/live.ts'
import { mapSearch, mapUnit } from '../../../src/upstream/business-register/map.ts'
import { loadContract, openApiComponent, openApiResponse, type Shape } from '../../helpers.ts'

const master = await loadContract('brreg-enhetsregisteret/enhetsregisteret.json')
const branch = await loadContract('brreg-enhetsregisteret/enhetsregisteret.forbedringerOpenAPI.json')
const unitAnswer = openApiResponse(master, '/enheter/{organisasjonsnummer}', 'get', '200')
const enhet = openApiComponent(master, 'Enhet')
const underenhet = openApiComponent(branch, 'Underenhet')
const underenhetAnswer = openApiResponse(branch, '/underenheter/{organisasjonsnummer}', 'get', '200')

const recorded = `${import.meta.dir}/../../upstream/business-register/fixtures`
const read = async (name: string): Promise<Record<string, unknown>> => Bun.file(`${recorded}/${name}`).json()

/** Every failing value by label; `{}` when each has the shape. */
function failures(shape: Shape, values: Array<[string, unknown]>): Record<string, string[]> {
  return Object.fromEntries(
    values.map(([label, v]) => [label, shape.errors(v)] as const).filter(([, e]) => e.length > 0),
  )
}

// Companies whose register answers fail or hang on purpose (fixtures/README.md, magic numbers) say nothing about the format.
const ORDINARY = COMPANIES.filter((c) => !c.magic)

let servers: FixtureServers
let register: LiveBusinessRegister

beforeAll(async () => {
  servers = await startFixtureServers()
  const client = () => new UpstreamClient('Brønnøysundregistrene', READ_POLICY, fixedClock('2026-03-04T12:00:00Z'))
  register = new LiveBusinessRegister(
    servers.businessRegisterUrl,
    client(),
    client(),
    fixedClock('2026-03-04T12:00:00Z'),
  )
})
afterAll(() => servers.stop())

describe('the contract itself', () => {
  const unit = {
    organisasjonsnummer: '912345688',
    navn: 'FJORDLYS TEKNIKK AS',
    antallAnsatte: 12,
    registrertIMvaregisteret: true,
  }

  test('a unit shaped as the document says passes', () => {
    expect(unitAnswer.errors(unit)).toEqual([])
  })

  test('a unit whose employee count is a string fails', () => {
    expect(unitAnswer.errors({ ...unit, antallAnsatte: '12' })).not.toEqual([])
  })

  test('a unit whose VAT flag is the string "true" fails', () => {
    expect(unitAnswer.errors({ ...unit, registrertIMvaregisteret: 'true' })).not.toEqual([])
  })

  test('a unit whose industry code is a number fails', () => {
    expect(
      enhet.errors({ ...unit, naeringskode1: { kode: 62.01, beskrivelse: 'Programmeringstjenester' } }),
    ).not.toEqual([])
  })

  test('a sub-unit whose parent is given as a number fails the Underenhet model', () => {
    expect(
      underenhet.errors({
        organisasjonsnummer: '973861778',
        navn: 'FJORDLYS TEKNIKK AS AVD BERGEN',
        overordnetEnhet: 912345688,
      }),
    ).not.toEqual([])
  })

  test('a sub-unit with its parent and location address passes the documented /underenheter answer', () => {
    const sub = {
      organisasjonsnummer: '973861778',
      navn: 'FJORDLYS TEKNIKK AS AVD BERGEN',
      organisasjonsform: { kode: 'BEDR', beskrivelse: 'Underenhet til næringsdrivende og offentlig forvaltning' },
      overordnetEnhet: '912345688',
      beliggenhetsadresse: {
        adresse: ['Strandkaien 2'],
        postnummer: '5013',
        poststed: 'BERGEN',
        kommunenummer: '4601',
        kommune: 'BERGEN',
        landkode: 'NO',
        land: 'Norge',
      },
      antallAnsatte: 4,
    }
    expect(underenhetAnswer.errors(sub)).toEqual([])
  })
})

describe('the fixture server', () => {
  test('every unit it answers 200 for, live or deleted, is the documented Enhet', async () => {
    const answers: Array<[string, unknown]> = []
    for (const c of ORDINARY) {
      const raw = await register.unit(c.org_number)
      if (raw.status === 200) answers.push([c.org_number, JSON.parse(raw.body)])
    }
    expect(answers.length).toBeGreaterThan(15)
    expect(failures(unitAnswer, answers)).toEqual({})
  })

  test('every sub-unit it answers 200 for, live or deleted, is the documented /underenheter answer', async () => {
    const answers: Array<[string, unknown]> = []
    for (const u of SUB_UNITS) {
      const raw = await register.subUnit(u.org_number)
      expect([u.org_number, raw.status]).toEqual([u.org_number, 200])
      answers.push([u.org_number, JSON.parse(raw.body)])
    }
    expect(answers.length).toBe(SUB_UNITS.length)
    expect(failures(underenhetAnswer, answers)).toEqual({})
  })

  test('answers a unit lookup only with statuses the document lists for the path', async () => {
    const documented = Object.keys(
      (master.paths as Record<string, any>)['/enheter/{organisasjonsnummer}'].get.responses as object,
    ).filter((s) => s !== 'default')
    const statuses = new Set<string>()
    for (const c of ORDINARY) statuses.add(String((await register.unit(c.org_number)).status))
    expect([...statuses].filter((s) => !documented.includes(s))).toEqual([])
    expect(statuses).toContain('410')
  })

  test('every unit in a search page is the documented Enhet', async () => {
    const raw = await register.search('a', 100)
    const units = (JSON.parse(raw.body)._embedded?.enheter ?? []) as unknown[]
    expect(units.length).toBeGreaterThan(10)
    expect(
      failures(
        enhet,
        units.map((u, i) => [String(i), u]),
      ),
    ).toEqual({})
    expect(mapSearch(raw).units.length).toBe(units.length)
  })
})

describe('the recorded answers', () => {
  test('the recorded live unit is the documented Enhet', async () => {
    expect(unitAnswer.errors(await read('enhet-live.json'))).toEqual([])
  })

  test('the recorded deleted unit (SlettetEnhet) is the documented Enhet', async () => {
    const body = await read('enhet-slettet.json')
    expect(unitAnswer.errors(body)).toEqual([])
    expect(
      mapUnit(
        {
          system: 'enhetsregisteret',
          url: '',
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(body),
          fetchedAt: new Date(0),
        },
        String(body.organisasjonsnummer),
      ).kind,
    ).toBe('found')
  })

  test('every unit in the recorded search page is the documented Enhet', async () => {
    const units = ((await read('search-hits.json'))._embedded as { enheter: unknown[] }).enheter
    expect(units.length).toBeGreaterThan(0)
    expect(
      failures(
        enhet,
        units.map((u, i) => [String(i), u]),
      ),
    ).toEqual({})
  })
})
