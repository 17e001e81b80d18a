/**
 * A JSON Schema (2020-12) kept in `contracts/` as the judge: one named definition of it, compiled
 * with Ajv (formats checked), answering each value's errors as readable lines.
 */
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { contractText } from './xsd.ts'

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true })
addFormats(ajv)
const loaded = new Map<string, string>()

/** A validator for `#/$defs/<name>` of the schema at `contracts/<path>`: the errors of a value, none when valid. */
export async function jsonSchemaJudge(path: string, name: string): Promise<(value: unknown) => string[]> {
  if (!loaded.has(path)) {
    const schema = JSON.parse(await contractText(path)) as { $id: string }
    ajv.addSchema(schema)
    loaded.set(path, schema.$id)
  }
  const validate = ajv.getSchema(`${loaded.get(path)}#/$defs/${name}`)
  if (!validate) throw new Error(`${path} has no $defs/${name}`)
  return (value) =>
    validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
}
