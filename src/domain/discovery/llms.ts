/**
 * `/llms.txt` and `/llms-full.txt` (llmstxt.org: an H1, a summary blockquote, then sections of
 * links). The short file points; the full file inlines what an agent needs to act without following
 * a link: how to authenticate, the envelope, every workflow's calls, every operation and every
 * error code — all generated from the registry, the workflows and the error catalogue.
 */
import { CATALOGUE, ERROR_CODES } from '../../errors/catalogue/index.ts'
import { allOperations, openApiPath, type Operation } from '../../operations/index.ts'
import { PUBLIC_SANDBOX_ORG } from '../../../fixtures/sandbox/companies.ts'
import { KEY_PREFIX, SANDBOX_BEARER_PREFIX } from '../access/types.ts'
import { discoveryPaths } from './capabilities.ts'
import { mcpOffer } from './mcp-offer.ts'
import { SANDBOX_EXAMPLE_ORG } from './examples.ts'
import { operationOf, toolOf, WORKFLOWS } from './workflows.ts'

const TITLE = '# Plikt'
const SUMMARY =
  '> Machine-readable answers about Norwegian regulatory obligations for software agents: who a company is and who may act for it, ' +
  'what it must file and when (with the law) — for one company or an accounting firm’s whole portfolio of clients, as JSON, CSV or MCP —, delegation brokering, dry-runs and approved filings with signed receipts, a change ' +
  'archive with signed webhooks — over REST (`/api/v1`) and MCP (`/api/mcp`), with a keyless sandbox to rehearse in.'

const link = (base: string, path: string, name: string, note: string) => `- [${name}](${base}${path}): ${note}`

/** How an agent gets from nothing to a key (the first production step). */
function gettingAKey(base: string): string[] {
  const signup = operationOf('signup')
  return [
    `No key is needed for the sandbox (\`${SANDBOX_BEARER_PREFIX}<suffix>\` is a synthetic bearer anyone may use) or for the public routes.`,
    `For production, a person gets a key: \`${signup.method} ${base}${signup.path}\` with \`{"email", "company_name", "consent": true}\` e-mails a magic link; following it creates the account and shows its first key (\`${KEY_PREFIX.free}…\`) once. The same person can sign in at ${base}${operationOf('loginPage').path} and mint more keys on the dashboard. Send the key as \`Authorization: Bearer <key>\`.`,
    `Paid reads draw prepaid credits: \`GET ${base}${operationOf('getCreditBalance').path}\`; \`POST ${base}${operationOf('createTopupRequest').path}\` asks a person to approve a top-up. Prices: ${base}${operationOf('getPricing').path}.`,
    `The operator of an instance can mint keys directly (\`POST ${base}${operationOf('adminCreateKey').path}\` with the ADMIN_TOKEN).`,
  ]
}

export function llmsTxt(base: string): string {
  const docs = discoveryPaths()
  const doc = (name: string, label: string, note: string) => (docs[name] ? [link(base, docs[name]!, label, note)] : [])
  return [
    TITLE,
    '',
    SUMMARY,
    '',
    `Start with the two-minute tour of the public sandbox (no key): ${base}/recipes#sandbox-tour. Every path below answers; the full picture in one file is ${base}/llms-full.txt.`,
    '',
    '## Start here',
    '',
    ...doc(
      'capabilities',
      'Capabilities',
      'every operation with auth, scope, price, MCP tool and a runnable example request',
    ),
    ...doc(
      'workflows',
      'Workflows',
      'which calls, in which order, solve a task; each step names the REST operation and the MCP tool',
    ),
    ...doc('recipes', 'Recipes', 'one runnable curl and MCP script per workflow'),
    ...doc('openapi', 'OpenAPI 3.1', 'the REST API, generated from the same registry'),
    ...doc('mcp_manifest', 'MCP manifest', 'the MCP server: URL, transport, authentication, tools'),
    '',
    '## Get a key',
    '',
    ...gettingAKey(base).map((l) => `- ${l}`),
    '',
    ...mcpSection(base),
    '## Workflows',
    '',
    ...WORKFLOWS.map((w) => link(base, `/recipes#${w.id}`, w.title_en, w.summary_en)),
    '',
    '## Optional',
    '',
    ...doc('api_reference', 'API reference', 'interactive, for people'),
    ...doc('error_registry', 'Error registry', 'every error code with retry advice and fix hints'),
    link(base, operationOf('getErrorDocs').path, 'Error explanations', 'each code explained in Norwegian and English'),
    link(
      base,
      operationOf('getReceiptDocs').path,
      'Receipt signatures',
      'how anyone verifies a receipt offline with the published Ed25519 key, and you with your HMAC key',
    ),
    ...Object.entries(docs)
      .filter(([name, path]) => path.startsWith('/.well-known/') && name !== 'mcp_manifest')
      .map(([name, path]) => link(base, path, name.replaceAll('_', ' '), 'well-known discovery document')),
    '',
  ].join('\n')
}

