/**
 * The tax authority's mock validation: deterministic verdicts from the rules the fixture shares.
 */
import { expect, test } from 'bun:test'
import { mockTaxAuthority } from '../../../src/upstream/tax-authority/mock.ts'

const validate = (payload: Record<string, unknown>) =>
  mockTaxAuthority.validateVatReturn({ org_number: '984661185', period: '2026-T1', payload }, 'unused')

test('is marked as a mock', () => {
  expect(mockTaxAuthority.mock).toBe(true)
})

test('a consistent return has ingen avvik', async () => {
  expect(await validate({ total_revenue_nok: 125_000, output_vat_nok: 31_250, input_vat_nok: 4_000 })).toEqual({
    avvikVedMeldingslevering: 'ingen avvik',
    avvik: [],
  })
})

test('output VAT that is not base × rate is ugyldig (R019)', async () => {
  const v = await validate({ total_revenue_nok: 125_000, output_vat_nok: 20_000 })
  expect(v.avvikVedMeldingslevering).toBe('ugyldig skattemelding')
  expect(v.avvik.map((a) => a.detaljer)).toEqual(['R019'])
})

test('lines that do not sum to the stated total are avvikende (R018)', async () => {
  const v = await validate({
    total_revenue_nok: 1,
    fastsattMerverdiavgift: 5_000,
    mvaSpesifikasjonslinje: [{ mvaKode: '3', grunnlag: 10_000, sats: '25', merverdiavgift: 2_500 }],
  })
  expect(v.avvikVedMeldingslevering).toBe('avvikende skattemelding')
  expect(v.avvik).toEqual([
    expect.objectContaining({
      stiTilAvvik: '//skattegrunnlagOgBeregnetSkatt/fastsattMerverdiavgift',
      detaljer: 'R018',
    }),
  ])
})

test('a line without a VAT amount is ugyldig (the format)', async () => {
  const v = await validate({
    total_revenue_nok: 1,
    mvaSpesifikasjonslinje: [{ mvaKode: '3', grunnlag: 10_000, sats: '25' }],
  })
  expect(v.avvikVedMeldingslevering).toBe('ugyldig skattemelding')
  expect(v.avvik[0]?.avvikKode).toBe('MvaMeldingsinnhold_Xml_SkjemaValideringsfeil')
})

test('the same return always gets the same verdict', async () => {
  const p = { total_revenue_nok: 125_000, output_vat_nok: 1 }
  expect(await validate(p)).toEqual(await validate(p))
})
