/**
 * The discovery documents walked as a fresh agent walks them, against the real service (`bun
 * src/main.ts`, an empty embedded database, fixture upstreams): every path a document names is an
 * operation of the OpenAPI document and answers (not 404, not 5xx), every MCP tool it names is in
 * tools/list (the MCP SDK's own client), and every script on /recipes runs with real curl and
 * succeeds — from GET /llms.txt alone to a signed sandbox receipt and a metered production answer.
 * The one step no agent can take, a person following a magic link to get a key, is the operator
 * API here (llms.txt names both); a person approving a delegation is the mock agency's page, and
 * the account's owner confirming a filing signs in by magic link and confirms on its page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { listeningAddress } from '../helpers.ts'
import { allOperations } from '../../src/operations/index.ts'
import { forAgents } from '../../src/domain/discovery/capabilities.ts'
import { decideOverHttp } from '../helpers.ts'

const ADMIN = 'walk-admin-token-0123456789abcdef0123456789'
const SECRET = 'walk-server-secret-0123456789abcdef0123456789ab'

let base = ''
let proc: ReturnType<typeof Bun.spawn>
let dir = ''
let openapi: { paths: Record<string, Record<string, { operationId: string }>> }
let receiver: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plikt-walk-'))
  const { DATABASE_URL: _pg, BASE_URL: _base, ...env } = process.env
  proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: {
      ...env,
      PORT: '0',
      DATA_DIR: dir,
      ADMIN_TOKEN: ADMIN,
      SERVER_SECRET: SECRET,
      UPSTREAM_MODE: 'fixtures',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      OAUTH_ISSUER: 'https://auth.example.com',
      OAUTH_JWKS_URL: 'https://auth.example.com/jwks',
      LOG_LEVEL: 'warn',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const { url } = await listeningAddress(proc.stderr as ReadableStream<Uint8Array>)
  base = `http://localhost:${new URL(url).port}`
  openapi = await (await fetch(`${base}/openapi.json`)).json()
  receiver = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
}, 60_000)

afterAll(async () => {
  proc.kill('SIGTERM')
  await proc.exited
  receiver.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

// -- what an agent does with what it reads ----------------------------------------------------------

/** The OpenAPI operation at a concrete path (template parameters match one segment). */
function operationAt(method: string, path: string): string | null {
  for (const [template, ops] of Object.entries(openapi.paths)) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)
    if (re.test(path) && ops[method.toLowerCase()]) return ops[method.toLowerCase()]!.operationId
  }
  return null
}

async function answers(url: string): Promise<number> {
  const res = await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.7' } })
  await res.arrayBuffer()
  return res.status
}

/** Every link of a Markdown document, as [name](url). */
const markdownLinks = (text: string) => [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]!)

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

async function recipeScripts(): Promise<Map<string, string>> {
  const html = await (await fetch(`${base}/recipes`)).text()
  return new Map(
    [...html.matchAll(/<code class="language-sh" data-recipe="([^"]+)">([\s\S]*?)<\/code>/g)].map((m) => [
      m[1]!,
      unescapeHtml(m[2]!),
    ]),
  )
}

