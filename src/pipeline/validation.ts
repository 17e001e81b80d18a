/**
 * TypeBox's validation report in the spec's shape (`explanation.details`), the same for every
 * surface: a REST body, query or path, and MCP tool arguments.
 */
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { AppError, validationError, type FieldIssue } from '../errors/app-error.ts'
import { oversizedFields } from '../schemas/bounds.ts'
import { INTEGER_DIGITS, ORG_NUMBER_FORMAT } from '../schemas/formats.ts'

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
  const bad = all.every(
    (i) => i.schema?.format === ORG_NUMBER_FORMAT && typeof i.value === 'string' && /^\d{9}$/.test(i.value),
  )
  if (!bad) return null
  const org = all[0]!.value as string
  return new AppError('ORG_NUMBER_INVALID_CHECKSUM', { context: { org_number: org }, extra: { org_number: org } })
}

type Json = Record<string, unknown>

/** Whether a schema has a digit string that takes an integer anywhere (found once per schema). */
const takesIntegers = new WeakMap<object, boolean>()

function hasIntegerDigits(schema: Json): boolean {
  let found = takesIntegers.get(schema)
  if (found === undefined) {
    const children = [
      ...Object.values((schema.properties as Record<string, Json> | undefined) ?? {}),
      ...((schema.anyOf as Json[] | undefined) ?? []),
      ...(schema.items && !Array.isArray(schema.items) ? [schema.items as Json] : []),
    ]
    found = typeof schema[INTEGER_DIGITS as never] === 'number' || children.some(hasIntegerDigits)
    takesIntegers.set(schema, found)
  }
  return found
}

function integerAsDigits(schema: Json, value: unknown): unknown {
  const length = schema[INTEGER_DIGITS as never]
  if (typeof length === 'number') {
    // Negative, fractional or of another length: left as it came, for the schema to refuse.
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && String(value).length === length
      ? String(value)
      : value
  }
  if (!hasIntegerDigits(schema)) return value
  if (Array.isArray(value)) {
    const items = schema.items as Json | undefined
    if (items && !Array.isArray(items))
      for (let i = 0; i < value.length; i++) value[i] = integerAsDigits(items, value[i])
  } else if (value !== null && typeof value === 'object') {
    const props = schema.properties as Record<string, Json> | undefined
    if (props)
      for (const [k, sub] of Object.entries(props))
        if (Object.hasOwn(value, k)) (value as Json)[k] = integerAsDigits(sub, (value as Json)[k])
  }
  for (const alt of (schema.anyOf as Json[] | undefined) ?? []) {
    const read = integerAsDigits(alt, value)
    if (read !== value) return read
  }
  return value
}

/**
 * Before validation, on every surface (a REST JSON body in app.ts, MCP arguments here): a JSON
 * integer where the schema takes a digit string that stands for one (schemas/formats.ts
 * `digitString`: organisation numbers) becomes that string, in place, so the handler, the
 * idempotency fingerprint and the checksum check all see the digits.
 */
export function readIntegerDigits(schema: TSchema | undefined, input: unknown): void {
  if (schema && input !== null && typeof input === 'object' && hasIntegerDigits(schema as Json))
    integerAsDigits(schema as Json, input)
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()

/**
 * One part of a call's input against its schema, compiled once per schema; reported in the spec's
 * shape, `location` naming where the input came from (`body`, `query`, `params`, MCP `arguments`).
 * A wrong check digit alone is ORG_NUMBER_INVALID_CHECKSUM.
 */
export function checkInput(schema: TSchema, value: unknown, location: string): void {
  let check = compiled.get(schema)
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)))
  if (check.Check(value)) return
  const invalid = { all: [...check.Errors(value)], type: location }
  throw checksumError(invalid) ?? new AppError('VALIDATION_FAILED', { details: issuesFromValidation(invalid) })
}

/**
 * Arguments a surface validates as one object (MCP tool calls): integers that stand for digit
 * strings read as such, then too deep or over-long input refused before any pattern runs
 * (schemas/bounds.ts), then the schema, reported as REST reports it.
 */
export function checkArguments(schema: TSchema, args: unknown): void {
  readIntegerDigits(schema, args)
  const oversized = oversizedFields(schema, args, 'arguments')
  if (oversized.length > 0) throw validationError(oversized)
  checkInput(schema, args, 'arguments')
}
