import { expect, test } from 'bun:test'
import { validatePayload } from '../../../src/domain/actions/payload.ts'

test('a VAT payload with revenue alone is valid', () => {
  expect(validatePayload('mva_melding', { total_revenue_nok: 0 })).toEqual([])
})

test('a VAT payload with every documented field is valid', () => {
  expect(
    validatePayload('mva_melding', { total_revenue_nok: 125_000, output_vat_nok: 31_250, input_vat_nok: 4_000 }),
  ).toEqual([])
})

test('an a-melding payload needs employee count and gross salary', () => {
  expect(validatePayload('a_melding', { employee_count: 3, gross_salary_nok: 150_000 })).toEqual([])
  expect(validatePayload('a_melding', {})).toEqual([
    { field: 'payload.employee_count', message: 'is required' },
    { field: 'payload.gross_salary_nok', message: 'is required' },
  ])
})

test('a missing required field is reported by name', () => {
  expect(validatePayload('mva_melding', { output_vat_nok: 10 })).toEqual([
    { field: 'payload.total_revenue_nok', message: 'is required' },
  ])
})

test.each([[-1], [1.5], ['100'], [null], [true], [Number.MAX_SAFE_INTEGER + 1], [[1]]])(
  'revenue of %p is not an integer ≥ 0',
  (value) => {
    expect(validatePayload('mva_melding', { total_revenue_nok: value })).toEqual([
      { field: 'payload.total_revenue_nok', message: 'must be an integer ≥ 0' },
    ])
  },
)

test('a malformed optional field is reported, an absent one is not', () => {
  expect(validatePayload('mva_melding', { total_revenue_nok: 1, input_vat_nok: -5 })).toEqual([
    { field: 'payload.input_vat_nok', message: 'must be an integer ≥ 0' },
  ])
  expect(validatePayload('a_melding', { employee_count: 1, gross_salary_nok: 1, tax_withheld_nok: 'x' })).toEqual([
    { field: 'payload.tax_withheld_nok', message: 'must be an integer ≥ 0' },
  ])
})

test('unknown keys are allowed', () => {
  expect(validatePayload('mva_melding', { total_revenue_nok: 1, note: 'hei', lines: [{ code: 3 }] })).toEqual([])
})

test.each([[null], [[]], ['{}'], [42], [undefined], [new Date()]])(
  'a payload of %p is not a JSON object',
  (payload) => {
    expect(validatePayload('a_melding', payload)).toEqual([{ field: 'payload', message: 'must be a JSON object' }])
  },
)
