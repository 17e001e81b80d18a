/**
 * Skatteetaten's mva-melding contract as the judge (contracts/skatteetaten-mva/, the publisher's own
 * XSDs and examples): every return and envelope Plikt writes passes the schema; the fixture's
 * validation answers pass the result schema; the fixture's verdict on what is schema-valid agrees
 * with the schema's own; and the publisher's examples read through our adapters give the values a
 * person reads in them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { VALIDATION_PATH } from '../../../fixtures/servers/tax-authority.ts'
import { judge, readMelding, valideringsresultatXml } from '../../../fixtures/servers/tax-authority/melding.ts'
import { validatePayload } from '../../../src/domain/actions/payload.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { mapInstance } from '../../../src/upstream/filing-portal/map.ts'
import { mapValideringsresultat } from '../../../src/upstream/tax-authority/map.ts'
import { MVA_VALIDATION_SCOPE } from '../../../src/upstream/tax-authority/live.ts'
import {
  konvoluttXml,
  MAX_AMOUNT_NOK,
  MELDINGSKATEGORIER,
  meldingOf,
  mvaMeldingXml,
  xsdDecimal,
} from '../../../src/upstream/tax-authority/mva-melding.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { tokenService } from '../../helpers.ts'
import { contractText, TAX_AUTHORITY_XSD, xsdErrors, xsdErrorsOf } from '../../helpers.ts'

const ORG = '984661185'
const vat = (payload: Record<string, unknown>, period = '2026-T2') => ({ org_number: ORG, period, payload })
const returnOf = (payload: Record<string, unknown>, period?: string) =>
  mvaMeldingXml(meldingOf(vat(payload, period)), 'act_0123456789abcdef0123456789abcdef')

/** A spread of returns an agent sends, each named for what it exercises. */
const SPREAD: [string, Record<string, unknown>, string][] = [
  [
    'revenue and output VAT, no KID (the usual agent payload)',
    { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
    '2026-T2',
  ],
  [
    'with a KID',
    { total_revenue_nok: 125_000, output_vat_nok: 31_250, kundeIdentifikasjonsnummer: '34000009324568708' },
    '2026-T2',
  ],
  ['input VAT netted off', { total_revenue_nok: 100_000, output_vat_nok: 25_000, input_vat_nok: 4_000 }, '2026-T3'],
  ['all zero: no lines', { total_revenue_nok: 0 }, '2026-T1'],
  ['a month', { total_revenue_nok: 10_000 }, '2026-05'],
  ['the year (annual term)', { total_revenue_nok: 10_000 }, '2025-A'],
  [
    'a free-text remark on the return',
    { total_revenue_nok: 1, merknad: 'Korrigert etter revisjon & «kontroll» <ok>' },
    '2026-T4',
  ],
  [
    'a code-list remark on the return',
    { total_revenue_nok: 1, merknad: { utvalgtMerknad: 'beløpet-er-riktig' } },
    '2026-T5',
  ],
  ['a free-text remark as an object', { total_revenue_nok: 1, merknad: { beskrivelse: 'fritekst' } }, '2026-T6'],
  [
    "the client's own lines, with remarks of both kinds and a decimal rate",
    {
      total_revenue_nok: 1,
      fastsattMerverdiavgift: 1_249.5,
      mvaSpesifikasjonslinje: [
        { mvaKode: '31', grunnlag: 9_000, sats: 11.11, merverdiavgift: 999.9, merknad: { beskrivelse: 'råfisk' } },
        {
          mvaKode: '3',
          grunnlag: 1_000,
          sats: '25',
          merverdiavgift: 250,
          merknad: { utvalgtMerknad: 'utfakturert-beløp-er-riktig' },
        },
        { mvaKode: '1', merverdiavgift: -0.4 },
      ],
    },
    '2026-T2',
  ],
  [
    'the largest amount a return carries',
    { total_revenue_nok: MAX_AMOUNT_NOK, output_vat_nok: MAX_AMOUNT_NOK / 4 },
    '2026-T2',
  ],
  [
    'a tiny fraction, which JavaScript writes with an exponent',
    {
      total_revenue_nok: 1,
      fastsattMerverdiavgift: 1e-7,
      mvaSpesifikasjonslinje: [{ mvaKode: '3', merverdiavgift: 1e-7 }],
    },
    '2026-T2',
  ],
  ...MELDINGSKATEGORIER.map((k): [string, Record<string, unknown>, string] => [
    `category ${k}`,
    { total_revenue_nok: 1_000, meldingskategori: k },
    '2026-T2',
  ]),
  ...[
    '2026-T1',
    '2026-T2',
    '2026-T3',
    '2026-T4',
    '2026-T5',
    '2026-T6',
    ...Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`),
    '2026-A',
  ].map((p): [string, Record<string, unknown>, string] => [`period ${p}`, { total_revenue_nok: 4_000 }, p]),
]

describe('the schemas judge: the publisher’s own examples pass, a broken document does not', () => {
  test('every return example Skatteetaten publishes passes the return schema, but the two the publisher got wrong (SOURCES.md)', async () => {
    const dir = new URL('../../../contracts/skatteetaten-mva/examples/melding/', import.meta.url)
    const names = (await readdir(dir)).filter((n) => n.endsWith('.xml')).sort()
    expect(names.length).toBeGreaterThan(30)
    const docs = await Promise.all(names.map((n) => contractText(`skatteetaten-mva/examples/melding/${n}`)))
    const failing = (await xsdErrors(TAX_AUTHORITY_XSD.mvaMelding, docs)).flatMap((e, i) =>
      e.length > 0 ? [names[i]] : [],
    )
    expect(failing).toEqual(['justering_kompensasjon.xml', 'omvendtavgiftsplikt_mvamelding.xml'])
  })

  test('the envelope and return of a published successful filing pass their schemas (the envelope given the namespace the schema and the portal’s messages use)', async () => {
    const ns = 'no:skatteetaten:fastsetting:avgift:mva:mvameldinginnsending:v1.0'
    const envelope = (await contractText('skatteetaten-mva/examples/feedback/konvolutt.xml')).replace(
      '<mvaMeldingInnsending ',
      `<mvaMeldingInnsending xmlns="${ns}" `,
    )
    expect(await xsdErrorsOf(TAX_AUTHORITY_XSD.konvolutt, envelope)).toEqual([])
    expect(
      await xsdErrorsOf(
        TAX_AUTHORITY_XSD.mvaMelding,
        await contractText('skatteetaten-mva/examples/feedback/mvamelding.xml'),
      ),
    ).toEqual([])
  })

  test('the published validation result passes the result schema', async () => {
    expect(
      await xsdErrorsOf(
        TAX_AUTHORITY_XSD.valideringsresultat,
        await contractText('skatteetaten-mva/examples/feedback/valideringsresultat.xml'),
      ),
    ).toEqual([])
  })

  test('a return without betalingsinformasjon, or with both kinds of remark, fails the schema', async () => {
    const example = await contractText('skatteetaten-mva/examples/melding/mvakode3.xml')
    const noPayment = example.replace(/<betalingsinformasjon>[\s\S]*?<\/betalingsinformasjon>/, '')
    const twoRemarks = example.replace(
      '</meldingskategori>',
      '</meldingskategori><merknad><beskrivelse>a</beskrivelse><utvalgtMerknad>b</utvalgtMerknad></merknad>',
    )
    const exponent = example.replace(
      '<fastsattMerverdiavgift>5000</fastsattMerverdiavgift>',
      '<fastsattMerverdiavgift>1e+21</fastsattMerverdiavgift>',
    )
    const [a, b, c] = await xsdErrors(TAX_AUTHORITY_XSD.mvaMelding, [noPayment, twoRemarks, exponent])
    expect(a!.join()).toContain('betalingsinformasjon')
    expect(b!.join()).toContain('utvalgtMerknad')
    expect(c!.join()).toContain('fastsattMerverdiavgift')
  })
})

describe('what Plikt sends passes the publisher’s schema', () => {
  test('every return of the spread passes the return schema', async () => {
    const docs = SPREAD.map(([, payload, period]) => returnOf(payload, period))
    const errors = await xsdErrors(TAX_AUTHORITY_XSD.mvaMelding, docs)
    expect(errors.map((e, i) => [SPREAD[i]![0], e])).toEqual(SPREAD.map(([name]) => [name, []]))
  })

  test('every payload of the spread passes our own payload checks (they refuse nothing the return can carry)', () => {
    for (const [name, payload] of SPREAD) expect([name, validatePayload('mva_melding', payload)]).toEqual([name, []])
  })

  test('the envelope passes the envelope schema for every period kind and category', async () => {
    const at = new Date(PINNED_NOW)
    const docs = SPREAD.map(([, payload, period]) => konvoluttXml(meldingOf(vat(payload, period)), 'Plikt', at))
    expect((await xsdErrors(TAX_AUTHORITY_XSD.konvolutt, docs)).flat()).toEqual([])
  })

  test('a return with no KID still carries betalingsinformasjon, empty', () => {
    expect(returnOf({ total_revenue_nok: 1 })).toContain('<betalingsinformasjon></betalingsinformasjon>')
  })

  test('amounts are written as decimals, never with an exponent', () => {
    expect(xsdDecimal(1e-7)).toBe('0.0000001')
    expect(xsdDecimal(-1.5e-7)).toBe('-0.00000015')
    expect(xsdDecimal(MAX_AMOUNT_NOK)).toBe('10000000000000')
    expect(xsdDecimal(-0)).toBe('0')
    expect(() => xsdDecimal(MAX_AMOUNT_NOK + 1)).toThrow()
  })

  test('a line naming both remarks is refused before anything is sent, naming the line', () => {
    const issues = validatePayload('mva_melding', {
      total_revenue_nok: 1,
      mvaSpesifikasjonslinje: [
        { mvaKode: '3', merverdiavgift: 1 },
        { mvaKode: '3', merverdiavgift: 1, merknad: { utvalgtMerknad: 'a', beskrivelse: 'b' } },
      ],
    })
    expect(issues).toEqual([
      { field: 'payload.mvaSpesifikasjonslinje[1].merknad', message: expect.stringContaining('one of them') },
    ])
  })

  test('an amount beyond what a return carries is refused, naming the field', () => {
    expect(validatePayload('mva_melding', { total_revenue_nok: 1, fastsattMerverdiavgift: 1e21 })).toEqual([
      { field: 'payload.fastsattMerverdiavgift', message: expect.stringContaining('at most') },
    ])
    expect(validatePayload('mva_melding', { total_revenue_nok: MAX_AMOUNT_NOK + 1 })).toEqual([
      { field: 'payload.total_revenue_nok', message: expect.stringContaining('at most') },
    ])
    expect(
      validatePayload('mva_melding', {
        total_revenue_nok: 1,
        mvaSpesifikasjonslinje: [{ mvaKode: '3', merverdiavgift: 'ti' }],
      }),
    ).toEqual([{ field: 'payload.mvaSpesifikasjonslinje[0].merverdiavgift', message: expect.any(String) }])
  })

  test('text over the schema’s 4 000 characters is refused', () => {
    expect(validatePayload('mva_melding', { total_revenue_nok: 1, merknad: 'x'.repeat(4001) })).toEqual([
      { field: 'payload.merknad', message: expect.stringContaining('4000') },
    ])
  })
})

describe('the fixture answers what the real system answers', () => {
  let fx: FixtureServers
  let token: string
  const clock = fixedClock(PINNED_NOW)
  beforeAll(async () => {
    fx = await startFixtureServers({ now: () => clock.now().getTime() })
    token = (await tokenService(fx, clock).token({ scope: MVA_VALIDATION_SCOPE })).access_token
  })
  afterAll(() => fx.stop())

  const validateAtFixture = async (xml: string) => {
    const res = await fetch(`${fx.taxAuthorityUrl}${VALIDATION_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
      body: xml,
    })
    expect(res.status).toBe(200)
    return res.text()
  }

  test("the fixture's validation answers pass the result schema: clean, deviating and invalid returns", async () => {
    const answers = await Promise.all([
      validateAtFixture(returnOf({ total_revenue_nok: 125_000, output_vat_nok: 31_250 })),
      validateAtFixture(returnOf({ total_revenue_nok: 125_000, output_vat_nok: 1_000 })),
      validateAtFixture('<not-a-return/>'),
      validateAtFixture(
        returnOf({ total_revenue_nok: 1 }).replace(/<betalingsinformasjon>.*?<\/betalingsinformasjon>/, ''),
      ),
    ])
    expect((await xsdErrors(TAX_AUTHORITY_XSD.valideringsresultat, answers)).flat()).toEqual([])
    expect(answers.map((a) => mapValideringsresultat(a)?.avvikVedMeldingslevering)).toEqual([
      'ingen avvik',
      'ugyldig skattemelding',
      'ugyldig skattemelding',
      'ugyldig skattemelding',
    ])
  })

  test("the fixture's verdict on schema validity agrees with the schema's, on the publisher's examples, ours and broken ones", async () => {
    const example = await contractText('skatteetaten-mva/examples/melding/mvakode3.xml')
    const docs = [
      example,
      await contractText('skatteetaten-mva/examples/melding/eksempelMedMerknader.xml'),
      ...SPREAD.slice(0, 12).map(([, payload, period]) => returnOf(payload, period)),
      example.replace(/<betalingsinformasjon>[\s\S]*?<\/betalingsinformasjon>/, ''),
      example.replace(
        '</meldingskategori>',
        '</meldingskategori><merknad><beskrivelse>a</beskrivelse><utvalgtMerknad>b</utvalgtMerknad></merknad>',
      ),
      example.replace(
        '<fastsattMerverdiavgift>5000</fastsattMerverdiavgift>',
        '<fastsattMerverdiavgift>1e+21</fastsattMerverdiavgift>',
      ),
      example.replace('<grunnlag>20000</grunnlag>', '<grunnlag>20 000</grunnlag>'),
    ]
    const schema = (await xsdErrors(TAX_AUTHORITY_XSD.mvaMelding, docs)).map((e) => e.length === 0)
    const fixture = docs.map((d) => readMelding(d).ok)
    expect(fixture).toEqual(schema)
    expect(schema.filter((ok) => !ok)).toHaveLength(4)
  })

  test('the fixture writes its result in the schema’s shape for every severity', async () => {
    const severities = ['avvikende skattemelding', 'mangelfull skattemelding', 'ugyldig skattemelding'] as const
    const docs = [
      valideringsresultatXml([]),
      ...severities.map((severity) =>
        valideringsresultatXml([{ severity, stiTilAvvik: '//x', avvikKode: 'K', regelDefinisjon: 'R', detaljer: 'D' }]),
      ),
    ]
    expect((await xsdErrors(TAX_AUTHORITY_XSD.valideringsresultat, docs)).flat()).toEqual([])
  })
})

