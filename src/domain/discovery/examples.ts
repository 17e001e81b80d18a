/**
 * An example request for every registry operation, built from its request schemas: a schema's own
 * `examples`, `default`, `const` or first literal, else the value an agent would send for a field of
 * that name. The organisation is one the operation answers for without setup: the public mirror's
 * 999999999, a hand-written sandbox company whose every check passes, or a real company for
 * production reads. A required field with no example is a programming error: building the
 * capabilities document throws (test/domain/discovery/capabilities.test.ts builds it for every
 * operation), so an operation cannot join without one.
 */
import type { TSchema } from '@sinclair/typebox'
import { PUBLIC_SANDBOX_ORG, SANDBOX_COMPANIES, ALL_SCOPES } from '../../../fixtures/sandbox/companies.ts'
import type { Operation } from '../../operations/define.ts'
import { actionIdOf } from '../actions/action-id.ts'
import { SANDBOX_BEARER_PREFIX } from '../access/types.ts'

/** Posten Norge AS: a real, active company with a VAT registration (and in the register fixtures). */
export const PRODUCTION_EXAMPLE_ORG = '984661185'

/** A sandbox company whose every check passes: active, a system user, every scope delegated. */
export const SANDBOX_EXAMPLE_ORG = SANDBOX_COMPANIES.find(
  (c) =>
    c.scenario === null &&
    c.status === 'active' &&
    c.delegation.system_user &&
    ALL_SCOPES.every((s) => c.delegation.scopes.includes(s)),
)!.org_number

/** The synthetic bearer the examples use: any suffix works, this one names where it came from. */
export const SANDBOX_EXAMPLE_BEARER = `${SANDBOX_BEARER_PREFIX}docs-example`

/** The VAT return the examples file: the sandbox's first two-month term (in time on its pinned date). */
export const EXAMPLE_VAT_PAYLOAD = { total_revenue_nok: 125_000, output_vat_nok: 31_250 }
export const SANDBOX_EXAMPLE_PERIOD = '2026-T1'

export const exampleAction = (org: string, period: string) => ({
  org_number: org,
  action_type: 'mva_melding' as const,
  period,
  payload: EXAMPLE_VAT_PAYLOAD,
})

/** Stands for a credential or an id only its holder has; everything else in an example is literal. */
const PLACEHOLDER_UUID = '00000000-0000-4000-8000-000000000000'
/** A fødselsnummer's shape with no person behind it (its control digits fail). */
const PLACEHOLDER_FNR = '00000000000'

export interface ExampleRequest {
  /** false when it carries a stand-in (`<…>`, the all-zero id or fødselsnummer) for what only its caller has */
  runnable: boolean
  method: string
  path: string
  url: string
  headers: Record<string, string>
  query?: Record<string, unknown>
  body?: unknown
}

type Where = 'public-sandbox' | 'sandbox' | 'production'

const whereOf = (op: Operation): Where =>
  op.path.startsWith('/api/v1/sandbox/public/')
    ? 'public-sandbox'
    : op.category === 'sandbox'
      ? 'sandbox'
      : 'production'

const orgFor = (w: Where) =>
  w === 'public-sandbox' ? PUBLIC_SANDBOX_ORG : w === 'sandbox' ? SANDBOX_EXAMPLE_ORG : PRODUCTION_EXAMPLE_ORG

/** The value of a field, by its name, when its schema gives none. */
function byName(name: string, w: Where, op: Operation): unknown {
  const org = orgFor(w)
  const action = exampleAction(org, SANDBOX_EXAMPLE_PERIOD)
  const values: Record<string, unknown> = {
    org,
    org_number: org,
    org_numbers: org,
    error_code: 'COMPANY_NOT_FOUND',
    email: 'agent@example.no',
    amount_ore: 10_000,
    // a job (the operator's run-now), a company searched for, or a saved profile
    name: op.request.params?.properties.name ? 'register-updates' : op.id === 'searchCompanies' ? 'Posten' : 'Mitt AS',
    webhook_url: 'https://example.com/hooks/plikt',
    fnr: PLACEHOLDER_FNR,
    currency: 'EUR',
    portal2_code: 'A0239',
    scopes: ['skatteetaten:mva-melding'],
    agent_principal_id: PLACEHOLDER_UUID,
    reason: 'no longer needed',
    action_type: action.action_type,
    period: action.period,
    payload: action.payload,
    action_id: actionIdOf(action),
    consumer_id: PLACEHOLDER_UUID,
    id: PLACEHOLDER_UUID,
    portfolio_id: PLACEHOLDER_UUID,
    feed_id: PLACEHOLDER_UUID,
    connection: PLACEHOLDER_UUID,
    snapshot_id: PLACEHOLDER_UUID,
    token: '<token>',
    csrf_token: '<csrf token of the page>',
  }
  if (!(name in values)) throw new Error(`operation ${op.id}: no example for the required field \`${name}\``)
  return values[name]
}

