/**
 * Over-long strings are refused before any pattern or format is evaluated. TypeBox's error report
 * (which Elysia builds for every failed validation, and MCP for failed tool arguments) evaluates
 * every constraint of a failing string — a pattern runs even on input its `maxLength` already
 * refused — so without this step the cost of a request grows with what an attacker sends, not with
 * what the schema allows. Patterns are also kept free of ambiguous repetition (a contract test times
 * each one on adversarial input); this is the second wall.
 */
import type { TSchema } from '@sinclair/typebox'
import type { FieldIssue } from '../errors/app-error.ts'

type Json = Record<string, unknown>

/** Whether a schema has a bounded string anywhere: only such schemas need the walk. */
export function hasBoundedStrings(schema: TSchema | undefined): boolean {
  if (!schema) return false
  const s = schema as Json
  if (typeof s.maxLength === 'number') return true
  const children = [
    ...Object.values((s.properties as Record<string, TSchema> | undefined) ?? {}),
    ...((s.anyOf as TSchema[] | undefined) ?? []),
    ...((s.allOf as TSchema[] | undefined) ?? []),
    ...(s.items && !Array.isArray(s.items) ? [s.items as TSchema] : []),
  ]
  return children.some(hasBoundedStrings)
}

function jsType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v === 'number' ? 'number' : typeof v
}

function typeMatches(schema: Json, value: unknown): boolean {
  const t = schema.type
  if (t === undefined) return true
  const vt = jsType(value)
  if (t === 'integer') return vt === 'number'
  return t === vt
}

function walk(schema: Json, value: unknown, path: string[], out: { path: string[]; max: number }[]): void {
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      out.push({ path, max: schema.maxLength })
  } else if (Array.isArray(value)) {
    const items = schema.items as Json | undefined
    if (items && !Array.isArray(items)) value.forEach((v, i) => walk(items, v, [...path, String(i)], out))
  } else if (value !== null && typeof value === 'object') {
    const props = schema.properties as Record<string, Json> | undefined
    if (props)
      for (const [k, sub] of Object.entries(props))
        if (Object.hasOwn(value, k)) walk(sub, (value as Json)[k], [...path, k], out)
  }
  for (const sub of (schema.allOf as Json[] | undefined) ?? []) walk(sub, value, path, out)
  const anyOf = schema.anyOf as Json[] | undefined
  if (anyOf) {
    // Over-long only when every alternative of the value's type refuses it for length.
    const fitting = anyOf.filter((alt) => typeMatches(alt, value))
    const per = fitting.map((alt) => {
      const found: { path: string[]; max: number }[] = []
      walk(alt, value, path, found)
      return found
    })
    if (per.length > 0 && per.every((f) => f.length > 0)) out.push(...per[0]!)
  }
}

/**
 * The fields of `value` longer than `schema` allows, in the shape of a validation report
 * (`location` names the input when the field is the whole of it).
 */
export function overlongFields(schema: TSchema, value: unknown, location: string): FieldIssue[] {
  const found: { path: string[]; max: number }[] = []
  walk(schema as Json, value, [], found)
  return found.map(({ path, max }) => ({
    field: path.length ? path.join('.') : location,
    message: `Expected string length less or equal to ${max}`,
  }))
}

/**
 * JSON nested deeper than any of our inputs needs. Every input we define is a few levels deep;
 * walking a 20 000-level document recursively (canonical JSON, the validator) overflows the stack.
 */
export const MAX_INPUT_DEPTH = 32

/** Whether `value` nests objects or arrays deeper than `max` levels (iterative: no recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (depth >= max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}

/** The validation report of an input that is too deep or has over-long strings; empty when neither. */
export function oversizedFields(schema: TSchema, value: unknown, location: string): FieldIssue[] {
  if (nestedDeeperThan(value, MAX_INPUT_DEPTH))
    return [{ field: location, message: `is nested deeper than ${MAX_INPUT_DEPTH} levels` }]
  return overlongFields(schema, value, location)
}
