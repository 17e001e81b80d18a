/**
 * The tax authority's validation without a network: the same mapping of the payload to a return
 * as the live client, judged by the rules in rules.ts. Deterministic: a payload with lines that do
 * not sum to its total is `avvikende`, a line whose VAT is not its base times its rate is
 * `ugyldig`, anything else `ingen avvik`.
 */
import { meldingOf } from './mva-melding.ts'
import type { TaxAuthority } from './port.ts'
import { vatFindings } from './rules.ts'

export const mockTaxAuthority: TaxAuthority = {
  mock: true,
  validateVatReturn: async (vat) => vatFindings(meldingOf(vat)),
}