/** Runs a script as a reader would, with the service's address in BASE; its output, or the failure. */
async function run(script: string, env: Record<string, string> = {}): Promise<string> {
  const body = script.replace(/^BASE='[^']*'$/m, `BASE='${base}'`)
  const p = Bun.spawn(['sh', '-c', body], { env: { PATH: process.env.PATH!, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  if (code !== 0) throw new Error(`script failed (${code}):\n${body}\n--- stdout\n${out}\n--- stderr\n${err}`)
  // an MCP tool failure is a JSON-RPC success: the envelope says it
  expect(out).not.toContain('"isError":true')
  expect(out).not.toContain('"success":false')
  return out
}

async function admin(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBeLessThan(300)
  return (await res.json()).data
}

/** What a person does after signing up and topping up: here the operator mints the key and adds credits. */
async function keyFor(
  tier: 'free' | 'professional',
  scopes: string[],
  email = `walk-${tier}-${crypto.randomUUID()}@example.no`,
): Promise<string> {
  const consumer = (await admin('/api/v1/admin/consumers', { email, tier })).consumer_id
  await admin('/api/v1/admin/credits', { consumer_id: consumer, amount_ore: 5000, reason: 'walk' })
  return (await admin('/api/v1/admin/keys', { consumer_id: consumer, scopes })).plaintext_key
}

async function toolsListed(bearer: string): Promise<Set<string>> {
  const client = new Client({ name: 'plikt-walk', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  )
  try {
    return new Set((await client.listTools()).tools.map((t) => t.name))
  } finally {
    await client.close()
  }
}

const ALL_SCOPES = ['read:*', 'read:actions', 'subscribe:webhooks']

// -------------------------------------------------------------------------------------------------

describe('every path a discovery document names exists and answers', () => {
  test('llms.txt: each link is an OpenAPI operation and answers', async () => {
    const links = markdownLinks(await (await fetch(`${base}/llms.txt`)).text())
    expect(links.length).toBeGreaterThan(5)
    for (const link of links) {
      const url = new URL(link)
      expect([url.pathname, operationAt('GET', url.pathname)]).not.toEqual([url.pathname, null])
      const status = await answers(`${base}${url.pathname}`)
      expect([url.pathname, status !== 404 && status < 500]).toEqual([url.pathname, true])
    }
  })

  test('llms-full.txt: each `METHOD /path` it names is an OpenAPI operation, and each link answers', async () => {
    const text = await (await fetch(`${base}/llms-full.txt`)).text()
    const named = [...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)].map(
      (m) => [m[1]!, m[2]!.replace(/^https?:\/\/[^/]+/, '')] as const,
    )
    expect(named.length).toBeGreaterThan(100)
    for (const [method, path] of named)
      expect([method, path, operationAt(method, path) !== null]).toEqual([method, path, true])
    for (const link of markdownLinks(text)) {
      const status = await answers(`${base}${new URL(link).pathname}`)
      expect([link, status !== 404 && status < 500]).toEqual([link, true])
    }
  })

  test('capabilities: each capability is the OpenAPI operation of the same id at its endpoint', async () => {
    const caps = (await (await fetch(`${base}/api/v1/capabilities`)).json()).data
    const ids = new Set<string>()
    for (const c of caps.capabilities) {
      const path = c.endpoint.path.replace(/\{[^}]+\}/g, 'x')
      expect([c.id, operationAt(c.endpoint.method, path)]).toEqual([c.id, c.openapi_operation_id])
      ids.add(c.openapi_operation_id)
    }
    // every documented operation an agent calls: people's pages, session-only routes and /metrics are left out
    const documented = Object.values(openapi.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId))
    const forPeople = new Set(allOperations.filter((o) => !forAgents(o)).map((o) => o.id))
    expect([...ids].sort()).toEqual(documented.filter((id) => !forPeople.has(id)).sort())
  })

  test('capabilities: every example request marked runnable answers as it stands', async () => {
    const caps = (await (await fetch(`${base}/api/v1/capabilities`)).json()).data.capabilities as any[]
    const runnable = caps.filter((c) => c.example_request.runnable)
    expect(runnable.map((c) => c.id)).toContain('publicExecuteSandboxAction')
    expect(runnable.map((c) => c.id)).not.toContain('getAnchorProof')
    for (const c of runnable) {
      const e = c.example_request
      // the sandbox's write side allows 60 a minute per address: each example from an address of its own
      const headers = { ...e.headers, 'x-forwarded-for': `198.51.100.${runnable.indexOf(c) % 250}` }
      const body =
        e.body === undefined
          ? {}
          : {
              body:
                e.headers['content-type'] === 'application/json' ? JSON.stringify(e.body) : new URLSearchParams(e.body),
            }
      const res = await fetch(e.url, { method: e.method, headers, redirect: 'manual', ...body })
      const text = await res.text()
      expect([c.id, res.status < 400 ? 'answers' : text]).toEqual([c.id, 'answers'])
    }
  })

  test('the discovery block and the front door’s index: each document is an OpenAPI operation and answers', async () => {
    const caps = (await (await fetch(`${base}/api/v1/capabilities`)).json()).data
    const index = await (await fetch(`${base}/`, { headers: { accept: 'application/json' } })).json()
    expect(Object.values(index.documents).map((u) => new URL(u as string).pathname)).toEqual(
      Object.values(caps.discovery),
    )
    for (const path of Object.values(caps.discovery) as string[]) {
      const method = path === '/api/mcp' ? 'POST' : 'GET'
      expect([path, operationAt(method, path) !== null]).toEqual([path, true])
      if (method === 'GET') expect([path, await answers(`${base}${path}`)]).toEqual([path, 200])
    }
  })

  test('workflows: each step is the OpenAPI operation it names, and each MCP tool is in tools/list', async () => {
    const doc = await (await fetch(`${base}/workflows.json`)).json()
    const keyTools = await toolsListed(await keyFor('professional', ALL_SCOPES))
    const sandboxTools = await toolsListed('svc_sandbox_test_walk')
    for (const w of doc.workflows) {
      for (const s of w.steps) {
        expect([w.id, s.step, operationAt(s.method, s.path.replace(/\{[^}]+\}/g, 'x'))]).toEqual([
          w.id,
          s.step,
          s.operation_id,
        ])
        if (s.mcp_tool)
          expect([w.id, s.mcp_tool, (w.environment === 'sandbox' ? sandboxTools : keyTools).has(s.mcp_tool)]).toEqual([
            w.id,
            s.mcp_tool,
            true,
          ])
      }
    }
  })

  test('the MCP manifest: each tool it names is in tools/list', async () => {
    const manifest = await (await fetch(`${base}/.well-known/mcp.json`)).json()
    const listed = new Set([
      ...(await toolsListed(await keyFor('professional', ALL_SCOPES))),
      ...(await toolsListed('svc_sandbox_test_walk')),
    ])
    for (const name of manifest.tools.names) expect([name, listed.has(name)]).toEqual([name, true])
    expect(new URL(manifest.url).pathname).toBe('/api/mcp')
  })
})

