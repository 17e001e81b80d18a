/**
 * The MCP resources and resource templates (ARCHITECTURE.md "MCP resources, prompts and
 * completions"), as data derived from the registry: an operation that declares `mcpResource` is
 * read as that resource, so the server (src/mcp/resources.ts), the capabilities document, the MCP
 * manifest, llms.txt and the agent-readiness probe all name the same ones, and none names an
 * operation that does not exist.
 *
 * The URI scheme is Plikt's own, `plikt://`: the REST route's meaning without `/api/v1`, a required
 * input as a path segment `{name}` (under its tool argument's name: `org_number`), optional query
 * inputs as `{?a,b}` (RFC 6570 form-style query). A URI with no variable left, or whose required
 * variables take a fixed set of values (the entity types), is a concrete resource `resources/list`
 * names; a URI with a variable is also a template `resources/templates/list` names.
 */
import type { TObject, TSchema } from '@sinclair/typebox'
import { allOperations, isKeyless, openApiPath, toolArgumentName, type Operation } from '../../operations/index.ts'

export const RESOURCE_SCHEME = 'plikt://'

export interface UriVariable {
  name: string
  /** a path segment (`{name}`); otherwise a form-style query variable (`{?name}`) */
  required: boolean
}

/** The variables of a template: `{a}` path segments, then `{?b,c}` query variables. */
export function uriVariables(template: string): UriVariable[] {
  const out: UriVariable[] = []
  for (const m of template.matchAll(/\{(\??)([^}]*)\}/g)) {
    for (const name of m[2]!.split(',')) out.push({ name, required: m[1] !== '?' })
  }
  return out
}

/** The template with its variables filled: a value left out of a query variable leaves it out. */
export function expandUri(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\??)([^}]*)\}/g, (_, query: string, names: string) => {
    if (query !== '?') return encodeURIComponent(values[names] ?? '')
    const pairs = names
      .split(',')
      .filter((n) => values[n] !== undefined)
      .map((n) => `${n}=${encodeURIComponent(values[n]!)}`)
    return pairs.length > 0 ? `?${pairs.join('&')}` : ''
  })
}

/**
 * The variables a URI gives the template, or null when it is not one of the template's: every
 * literal segment equal, each `{name}` one whole non-empty segment (percent-decoded), and a query
 * of the template's own query variables only, each at most once.
 */
export function matchUri(template: string, uri: string): Record<string, string> | null {
  const q = template.indexOf('{?')
  const pathTemplate = q < 0 ? template : template.slice(0, q)
  const queryNames = q < 0 ? [] : template.slice(q + 2, -1).split(',')
  const at = uri.indexOf('?')
  const path = at < 0 ? uri : uri.slice(0, at)
  const query = at < 0 ? null : uri.slice(at + 1)
  const want = pathTemplate.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const out: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const g = got[i]!
    const v = /^\{([^?}][^}]*)\}$/.exec(w)
    if (!v) {
      if (w !== g) return null
      continue
    }
    if (g === '') return null
    try {
      out[v[1]!] = decodeURIComponent(g)
    } catch {
      return null
    }
  }
  if (query === null || query === '') return out
  for (const [k, value] of new URLSearchParams(query)) {
    if (!queryNames.includes(k) || k in out) return null
    out[k] = value
  }
  return out
}

/** One input of an operation as a resource variable may name it: where it goes, and whether REST requires it. */
interface Input {
  schema: TSchema
  required: boolean
}

function inputsOf(op: Operation): Map<string, Input> {
  const out = new Map<string, Input>()
  const add = (shape: TObject | undefined, rename: (n: string) => string, allRequired: boolean) => {
    const required = new Set(shape?.required ?? [])
    for (const [k, schema] of Object.entries(shape?.properties ?? {}))
      out.set(rename(k), { schema, required: allRequired || required.has(k) })
  }
  add(op.request.params, toolArgumentName, true)
  add(op.request.query, (n) => n, false)
  return out
}

/** The values a schema allows when it names them (a literal, a union of literals, an `enum`); null otherwise. */
export function enumValues(schema: TSchema | undefined): string[] | null {
  if (!schema) return null
  if (Array.isArray(schema.enum)) return schema.enum.map(String)
  if (schema.const !== undefined) return [String(schema.const)]
  if (Array.isArray(schema.anyOf)) {
    const values = (schema.anyOf as TSchema[]).map((s) => (s.const !== undefined ? String(s.const) : null))
    return values.every((v) => v !== null) ? (values as string[]) : null
  }
  return null
}

