/** The MCP resources as data (src/domain/discovery/mcp-resources.ts): the URI scheme's templates, and what the registry may not declare. */
import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { expandUri, matchUri, resourceDescriptors, uriVariables } from '../../../src/domain/discovery/mcp-resources.ts'
import { allOperations, op, type Operation } from '../../../src/operations/index.ts'

const DEADLINES = 'plikt://company/{org_number}/deadlines{?from_date,horizon_months}'

/** A keyed GET with a path parameter and an optional query, declaring `uri` as its resource. */
const declaring = (uri: string, name = 'test-resource'): Operation =>
  op({
    id: `test${name.replaceAll('-', '')}`,
    method: 'GET',
    path: '/api/v1/test/:org/things',
    category: 'B',
    format: 'envelope',
    tag: 'Test',
    summary: 'a test read',
    scope: 'read:register',
    mcpResource: { uri, name },
    request: {
      params: Type.Object({ org: Type.String() }),
      query: Type.Object({ limit: Type.Optional(Type.Integer()) }),
    },
    response: Type.Object({}),
  })

describe('URI templates', () => {
  test('a path variable is required, a query variable optional', () => {
    expect(uriVariables(DEADLINES)).toEqual([
      { name: 'org_number', required: true },
      { name: 'from_date', required: false },
      { name: 'horizon_months', required: false },
    ])
  })

  test('expanding leaves out the query variables with no value, and encodes the rest', () => {
    expect(expandUri(DEADLINES, { org_number: '984661185' })).toBe('plikt://company/984661185/deadlines')
    expect(expandUri(DEADLINES, { org_number: '984661185', horizon_months: '3' })).toBe(
      'plikt://company/984661185/deadlines?horizon_months=3',
    )
    expect(expandUri('plikt://x/{a}', { a: 'b/c' })).toBe('plikt://x/b%2Fc')
  })

  test('matching gives the variables, decoded, with or without the optional query', () => {
    expect(matchUri(DEADLINES, 'plikt://company/984661185/deadlines')).toEqual({ org_number: '984661185' })
    expect(matchUri(DEADLINES, 'plikt://company/984661185/deadlines?horizon_months=3&from_date=2026-01-01')).toEqual({
      org_number: '984661185',
      horizon_months: '3',
      from_date: '2026-01-01',
    })
    expect(matchUri('plikt://x/{a}', 'plikt://x/b%2Fc')).toEqual({ a: 'b/c' })
  })

  test('a URI of another shape, an empty segment, a query the template does not take or bad escaping is no match', () => {
    expect(matchUri(DEADLINES, 'plikt://company/984661185/summary')).toBeNull()
    expect(matchUri(DEADLINES, 'plikt://company//deadlines')).toBeNull()
    expect(matchUri(DEADLINES, 'plikt://company/1/2/deadlines')).toBeNull()
    expect(matchUri(DEADLINES, 'plikt://company/984661185/deadlines?colour=red')).toBeNull()
    expect(matchUri('plikt://x/{a}', 'plikt://x/%E0%A4%A')).toBeNull()
  })
})

describe('what the registry declares', () => {
  test('every shipped resource is a GET whose template’s variables are its inputs, and every name and URI is unique', () => {
    const all = resourceDescriptors()
    expect(all.length).toBeGreaterThanOrEqual(12)
    for (const d of all) expect(d.operation.method).toBe('GET')
    expect(new Set(all.map((d) => d.name)).size).toBe(all.length)
    expect(allOperations.filter((o) => o.mcpResource).length).toBe(all.length)
  })

  test('a company template lists nothing concrete; the entity types list one resource each', () => {
    const all = resourceDescriptors()
    expect(all.find((d) => d.name === 'company-summary')!.listed).toEqual([])
    expect(all.find((d) => d.name === 'rulebook-obligations')!.listed.map((l) => l.uri)).toEqual([
      'plikt://rulebook/obligations/AS',
      'plikt://rulebook/obligations/ENK',
      'plikt://rulebook/obligations/ANS',
      'plikt://rulebook/obligations/DA',
      'plikt://rulebook/obligations/NUF',
    ])
  })

  test('a declaration that names what the operation does not take, or leaves out what it requires, is refused at load', () => {
    expect(() => resourceDescriptors([declaring('plikt://test/{org_number}/things{?limit}')])).not.toThrow()
    expect(() => resourceDescriptors([declaring('https://test/{org_number}')])).toThrow('scheme')
    expect(() => resourceDescriptors([declaring('plikt://test/{org_number}/{colour}')])).toThrow(
      'names {colour}, which the operation does not take',
    )
    expect(() => resourceDescriptors([declaring('plikt://test/things')])).toThrow(
      'leaves out the required input org_number',
    )
    expect(() => resourceDescriptors([declaring('plikt://test/{org_number}/{limit}')])).toThrow(
      'REST does not require it',
    )
    expect(() =>
      resourceDescriptors([declaring('plikt://a/{org_number}', 'same'), declaring('plikt://b/{org_number}', 'same')]),
    ).toThrow('share the name same')
  })

  test('op() refuses a resource on anything but a GET', () => {
    expect(() =>
      op({
        id: 'testPostResource',
        method: 'POST',
        path: '/api/v1/test/post',
        category: 'B',
        format: 'envelope',
        tag: 'Test',
        summary: 'a write',
        mcpResource: { uri: 'plikt://test/post', name: 'test-post' },
        response: Type.Object({}),
      }),
    ).toThrow('only a GET is read as an MCP resource')
  })
})
