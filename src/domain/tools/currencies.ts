/**
 * The currencies Norges Bank quotes against NOK (upstreams.md §3), as accepted by the exchange-rate
 * tool. Kept apart from exchange-rate.ts so the schema file can list them without an import cycle.
 */

/** Quoted today (RUB suspended since 2 March 2022 — kept: older dates have rates). */
export const CURRENT_CURRENCIES = [
  'AUD',
  'BDT',
  'BGN',
  'BRL',
  'BYN',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'ISK',
  'JPY',
  'KRW',
  'MMK',
  'MXN',
  'MYR',
  'NZD',
  'PHP',
  'PKR',
  'PLN',
  'RON',
  'RUB',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'USD',
  'ZAR',
  // The IMF's special drawing right: an ISO 4217 code with a published NOK rate (a calculated series).
  'XDR',
] as const

/** No longer quoted; accepted so that historical dates get their rate, later ones NO_RATE_AVAILABLE. */
export const HISTORIC_CURRENCIES: Record<string, string> = {
  BYR: 'replaced by BYN (Belarusian redenomination, 2016)',
  HRK: 'replaced by EUR on 1 January 2023',
  LTL: 'replaced by EUR on 1 January 2015',
}

/** Series Norges Bank publishes in the same flow that are indices, not currencies: refused. */
export const INDEX_SERIES: Record<string, string> = {
  I44: 'the import-weighted krone exchange rate index (I-44)',
  TWI: 'the trade-weighted krone exchange rate index (TWI)',
}

/** Currently suspended quotations, with the reason shown when a recent date has no rate. */
export const SUSPENDED_CURRENCIES: Record<string, string> = {
  RUB: 'Norges Bank suspended the RUB quotation from 2 March 2022, when the ECB stopped publishing a reference rate',
}

export const SUPPORTED_CURRENCIES: readonly string[] = [
  ...CURRENT_CURRENCIES,
  ...Object.keys(HISTORIC_CURRENCIES),
].sort()