describe("the publisher's examples read through our adapters", () => {
  test('the published validation result of a filed return reads as ingen avvik with no findings', async () => {
    expect(
      mapValideringsresultat(await contractText('skatteetaten-mva/examples/feedback/valideringsresultat.xml')),
    ).toEqual({ avvikVedMeldingslevering: 'ingen avvik', avvik: [] })
  })

  test('the published return for code 3 reads as a person reads it: 5 000 kr on 20 000 kr at 25 %, term March–April 2021, KID kept', async () => {
    const read = readMelding(await contractText('skatteetaten-mva/examples/melding/mvakode3.xml'))
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.melding).toMatchObject({
      organisasjonsnummer: '123456789',
      skattleggingsperiode: { element: 'skattleggingsperiodeToMaaneder', verdi: 'mars-april', aar: 2021 },
      meldingskategori: 'alminnelig',
      fastsattMerverdiavgift: 5000,
      linjer: [{ mvaKode: '3', grunnlag: 20000, sats: '25', merverdiavgift: 5000 }],
      kundeIdentifikasjonsnummer: '34000009324568708',
    })
    expect(judge(await contractText('skatteetaten-mva/examples/melding/mvakode3.xml'))).toEqual([])
  })

  test('the published instance of a filed return reads as archived, received, for organisation 911158612', async () => {
    const instance = mapInstance(JSON.parse(await contractText('skatteetaten-mva/examples/feedback/instans.json')))
    expect(instance).toMatchObject({
      id: '50267437/55604b08-1690-4a8d-bf6b-95c11dc40c58',
      partyId: '50267437',
      organisationNumber: '911158612',
      process: { ended: '2021-05-21T11:29:35.5242382Z', task: null },
      isSoftDeleted: false,
    })
    expect(instance?.data.map((d) => d.dataType)).toContain(
      'no.skatteetaten.fastsetting.avgift.mva.mvameldinginnsending.v1.0',
    )
  })
})
