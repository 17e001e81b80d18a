import { describe, expect, test } from 'bun:test'
import {
  operationOf,
  toolOf,
  WORKFLOWS,
  workflowsDocument,
  WORKFLOWS_VERSION,
} from '../../../src/domain/discovery/workflows.ts'
import { currentVatTerm, recipes } from '../../../src/domain/discovery/recipes.ts'
import { allOperations } from '../../../src/operations/index.ts'
import { PINNED_NOW } from '../../helpers.ts'

describe('workflows', () => {
  test('the filing workflow goes orient → verify → obligations → deadlines → delegate → dry-run → approval-token → confirm → file', () => {
    const steps = WORKFLOWS.find((w) => w.id === 'file-vat-return')!.steps.map((s) => s.step)
    const order = [
      'orient',
      'verify',
      'obligations',
      'deadlines',
      'delegate',
      'dry-run',
      'approval-token',
      'confirm',
      'file',
    ]
    expect(steps.filter((s) => order.includes(s))).toEqual(order)
  })

  test('in production the agent mints the token and a person confirms it on its page; the sandbox’s token needs no one else', () => {
    const doc = workflowsDocument('https://plikt.example')
    const steps = doc.workflows.find((w) => w.id === 'file-vat-return')!.steps
    expect(steps.find((s) => s.step === 'approval-token')).toMatchObject({
      operation_id: 'createApprovalToken',
      person: false,
    })
    expect(steps.find((s) => s.step === 'confirm')).toMatchObject({
      operation_id: 'approvalConfirmationPage',
      method: 'GET',
      path: '/approvals/{id}',
      person: true,
    })
    expect(steps.find((s) => s.step === 'approval-token')!.purpose_en).toContain('confirmation_url')
  })

  test('there is a workflow to monitor changes and one to rehearse in the sandbox', () => {
    expect(WORKFLOWS.map((w) => w.id)).toEqual(
      expect.arrayContaining(['monitor-changes', 'rehearse-in-sandbox', 'sandbox-tour']),
    )
  })

  test('each step carries its operation’s id, method and OpenAPI path, and its MCP tool', () => {
    const doc = workflowsDocument('https://plikt.example')
    expect(doc.version).toBe(WORKFLOWS_VERSION)
    const file = doc.workflows.find((w) => w.id === 'file-vat-return')!.steps.find((s) => s.step === 'file')!
    expect(file).toEqual({
      step: 'file',
      purpose_en: expect.any(String),
      purpose_nb: expect.any(String),
      operation_id: 'executeAction',
      method: 'POST',
      path: '/api/v1/actions/execute',
      mcp_tool: 'submit_vat_return',
      person: false,
    })
    expect(doc.workflows[0]!.recipe_url).toBe('https://plikt.example/recipes#sandbox-tour')
  })

  test('an unknown operation is refused, not skipped', () => {
    expect(() => operationOf('noSuchOperation')).toThrow('unknown operation noSuchOperation')
  })

  test('a sandbox read is taken over MCP by the production tool that mirrors it; the public mirror has no tool', () => {
    expect(toolOf(operationOf('getSandboxContext'))).toBe('get_company_context')
    expect(toolOf(operationOf('executeSandboxAction'))).toBe('submit_vat_return')
    expect(toolOf(operationOf('publicGetSandboxContext'))).toBeNull()
  })

  test('every workflow has a recipe, and each recipe’s calls are operations of the registry', () => {
    const paths = allOperations.map(
      (o) => new RegExp(`"\\$BASE${o.path.replace(/:([A-Za-z_]+)/g, '[^/?"]+')}(\\?[^"]*)?"`),
    )
    const all = recipes(new Date(PINNED_NOW))
    expect(all.map((r) => r.workflow.id)).toEqual(WORKFLOWS.map((w) => w.id))
    for (const r of all) {
      for (const s of r.scripts) {
        for (const url of s.shell.match(/"\$BASE[^"]*"/g) ?? [])
          expect([r.workflow.id, url, paths.some((p) => p.test(url))]).toEqual([r.workflow.id, url, true])
      }
    }
  })

  test('the live filing recipe files the two-month VAT term that holds today in Oslo', () => {
    expect(currentVatTerm(new Date('2026-11-24T12:00:00Z'))).toBe('2026-T6')
    expect(currentVatTerm(new Date('2026-12-31T23:30:00Z'))).toBe('2027-T1')
    expect(currentVatTerm(new Date('2026-03-01T00:00:00Z'))).toBe('2026-T2')
  })
})