interface SchemaLike {
  examples?: unknown[]
  default?: unknown
  const?: unknown
  anyOf?: SchemaLike[]
  type?: string
  properties?: Record<string, TSchema>
  required?: string[]
  minProperties?: number
}

function exampleValueOf(name: string, schema: TSchema, w: Where, op: Operation): unknown {
  const s = schema as SchemaLike
  if (s.examples?.length) return s.examples[0]
  if (s.default !== undefined) return s.default
  if (s.const !== undefined) return s.const
  const literal = s.anyOf?.find((a) => a.const !== undefined)
  if (literal) return literal.const
  if (s.type === 'object' && s.properties && s.required?.length) return objectOf(s, w, op)
  return byName(name, w, op)
}

/** The required members of an object schema, each with its example value. */
function objectOf(schema: SchemaLike, w: Where, op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // an object of optional members that must hold some (a PATCH) gets its first ones
  const names = schema.required?.length
    ? schema.required
    : Object.keys(schema.properties ?? {}).slice(0, schema.minProperties ?? 0)
  for (const name of names) out[name] = exampleValueOf(name, schema.properties![name]!, w, op)
  return out
}

/** What an agent sends to prove who it is, for each way an operation admits callers. */
function credentialHeaders(op: Operation, w: Where): Record<string, string> {
  switch (op.auth) {
    case 'key':
    case 'key_or_session':
      return { authorization: 'Bearer <your API key>' }
    case 'admin':
      return { authorization: 'Bearer <ADMIN_TOKEN>' }
    case 'metrics':
      return { authorization: 'Bearer <METRICS_TOKEN>' }
    case 'session':
      return { cookie: '<the session cookie of a signed-in browser>' }
    case 'feed':
      return {}
    case 'sandbox':
      return w === 'sandbox' ? { authorization: `Bearer ${SANDBOX_EXAMPLE_BEARER}` } : {}
    case 'none':
      return {}
  }
}

export function exampleRequest(op: Operation, baseUrl: string): ExampleRequest {
  const w = whereOf(op)
  const params = op.request.params ? objectOf(op.request.params as SchemaLike, w, op) : {}
  const path = op.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(String(params[name])))
  const query: Record<string, unknown> = op.request.query ? objectOf(op.request.query as SchemaLike, w, op) : {}
  // A filing's example is its dry run: it answers without a person's approval token.
  if (op.request.query?.properties.dry_run) query.dry_run = 'true'
  const headers = credentialHeaders(op, w)
  // a key the entry demands, or its handler does outside a dry run; each new call wants a fresh one
  if (op.idempotency === 'required' || (op.ownErrors.includes('IDEMPOTENCY_KEY_REQUIRED') && query.dry_run !== 'true'))
    headers['idempotency-key'] = '<a fresh UUID>'
  const body =
    op.request.body && op.bodyType !== 'raw'
      ? objectOf(op.request.body as SchemaLike, w, op)
      : op.bodyType === 'raw'
        ? { jsonrpc: '2.0', id: 1, method: 'tools/list' }
        : undefined
  if (body !== undefined)
    headers['content-type'] = op.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json'
  if (op.bodyType === 'raw') headers.accept = 'application/json, text/event-stream'
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
  const example = {
    method: op.method,
    path,
    url: `${baseUrl}${path}${qs ? `?${qs}` : ''}`,
    headers,
    ...(Object.keys(query).length ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
  }
  const text = JSON.stringify(example)
  return {
    runnable: !text.includes('<') && !text.includes(PLACEHOLDER_UUID) && !text.includes(PLACEHOLDER_FNR),
    ...example,
  }
}
