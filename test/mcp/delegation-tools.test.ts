/**
 * The delegation flow through MCP with the real SDK client, as an agent runs it: request_fullmakt →
 * a person approves at delegation_url → check_authorization full → validate_action → (a person
 * mints the approval token over REST) → submit_vat_return with approval_token → receipt verified →
 * check_fullmakt → revoke_fullmakt. Each tool answers what its REST twin answers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp, toolBody } from '../helpers.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { createConsumer, createKey } from '../helpers.ts'
import { decideOnPage, mintForAction, ownerSession } from '../helpers.ts'
import { agent, decide, MVA, ORG, receiptKey } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

async function call(mcp: Client, name: string, args: Record<string, unknown>) {
  const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean }
  return { isError: r.isError === true, body: toolBody(r) }
}

const PAYLOAD = { total_revenue_nok: 125000, output_vat_nok: 31250 }

describe('delegation tools', () => {
  test('the whole flow: request, approve, check, validate, file with an approval token, revoke', async () => {
    const a = await agent(app)
    const mcp = await connectMcp(app, a.auth)
    const principal = crypto.randomUUID()

    const requested = await call(mcp, 'request_fullmakt', {
      agent_principal_id: principal,
      org_number: ORG,
      scopes: [MVA],
    })
    expect(requested.isError).toBe(false)
    expect(requested.body.result).toMatchObject({ delegation_status: 'pending', agent_principal_id: principal })
    await decide(app, requested.body.result.delegation_url)

    const checked = await call(mcp, 'check_authorization', { org_number: ORG })
    expect(checked.body.result).toMatchObject({ status: 'full', active_scopes: [MVA] })

    const validated = await call(mcp, 'validate_action', {
      org_number: ORG,
      action_type: 'mva_melding',
      period: '2026-T6',
      payload: PAYLOAD,
    })
    expect(validated.body.result.validation.all_passed).toBe(true)
    const actionId = validated.body.result.action_id

    const minted = (
      await (
        await mintForAction(app, a, {
          org_number: ORG,
          action_type: 'mva_melding',
          period: '2026-T6',
          payload: PAYLOAD,
        })
      ).json()
    ).data
    expect(minted.action_id).toBe(actionId)
    const token = minted.approval_token
    // Unconfirmed, the tool files nothing and names the page the account's owner confirms on.
    const early = await call(mcp, 'submit_vat_return', {
      org_number: ORG,
      period: '2026-T6',
      payload: PAYLOAD,
      approval_token: token,
      idempotency_key: crypto.randomUUID(),
    })
    expect(early.isError).toBe(true)
    expect(early.body).toMatchObject({
      result: null,
      metadata: { error_code: 'APPROVAL_TOKEN_UNCONFIRMED', confirmation_url: minted.confirmation_url },
    })
    expect((await decideOnPage(app, (await ownerSession(app, a.email)).cookie, minted.confirmation_url)).status).toBe(
      200,
    )

    const filed = await call(mcp, 'submit_vat_return', {
      org_number: ORG,
      period: '2026-T6',
      payload: PAYLOAD,
      approval_token: token,
      idempotency_key: crypto.randomUUID(),
    })
    expect(filed.isError).toBe(false)
    const receipt = filed.body.result.receipt
    expect(receipt.altinn_receipt_id).toStartWith('MOCK-')
    const key = await receiptKey(app, a)
    const message = [
      'PLIKT-RECEIPT-v1',
      receipt.altinn_receipt_id,
      receipt.audit_log_id,
      receipt.org_number,
      receipt.filing_type,
      receipt.timestamp,
    ].join('\x1f')
    expect(
      timingSafeEqual(createHmac('sha256', key).update(message).digest(), Buffer.from(receipt.signature, 'hex')),
    ).toBe(true)

    const state = await call(mcp, 'check_fullmakt', { org_number: ORG })
    expect(state.body.result.overall_status).toBe('full')

    const revoked = await call(mcp, 'revoke_fullmakt', { agent_principal_id: principal, reason: 'done' })
    expect(revoked.body.result).toMatchObject({ principal_state: 'revoked', warnings: [] })
    await mcp.close()
  })

  test('submit_vat_return without an approval token is a dry run that equals REST’s ?dry_run=true', async () => {
    const a = await agent(app)
    const mcp = await connectMcp(app, a.auth)
    const body = { org_number: ORG, action_type: 'mva_melding', period: '2026-T5', payload: PAYLOAD }
    const dry = await call(mcp, 'submit_vat_return', { org_number: ORG, period: '2026-T5', payload: PAYLOAD })
    const rest = (await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)).json()).data
    expect(dry.body.result).toEqual(rest)
    await mcp.close()
  })

  test('check_authorization answers what GET /auth/permissions/{org} answers', async () => {
    const a = await agent(app)
    const mcp = await connectMcp(app, a.auth)
    const tool = await call(mcp, 'check_authorization', { org_number: ORG })
    const rest = (await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data
    expect(tool.body.result).toEqual(rest)
    await mcp.close()
  })

  test('validate_action refuses a payload over 64 KiB naming the field', async () => {
    const mcp = await connectMcp(app, (await agent(app)).auth)
    const r = await call(mcp, 'validate_action', {
      org_number: ORG,
      action_type: 'mva_melding',
      period: '2026-T5',
      payload: { note: 'x'.repeat(64 * 1024) },
    })
    expect(r.isError).toBe(true)
    expect(r.body.metadata.error_code).toBe('VALIDATION_FAILED')
    expect(r.body.metadata.remediation.explanation.details[0].field).toBe('payload')
    await mcp.close()
  })

  test('a key without read:portal does not see the fullmakt tools; without read:actions not the action tools', async () => {
    const c = await createConsumer(app)
    const { key } = await createKey(app, c.id, ['read:register'])
    const mcp = await connectMcp(app, { authorization: `Bearer ${key}` })
    const names = (await mcp.listTools()).tools.map((t) => t.name)
    for (const hidden of [
      'request_fullmakt',
      'check_fullmakt',
      'revoke_fullmakt',
      'check_authorization',
      'validate_action',
      'submit_vat_return',
    ])
      expect(names).not.toContain(hidden)
    await mcp.close()
  })
})
