/**
 * What we check in an action's `payload` before anything is submitted. Deliberately shallow: the
 * figures a person would notice are missing or nonsensical. Amounts are whole kroner, as the
 * returns report them. Keys we do not know are allowed and passed on verbatim, so a client can
 * send the full upstream document without us having to model all of it.
 *
 * mva_melding: `total_revenue_nok` (required), `output_vat_nok`, `input_vat_nok` (optional).
 * a_melding:   `employee_count`, `gross_salary_nok` (required), `tax_withheld_nok`,
 *              `employer_contribution_nok` (optional).
 * Every one of them is an integer ≥ 0. A VAT payload is also checked for what the tax authority's
 * return cannot carry (`mvaPayloadIssues`: an ambiguous remark, an amount out of bounds, text over
 * the schema's limit), so a return the schema would refuse never leaves.
 */
import type { FieldIssue } from '../../errors/app-error.ts'
import { mvaPayloadIssues } from '../../upstream/tax-authority/mva-melding.ts'
import type { ActionType } from './period.ts'

export interface PayloadFields {
  required: readonly string[]
  optional: readonly string[]
}

export const PAYLOAD_FIELDS: Record<ActionType, PayloadFields> = {
  mva_melding: { required: ['total_revenue_nok'], optional: ['output_vat_nok', 'input_vat_nok'] },
  a_melding: {
    required: ['employee_count', 'gross_salary_nok'],
    optional: ['tax_withheld_nok', 'employer_contribution_nok'],
  },
}

/** An action's payload at most (spec Limits: `validate_action` 64 KiB), as UTF-8 JSON; a saved profile's payload too. */
export const MAX_PAYLOAD_BYTES = 64 * 1024

export function payloadTooLarge(payload: unknown): boolean {
  return Buffer.byteLength(JSON.stringify(payload), 'utf8') > MAX_PAYLOAD_BYTES
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** Every problem with the payload, in field order; empty when it is fine. Never throws. */
export function validatePayload(actionType: ActionType, payload: unknown): FieldIssue[] {
  if (!isPlainObject(payload)) return [{ field: 'payload', message: 'must be a JSON object' }]
  const fields = PAYLOAD_FIELDS[actionType]
  if (!fields) return []
  const issues: FieldIssue[] = []
  for (const name of [...fields.required, ...fields.optional]) {
    const present = Object.hasOwn(payload, name) && payload[name] !== undefined
    if (!present) {
      if (fields.required.includes(name)) issues.push({ field: `payload.${name}`, message: 'is required' })
    } else if (!isCount(payload[name])) {
      issues.push({ field: `payload.${name}`, message: 'must be an integer ≥ 0' })
    }
  }
  if (actionType === 'mva_melding') issues.push(...mvaPayloadIssues(payload))
  return issues
}
