/**
 * TypeBox's validation report in the spec's shape (`explanation.details`), the same for every
 * surface: a REST body, query or path, and MCP tool arguments.
 */
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { AppError, validationError, type FieldIssue } from '../errors/app-error.ts'
import { oversizedFields } from '../schemas/bounds.ts'
import { ORG_NUMBER_FORMAT } from '../schemas/formats.ts'

interface TypeBoxIssue {
  path: string
  message: string
  value: unknown
}

function fieldOf(path: string, location: string): string {
  const dotted = path.replace(/^\//, '').split('/').filter(Boolean).join('.')
  return dotted === '' ? location : dotted
}

export function issuesFromValidation(error: unknown): FieldIssue[] {
  const e = error as { all?: TypeBoxIssue[]; type?: string }
  const location = e.type ?? 'body'
  const seen = new Set<string>()
  const out: FieldIssue[] = []
  for (const issue of e.all ?? []) {
    const field = fieldOf(issue.path, location)
    const message = issue.value === undefined && issue.path !== '' ? 'is required' : issue.message
    const key = `${field}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ field, message })
  }
  return out.length > 0 ? out : [{ field: location, message: 'is invalid' }]
}

/**
 * A well-formed organisation number whose check digit is wrong has its own code (spec: Conventions);
 * only when that is the whole complaint — any other fault in the input makes it VALIDATION_FAILED.
 */
export function checksumError(error: unknown): AppError | null {
  const all = (error as { all?: (TypeBoxIssue & { schema?: { format?: string } })[] }).all ?? []
  if (all.length === 0) return null
  const bad = all.every((i) => i.schema?.format === ORG_NUMBER_FORMAT && typeof i.value === 'string' && /^\d{9}$/.test(i.value))
  if (!bad) return null
  const org = all[0]!.value as string
  return new AppError('ORG_NUMBER_INVALID_CHECKSUM', { context: { org_number: org }, extra: { org_number: org } })
}


/**
 * Arguments a surface validates itself (MCP tool calls): too deep or over-long first, before any
 * pattern runs (schemas/bounds.ts), then the schema, reported as REST reports it.
 */
export function checkArguments(schema: TSchema, args: unknown): void {
  const oversized = oversizedFields(schema, args, 'arguments')
  if (oversized.length > 0) throw validationError(oversized)
  if (Value.Check(schema, args)) return
  const invalid = { all: [...Value.Errors(schema, args)], type: 'arguments' }
  throw checksumError(invalid) ?? new AppError('VALIDATION_FAILED', { details: issuesFromValidation(invalid) })
}
