/**
 * String formats our schemas use, registered with TypeBox once at load so every validator (Elysia's
 * compiled checks, MCP tool input checks) applies them.
 */
import { FormatRegistry } from '@sinclair/typebox'
import { hasValidCheckDigit } from '../lib/org-number.ts'

/** An organisation number whose MOD-11 check digit is right (the pattern checks the nine digits). */
export const ORG_NUMBER_FORMAT = 'org-number'

if (!FormatRegistry.Has(ORG_NUMBER_FORMAT)) FormatRegistry.Set(ORG_NUMBER_FORMAT, (v) => !/^\d{9}$/.test(v) || hasValidCheckDigit(v))
