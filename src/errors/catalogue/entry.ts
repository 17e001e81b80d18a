/**
 * The shape of a catalogue entry, shared by every section, and the placeholders its texts may use.
 *
 * Texts may contain the placeholders {org_number}, {role}, {scope}, {field}, {upstream_system} and
 * {parent_org_number} (the legal entity a sub-unit belongs to);
 * the explainer substitutes caller context or a neutral noun (see NEUTRAL_NOUNS).
 */

export type ErrorCategory =
  | 'auth'
  | 'scope'
  | 'validation'
  | 'not_found'
  | 'rate_limit'
  | 'upstream'
  | 'internal'
  | 'billing'

export type HandoverWho = 'company_admin' | 'accountant' | 'portal_user' | 'service_support'

/** Who must act when an agent cannot. `what`/`why` are bokmål; `_en` siblings are English. */
export interface Handover {
  who: HandoverWho
  where: string
  what: string
  what_en: string
  why: string
  why_en: string
}

export interface CatalogueExplanation {
  /** bokmål, ≤ 140 chars */
  summary: string
  /** English, ≤ 140 chars */
  summary_en: string
  /** bokmål, ≤ 240 chars */
  why: string
  /** English, ≤ 240 chars */
  why_en: string
  /** 2–5 imperative bokmål steps */
  fix_steps: readonly string[]
  /** the same steps in English, same order */
  fix_steps_en: readonly string[]
  relevant_link: string | null
  legal_basis: string | null
  /** null when an agent can resolve the error itself */
  handover: Handover | null
}

export interface CatalogueEntry {
  status: number
  category: ErrorCategory
  retryable: boolean
  /** one imperative English sentence an agent can act on */
  fix_hint_en: string
  /** the same in bokmål */
  fix_hint_nb: string
  explanation: CatalogueExplanation
  /**
   * Set while nothing throws the code yet: the capability it waits for. Internal bookkeeping, never
   * rendered (the registry, the explainer, the docs page and OpenAPI pick their fields one by one);
   * remove it in the change that first throws the code (test/errors/catalogue-sections.test.ts).
   */
  awaits?: AwaitedCapability
}

/** The capabilities a catalogued but not yet thrown code waits for. */
export type AwaitedCapability = 'delegation and live filing (issue 13)' | 'operations (issue 17)'

export const PLACEHOLDERS = ['org_number', 'role', 'scope', 'field', 'upstream_system', 'parent_org_number'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]

/** What a placeholder becomes when the caller gave no value. */
export const NEUTRAL_NOUNS: Record<'nb' | 'en', Record<Placeholder, string>> = {
  nb: {
    org_number: 'organisasjonen',
    role: 'rollen',
    scope: 'tilgangen',
    field: 'feltet',
    upstream_system: 'det eksterne systemet',
    parent_org_number: 'hovedenheten',
  },
  en: {
    org_number: 'the organisation',
    role: 'the role',
    scope: 'the scope',
    field: 'the field',
    upstream_system: 'the upstream system',
    parent_org_number: 'the legal entity',
  },
}
