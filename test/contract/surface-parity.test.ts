/**
 * One pipeline, two codecs: for every operation that has an MCP tool, and for each kind of
 * principal, REST and MCP give the same outcome — the same `error_code` (MCP: `isError` with it in
 * `metadata`, or the HTTP refusal of the whole request for a credential), the same charge — and
 * count the same limits. Two test operations declare what no shipped tool declares yet: a plan
 * minimum, and a per-key limit.
 *
 * Each surface gets accounts of its own (and its own client address), so what one surface changes
 * (a delegation requested, a limit counted) cannot decide the other's outcome. A tool hidden from a
 * credential (spec MCP: "Tools are hidden from credentials lacking the required scope") is the MCP
 * form of REST's SCOPE_INSUFFICIENT. An OAuth access token (spec: OAuth 2.1 for MCP hosts) is a
 * credential of MCP only: its permissions are those of the key its connection mapped, so its REST
 * twin is a key of the same plan with exactly that key's scopes.
 *
 * Every MCP resource template is held to the same: reading it (`resources/read`) gives the outcome
 * and the charge of its REST route, principal by principal (a refusal is a JSON-RPC error whose
 * `data` names the `error_code`; a template hidden from a credential is -32602 without one).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import type { Extension } from '../../src/app.ts'
import { exampleRequest } from '../../src/domain/discovery/examples.ts'
import { TOOLS } from '../../src/mcp/tools.ts'
import { expandUri, isTemplate, resourceDescriptors } from '../../src/domain/discovery/mcp-resources.ts'
import { allOperations, op, type Operation } from '../../src/operations/index.ts'
import { OAUTH_KEY_SCOPES } from '../../src/domain/access/oauth.ts'
import { addCredits, createConsumer, createKey, postForm, signIn } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { startAuthServer } from '../helpers.ts'

const PLAN_PATH = '/api/v1/test/parity/professional'
const PER_KEY_PATH = '/api/v1/test/parity/per-key'

const parityExtension: Extension = {
  operations: [
    op({
      id: 'testParityProfessional',
      method: 'GET',
      path: PLAN_PATH,
      category: 'B',
      format: 'envelope',
      tag: 'Test',
      summary: 'professional-plan test read',
      scope: 'read:register',
      planMinimum: 'professional',
      mcpTool: 'test_parity_professional',
      mcpResource: { uri: 'plikt://test/parity/professional', name: 'test-parity-professional' },
      response: Type.Object({ ok: Type.Boolean() }),
    }),
    op({
      id: 'testParityPerKey',
      method: 'GET',
      path: PER_KEY_PATH,
      category: 'B',
      format: 'envelope',
      tag: 'Test',
      summary: 'once an hour per key',
      scope: 'read:register',
      limits: [{ per: 'key', max: 1, window: 'hour', code: 'RATE_LIMIT_EXCEEDED' }],
      mcpTool: 'test_parity_per_key',
      response: Type.Object({ ok: Type.Boolean() }),
    }),
  ],
  handlers: {
    testParityProfessional: () => ({ data: { ok: true } }),
    testParityPerKey: () => ({ data: { ok: true } }),
  },
  tools: { testParityProfessional: { justification: () => 'test' }, testParityPerKey: { justification: () => 'test' } },
}

type Kind =
  | 'none'
  | 'free'
  | 'professional'
  | 'enterprise'
  | 'test key'
  | 'revoked'
  | 'no scope'
  | 'sandbox bearer'
  | 'oauth'
const KINDS: Kind[] = [
  'none',
  'free',
  'professional',
  'enterprise',
  'test key',
  'revoked',
  'no scope',
  'sandbox bearer',
  'oauth',
]
type Surface = 'rest' | 'mcp'

interface Caller {
  auth: Record<string, string>
  consumerId: string | null
  ip: string
}

let app: TestApp
let auth: Awaited<ReturnType<typeof startAuthServer>>
let callers: Record<'rest' | 'mcp', Record<Kind, Caller>>
let ipCounter = 0
const nextIp = () => `198.51.100.${++ipCounter}`

/**
 * An MCP host's OAuth access token, its subject connected by the account's signed-in owner at the
 * consent page (the connection mints the key the token's permissions come from).
 */
