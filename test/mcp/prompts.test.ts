/**
 * MCP prompts and completions (src/mcp/prompts.ts) with the official SDK client against the real
 * app: one prompt per workflow, its steps' tools named in order with the arguments filled in, in
 * bokmål and English; completions of organisation numbers (charged as search_companies), entity
 * types, periods and languages. The last test is the issue's "done means": a host with no key
 * sees the resources and the workflow prompts; with a key it completes an organisation number
 * from a name, reads that company's summary as a resource and gets the VAT-filing prompt for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcp } from '../helpers.ts'
import { WORKFLOWS } from '../../src/domain/discovery/workflows.ts'
import { currentVatTerm } from '../../src/domain/discovery/recipes.ts'
import { TOOLS } from '../../src/mcp/tools.ts'
import { readBalance } from '../../src/store/credits.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, bearer, createConsumer, createKey } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

const POSTEN = '984661185'
const connect = (headers: Record<string, string> = {}): Promise<Client> => connectMcp(app, headers)
const balance = async (consumerId: string) => (await readBalance(app.deps.sql, consumerId)).balance_ore

async function customer(credits = 0) {
  const c = await createConsumer(app, 'enterprise')
  if (credits) await addCredits(app, c.id, credits)
  return { id: c.id, key: (await createKey(app, c.id)).key }
}

const textOf = (r: { messages: { content: unknown }[] }) => (r.messages[0]!.content as { text: string }).text

/** The tools a prompt's text calls, in order, with the arguments it fills in. */
function calls(text: string): { tool: string; args: Record<string, unknown> }[] {
  return [...text.matchAll(/(?:call|kall) `([a-z_]+)`(?: (?:with|med) (\{[^\n]*?\}))?(?: |$)/gm)].map((m) => ({
    tool: m[1]!,
    args: m[2] ? (JSON.parse(m[2]) as Record<string, unknown>) : {},
  }))
}

describe('prompts/list', () => {
  test('without a key, one prompt per workflow of /workflows.json, each with a title and its arguments', async () => {
    const client = await connect()
    const { prompts } = await client.listPrompts()
    await client.close()
    expect(prompts.map((p) => p.name)).toEqual(WORKFLOWS.map((w) => w.id))
    const file = prompts.find((p) => p.name === 'file-vat-return')!
    expect(file.title).toBe('File a VAT return for a company')
    expect(file.arguments).toEqual([
      { name: 'org_number', description: expect.any(String), required: true },
      { name: 'period', description: expect.any(String), required: false },
      { name: 'language', description: expect.any(String), required: false },
    ])
    // the public tour is of one organisation: it asks for none
    expect(prompts.find((p) => p.name === 'sandbox-tour')!.arguments!.map((a) => a.name)).not.toContain('org_number')
  })
})