export interface ListedResource {
  uri: string
  name: string
  title: string
  /** the template's variables this URI fills */
  values: Record<string, string>
}

export interface ResourceDescriptor {
  name: string
  uriTemplate: string
  title: string
  description: string
  mimeType: string
  operation: Operation
  /** readable with no credential at all (its REST twin is keyless) */
  keyless: boolean
  variables: UriVariable[]
  /** the schema of each variable's input, for completion and for reading its value */
  inputs: Readonly<Record<string, TSchema>>
  /** the concrete resources resources/list names to whoever is offered the operation (none for a template with a free variable) */
  listed: ListedResource[]
}

function mimeTypeOf(op: Operation): string {
  if (op.responseType) return op.responseType
  return op.format === 'markdown' ? 'text/markdown' : 'application/json'
}

function descriptionOf(op: Operation): string {
  const what = op.capability?.description_en ?? `${op.summary}.`
  const rest = `Reads \`${op.method} ${openApiPath(op.path)}\`, and answers what it answers`
  const tool = op.mcpTool ? ` (as the tool \`${op.mcpTool}\`)` : ''
  const price =
    op.costOre > 0
      ? ` Metered: ${op.costOre} øre per successful read, charged and refused exactly as the tool; nothing is charged when it fails.`
      : ''
  const key = isKeyless(op) ? ' No key needed.' : ` Needs a key${op.scope ? ` with \`${op.scope}\`` : ''}.`
  return `${what} ${rest}${tool}.${price}${key}`
}

/** Every combination of the listed values of the required variables (one empty combination when there are none). */
function combinations(vars: UriVariable[], inputs: Record<string, TSchema>): Record<string, string>[] | null {
  let out: Record<string, string>[] = [{}]
  for (const v of vars.filter((x) => x.required)) {
    const values = enumValues(inputs[v.name])
    if (!values) return null
    out = out.flatMap((c) => values.map((value) => ({ ...c, [v.name]: value })))
  }
  return out
}

function descriptorOf(op: Operation & { mcpResource: NonNullable<Operation['mcpResource']> }): ResourceDescriptor {
  const { uri, name } = op.mcpResource
  const fail = (why: string) => new Error(`operation ${op.id}: MCP resource ${uri} ${why}`)
  if (!uri.startsWith(RESOURCE_SCHEME)) throw fail(`is not in the ${RESOURCE_SCHEME} scheme`)
  const inputs = inputsOf(op)
  const variables = uriVariables(uri)
  for (const v of variables) {
    const input = inputs.get(v.name)
    if (!input) throw fail(`names {${v.name}}, which the operation does not take`)
    if (input.required !== v.required)
      throw fail(
        `gives {${v.name}} as ${v.required ? 'a path segment' : 'a query'}, but REST ${input.required ? 'requires' : 'does not require'} it`,
      )
  }
  for (const [n, input] of inputs)
    if (input.required && !variables.some((v) => v.name === n)) throw fail(`leaves out the required input ${n}`)
  const schemas = Object.fromEntries(variables.map((v) => [v.name, inputs.get(v.name)!.schema]))
  const title = op.capability?.name_en ?? op.summary
  const keyless = isKeyless(op)
  const combos = combinations(variables, schemas)
  return {
    name,
    uriTemplate: uri,
    title,
    description: descriptionOf(op),
    mimeType: mimeTypeOf(op),
    operation: op,
    keyless,
    variables,
    inputs: schemas,
    listed: (combos ?? []).map((values) => {
      const suffix = Object.values(values)
      return {
        uri: expandUri(uri, values),
        name: [name, ...suffix.map((s) => s.toLowerCase())].join('-'),
        title: suffix.length > 0 ? `${title}: ${suffix.join(', ')}` : title,
        values,
      }
    }),
  }
}

/** The resources of a registry, checked: each URI in the scheme, its variables the operation's inputs, names and templates unique. */
export function resourceDescriptors(ops: readonly Operation[] = allOperations): ResourceDescriptor[] {
  const out = ops
    .filter((o): o is Operation & { mcpResource: NonNullable<Operation['mcpResource']> } => o.mcpResource !== null)
    .map(descriptorOf)
  for (const key of ['name', 'uriTemplate'] as const) {
    const seen = new Set<string>()
    for (const d of out) {
      if (seen.has(d[key])) throw new Error(`two MCP resources share the ${key} ${d[key]}`)
      seen.add(d[key])
    }
  }
  return out
}

/** A descriptor with a variable is a template (resources/templates/list). */
export const isTemplate = (d: ResourceDescriptor): boolean => d.variables.length > 0
