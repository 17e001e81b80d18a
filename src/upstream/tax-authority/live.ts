/**
 * The tax authority's VAT validation over real HTTP (reference/flows.md §3): the return as XML to
 * `…/mva-melding/valider`, which always answers 200 with a `valideringsresultat` when it could
 * read the request. The token is the raw token-service token (no exchange: this is the tax
 * authority's own REST gateway, not Altinn).
 */
import { AppError } from '../../errors/app-error.ts'
import { canonicalJson } from '../../lib/canonical-json.ts'
import { sha256Hex } from '../../lib/hash.ts'
import type { UpstreamClient } from '../http.ts'
import { mapValideringsresultat } from './map.ts'
import { meldingOf, mvaMeldingXml } from './mva-melding.ts'
import type { TaxAuthority, VatReturn, VatValidation } from './port.ts'

export const TAX_AUTHORITY_NAME = 'Skatteetaten'
export const VALIDATION_PATH = '/api/mva/grensesnittstoette/mva-melding/valider'
export const MVA_VALIDATION_SCOPE = 'skatteetaten:mvameldingvalidering'

/** A validation has no action id yet: the reference is a digest of what is validated. */
export function validationReference(vat: VatReturn): string {
  return `plikt-${sha256Hex(canonicalJson([vat.org_number, vat.period, vat.payload])).slice(0, 32)}`
}

export class LiveTaxAuthority implements TaxAuthority {
  readonly mock = false

  constructor(
    /** e.g. https://idporten.api.skatteetaten.no, no trailing slash */
    private readonly baseUrl: string,
    private readonly client: UpstreamClient,
  ) {}

  async validateVatReturn(vat: VatReturn, token: string): Promise<VatValidation> {
    const body = mvaMeldingXml(meldingOf(vat), validationReference(vat))
    const res = await this.client.request(`${this.baseUrl}${VALIDATION_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml', accept: 'application/xml' },
      body,
    })
    const context = { upstream_system: TAX_AUTHORITY_NAME }
    if (res.status !== 200)
      throw new AppError('GOVERNMENT_API_ERROR', {
        context,
        extra: { upstream_system: TAX_AUTHORITY_NAME, upstream_status: res.status },
      })
    const result = mapValideringsresultat(res.text)
    if (!result)
      throw new AppError('GOVERNMENT_API_ERROR', {
        context,
        extra: { upstream_system: TAX_AUTHORITY_NAME, reason: 'unreadable answer' },
      })
    return result
  }
}