/**
 * The MCP server's resources, templates and prompts, as llms.txt links: a resource by its
 * `plikt://` URI, a prompt by its workflow's recipe, and the manifest for the rest.
 */
function mcpSection(base: string): string[] {
  const offer = mcpOffer()
  const docs = discoveryPaths()
  return [
    '## MCP resources and prompts',
    '',
    ...offer.resources.map((r) =>
      link('', r.uri, r.uri, `MCP resource, ${r.title} (${r.mime_type}${r.keyless ? ', no key' : ''})`),
    ),
    ...offer.resource_templates.map((t) =>
      link(
        '',
        t.uri_template,
        t.uri_template,
        `MCP resource template, ${t.title} (${t.keyless ? 'no key' : `a key${t.price_ore ? `, ${t.price_ore} øre a read, as its tool` : ''}`})`,
      ),
    ),
    ...offer.prompts.map((p) =>
      link(
        base,
        `/recipes#${p.name}`,
        `Prompt ${p.name}`,
        `MCP prompt (${p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')}): ${p.title}, in bokmål or English`,
      ),
    ),
    ...(docs.mcp_manifest
      ? [
          link(
            base,
            docs.mcp_manifest,
            'Completions and change signalling',
            `completion/complete completes ${Object.keys(offer.completions).join(', ')} (an org_number from a name is a search_companies call with a key); the server is stateless, so a read's _meta.etag and _meta.rulebook_version tell a host that a resource changed`,
          ),
        ]
      : []),
    '',
  ]
}

const AUTH_TEXT: Record<Operation['auth'], string> = {
  none: 'no key',
  sandbox: 'no key (optional synthetic bearer)',
  key: 'API key',
  key_or_session: 'API key or session',
  admin: 'ADMIN_TOKEN',
  metrics: 'METRICS_TOKEN',
  session: 'browser session',
  feed: 'no key: the secret feed URL',
}

function operationLine(op: Operation): string {
  const facts = [
    AUTH_TEXT[op.auth],
    op.scope ? `scope ${op.scope}` : null,
    op.planMinimum ? `tier ${op.planMinimum}` : null,
    op.costOre ? `${op.costOre} øre` : null,
    op.mcpTool ? `MCP ${op.mcpTool}` : null,
  ]
  return `- \`${op.method} ${openApiPath(op.path)}\` (${op.id}; ${facts.filter((f) => f).join(', ')}): ${op.summary}`
}

