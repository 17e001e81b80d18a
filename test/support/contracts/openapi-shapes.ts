/**
 * The publishers' contracts under `contracts/` as validators, for the contract tests beside this file
 * (issue 26, "Contract tests that judge both sides"). Nothing here is written by us but the plumbing:
 * every schema is the publisher's, read from the file `contracts/<folder>/SOURCES.md` names.
 *
 * - An OpenAPI 3.0 document: a named component (`#/components/schemas/<name>`) or the schema of one
 *   documented response (path, method, status, media type), with every `$ref` resolved within the
 *   document. OpenAPI 3.0 is not JSON Schema, so three things are translated and nothing else:
 *   `nullable: true` admits null; `#/components/schemas/X` refs point at the same schemas; the
 *   keywords JSON Schema does not know (`example`, `externalDocs`, `xml`, `discriminator`,
 *   `deprecated`) are dropped, since they do not constrain a value. OpenAPI's own formats (int32,
 *   int64, float, double, byte, binary, password) are checked as ajv-formats defines them.
 * - A plain JSON Schema (SDMX-JSON): its `$schema`/`id` header (draft-04 style, which Ajv 8 does
 *   not take) is dropped and the rest compiled as it stands.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'

const CONTRACTS = new URL('../../../contracts/', import.meta.url).pathname

type Json = Record<string, unknown>

/** A compiled shape: `errors(value)` is empty when the value has the shape. */
export interface Shape {
  readonly name: string
  errors(value: unknown): string[]
}

/** A file under `contracts/`, parsed as YAML when it ends in .yaml/.yml, else as JSON. */
export async function loadContract(path: string): Promise<Json> {
  const text = await Bun.file(CONTRACTS + path).text()
  const doc: unknown = /\.ya?ml$/.test(path) ? Bun.YAML.parse(text) : JSON.parse(text)
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error(`contracts/${path} is not a document`)
  return doc as Json
}

/** A JSON file under `contracts/` (an example or sample), parsed. */
export async function loadExample(path: string): Promise<unknown> {
  return JSON.parse(await Bun.file(CONTRACTS + path).text())
}

function newAjv(): Ajv {
  // Strict about the schema itself (an unknown keyword is an error), not about the publishers'
  // habit of omitting `type: object` beside `properties` or `required` names not in `properties`.
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: true,
  })
  addFormats(ajv)
  return ajv
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  )
}

function shape(name: string, validate: ValidateFunction): Shape {
  return {
    name,
    errors(value) {
      return validate(value) ? [] : describe(validate.errors)
    },
  }
}

const OPENAPI_ONLY = new Set(['example', 'externalDocs', 'xml', 'discriminator', 'deprecated'])

/** One OpenAPI 3.0 schema object as JSON Schema (draft-07), recursively. */
function fromOpenApi(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromOpenApi)
  if (node === null || typeof node !== 'object') return node
  const src = node as Json
  const out: Json = {}
  for (const [k, v] of Object.entries(src)) {
    if (OPENAPI_ONLY.has(k) || k === 'nullable') continue
    if (k === '$ref' && typeof v === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(v)
      if (!m) throw new Error(`a $ref outside components.schemas is not supported: ${v}`)
      out.$ref = `#/definitions/${m[1]}`
    } else if (k === 'properties' || k === 'patternProperties') {
      // property names are data, not keywords: keep them, translate their schemas
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, fromOpenApi(s)]))
    } else {
      out[k] = fromOpenApi(v)
    }
  }
  if (src.nullable !== true) return out
  // OpenAPI 3.0 §4.7.24 (Schema Object, `nullable`): null is allowed as well.
  if (typeof out.type === 'string' && out.$ref === undefined) {
    out.type = [out.type, 'null']
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
    return out
  }
  return { anyOf: [out, { type: 'null' }] }
}

function definitions(doc: Json): Json {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Json
  return Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, fromOpenApi(v)]))
}

/** `#/components/schemas/<name>` of an OpenAPI 3.0 document. */
export function openApiComponent(doc: Json, name: string): Shape {
  const defs = definitions(doc)
  if (!(name in defs)) throw new Error(`no component schema ${name}`)
  return shape(name, newAjv().compile({ definitions: defs, $ref: `#/definitions/${name}` }))
}

/** The schema of one documented response: `paths[path][method].responses[status].content[mediaType].schema`. */
export function openApiResponse(
  doc: Json,
  path: string,
  method: string,
  status: string,
  mediaType = 'application/json',
): Shape {
  const op = ((doc.paths as Json | undefined)?.[path] as Json | undefined)?.[method] as Json | undefined
  const response = (op?.responses as Json | undefined)?.[status] as Json | undefined
  const schema = ((response?.content as Json | undefined)?.[mediaType] as Json | undefined)?.schema
  if (schema === undefined) throw new Error(`no schema for ${method.toUpperCase()} ${path} ${status} ${mediaType}`)
  const root = fromOpenApi(schema) as Json
  return shape(
    `${method.toUpperCase()} ${path} ${status}`,
    newAjv().compile({ ...root, definitions: definitions(doc) }),
  )
}

/**
 * A JSON Schema document as published. `isoDateTime`: check `format: date-time` as ISO 8601 with
 * the offset optional (ajv-formats' `iso-date-time`) instead of RFC 3339's mandatory offset — for a
 * schema whose own text says ISO 8601 (SDMX-JSON 1.0, `meta.prepared`).
 */
export function jsonSchema(name: string, doc: Json, opts: { isoDateTime?: boolean } = {}): Shape {
  const { $schema: _s, id: _id, ...rest } = doc
  const ajv = newAjv()
  if (opts.isoDateTime) ajv.addFormat('date-time', ajv.formats['iso-date-time']!)
  return shape(name, ajv.compile(rest))
}
