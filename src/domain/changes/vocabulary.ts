/**
 * The words of the change archive (spec: Events, Change row). `source` names the upstream system
 * as the spec does (`register` is the business register); `entity_type` what changed. Webhooks
 * carry one event in v1, `accounts.updated`: a subscription selects exactly its rows.
 */
export const CHANGE_SOURCE = { register: 'register' } as const
export const SOURCES = ['register'] as const
export const ENTITY_TYPES = ['annual_accounts', 'company'] as const
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
