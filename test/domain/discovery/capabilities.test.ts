import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { capabilitiesDocument, discoveryPaths, type CapabilitiesInput } from '../../../src/domain/discovery/capabilities.ts'
import { LOCK_TTL_SECONDS } from '../../../src/domain/actions/production.ts'
import { allOperations, op } from '../../../src/operations/index.ts'
import { Capabilities } from '../../../src/schemas/discovery.ts'

const BASE = 'https://plikt.example'
const input = (over: Partial<CapabilitiesInput> = {}): CapabilitiesInput => ({
  baseUrl: BASE,
  executeLive: false,
  oauth: null,
  mcp: { schema_version: '2026.10.0', names: ['a_tool', 'b_tool', 'c_tool'], keyless: ['a_tool'] },
  sandbox: { available: true },
  ...over,
})

describe('capabilities', () => {
  test('one capability per registry operation, in registry order, each named by its operation id', () => {
    const doc = capabilitiesDocument(input())
    expect(doc.capabilities.map((c) => c.openapi_operation_id)).toEqual(allOperations.map((o) => o.id))
    expect(doc.capabilities.every((c) => c.id === c.openapi_operation_id)).toBe(true)
  })

  test('the document matches its published schema', () => {
    expect(Value.Errors(Capabilities, capabilitiesDocument(input())).First()).toBeUndefined()
  })

  test('every example request is accepted by its operation’s request schemas', () => {
    const doc = capabilitiesDocument(input())
    for (const o of allOperations) {
      const e = doc.capabilities.find((c) => c.id === o.id)!.example_request
      const template = new RegExp(`^${o.path.replace(/:([A-Za-z_]+)/g, '(?<$1>[^/]+)')}$`)
      const params = template.exec(e.path)?.groups ?? {}
      const first = (schema: unknown, value: unknown) => Value.Errors(schema as never, value).First()?.path ?? null
      if (o.request.params) expect([o.id, first(o.request.params, params)]).toEqual([o.id, null])
      if (o.request.query) expect([o.id, first(o.request.query, e.query ?? {})]).toEqual([o.id, null])
      if (o.request.body && o.bodyType !== 'raw') expect([o.id, first(o.request.body, e.body)]).toEqual([o.id, null])
    }
  })

  test('an example with a stand-in for a credential or an id is not marked runnable; a public sandbox filing’s dry run is', () => {
    const byId = new Map(capabilitiesDocument(input()).capabilities.map((c) => [c.id, c.example_request]))
    expect(byId.get('getCompanySummary')!.runnable).toBe(false)
    expect(byId.get('getAnchorProof')!.runnable).toBe(false)
    expect(byId.get('publicExecuteSandboxAction')).toMatchObject({ runnable: true, query: { dry_run: 'true' }, body: { org_number: '999999999' } })
  })

  test('a required field the examples know no value for fails the build of the document', () => {
    const odd = op({ id: 'oddOperation', method: 'POST', path: '/api/v1/odd', category: 'A', format: 'envelope', tag: 'Test', summary: 'odd', response: null, request: { body: Type.Object({ no_such_field: Type.String() }) } })
    expect(() => capabilitiesDocument(input(), [odd])).toThrow('no example for the required field `no_such_field`')
  })

  test('conflict lock TTLs are the ones production filing locks with', () => {
    expect(capabilitiesDocument(input()).multi_agent_safety).toEqual({ write_conflict_detection: true, conflict_lock_ttls: LOCK_TTL_SECONDS })
  })

  test('with the mock filing portal, execute is not supported and the live filing capability is gated', () => {
    const doc = capabilitiesDocument(input({ executeLive: false }))
    expect(doc.actions).toMatchObject({ dry_run_supported: true, execute_supported: false, execute_backend: 'mock' })
    expect(doc.capabilities.find((c) => c.id === 'executeAction')!.status).toBe('gated')
    expect(doc.capabilities.find((c) => c.id === 'executeSandboxAction')!.status).toBe('live')
  })

  test('with the live filing portal, execute is supported and the filing capability is live', () => {
    const doc = capabilitiesDocument(input({ executeLive: true }))
    expect(doc.actions).toMatchObject({ execute_supported: true, execute_backend: 'live', live_action_types: ['mva_melding'] })
    expect(doc.capabilities.find((c) => c.id === 'executeAction')!.status).toBe('live')
  })

  test('MCP tool counts are those of the tools list it is given; OAuth names the authorization servers', () => {
    const doc = capabilitiesDocument(input({ oauth: { authorization_servers: ['https://auth.example'] } }))
    expect(doc.mcp).toMatchObject({ schema_version: '2026.10.0', tool_counts: { initial: 1, active: 3, planned: 3 }, tools: ['a_tool', 'b_tool', 'c_tool'] })
    expect(doc.mcp.oauth).toEqual({ enabled: true, protected_resource_metadata: '/.well-known/oauth-protected-resource/api/mcp', authorization_servers: ['https://auth.example'] })
  })

  test('the discovery block lists a document only while its path is a registered operation', () => {
    const registered = new Set(allOperations.map((o) => o.path))
    const paths = Object.values(discoveryPaths())
    expect(paths.every((p) => registered.has(p))).toBe(true)
    for (const spec of ['/openapi.json', '/llms.txt', '/llms-full.txt', '/.well-known/mcp.json', '/workflows.json', '/api/mcp']) expect(paths).toContain(spec)
    expect(discoveryPaths(allOperations.filter((o) => o.path !== '/llms.txt'))).not.toHaveProperty('llms_txt')
  })

  test('keyed operations name the free tier at least; the webhook subscriptions Professional', () => {
    const byId = new Map(capabilitiesDocument(input()).capabilities.map((c) => [c.id, c]))
    expect(byId.get('getCompanySummary')).toMatchObject({ auth: 'api_key', tier_minimum: 'free', category: 'company-data', price_ore: 50, mcp_tool: 'get_company_summary' })
    expect(byId.get('createSubscription')!.tier_minimum).toBe('professional')
    expect(byId.get('adminCreateKey')).toMatchObject({ auth: 'admin_api_key', tier_minimum: null, category: 'admin' })
  })
})
