/**
 * Turns a catalogue entry into the spec's Explanation, with caller context substituted into the
 * texts. Length bounds are the spec's; substitution could push a text past them, so it is clamped.
 */
import {
  CATALOGUE,
  NEUTRAL_NOUNS,
  PLACEHOLDERS,
  isErrorCode,
  type CatalogueExplanation,
  type ErrorCode,
  type Handover,
  type Placeholder,
} from './catalogue/index.ts'
import type { FieldIssue } from './app-error.ts'

export type ExplainContext = Partial<Record<Placeholder, string>>

export interface Explanation {
  summary: string
  summary_en: string
  why: string
  why_en: string
  fix_steps: string[]
  fix_steps_en: string[]
  relevant_link: string | null
  legal_basis: string | null
  handover: Handover | null
  details?: FieldIssue[]
}

export const LIMITS = { summary: 140, why: 240 } as const

function clamp(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
}

function fill(template: string, lang: 'nb' | 'en', context: ExplainContext): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) return whole
    const value = context[name as Placeholder]
    return value !== undefined && value !== '' ? value : NEUTRAL_NOUNS[lang][name as Placeholder]
  })
}

export function explain(code: ErrorCode, context: ExplainContext = {}): Explanation {
  const e: CatalogueExplanation = CATALOGUE[code].explanation
  const handover = e.handover
    ? {
        ...e.handover,
        what: fill(e.handover.what, 'nb', context),
        what_en: fill(e.handover.what_en, 'en', context),
        why: fill(e.handover.why, 'nb', context),
        why_en: fill(e.handover.why_en, 'en', context),
      }
    : null
  return {
    summary: clamp(fill(e.summary, 'nb', context), LIMITS.summary),
    summary_en: clamp(fill(e.summary_en, 'en', context), LIMITS.summary),
    why: clamp(fill(e.why, 'nb', context), LIMITS.why),
    why_en: clamp(fill(e.why_en, 'en', context), LIMITS.why),
    fix_steps: e.fix_steps.map((s) => fill(s, 'nb', context)),
    fix_steps_en: e.fix_steps_en.map((s) => fill(s, 'en', context)),
    relevant_link: e.relevant_link,
    legal_basis: e.legal_basis,
    handover,
  }
}

/** The explainer's lookup: case-insensitive, and anything uncatalogued degrades to UNKNOWN. */
export function resolveCode(requested: string): ErrorCode {
  const upper = requested.trim().toUpperCase()
  return isErrorCode(upper) ? upper : 'UNKNOWN'
}
