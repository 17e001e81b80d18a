import { expect, test } from 'bun:test'
import { ACTION_ID_PATTERN, actionIdOf } from '../../../src/domain/actions/action-id.ts'
import { canonicalJson } from '../../../src/lib/canonical-json.ts'
import { sha256Hex } from '../../../src/lib/hash.ts'

const base = {
  org_number: '984661185',
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
}

test('an action id is act_ and the first 32 hex digits of SHA-256 over the canonical JSON of the content', () => {
  expect(actionIdOf(base)).toBe(`act_${sha256Hex(canonicalJson(base)).slice(0, 32)}`)
  expect(actionIdOf(base)).toMatch(ACTION_ID_PATTERN)
})

test('the same content always gives the same id', () => {
  expect(actionIdOf(structuredClone(base))).toBe(actionIdOf(base))
})

test('the order of payload keys does not change the id', () => {
  expect(actionIdOf({ ...base, payload: { output_vat_nok: 31_250, total_revenue_nok: 125_000 } })).toBe(
    actionIdOf(base),
  )
})

test.each([
  ['org_number', { org_number: '923609016' }],
  ['action_type', { action_type: 'a_melding' }],
  ['period', { period: '2026-T2' }],
  ['a payload figure', { payload: { ...base.payload, total_revenue_nok: 125_001 } }],
  ['an extra payload key', { payload: { ...base.payload, note: 'x' } }],
])('changing %s changes the id', (_what, change) => {
  expect(actionIdOf({ ...base, ...change })).not.toBe(actionIdOf(base))
})

test('members other than the four content fields are ignored', () => {
  expect(actionIdOf({ ...base, dry_run: true } as typeof base)).toBe(actionIdOf(base))
})
