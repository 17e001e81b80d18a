/**
 * String formats our schemas use, registered with TypeBox once at load so every validator (Elysia's
 * compiled checks, MCP tool input checks) applies them.
 */
import { FormatRegistry, Type, type StringOptions, type TString } from '@sinclair/typebox'
import { hasValidCheckDigit } from '../lib/org-number.ts'

/** An organisation number whose MOD-11 check digit is right (the pattern checks the nine digits). */
export const ORG_NUMBER_FORMAT = 'org-number'

if (!FormatRegistry.Has(ORG_NUMBER_FORMAT))
  FormatRegistry.Set(ORG_NUMBER_FORMAT, (v) => !/^\d{9}$/.test(v) || hasValidCheckDigit(v))

/**
 * Marks a digit string a JSON integer may stand for; its value is the number of digits. Agents, and
 * MCP clients that parse arguments as JSON (the official Inspector CLI), send 984661185 unquoted.
 * An integer with exactly the string's number of digits can mean nothing else, since a number has
 * no leading zero to lose, so validation reads it as its digits (pipeline/validation.ts) and refuses
 * every other number as before. A symbol: the published schemas stay plain JSON Schema.
 */
export const INTEGER_DIGITS: unique symbol = Symbol.for('plikt.integer-digits')

/**
 * A string of exactly `length` digits that a JSON integer of as many digits may stand for. Only for
 * a number that cannot start with 0 where a number is given: an identity number (fnr), whose
 * leading zero matters, stays a plain string.
 */
export function digitString(length: number, options: StringOptions & { description: string }): TString {
  return Type.String({
    ...options,
    pattern: `^[0-9]{${length}}$`,
    description: `${options.description}; a JSON integer of exactly ${length} digits is read as those digits`,
    [INTEGER_DIGITS]: length,
  })
}