export function llmsFullTxt(base: string): string {
  const sandboxOrg = SANDBOX_EXAMPLE_ORG
  const pages = allOperations.filter((o) => o.format === 'html')
  return [
    llmsTxt(base).trimEnd(),
    '',
    '## How to call it',
    '',
    `- REST base: ${base}/api/v1. JSON in, JSON out. Success: \`{"success": true, "data": …, "_meta": …}\`. Failure: \`{"success": false, "error_code": …, "explanation": …, "retryable": …, "fix_hint": …, "docs_url": …}\`. Branch on \`error_code\`; \`retryable: true\` means the same call may succeed after a backoff (wait \`Retry-After\` on 429).`,
    '- `_meta` carries `rulebook_version`, `data_freshness`, `source`, `schema_version`, `response_timestamp` and `response_hash` (`sha256:` of the RFC 8785 canonical JSON of `data`).',
    '- Writes that may be retried take `Idempotency-Key: <uuid>`: the same key and body replay the first answer without running it again. A filing also needs `X-Approval-Token` for exactly that action; it is spent only once every check passed.',
    `- Receipts (a live filing's, and each delegation request, approval and revocation) are signed twice: \`signature\` (HMAC-SHA256-v1 with your account's key, \`GET ${base}${operationOf('getReceiptKey').path}\`: only you can check it) and \`signature_ed25519\` by the key \`signature_ed25519_key_id\` names, over the RFC 8785 canonical JSON of the receipt without \`signature_ed25519\`, which anyone checks with the public keys at ${base}${operationOf('getReceiptKeys').path} (keys rotate; old ones stay listed with their validity window). Recipe: ${base}${operationOf('getReceiptDocs').path}. Sandbox receipts carry the HMAC only, under a public key: they prove nothing was filed.`,
    `- A production approval token is a person's confirmation: \`${operationOf('createApprovalToken').method} ${base}${operationOf('createApprovalToken').path}\` (the dry run's action with its \`action_id\`) answers the token \`awaiting_confirmation\` with a \`confirmation_url\` and \`ask_the_person\` (bokmål and English). Give the person the URL: the account's owner signs in to Plikt there, sees the organisation, period, amounts and the five checks, and confirms or declines. Until they confirm, the live execute answers 403 \`APPROVAL_TOKEN_UNCONFIRMED\` (naming the URL) and spends nothing; after a decline, 403 \`APPROVAL_TOKEN_DECLINED\`. A key cannot confirm. The sandbox's tokens are usable at once: it never files.`,
    `- MCP: JSON-RPC 2.0 over streamable HTTP at ${base}/api/mcp (\`Accept: application/json, text/event-stream\`); the same key as REST in \`Authorization\`. Without a key only the keyless tools are listed; under \`${SANDBOX_BEARER_PREFIX}<suffix>\` the company tools answer from the sandbox. Resources (\`plikt://…\`, above) read their REST twin through the same pipeline — a company template is charged and refused exactly as its tool — and answer the REST body; a refusal is a JSON-RPC error whose \`data\` is the REST error body. Prompts walk a workflow tool by tool; \`completion/complete\` completes their arguments. ${mcpOffer().change_signalling}`,
    `- Sandbox: ${base}/api/v1/sandbox (any key or none; \`${SANDBOX_BEARER_PREFIX}<suffix>\` namespaces your writes), deterministic synthetic companies, e.g. ${sandboxOrg}; the public mirror ${base}/api/v1/sandbox/public serves ${PUBLIC_SANDBOX_ORG} only. Catalogue: ${base}/api/v1/sandbox/fixtures.`,
    '',
    '## Workflows, step by step',
    '',
    ...WORKFLOWS.flatMap((w) => [
      `### ${w.title_en}`,
      '',
      `${w.summary_en} Recipe: ${base}/recipes#${w.id}`,
      '',
      ...w.steps.map((s, i) => {
        const op = operationOf(s.op)
        const tool = toolOf(op)
        return `${i + 1}. ${s.step}${s.person ? ' (a person)' : ''}: \`${op.method} ${openApiPath(op.path)}\`${tool ? `, MCP \`${tool}\`` : ''} — ${s.purpose_en}`
      }),
      '',
    ]),
    '## Every operation',
    '',
    ...allOperations.filter((o) => o.format !== 'html').map(operationLine),
    '',
    '## Pages for people',
    '',
    ...pages.filter((o) => o.method === 'GET').map((o) => `- ${base}${openApiPath(o.path)}: ${o.summary}`),
    '',
    '## Error codes',
    '',
    ...ERROR_CODES.map((code) => {
      const e = CATALOGUE[code]
      return `- \`${code}\` (HTTP ${e.status}, retryable: ${e.retryable}): ${e.explanation.summary_en} ${e.fix_hint_en}`
    }),
    '',
  ].join('\n')
}
