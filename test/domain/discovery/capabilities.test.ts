import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import {
  capabilitiesDocument,
  discoveryPaths,
  forAgents,
  type CapabilitiesInput,
} from '../../../src/domain/discovery/capabilities.ts'
import { allOperations, op } from '../../../src/operations/index.ts'
import { Capabilities } from '../../../src/schemas/discovery.ts'
import { LOCK_TTL_SECONDS } from '../../../src/domain/actions/production.ts'

const BASE = 'https://plikt.example'
const input = (over: Partial<CapabilitiesInput> = {}): CapabilitiesInput => ({
  baseUrl: BASE,
  executeLive: false,
  oauth: null,
  mcp: { schema_version: '2026.10.0', names: ['a_tool', 'b_tool', 'c_tool'], keyless: ['a_tool'] },
  sandbox: {
    available: true,
    reserved_test_org_numbers: {
      pattern: '999000XXX',
      mod11_valid: false,
      org_numbers: [],
      mod11_valid_org_numbers: [],
    },
  },
  ...over,
})

describe('capabilities', () => {
  test('one capability per registry operation an agent calls, in registry order, each named by its operation id', () => {
    const doc = capabilitiesDocument(input())
    expect(doc.capabilities.map((c) => c.openapi_operation_id)).toEqual(
      allOperations.filter(forAgents).map((o) => o.id),
    )
    expect(doc.capabilities.every((c) => c.id === c.openapi_operation_id)).toBe(true)
  })

  test('the document matches its published schema', () => {
    expect(Value.Errors(Capabilities, capabilitiesDocument(input())).First()).toBeUndefined()
  })

  test('every example request is accepted by its operation’s request schemas', () => {
    const doc = capabilitiesDocument(input())
    for (const o of allOperations.filter(forAgents)) {
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
    expect(byId.get('publicExecuteSandboxAction')).toMatchObject({
      runnable: true,
      query: { dry_run: 'true' },
      body: { org_number: '999999999' },
    })
  })

  test('a required field the examples know no value for fails the build of the document', () => {
    const odd = op({
      id: 'oddOperation',
      method: 'POST',
      path: '/api/v1/odd',
      category: 'A',
      format: 'envelope',
      tag: 'Test',
      summary: 'odd',
      response: null,
      request: { body: Type.Object({ no_such_field: Type.String() }) },
    })
    expect(() => capabilitiesDocument(input(), [odd])).toThrow('no example for the required field `no_such_field`')
  })

  test('conflict lock TTLs are the five the spec names (Limits), in seconds', () => {
    expect(capabilitiesDocument(input()).multi_agent_safety.conflict_lock_ttls).toEqual({
      mva_melding: 600,
      a_melding: 300,
      tax_return: 1200,
      annual_accounts: 1800,
      token_service_delegate: 60,
    })
  })

  test('the conflict locks taken today are the live filings’, each with the TTL it is listed with', () => {
    const safety = capabilitiesDocument(input()).multi_agent_safety
    expect(safety.conflict_locks_taken).toEqual(['mva_melding', 'a_melding'])
    expect(Object.keys(LOCK_TTL_SECONDS)).toEqual(safety.conflict_locks_taken)
    for (const [kind, ttl] of Object.entries(LOCK_TTL_SECONDS))
      expect(safety.conflict_lock_ttls[kind as keyof typeof safety.conflict_lock_ttls] as number).toBe(ttl)
  })

  test('mcp.schema_version is the spec’s 2026.8.1; the manifest’s own version is beside it', () => {
    expect(capabilitiesDocument(input()).mcp).toMatchObject({
      schema_version: '2026.8.1',
      manifest_schema_version: '2026.10.0',
    })
  })

  test('every capability’s auth is one of the spec’s three (none, api_key, admin_api_key)', () => {
    const auths = new Set(capabilitiesDocument(input()).capabilities.map((c) => c.auth))
    expect([...auths].sort()).toEqual(['admin_api_key', 'api_key', 'none'])
  })

  test('people’s pages, browser-session-only routes and /metrics are not in the document', () => {
    const ids = new Set(capabilitiesDocument(input()).capabilities.map((c) => c.id))
    for (const id of [
      'loginPage',
      'dashboardPage',
      'mockAgencyApprovalPage',
      'oauthConsentPage',
      'getAccount',
      'createAccountKey',
      'getMetrics',
    ])
      expect([id, ids.has(id)]).toEqual([id, false])
    for (const id of ['getFrontDoor', 'getRecipes', 'getUsage', 'adminCreateKey'])
      expect([id, ids.has(id)]).toEqual([id, true])
  })

  test('with OAuth off, the protected-resource metadata is gated and its example not runnable', () => {
    const byId = new Map(capabilitiesDocument(input({ oauth: null })).capabilities.map((c) => [c.id, c]))
    for (const id of ['getProtectedResourceMetadata', 'getProtectedResourceMetadataAlias'])
      expect(byId.get(id)).toMatchObject({ status: 'gated', example_request: { runnable: false } })
  })

  test('with OAuth on, the protected-resource metadata is live and its example runnable', () => {
    const byId = new Map(
      capabilitiesDocument(input({ oauth: { authorization_servers: ['https://auth.example'] } })).capabilities.map(
        (c) => [c.id, c],
      ),
    )
    for (const id of ['getProtectedResourceMetadata', 'getProtectedResourceMetadataAlias'])
      expect(byId.get(id)).toMatchObject({ status: 'live', example_request: { runnable: true } })
  })

  /** Names the same in both languages; none today. */
  const SAME_IN_BOTH: string[] = []
  test('every capability has a bokmål name of its own, not its English one', () => {
    const same = capabilitiesDocument(input())
      .capabilities.filter((c) => c.name_nb === c.name_en && !SAME_IN_BOTH.includes(c.id))
      .map((c) => c.id)
    expect(same).toEqual([])
  })

  test('with the mock filing portal, execute is not supported and the live filing capability is gated', () => {
    const doc = capabilitiesDocument(input({ executeLive: false }))
    expect(doc.actions).toMatchObject({ dry_run_supported: true, execute_supported: false, execute_backend: 'mock' })
    expect(doc.capabilities.find((c) => c.id === 'executeAction')!.status).toBe('gated')
    expect(doc.capabilities.find((c) => c.id === 'executeSandboxAction')!.status).toBe('live')
  })

  test('with the live filing portal, execute is supported and the filing capability is live', () => {
    const doc = capabilitiesDocument(input({ executeLive: true }))
    expect(doc.actions).toMatchObject({
      execute_supported: true,
      execute_backend: 'live',
      live_action_types: ['mva_melding'],
    })
    expect(doc.capabilities.find((c) => c.id === 'executeAction')!.status).toBe('live')
  })

  test('MCP tool counts are those of the tools list it is given; OAuth names the authorization servers', () => {
    const doc = capabilitiesDocument(input({ oauth: { authorization_servers: ['https://auth.example'] } }))
    expect(doc.mcp).toMatchObject({
      tool_counts: { initial: 1, active: 3, planned: 3 },
      tools: ['a_tool', 'b_tool', 'c_tool'],
    })
    expect(doc.mcp.oauth).toEqual({
      enabled: true,
      protected_resource_metadata: '/.well-known/oauth-protected-resource/api/mcp',
      authorization_servers: ['https://auth.example'],
    })
  })

  test('the discovery block lists a document only while its path is a registered operation', () => {
    const registered = new Set(allOperations.map((o) => o.path))
    const paths = Object.values(discoveryPaths())
    expect(paths.every((p) => registered.has(p))).toBe(true)
    for (const spec of [
      '/openapi.json',
      '/llms.txt',
      '/llms-full.txt',
      '/.well-known/mcp.json',
      '/workflows.json',
      '/api/mcp',
    ])
      expect(paths).toContain(spec)
    expect(discoveryPaths(allOperations.filter((o) => o.path !== '/llms.txt'))).not.toHaveProperty('llms_txt')
  })

  test('keyed operations name the free tier at least; the webhook subscriptions Professional', () => {
    const byId = new Map(capabilitiesDocument(input()).capabilities.map((c) => [c.id, c]))
    expect(byId.get('getCompanySummary')).toMatchObject({
      auth: 'api_key',
      tier_minimum: 'free',
      category: 'company-data',
      price_ore: 50,
      mcp_tool: 'get_company_summary',
    })
    expect(byId.get('createSubscription')!.tier_minimum).toBe('professional')
    expect(byId.get('adminCreateKey')).toMatchObject({ auth: 'admin_api_key', tier_minimum: null, category: 'admin' })
  })
})
