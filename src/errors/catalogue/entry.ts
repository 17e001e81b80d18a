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
   * A code the spec catalogues that this service never throws, and why: what Plikt can observe does
   * not let it tell that case apart (the code stays, so a client written to the spec knows it).
   * Internal bookkeeping, never rendered (the registry, the explainer, the docs page and OpenAPI
   * pick their fields one by one); remove it in the change that first throws the code
   * (test/errors/catalogue-sections.test.ts).
   */
  unused?: UnusedBecause
}

/**
 * Why a catalogued code is not thrown. RISK_ELEVATED: an anomaly could only demand what every
 * production filing needs already, a person's confirmation (src/pipeline/approval.ts).
 * AUTH_INSUFFICIENT_ROLE and FULLMAKT_PACKAGE_NOT_GRANTED: the portal refuses a system user with a
 * bare 401/403 that does not say whether a role, an access package or the delegation itself is
 * missing, and the digital agency's vendor API does not show a system user's rights; the spec's
 * PORTAL_DELEGATION_MISSING ("portal answered 401 or 403 for the system user") is what a refusal is.
 */
export type UnusedBecause =
  | 'every production filing needs a person’s confirmation already'
  | 'the portal does not say which right a refusal lacks'

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
