/**
 * The words of the change archive (spec: Events, Change row). `source` names the upstream system
 * with the spec's neutral words (spec, first paragraph: `register`, `portal`, `directorate`,
 * `centralbank`, as in the scopes; `labour_register` and `tax_authority`, as in the sandbox
 * context's fields and the tax authority's scopes); `entity_type` what changed. Webhooks carry one
 * event in v1, `accounts.updated`: a subscription selects exactly its rows, and every other row is
 * pull-only (GET /api/v1/changes).
 */
export const CHANGE_SOURCE = {
  /** the business register (and the accounts register it publishes) */
  register: 'register',
  /** the filing portal */
  portal: 'portal',
  /** the digital agency */
  directorate: 'directorate',
  /** the central bank */
  centralbank: 'centralbank',
  /** the labour register */
  labour_register: 'labour_register',
  /** the tax authority (its VAT register, as the business register publishes membership) */
  tax_authority: 'tax_authority',
} as const
export type ChangeSource = (typeof CHANGE_SOURCE)[keyof typeof CHANGE_SOURCE]
export const SOURCES = [
  'register',
  'portal',
  'directorate',
  'centralbank',
  'labour_register',
  'tax_authority',
] as const satisfies readonly ChangeSource[]

export const ENTITY_TYPES = [
  'annual_accounts',
  'company',
  'filings',
  'delegation',
  'exchange_rate',
  'employees',
  'vat_registration',
] as const
export type EntityType = (typeof ENTITY_TYPES)[number]
export const CHANGE_TYPES = ['updated', 'created', 'deleted', 'removed'] as const

export const ACCOUNTS_EVENT = 'accounts.updated'

/** The filter of the one event a subscription can select in v1; a filter names these values or leaves them out. */
export const ACCOUNTS_FILTER = { source: 'register', entity_type: 'annual_accounts', change_type: 'updated' } as const

/** The register feed's `endringstype` as a change_type; `Ukjent` (legacy rows) is an update of unknown kind. */
export const FEED_CHANGE_TYPES: Record<string, (typeof CHANGE_TYPES)[number]> = {
  Ny: 'created',
  Endring: 'updated',
  Sletting: 'deleted',
  Fjernet: 'removed',
  Ukjent: 'updated',
}
