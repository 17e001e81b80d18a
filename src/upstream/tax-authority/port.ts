/**
 * The tax authority's VAT return validation (Skatteetaten, reference/flows.md §3: `…/mva-melding/valider`,
 * always 200 with a `valideringsresultat`). Used before a live filing is handed to the portal.
 */
export type VatValidationOutcome =
  | 'ingen avvik'
  | 'avvikende skattemelding'
  | 'mangelfull skattemelding'
  | 'ugyldig skattemelding'

export interface VatValidation {
  avvikVedMeldingslevering: VatValidationOutcome
  avvik: { stiTilAvvik: string; avvikKode: string; regelDefinisjon: string; detaljer?: string }[]
}

export interface VatReturn {
  org_number: string
  /** our period label, e.g. `2026-T2`, `2026-A`, `2026-05` */
  period: string
  /** the agent's payload, as the execute request carried it */
  payload: Record<string, unknown>
}

export interface TaxAuthority {
  readonly mock: boolean
  /** validates the return; `token` is the access token for `skatteetaten:mvameldingvalidering` */
  validateVatReturn(vat: VatReturn, token: string): Promise<VatValidation>
}
