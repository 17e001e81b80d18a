/**
 * Our VAT payload as the tax authority's return and envelope: the period, the derived or supplied
 * lines, the total, and the XML of both documents.
 */
import { describe, expect, test } from 'bun:test'
import { child, childrenNamed, childText, parseXml } from '../../../src/lib/xml.ts'
import {
  INNSENDING_NS,
  konvoluttXml,
  meldingOf,
  MVA_MELDING_NS,
  mvaMeldingXml,
  skattleggingsperiode,
} from '../../../src/upstream/tax-authority/mva-melding.ts'
import { PINNED_NOW } from '../../helpers.ts'

const vat = (payload: Record<string, unknown>, period = '2026-T2') => ({ org_number: '984661185', period, payload })

describe('period', () => {
  test('a two-month term, a month and the year', () => {
    expect(skattleggingsperiode('2026-T2')).toEqual({
      element: 'skattleggingsperiodeToMaaneder',
      verdi: 'mars-april',
      aar: 2026,
    })
    expect(skattleggingsperiode('2026-T6')).toEqual({
      element: 'skattleggingsperiodeToMaaneder',
      verdi: 'november-desember',
      aar: 2026,
    })
    expect(skattleggingsperiode('2025-05')).toEqual({ element: 'skattleggingsperiodeMaaned', verdi: 'mai', aar: 2025 })
    expect(skattleggingsperiode('2025-A')).toEqual({ element: 'skattleggingsperiodeAar', verdi: 'aarlig', aar: 2025 })
  })

  test('a label the domain would not accept is a programming error', () => {
    expect(() => skattleggingsperiode('2026-T7')).toThrow()
  })
})

describe('lines', () => {
  test('revenue and output VAT: one output line, code 3 at 25 %, and the total', () => {
    const m = meldingOf(vat({ total_revenue_nok: 125_000, output_vat_nok: 31_250 }))
    expect(m.linjer).toEqual([{ mvaKode: '3', grunnlag: 125_000, sats: '25', merverdiavgift: 31_250 }])
    expect(m.fastsattMerverdiavgift).toBe(31_250)
    expect(m.meldingskategori).toBe('alminnelig')
  })

  test('revenue alone: the output VAT is 25 % of it, rounded down', () => {
    expect(meldingOf(vat({ total_revenue_nok: 1_001 })).linjer[0]?.merverdiavgift).toBe(250)
  })

  test('input VAT is a deductible line, code 1, negative and without base or rate; the total nets it off', () => {
    const m = meldingOf(vat({ total_revenue_nok: 100_000, output_vat_nok: 25_000, input_vat_nok: 4_000 }))
    expect(m.linjer[1]).toEqual({ mvaKode: '1', merverdiavgift: -4_000 })
    expect(m.fastsattMerverdiavgift).toBe(21_000)
  })

  test('no revenue and no VAT: no lines, a total of 0', () => {
    const m = meldingOf(vat({ total_revenue_nok: 0 }))
    expect(m.linjer).toEqual([])
    expect(m.fastsattMerverdiavgift).toBe(0)
  })

  test("the client's own lines are used as given (a numeric rate written with a decimal comma), its total too", () => {
    const m = meldingOf(
      vat({
        total_revenue_nok: 1,
        fastsattMerverdiavgift: 999,
        mvaSpesifikasjonslinje: [
          { mvaKode: 31, grunnlag: 9_000, sats: 11.11, merverdiavgift: 999, merknad: { beskrivelse: 'råfisk' } },
        ],
      }),
    )
    expect(m.linjer).toEqual([
      { mvaKode: '31', grunnlag: 9_000, sats: '11,11', merverdiavgift: 999, merknad: { beskrivelse: 'råfisk' } },
    ])
    expect(m.fastsattMerverdiavgift).toBe(999)
  })

  test('a client line without a VAT amount keeps the gap (the validation names it)', () => {
    expect(
      meldingOf(vat({ total_revenue_nok: 1, mvaSpesifikasjonslinje: [{ mvaKode: '3', grunnlag: 10 }] })).linjer[0]
        ?.merverdiavgift,
    ).toBeNull()
  })

  test('a known category passes through; an unknown one is alminnelig', () => {
    expect(meldingOf(vat({ total_revenue_nok: 1, meldingskategori: 'primaernaering' })).meldingskategori).toBe(
      'primaernaering',
    )
    expect(meldingOf(vat({ total_revenue_nok: 1, meldingskategori: 'bogus' })).meldingskategori).toBe('alminnelig')
  })
})

describe('documents', () => {
  test('the return: its namespace, our system and reference, the period nested in the basis, the lines, the taxpayer and category', () => {
    const root = parseXml(
      mvaMeldingXml(
        meldingOf(
          vat({ total_revenue_nok: 125_000, output_vat_nok: 31_250, kundeIdentifikasjonsnummer: '12345678903' }),
        ),
        'act_0123',
      ),
    )
    expect(root.name).toBe('mvaMeldingDto')
    expect(root.ns).toBe(MVA_MELDING_NS)
    expect(root.children.map((c) => c.name)).toEqual([
      'innsending',
      'skattegrunnlagOgBeregnetSkatt',
      'betalingsinformasjon',
      'skattepliktig',
      'meldingskategori',
    ])
    expect(childText(child(root, 'innsending')!, 'regnskapssystemsreferanse')).toBe('act_0123')
    const basis = child(root, 'skattegrunnlagOgBeregnetSkatt')!
    expect(childText(child(child(basis, 'skattleggingsperiode')!, 'periode')!, 'skattleggingsperiodeToMaaneder')).toBe(
      'mars-april',
    )
    expect(childText(basis, 'fastsattMerverdiavgift')).toBe('31250')
    const line = childrenNamed(basis, 'mvaSpesifikasjonslinje')[0]!
    expect(line.children.map((c) => [c.name, c.text])).toEqual([
      ['mvaKode', '3'],
      ['grunnlag', '125000'],
      ['sats', '25'],
      ['merverdiavgift', '31250'],
    ])
    expect(childText(child(root, 'skattepliktig')!, 'organisasjonsnummer')).toBe('984661185')
  })

  test('text is escaped', () => {
    const xml = mvaMeldingXml(meldingOf(vat({ total_revenue_nok: 1, merknad: 'A & B <c>' })), 'r')
    expect(childText(child(parseXml(xml), 'merknad')!, 'beskrivelse')).toBe('A & B <c>')
  })

  test('the envelope: the organisation, the period, the category, and the return as its one attachment', () => {
    const root = parseXml(
      konvoluttXml(meldingOf(vat({ total_revenue_nok: 1 }, '2026-03')), 'Plikt', new Date(PINNED_NOW)),
    )
    expect(root.ns).toBe(INNSENDING_NS)
    expect(childText(child(root, 'norskIdentifikator')!, 'organisasjonsnummer')).toBe('984661185')
    expect(childText(child(child(root, 'skattleggingsperiode')!, 'periode')!, 'skattleggingsperiodeMaaned')).toBe(
      'mars',
    )
    expect(childText(root, 'meldingskategori')).toBe('alminnelig')
    const vedlegg = childrenNamed(root, 'vedlegg')
    expect(vedlegg).toHaveLength(1)
    expect(childText(vedlegg[0]!, 'vedleggstype')).toBe('mva-melding')
    expect(childText(child(vedlegg[0]!, 'vedleggsfil')!, 'filnavn')).toBe('mvaMelding.xml')
    expect(childText(root, 'opprettingstidspunkt')).toBe('2026-03-14T09:30:00.000Z')
  })
})
