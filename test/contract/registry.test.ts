/**
 * One registry, three faces: every operation is in the OpenAPI document under its own id, and every
 * operation that names an MCP tool is that tool — one tool per name, built from the operation, its
 * input composed from the operation's REST inputs unless the spec gives the tool its own shape.
 */
import { describe, expect, test } from 'bun:test'
import { allOperations } from '../../src/operations/index.ts'
import { buildOpenApi, openApiPath } from '../../src/http/openapi.ts'
import { APPROVAL_ARGUMENT, IDEMPOTENCY_ARGUMENT, TOOLS, flatInput } from '../../src/mcp/tools.ts'

const doc = buildOpenApi('http://localhost:3000') as { paths: Record<string, Record<string, { operationId: string }>> }

describe('registry ↔ OpenAPI', () => {
  test.each(allOperations.map((op) => [op.id, op] as const))('%s is documented under its own id', (_, op) => {
    expect(doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()]?.operationId).toBe(op.id)
  })

  test('the document has no operation the registry lacks', () => {
    const documented = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId))
    expect(documented.sort()).toEqual(allOperations.map((op) => op.id).sort())
  })
})

describe('registry ↔ MCP tools', () => {
  test('every operation that names a tool is exactly that tool, and nothing else is a tool', () => {
    const named = allOperations.filter((op) => op.mcpTool !== null).map((op) => [op.mcpTool!, op.id])
    expect(TOOLS.map((t) => [t.name, t.operation.id])).toEqual(named)
  })

  test('tool names are unique among the tools a key sees and among those the sandbox bearer sees', () => {
    const sandbox = TOOLS.filter((t) => t.operation.category === 'sandbox')
    const production = TOOLS.filter((t) => t.operation.category !== 'sandbox')
    expect(new Set(production.map((t) => t.name)).size).toBe(production.length)
    expect(new Set(sandbox.map((t) => t.name)).size).toBe(sandbox.length)
  })

  test('a tool is keyless exactly when its operation needs no credential', () => {
    for (const t of TOOLS) expect([t.name, t.keyless]).toEqual([t.name, t.operation.auth === 'none'])
  })

  const SPEC_SHAPED = ['explain_compliance_error', 'get_exchange_rate', 'submit_vat_return']
  const WRITE_ARGUMENTS = [IDEMPOTENCY_ARGUMENT, APPROVAL_ARGUMENT]
  const propsOf = (s: unknown) => (s as { properties: Record<string, unknown> }).properties
  test.each(TOOLS.filter((t) => !SPEC_SHAPED.includes(t.name)).map((t) => [t.name, t] as const))(
    '%s takes its REST twin’s inputs',
    (_, tool) => {
      const own = Object.fromEntries(Object.entries(propsOf(tool.input)).filter(([k]) => !WRITE_ARGUMENTS.includes(k)))
      expect(own).toEqual(propsOf(flatInput(tool.operation)))
      for (const name of Object.keys(tool.operation.request.query?.properties ?? {}))
        expect(Object.keys(propsOf(tool.input))).toContain(name)
    },
  )

  test.each(TOOLS.map((t) => [t.name, t] as const))(
    '%s takes the write arguments its operation declares, and no others',
    (_, tool) => {
      const names = Object.keys(propsOf(tool.input))
      expect(names.includes(IDEMPOTENCY_ARGUMENT)).toBe(tool.operation.idempotency !== null)
      expect(names.includes(APPROVAL_ARGUMENT)).toBe(tool.operation.approval)
    },
  )

  test('submit_vat_return is composed from its REST twin’s body and query, with a boolean dry_run', () => {
    const tool = TOOLS.find((t) => t.name === 'submit_vat_return')!
    const rest = { ...propsOf(tool.operation.request.body), ...propsOf(tool.operation.request.query) }
    for (const [name, schema] of Object.entries(propsOf(tool.input))) {
      if (WRITE_ARGUMENTS.includes(name)) continue
      if (name === 'dry_run') expect((schema as { type: string }).type).toBe('boolean')
      else expect([name, schema]).toEqual([name, rest[name]])
    }
  })
})