describe('prompts/get', () => {
  test('file-vat-return in English names each step’s tool in order, with the organisation and the current term filled in', async () => {
    const client = await connect()
    const text = textOf(
      await client.getPrompt({ name: 'file-vat-return', arguments: { org_number: POSTEN, language: 'en' } }),
    )
    await client.close()
    const steps = WORKFLOWS.find((w) => w.id === 'file-vat-return')!.steps
    expect(text).toContain('# File a VAT return for a company')
    expect(calls(text).map((c) => c.tool)).toEqual([
      'get_company_context',
      'get_company_verification',
      'get_company_obligations',
      'get_company_deadlines',
      'request_fullmakt',
      'check_authorization',
      'submit_vat_return',
      'submit_vat_return',
    ])
    const term = currentVatTerm(app.clock.now())
    expect(calls(text)[6]!.args).toEqual({ org_number: POSTEN, period: term, dry_run: true })
    expect(calls(text)[7]!.args).toEqual({ org_number: POSTEN, period: term, dry_run: false })
    expect(text).toContain('`approval_token`')
    // the steps without a tool are REST calls, in their place
    expect(text).toContain(`POST ${app.url}/api/v1/auth/approval-token`)
    expect(text.split('\n').filter((l) => /^\d+\. /.test(l))).toHaveLength(steps.length)
  })

  test('bokmål is the default: the title, summary and each purpose are the workflow’s bokmål ones', async () => {
    const client = await connect()
    const r = await client.getPrompt({ name: 'file-vat-return', arguments: { org_number: POSTEN, period: '2026-T2' } })
    await client.close()
    const w = WORKFLOWS.find((x) => x.id === 'file-vat-return')!
    const text = textOf(r)
    expect(text).toContain(`# ${w.title_nb} — organisasjon ${POSTEN}, periode 2026-T2`)
    expect(text).toContain(w.summary_nb)
    for (const s of w.steps) expect(text).toContain(s.purpose_nb.replace(/\.$/, ''))
    expect(calls(text)[0]).toEqual({ tool: 'get_company_context', args: { org_number: POSTEN } })
  })

  test('every prompt’s filled-in arguments are arguments its tools take', async () => {
    const client = await connect()
    // an organisation number for the prompts that ask for one (prompts/list says which)
    const asks = new Map(
      (await client.listPrompts()).prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => a.name)]),
    )
    for (const w of WORKFLOWS) {
      const args: Record<string, string> = { language: 'en' }
      if (w.id === 'rehearse-in-sandbox') args.org_number = '818000001'
      else if (asks.get(w.id)?.includes('org_number')) args.org_number = POSTEN
      const text = textOf(await client.getPrompt({ name: w.id, arguments: args }))
      for (const c of calls(text)) {
        const takes = TOOLS.filter((t) => t.name === c.tool).flatMap((t) =>
          Object.keys((t.input as { properties?: object }).properties ?? {}),
        )
        for (const name of Object.keys(c.args))
          expect(`${c.tool}: ${name} ${takes.includes(name)}`).toBe(`${c.tool}: ${name} true`)
      }
    }
    await client.close()
  })

  test('the sandbox rehearsal walks the sandbox tools under the synthetic bearer, for a sandbox organisation', async () => {
    const client = await connect()
    const text = textOf(
      await client.getPrompt({ name: 'rehearse-in-sandbox', arguments: { org_number: '818000001', language: 'en' } }),
    )
    await client.close()
    expect(text).toContain('svc_sandbox_test_')
    expect(calls(text).map((c) => c.tool)).toEqual([
      'get_company_context',
      'get_company_verification',
      'get_company_obligations',
      'get_company_deadlines',
      'submit_vat_return',
    ])
  })

  test('a wrong check digit is refused -32602 ORG_NUMBER_INVALID_CHECKSUM; a period the rulebook does not know, VALIDATION_FAILED', async () => {
    const client = await connect()
    await expect(
      client.getPrompt({ name: 'file-vat-return', arguments: { org_number: '984661186' } }),
    ).rejects.toMatchObject({ code: -32602, data: { error_code: 'ORG_NUMBER_INVALID_CHECKSUM' } })
    await expect(
      client.getPrompt({ name: 'file-vat-return', arguments: { org_number: POSTEN, period: '2026-T9' } }),
    ).rejects.toMatchObject({ code: -32602, data: { error_code: 'VALIDATION_FAILED' } })
    await expect(client.getPrompt({ name: 'file-vat-return', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      data: { error_code: 'VALIDATION_FAILED' },
    })
    await expect(client.getPrompt({ name: 'no-such-workflow' })).rejects.toMatchObject({ code: -32602 })
    await client.close()
  })
})

