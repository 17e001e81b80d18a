import type { TSchema } from '@sinclair/typebox'

/** TypeBox schemas carry symbol keys; JSON drops them and leaves plain JSON Schema 2020-12. */
export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>
}
