/**
 * Every organisation number an operation's JSON body or a tool's arguments take accepts a
 * nine-digit JSON integer (schemas/formats.ts `digitString`), so one declared without it is found
 * the day it exists. Path and query parameters arrive as text and need nothing.
 */
import { expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { allOperations } from '../../src/operations/index.ts'
import { TOOLS } from '../../src/mcp/tools.ts'
import { SandboxToolInput } from '../../src/schemas/sandbox.ts'
import { readIntegerDigits } from '../../src/pipeline/validation.ts'

type Json = { properties?: Record<string, Json>; anyOf?: Json[]; items?: Json; type?: string }

/** The paths of the fields named for an organisation number, with their schemas. */
function orgNumberFields(schema: Json | undefined, path: string[] = []): { path: string[]; schema: Json }[] {
  if (!schema) return []
  const here = /(^|_)org(_number)?$/.test(path.at(-1) ?? '') && schema.type === 'string' ? [{ path, schema }] : []
  return [
    ...here,
    ...Object.entries(schema.properties ?? {}).flatMap(([k, v]) => orgNumberFields(v, [...path, k])),
    ...(schema.anyOf ?? []).flatMap((alt) => orgNumberFields(alt, path)),
  ]
}

/** A value holding `leaf` at `path`, the rest of it empty. */
function holding(path: string[], leaf: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf)
}

const inputs: [string, TSchema][] = [
  ...allOperations
    .filter((op) => op.request.body && op.bodyType === 'json')
    .map((op) => [`${op.id} body`, op.request.body!] as [string, TSchema]),
  ...TOOLS.map((t) => [`${t.name} arguments`, t.input] as [string, TSchema]),
  ['sandbox tool arguments', SandboxToolInput],
]
const fields = inputs.flatMap(([where, schema]) =>
  orgNumberFields(schema as Json).map((f) => ({ where: `${where}: ${f.path.join('.')}`, path: f.path, schema })),
)

test('the registry and the tools take organisation numbers in JSON', () => {
  expect(fields.length).toBeGreaterThan(10)
})

test.each(fields.map((f) => [f.where, f] as const))('%s reads 984661185 as "984661185"', (_, f) => {
  const value = holding(f.path, 984661185)
  readIntegerDigits(f.schema, value)
  expect(value).toEqual(holding(f.path, '984661185'))
})