describe('every recipe runs against a fresh service', () => {
  test('from llms.txt alone: the sandbox tour it links to files a VAT return to a signed sandbox receipt', async () => {
    const llms = await (await fetch(`${base}/llms.txt`)).text()
    const tour = markdownLinks(llms).find((l) => l.endsWith('/recipes#sandbox-tour'))!
    expect(tour).toBeDefined()
    const scripts = await recipeScripts()
    const out = await run(scripts.get('sandbox-tour-1')!)
    expect(out).toContain('"receipt":')
    expect(out).toContain('"signature"')
  }, 60_000)

  test('the sandbox rehearsal runs, REST and MCP, to a receipt and its audit row', async () => {
    const out = await run((await recipeScripts()).get('rehearse-in-sandbox-1')!)
    expect(out).toContain('"receipt":')
    expect(out).toContain('"jsonrpc":"2.0"')
  }, 60_000)

  test('get a key and a metered answer: sign-up is sent, then a key the operator minted gets a charged answer', async () => {
    const scripts = await recipeScripts()
    await run(scripts.get('first-metered-answer-1')!, { EMAIL: `walk-${crypto.randomUUID()}@example.no` })
    const key = await keyFor('free', ['read:*'])
    const out = await run(scripts.get('first-metered-answer-2')!, { PLIKT_KEY: key })
    const balance = await (
      await fetch(`${base}/api/v1/account/credits/balance`, { headers: { authorization: `Bearer ${key}` } })
    ).json()
    // two metered answers (REST and MCP) at 50 øre each
    expect(balance.data.balance_ore).toBe(5000 - 100)
    expect(out).toContain('"obligations"')
  }, 60_000)

  test('file a VAT return: the reads and the delegation request, a person approves, then dry run and approval token, its owner confirms, a signed receipt', async () => {
    const scripts = await recipeScripts()
    const email = `walk-free-${crypto.randomUUID()}@example.no`
    const key = await keyFor('free', ['read:*', 'read:actions'], email)
    const first = await run(scripts.get('file-vat-return-1')!, { PLIKT_KEY: key })
    const delegationUrl = /"delegation_url":"([^"]+)"/.exec(first)![1]!
    const page = await (await fetch(delegationUrl)).text()
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!
    const approver = /name="approver" id="approver-0" value="([^"]+)"/.exec(page)![1]!
    const decided = await fetch(`${delegationUrl}/decision`, {
      method: 'POST',
      headers: { origin: new URL(delegationUrl).origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrf, approver, decision: 'approve' }),
      redirect: 'manual',
    })
    expect(decided.status).toBeLessThan(400)
    const minted = await run(scripts.get('file-vat-return-2')!, { PLIKT_KEY: key })
    expect(minted).toContain('"confirmation_state":"awaiting_confirmation"')
    const token = /"approval_token":"([^"]+)"/.exec(minted)![1]!
    const confirmationUrl = /"confirmation_url":"([^"]+)"/.exec(minted)![1]!
    // The account's owner signs in and confirms on the page (the one step no agent can take).
    expect((await decideOverHttp(base, ADMIN, email, confirmationUrl)).status).toBe(200)
    const out = await run(scripts.get('file-vat-return-3')!, { PLIKT_KEY: key, TOKEN: token })
    expect(out).toContain('"receipt":')
  }, 60_000)

  test('monitor changes: the archive, a webhook to the reader’s receiver, the subscriptions and the anchors', async () => {
    const key = await keyFor('professional', ALL_SCOPES)
    const out = await run((await recipeScripts()).get('monitor-changes-1')!, {
      PLIKT_KEY: key,
      WEBHOOK_URL: `http://127.0.0.1:${receiver.port}/hook`,
    })
    expect(out).toContain('whsec_')
  }, 60_000)

  test('an accounting firm’s week: a portfolio, its clients warmed in the background, the merged deadlines as JSON, CSV, MCP and a calendar feed, the changes', async () => {
    const key = await keyFor('professional', ['read:*'])
    const out = await run((await recipeScripts()).get('accounting-firm-week-1')!, { PLIKT_KEY: key })
    expect(out).toContain('"states":{"answered":2,"pending":0,"stale":0,"unavailable":0}')
    expect(out).toContain('org_number,company_name,obligation_id,')
    // the MCP tool's answer, with its justification
    expect(out).toContain('merged by due date')
    // the calendar program's fetch, then its conditional one
    expect(out).toContain('BEGIN:VCALENDAR\r\nVERSION:2.0')
    expect(out).toMatch(/\n304\n/)
    expect(out).toContain('"next_cursor"')
  }, 120_000)

  test('the page has a script for every workflow in /workflows.json and nothing else', async () => {
    const doc = await (await fetch(`${base}/workflows.json`)).json()
    const scripts = [...(await recipeScripts()).keys()].map((k) => k.replace(/-\d+$/, ''))
    expect([...new Set(scripts)]).toEqual(doc.workflows.map((w: { id: string }) => w.id))
  })
})