describe('completion/complete', () => {
  test('entity types, years, periods and languages complete from what they may be, for nothing', async () => {
    const client = await connect()
    const ref = { type: 'ref/resource' as const, uri: 'plikt://rulebook/obligations/{entity_type}' }
    expect((await client.complete({ ref, argument: { name: 'entity_type', value: 'a' } })).completion.values).toEqual([
      'AS',
      'ANS',
    ])
    const deadlines = { type: 'ref/resource' as const, uri: 'plikt://rulebook/deadlines{?year,entity_type}' }
    const year = app.clock.now().getUTCFullYear()
    expect(
      (await client.complete({ ref: deadlines, argument: { name: 'year', value: '' } })).completion.values[0],
    ).toBe(String(year))
    const prompt = { type: 'ref/prompt' as const, name: 'file-vat-return' }
    const periods = (await client.complete({ ref: prompt, argument: { name: 'period', value: '' } })).completion.values
    expect(periods[0]).toBe(currentVatTerm(app.clock.now()))
    expect(
      (await client.complete({ ref: prompt, argument: { name: 'period', value: `${year}-T` } })).completion.values,
    ).toHaveLength(6)
    expect(
      (await client.complete({ ref: prompt, argument: { name: 'language', value: 'e' } })).completion.values,
    ).toEqual(['en'])
    await client.close()
  })

  test('without a key an organisation number is not looked up from a name; nine digits are offered back', async () => {
    const client = await connect()
    const prompt = { type: 'ref/prompt' as const, name: 'file-vat-return' }
    expect(
      (await client.complete({ ref: prompt, argument: { name: 'org_number', value: 'posten' } })).completion.values,
    ).toEqual([])
    expect(
      (await client.complete({ ref: prompt, argument: { name: 'org_number', value: POSTEN } })).completion.values,
    ).toEqual([POSTEN])
    await client.close()
  })

  test('with a key a name fragment is a search_companies call: its candidates’ numbers, charged 50 øre; zero hits free', async () => {
    const k = await customer(1_000)
    const client = await connect(bearer(k.key))
    const ref = { type: 'ref/resource' as const, uri: 'plikt://company/{org_number}/summary' }
    const found = await client.complete({ ref, argument: { name: 'org_number', value: 'posten' } })
    expect(found.completion.values).toContain(POSTEN)
    expect(found._meta).toMatchObject({ tool: 'search_companies' })
    expect(await balance(k.id)).toBe(950)
    expect(
      (await client.complete({ ref, argument: { name: 'org_number', value: 'zzzqqqxxx' } })).completion.values,
    ).toEqual([])
    expect(await balance(k.id)).toBe(950)
    await client.close()
  })

  test('with a key and no credits the lookup is refused INSUFFICIENT_CREDITS, as the tool is', async () => {
    const k = await customer()
    const client = await connect(bearer(k.key))
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'file-vat-return' },
        argument: { name: 'org_number', value: 'posten' },
      }),
    ).rejects.toMatchObject({ data: { error_code: 'INSUFFICIENT_CREDITS' } })
    await client.close()
  })

  test('the sandbox rehearsal’s prompt completes from the synthetic companies, for nothing, with or without a key', async () => {
    const client = await connect()
    const r = await client.complete({
      ref: { type: 'ref/prompt', name: 'rehearse-in-sandbox' },
      argument: { name: 'org_number', value: 'fjord' },
    })
    await client.close()
    expect(r.completion.values.length).toBeGreaterThan(0)
    for (const v of r.completion.values) expect(v).toMatch(/^\d{9}$/)
  })
})

describe('done: an MCP host, without a key and then with one', () => {
  test('sees the resources and the workflow prompts keyless; with a key completes an org number from a name, reads its summary and gets the VAT-filing prompt for it', async () => {
    const keyless = await connect()
    expect((await keyless.listResources()).resources.map((r) => r.uri)).toContain('plikt://workflows')
    expect((await keyless.listPrompts()).prompts.map((p) => p.name)).toContain('file-vat-return')
    await keyless.close()

    const k = await customer(1_000)
    const host = await connect(bearer(k.key))
    const prompt = { type: 'ref/prompt' as const, name: 'file-vat-return' }
    const [org] = (await host.complete({ ref: prompt, argument: { name: 'org_number', value: 'Posten Norge' } }))
      .completion.values
    expect(org).toBe(POSTEN)
    const template = (await host.listResourceTemplates()).resourceTemplates.find((t) => t.name === 'company-summary')!
    const summary = await host.readResource({ uri: template.uriTemplate.replace('{org_number}', org!) })
    expect(
      (JSON.parse((summary.contents[0] as { text: string }).text) as { data: { org_number: string } }).data.org_number,
    ).toBe(POSTEN)
    const text = textOf(
      await host.getPrompt({ name: 'file-vat-return', arguments: { org_number: org!, language: 'en' } }),
    )
    expect(calls(text).at(-1)).toEqual({
      tool: 'submit_vat_return',
      args: { org_number: POSTEN, period: currentVatTerm(app.clock.now()), dry_run: false },
    })
    await host.close()
    // the search and the summary: two metered reads
    expect(await balance(k.id)).toBe(900)
  })
})