async function oauthCaller(ip: string): Promise<Caller> {
  const owner = await signIn(app)
  await addCredits(app, owner.consumerId, 100_000)
  const token = await auth.token({
    sub: `parity-${crypto.randomUUID()}`,
    aud: `${app.url}/api/mcp`,
    email: owner.email,
    email_verified: true,
    client_id: 'parity-host',
  })
  const pending = await fetch(`${app.url}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-forwarded-for': ip,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  })
  const connection = new URL(((await pending.json()) as { consent_url: string }).consent_url).searchParams.get(
    'connection',
  )!
  const approved = await postForm(
    app,
    '/oauth/consent',
    { connection, csrf_token: owner.csrf },
    { cookie: owner.cookie },
  )
  if (approved.status !== 200) throw new Error(`consent: ${approved.status}`)
  return { auth: { authorization: `Bearer ${token}` }, consumerId: owner.consumerId, ip }
}

async function callerOf(kind: Kind, surface: Surface = 'rest'): Promise<Caller> {
  const ip = nextIp()
  if (kind === 'none') return { auth: {}, consumerId: null, ip }
  if (kind === 'oauth' && surface === 'mcp') return oauthCaller(ip)
  if (kind === 'sandbox bearer')
    return { auth: { authorization: `Bearer svc_sandbox_test_parity${ipCounter}` }, consumerId: null, ip }
  const tier = kind === 'professional' || kind === 'enterprise' ? kind : 'free'
  const c = await createConsumer(app, tier)
  await addCredits(app, c.id, 100_000)
  const scopes = kind === 'no scope' ? ['read:changes'] : kind === 'oauth' ? OAUTH_KEY_SCOPES : undefined
  let key: string
  if (kind === 'test key') {
    const res = await app.send(
      'POST',
      '/api/v1/admin/keys',
      { consumer_id: c.id, test: true },
      { authorization: `Bearer ${app.config.adminToken}` },
    )
    if (res.status !== 201) throw new Error(`test key: ${res.status} ${await res.text()}`)
    key = (await res.json()).data.plaintext_key
  } else {
    const k = await createKey(app, c.id, scopes)
    key = k.key
    if (kind === 'revoked')
      expect(
        (
          await app.send('DELETE', `/api/v1/admin/keys/${k.id}`, undefined, {
            authorization: `Bearer ${app.config.adminToken}`,
          })
        ).status,
      ).toBe(200)
  }
  return { auth: { authorization: `Bearer ${key}` }, consumerId: c.id, ip }
}

async function balance(c: Caller): Promise<number | null> {
  if (c.consumerId === null) return null
  const [row] = await app.deps.sql<
    { balance: string }[]
  >`select coalesce(sum(amount_ore), 0)::text as balance from credit_ledger where consumer_id = ${c.consumerId}`
  return Number(row!.balance)
}

/** What a call came to, in one vocabulary for both surfaces. */
type Outcome = string

/**
 * The sandbox bearer's REST twin of a production tool is its sandbox mirror's route (spec: the
 * sandbox bearer answers mirrored tools from the sandbox); a keyless tool is its own route; any
 * other tool has no REST twin under that bearer, and MCP answers SANDBOX_TOOL_UNAVAILABLE.
 */
function twinOf(kind: Kind, name: string, o: Operation): Operation | null {
  if (kind !== 'sandbox bearer' || o.auth === 'none') return o
  // The sandbox's own tool of that name (submit_vat_return), or the mirror the production tool names.
  const own = TOOLS.find((t) => t.name === name && t.operation.category === 'sandbox')?.operation
  return own ?? allOperations.find((m) => m.id === o.sandboxMirror) ?? null
}

async function viaRest(o: Operation, c: Caller): Promise<Outcome> {
  const ex = exampleRequest(o, app.url)
  const headers: Record<string, string> = { ...c.auth, 'x-forwarded-for': c.ip }
  if (ex.headers['idempotency-key']) headers['idempotency-key'] = crypto.randomUUID()
  if (ex.body !== undefined) headers['content-type'] = 'application/json'
  const qs = new URLSearchParams(
    Object.entries(ex.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString()
  const res = await fetch(`${app.url}${ex.path}${qs ? `?${qs}` : ''}`, {
    method: o.method,
    headers,
    ...(ex.body !== undefined ? { body: JSON.stringify(ex.body) } : {}),
  })
  if (res.status < 400) return 'ok'
  const code = ((await res.json()) as { error_code: string }).error_code
  // Spec (MCP): a tool is hidden from a credential without its scope; REST names the refusal.
  return code === 'SCOPE_INSUFFICIENT' ? 'hidden' : code
}

/**
 * The tool's arguments: the REST example's inputs flattened (`org` as `org_number`), kept to what
 * the tool takes; a tool the spec gives its own shape gets its own (the exchange rate takes a
 * currency pair, the filing tool a boolean dry run).
 */
function argumentsOf(toolName: string, o: Operation, sandbox = false): Record<string, unknown> {
  const ex = exampleRequest(o, app.url)
  const params: Record<string, unknown> = {}
  const values = ex.path.split('/')
  o.path.split('/').forEach((seg, i) => {
    if (seg.startsWith(':'))
      params[seg.slice(1) === 'org' ? 'org_number' : seg.slice(1)] = decodeURIComponent(values[i]!)
  })
  const flat: Record<string, unknown> = {
    ...params,
    ...(ex.query ?? {}),
    ...((ex.body as Record<string, unknown> | undefined) ?? {}),
  }
  if (toolName === 'get_exchange_rate') return { base: 'NOK', quote: String(flat.currency ?? 'EUR') }
  const tool =
    TOOLS.find((t) => t.name === toolName && (t.operation.category === 'sandbox') === sandbox) ??
    TOOLS.find((t) => t.name === toolName)
  const takes = Object.keys(((tool?.input ?? {}) as { properties?: Record<string, unknown> }).properties ?? flat)
  const args = Object.fromEntries(Object.entries(flat).filter(([k]) => takes.includes(k)))
  if ('dry_run' in args) args.dry_run = true
  if (takes.includes('idempotency_key')) args.idempotency_key = crypto.randomUUID()
  return args
}

async function viaMcp(toolName: string, args: Record<string, unknown>, c: Caller): Promise<Outcome> {
  const res = await fetch(`${app.url}/api/mcp`, {
    method: 'POST',
    headers: {
      ...c.auth,
      'x-forwarded-for': c.ip,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName, arguments: args } }),
  })
  const body = (await res.json()) as Record<string, any>
  if (res.status !== 200) return body.error_code
  if (body.error) return body.error.code === -32602 ? 'hidden' : `rpc ${body.error.code}`
  return body.result.isError ? body.result.structuredContent.metadata.error_code : 'ok'
}

/** A resource read's outcome in the same vocabulary: the HTTP refusal, the JSON-RPC error's `error_code`, hidden, or ok. */
async function viaMcpResource(uri: string, c: Caller): Promise<Outcome> {
  const res = await fetch(`${app.url}/api/mcp`, {
    method: 'POST',
    headers: {
      ...c.auth,
      'x-forwarded-for': c.ip,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }),
  })
  const body = (await res.json()) as Record<string, any>
  if (res.status !== 200) return body.error_code
  if (body.error)
    return body.error.data?.error_code ?? (body.error.code === -32602 ? 'hidden' : `rpc ${body.error.code}`)
  return 'ok'
}

/** The template's URI for the REST example of `o` (its twin under the sandbox bearer): its path parameters and the query the template takes. */
function uriOf(template: string, o: Operation): string {
  const ex = exampleRequest(o, app.url)
  const values: Record<string, string> = {}
  const got = ex.path.split('/')
  o.path.split('/').forEach((seg, i) => {
    if (seg.startsWith(':')) values[seg.slice(1) === 'org' ? 'org_number' : seg.slice(1)] = decodeURIComponent(got[i]!)
  })
  for (const [k, v] of Object.entries(ex.query ?? {})) if (template.includes(k)) values[k] = String(v)
  return expandUri(template, values)
}

beforeAll(async () => {
  auth = await startAuthServer()
  app = await startApp({ extension: parityExtension, env: { OAUTH_ISSUER: auth.issuer, OAUTH_JWKS_URL: auth.jwksUrl } })
  callers = { rest: {} as Record<Kind, Caller>, mcp: {} as Record<Kind, Caller> }
  for (const kind of KINDS) {
    callers.rest[kind] = await callerOf(kind, 'rest')
    callers.mcp[kind] = await callerOf(kind, 'mcp')
  }
}, 120_000)
afterAll(async () => {
  await app.stop()
  auth.stop()
})

/** The production tools (a sandbox tool rehearses: it has its own surface and test), one per name. */
const toolsUnderTest = () => {
  const extension = parityExtension.operations.map((o) => ({ name: o.mcpTool!, operation: o }))
  return [
    ...TOOLS.filter((t) => t.operation.category !== 'sandbox').map((t) => ({ name: t.name, operation: t.operation })),
    ...extension,
  ]
}

describe('REST and MCP answer every tool alike, for every kind of principal', () => {
  test('the same outcome and the same charge, tool by tool and principal by principal', async () => {
    const differences: string[] = []
    const seen: { kind: Kind; outcome: Outcome; charged: number }[] = []
    for (const kind of KINDS) {
      for (const { name, operation } of toolsUnderTest()) {
        const [r, m] = [callers.rest[kind], callers.mcp[kind]]
        const [rb, mb] = [await balance(r), await balance(m)]
        const twin = twinOf(kind, name, operation)
        const rest = twin ? await viaRest(twin, r) : 'SANDBOX_TOOL_UNAVAILABLE'
        // Under the sandbox bearer the arguments are the sandbox twin's (a sandbox organisation).
        const mcp = await viaMcp(name, argumentsOf(name, twin ?? operation, twin?.category === 'sandbox'), m)
        const [rCharge, mCharge] = [(rb ?? 0) - ((await balance(r)) ?? 0), (mb ?? 0) - ((await balance(m)) ?? 0)]
        // The one difference the spec itself makes: a keyless REST route needs no key, so a key
        // without the tool's scope is served there; MCP hides the tool from that credential (a key
        // with one scope, or an OAuth connection's key, which lacks the keyless tools' scopes).
        const specDifference =
          (kind === 'no scope' || kind === 'oauth') && operation.auth === 'none' && rest === 'ok' && mcp === 'hidden'
        seen.push({ kind, outcome: rest, charged: rCharge })
        if ((rest !== mcp && !specDifference) || rCharge !== mCharge)
          differences.push(`${kind} × ${name}: REST ${rest} (charged ${rCharge}) / MCP ${mcp} (charged ${mCharge})`)
        // A minute between tools: the per-minute plan limits are their own test, not every tool's answer.
        app.clock.advance(61_000)
      }
    }
    expect(differences).toEqual([])
    // The matrix means something: keys are served and charged, the others refused as they should be.
    const ok = (k: Kind) => seen.filter((x) => x.kind === k && x.outcome === 'ok').length
    expect(ok('free')).toBeGreaterThan(20)
    expect(seen.filter((x) => x.kind === 'professional' && x.charged > 0).length).toBeGreaterThan(5)
    expect(new Set(seen.filter((x) => x.kind === 'revoked').map((x) => x.outcome))).toEqual(
      new Set(['AUTH_INVALID_KEY']),
    )
    expect(seen.filter((x) => x.kind === 'none').map((x) => x.outcome)).toContain('AUTH_MISSING')
    expect(seen.filter((x) => x.kind === 'test key' && x.charged !== 0)).toEqual([])
    // The OAuth connection's key reads the registers and is charged for it, on both surfaces.
    expect(seen.filter((x) => x.kind === 'oauth' && x.outcome === 'ok' && x.charged > 0).length).toBeGreaterThan(3)
  }, 600_000)
})

describe('REST and MCP resources answer alike, for every kind of principal', () => {
  test('the same outcome and the same charge, resource template by template and principal by principal', async () => {
    const templates = resourceDescriptors([...allOperations, ...parityExtension.operations])
    expect(templates.filter(isTemplate).length).toBeGreaterThan(6)
    const differences: string[] = []
    const seen: { kind: Kind; outcome: Outcome; charged: number }[] = []
    for (const kind of KINDS) {
      for (const d of templates) {
        const [r, m] = [callers.rest[kind], callers.mcp[kind]]
        const [rb, mb] = [await balance(r), await balance(m)]
        const twin = twinOf(kind, d.operation.mcpTool ?? '', d.operation)
        const rest = twin ? await viaRest(twin, r) : 'SANDBOX_TOOL_UNAVAILABLE'
        const mcp = await viaMcpResource(uriOf(d.uriTemplate, twin ?? d.operation), m)
        const [rCharge, mCharge] = [(rb ?? 0) - ((await balance(r)) ?? 0), (mb ?? 0) - ((await balance(m)) ?? 0)]
        // As for tools: a keyless route serves a key without the scope its resource is hidden from.
        const specDifference =
          (kind === 'no scope' || kind === 'oauth') && d.keyless && rest === 'ok' && mcp === 'hidden'
        seen.push({ kind, outcome: rest, charged: rCharge })
        if ((rest !== mcp && !specDifference) || rCharge !== mCharge)
          differences.push(
            `${kind} × ${d.uriTemplate}: REST ${rest} (charged ${rCharge}) / MCP ${mcp} (charged ${mCharge})`,
          )
        app.clock.advance(61_000)
      }
    }
    expect(differences).toEqual([])
    expect(seen.filter((x) => x.kind === 'free' && x.outcome === 'ok').length).toBeGreaterThan(5)
    expect(seen.filter((x) => x.kind === 'enterprise' && x.charged > 0).length).toBeGreaterThan(5)
    expect(seen.filter((x) => x.kind === 'none').map((x) => x.outcome)).toContain('AUTH_MISSING')
    expect(seen.filter((x) => x.kind === 'free').map((x) => x.outcome)).toContain('PLAN_INSUFFICIENT')
    expect(seen.filter((x) => x.kind === 'test key' && x.charged !== 0)).toEqual([])
  }, 600_000)
})

describe('what no shipped tool declares yet', () => {
  test('a plan minimum: a free key is refused PLAN_INSUFFICIENT on both surfaces, a professional key served on both', async () => {
    const tool = toolsUnderTest().find((t) => t.name === 'test_parity_professional')!
    const free = [await callerOf('free'), await callerOf('free')]
    expect([await viaRest(tool.operation, free[0]!), await viaMcp(tool.name, {}, free[1]!)]).toEqual([
      'PLAN_INSUFFICIENT',
      'PLAN_INSUFFICIENT',
    ])
    const pro = [await callerOf('professional'), await callerOf('professional')]
    expect([await viaRest(tool.operation, pro[0]!), await viaMcp(tool.name, {}, pro[1]!)]).toEqual(['ok', 'ok'])
  })

  test('a per-key limit of one an hour: the second call is refused on both surfaces, and a call on one surface counts on the other', async () => {
    const tool = toolsUnderTest().find((t) => t.name === 'test_parity_per_key')!
    const [r, m] = [await callerOf('free'), await callerOf('free')]
    expect([await viaRest(tool.operation, r), await viaRest(tool.operation, r)]).toEqual(['ok', 'RATE_LIMIT_EXCEEDED'])
    expect([await viaMcp(tool.name, {}, m), await viaMcp(tool.name, {}, m)]).toEqual(['ok', 'RATE_LIMIT_EXCEEDED'])
    const shared = await callerOf('free')
    expect([await viaMcp(tool.name, {}, shared), await viaRest(tool.operation, shared)]).toEqual([
      'ok',
      'RATE_LIMIT_EXCEEDED',
    ])
  })
})
