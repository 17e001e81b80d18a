/**
 * What an organisation can delegate to Plikt's system user, and what each tier needs delegated.
 * The scope names are Plikt's (the ones the five checks read, domain/actions/dry-run.ts); each
 * maps to the access package the digital agency knows (reference/flows.md §7).
 */
import { AppError, validationError, type FieldIssue } from '../../errors/app-error.ts'
import { RESERVED_SCOPE_PREFIXES, type Plan } from '../access/types.ts'
import { ACTION_SCOPES } from '../actions/dry-run.ts'

export const ACCESS_PACKAGES: Record<string, string> = {
  [ACTION_SCOPES.mva_melding]: 'urn:altinn:accesspackage:merverdiavgift',
  [ACTION_SCOPES.a_melding]: 'urn:altinn:accesspackage:a-ordning',
}

export const DELEGABLE_SCOPES = Object.keys(ACCESS_PACKAGES)

/**
 * The scopes a tier's work needs delegated: a `full` snapshot has them all. Free and starter keys
 * can file VAT only; professional and enterprise keys are sold for payroll reporting too.
 */
export function planBaseline(tier: Plan): string[] {
  return tier === 'professional' || tier === 'enterprise' ? [...DELEGABLE_SCOPES] : [ACTION_SCOPES.mva_melding]
}

/** Sorted, without duplicates; a reserved prefix is SCOPE_RESERVED, an unknown scope VALIDATION_FAILED naming it. */
export function checkDelegationScopes(scopes: readonly string[]): string[] {
  const reserved = scopes.find((s) => RESERVED_SCOPE_PREFIXES.some((p) => s.startsWith(p)))
  if (reserved !== undefined)
    throw new AppError('SCOPE_RESERVED', { context: { scope: reserved }, extra: { scope: reserved } })
  const issues: FieldIssue[] = []
  scopes.forEach((s, i) => {
    if (!DELEGABLE_SCOPES.includes(s))
      issues.push({
        field: `scopes[${i}]`,
        message: `is not a scope that can be delegated; one of ${DELEGABLE_SCOPES.join(', ')}`,
      })
  })
  if (scopes.length === 0) issues.push({ field: 'scopes', message: 'must name at least one scope' })
  if (issues.length > 0) throw validationError(issues)
  return [...new Set(scopes)].sort()
}
