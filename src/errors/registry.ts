import { CATALOGUE, ERROR_CODES, type ErrorCategory, type ErrorCode } from './catalogue/index.ts'

export interface RegistryEntry {
  code: ErrorCode
  retryable: boolean
  fix_hint_en: string
  fix_hint_nb: string
  docs_url: string
  category: ErrorCategory
}

/** Each code's documentation: an anchor on the error page this service serves itself. */
export function docsUrl(baseUrl: string, code: ErrorCode): string {
  return `${baseUrl}/docs/errors#${code}`
}

/** The public registry (`GET /api/v1/errors`), sorted by code. */
export function registryEntries(baseUrl: string): RegistryEntry[] {
  return ERROR_CODES.map((code) => {
    const e = CATALOGUE[code]
    return {
      code,
      retryable: e.retryable,
      fix_hint_en: e.fix_hint_en,
      fix_hint_nb: e.fix_hint_nb,
      docs_url: docsUrl(baseUrl, code),
      category: e.category,
    }
  })
}
