/**
 * The only list of error codes, assembled from one section per area. Every thrown error,
 * `GET /api/v1/errors`, `POST /api/v1/explain` and the OpenAPI `ErrorCode` enum come from here.
 *
 * To add a code, add its entry to the section of its area (or a new section file, spread below);
 * test/errors/catalogue-sections.test.ts checks that every code is in exactly one section.
 */
import { ACCESS_CATALOGUE } from './access.ts'
import { ACTIONS_CATALOGUE } from './actions.ts'
import { AUTH_CATALOGUE } from './auth.ts'
import { BILLING_CATALOGUE } from './billing.ts'
import { COMPANY_CATALOGUE } from './company.ts'
import { DELEGATION_CATALOGUE } from './delegation.ts'
import type { CatalogueEntry } from './entry.ts'
import { SANDBOX_CATALOGUE } from './sandbox.ts'
import { SERVICE_CATALOGUE } from './service.ts'
import { TOOLS_CATALOGUE } from './tools.ts'
import { UPSTREAM_CATALOGUE } from './upstream.ts'

export { NEUTRAL_NOUNS, PLACEHOLDERS } from './entry.ts'
export type {
  CatalogueEntry,
  CatalogueExplanation,
  ErrorCategory,
  Handover,
  HandoverWho,
  Placeholder,
} from './entry.ts'

// A spread keeps the last of two equal keys without a word: the sections test counts them.
export const CATALOGUE = {
  ...SERVICE_CATALOGUE,
  ...AUTH_CATALOGUE,
  ...ACCESS_CATALOGUE,
  ...DELEGATION_CATALOGUE,
  ...BILLING_CATALOGUE,
  ...COMPANY_CATALOGUE,
  ...TOOLS_CATALOGUE,
  ...UPSTREAM_CATALOGUE,
  ...ACTIONS_CATALOGUE,
  ...SANDBOX_CATALOGUE,
} as const satisfies Record<string, CatalogueEntry>

export type ErrorCode = keyof typeof CATALOGUE

export const ERROR_CODES = Object.keys(CATALOGUE).sort() as ErrorCode[]

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(CATALOGUE, code)
}
