/**
 * The runnable scripts of `/recipes`: for each workflow, POSIX shell with curl that runs as it
 * stands against a fresh service — the sandbox ones with no setup at all, the production ones once
 * `PLIKT_KEY` holds a key. Every call's method and path come from the workflow step's registry
 * entry, and every MCP call names the step's tool, so a recipe cannot name what does not exist.
 * A workflow with a person's step in the middle (a delegation approved at `delegation_url`, a
 * filing confirmed at `confirmation_url`) is split there into scripts.
 */
import { osloDate } from '../../lib/oslo-time.ts'
import { PUBLIC_SANDBOX_ORG } from '../../../fixtures/sandbox/companies.ts'
import { actionIdOf } from '../actions/action-id.ts'
import { SANDBOX_BEARER_PREFIX } from '../access/types.ts'
import { exampleAction, PRODUCTION_EXAMPLE_ORG, SANDBOX_EXAMPLE_ORG, SANDBOX_EXAMPLE_PERIOD } from './examples.ts'
import { operationOf, toolOf, WORKFLOWS, type WorkflowDef } from './workflows.ts'

export interface RecipeScript {
  /** what the script does, one line */
  title: string
  /** environment variables the script reads besides BASE (set by the reader) */
  needs: string[]
  shell: string
  /** what a person does after this script, before the next one runs */
  then_person?: string
}

export interface Recipe {
  workflow: WorkflowDef
  intro_en: string
  scripts: RecipeScript[]
}

/** `"$VAR"` inside a JSON body: written as this marker, turned into a shell expansion when quoted. */
const v = (name: string) => `@@${name}@@`

/** A JSON body as a double-quoted shell word, with the markers expanded by the shell. */
function shellJson(body: unknown): string {
  const json = JSON.stringify(body).replace(/[\\"`$]/g, (c) => `\\${c}`)
  return `"${json.replace(/@@([A-Z_]+)@@/g, '$$$1')}"`
}

const JSON_HEADERS = `-H 'content-type: application/json'`
/** Each answer on a line of its own; a failure's body is printed and stops the script (`set -e`). */
const CURL = "curl -sS --fail-with-body -w '\\n'"
/** The value of one string member of a JSON answer, without jq. */
const field = (name: string) => `sed -n 's/.*"${name}":"\\([^"]*\\)".*/\\1/p'`
/** A fresh UUID on Linux and macOS alike. */
const NEW_UUID = '$(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)'

interface Call {
  params?: Record<string, string>
  query?: string
  body?: unknown
  headers?: string[]
  auth?: string
}

/** One curl of a step's operation: its method and path from the registry entry. */
function curl(id: string, c: Call = {}): string {
  const op = operationOf(id)
  const path = op.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => c.params?.[name] ?? `$${name.toUpperCase()}`)
  const parts = [CURL]
  if (op.method !== 'GET') parts.push(`-X ${op.method}`)
  parts.push(`"$BASE${path}${c.query ? `?${c.query}` : ''}"`)
  if (c.auth) parts.push(`-H "authorization: Bearer ${c.auth}"`)
  for (const h of c.headers ?? []) parts.push(`-H "${h}"`)
  if (c.body !== undefined) parts.push(JSON_HEADERS, `-d ${shellJson(c.body)}`)
  return parts.join(' ')
}

/** The same step through MCP: a tools/call of the step's tool. */
function mcpCall(opId: string, args: Record<string, unknown>, auth: string): string {
  const tool = toolOf(operationOf(opId))
  if (!tool) throw new Error(`operation ${opId} has no MCP tool`)
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }
  return `${CURL} -X POST "$BASE${operationOf('mcp').path}" ${JSON_HEADERS} -H 'accept: application/json, text/event-stream' -H "authorization: Bearer ${auth}" -d ${shellJson(body)}`
}

const script = (title: string, needs: string[], lines: string[], then_person?: string): RecipeScript => ({
  title,
  needs,
  shell: ['set -e', ...lines].join('\n'),
  ...(then_person ? { then_person } : {}),
})

/** The two-month VAT term that holds today (Oslo): its return is due after the term ends, so a filing for it is in time. */
export function currentVatTerm(now: Date): string {
  const [year, month] = osloDate(now).split('-').map(Number) as [number, number]
  return `${year}-T${Math.ceil(month / 2)}`
}

function sandboxTour(): RecipeScript[] {
  const org = PUBLIC_SANDBOX_ORG
  const action = exampleAction(org, SANDBOX_EXAMPLE_PERIOD)
  return [
    script(
      'Read, plan, approve and file on the public mirror (no key)',
      [],
      [
        curl('publicGetSandboxContext', { params: { org } }),
        curl('publicGetSandboxDeadlines', { params: { org } }),
        curl('publicPlanSandboxAction', { body: action }),
        `# the action id is the digest of what is filed: the plan above answers it too`,
        `TOKEN=$(${curl('publicCreateSandboxApprovalToken', { body: { org_number: org, action_id: actionIdOf(action) } })} | ${field('approval_token')})`,
        `${curl('publicExecuteSandboxAction', { headers: [`idempotency-key: ${NEW_UUID}`, 'x-approval-token: $TOKEN'], body: action })}`,
      ],
    ),
  ]
}

function rehearse(): RecipeScript[] {
  const org = SANDBOX_EXAMPLE_ORG
  const action = exampleAction(org, SANDBOX_EXAMPLE_PERIOD)
  const auth = '$BEARER'
  return [
    script(
      'The whole journey under your own synthetic bearer, REST and MCP',
      [],
      [
        `# any suffix matching ^[A-Za-z0-9_-]{1,64}$: a fresh one is a namespace of your own`,
        `BEARER=${SANDBOX_BEARER_PREFIX}recipe-$(date +%s)`,
        curl('getSandboxFixtures', { auth }),
        curl('getSandboxContext', { params: { org }, auth }),
        mcpCall('getSandboxContext', { org_number: org }, auth),
        curl('getSandboxVerification', { params: { org }, auth }),
        curl('getSandboxObligations', { params: { org }, auth }),
        curl('getSandboxDeadlines', { params: { org }, auth }),
        curl('planSandboxAction', { auth, body: action }),
        `# MCP (VAT returns only): without an approval_token the tool is a dry run`,
        mcpCall('executeSandboxAction', { org_number: org, period: action.period, payload: action.payload }, auth),
        `TOKEN=$(${curl('createSandboxApprovalToken', { auth, body: { org_number: org, action_id: actionIdOf(action) } })} | ${field('approval_token')})`,
        curl('executeSandboxAction', {
          auth,
          headers: [`idempotency-key: ${NEW_UUID}`, 'x-approval-token: $TOKEN'],
          body: action,
        }),
        curl('getSandboxAudit', { params: { org }, auth }),
      ],
    ),
  ]
}

function firstMeteredAnswer(): RecipeScript[] {
  const org = PRODUCTION_EXAMPLE_ORG
  return [
    script(
      'Sign up: a magic link goes to the e-mail address',
      ['EMAIL'],
      [curl('signup', { body: { email: v('EMAIL'), company_name: 'Mitt AS', consent: true } })],
      `A person opens the link in the e-mail and presses the button: the account is created and its first key (svc_free_…) is shown once. Put it in PLIKT_KEY (export PLIKT_KEY=svc_free_…). A person can also sign in at /login, and mint more keys in the dashboard.`,
    ),
    script(
      'Balance, a top-up request if it is short, and a metered answer',
      ['PLIKT_KEY'],
      [
        curl('getCreditBalance', { auth: '$PLIKT_KEY' }),
        `# a person approves the top-up at the approval_url the answer gives; nothing is charged before`,
        curl('createTopupRequest', { auth: '$PLIKT_KEY', body: { amount_ore: 10_000 } }),
        `# 50 øre once credits are there (402 INSUFFICIENT_CREDITS with a top_up_url before)`,
        curl('getCompanySummary', { params: { org }, auth: '$PLIKT_KEY' }),
        mcpCall('getCompanySummary', { org_number: org }, '$PLIKT_KEY'),
      ],
    ),
  ]
}

function fileVatReturn(now: Date): RecipeScript[] {
  const org = PRODUCTION_EXAMPLE_ORG
  // the company is the reader's: the body names it through $ORG, and the action id comes from the dry run
  const body = { ...exampleAction(v('ORG'), currentVatTerm(now)) }
  const auth = '$PLIKT_KEY'
  return [
    script(
      'Orient, verify, obligations, deadlines; ask for the delegation',
      ['PLIKT_KEY'],
      [
        `ORG=${org}`,
        curl('getCompanyContext', { params: { org: '$ORG' }, auth }),
        curl('verifyCompany', { params: { org: '$ORG' }, auth }),
        mcpCall('getCompanyObligations', { org_number: v('ORG') }, auth),
        curl('getCompanyDeadlines', { params: { org: '$ORG' }, auth }),
        `# your agent's own id: keep it, it names this delegation from now on`,
        `PRINCIPAL=${NEW_UUID}`,
        curl('requestFullmakt', {
          auth,
          body: { agent_principal_id: v('PRINCIPAL'), org_number: v('ORG'), scopes: ['skatteetaten:mva-melding'] },
        }),
      ],
      'A person with signing authority for the company opens the delegation_url in the answer and approves.',
    ),
    script(
      'Check the delegation, dry-run, and mint the approval token a person confirms',
      ['PLIKT_KEY'],
      [
        `ORG=${org}`,
        curl('getPermissions', { params: { org: '$ORG' }, auth }),
        `DRY_RUN=$(${curl('executeAction', { query: 'dry_run=true', auth, body })})`,
        'echo "$DRY_RUN"',
        `ACTION_ID=$(echo "$DRY_RUN" | ${field('action_id')})`,
        `# single use, bound to the action id, and unusable until the account's owner confirms it:`,
        `# the answer's confirmation_url is the page they confirm on, ask_the_person what to tell them`,
        curl('createApprovalToken', { auth, body: { ...body, action_id: v('ACTION_ID') } }),
      ],
      'Put the answer’s approval_token in TOKEN (export TOKEN=apt_…). The account’s owner opens its confirmation_url, signs in to Plikt, checks the organisation, period, amounts and the five checks, and presses «Bekreft innsendingen / Confirm the filing» — within 15 minutes. Until then the live execute answers 403 APPROVAL_TOKEN_UNCONFIRMED and spends nothing.',
    ),
    script(
      'File the confirmed return',
      ['PLIKT_KEY', 'TOKEN'],
      [
        `ORG=${org}`,
        curl('executeAction', { auth, headers: [`idempotency-key: ${NEW_UUID}`, 'x-approval-token: $TOKEN'], body }),
      ],
    ),
  ]
}

function monitorChanges(): RecipeScript[] {
  const auth = '$PLIKT_KEY'
  return [
    script(
      'The change archive, a webhook, the anchors',
      ['PLIKT_KEY', 'WEBHOOK_URL'],
      [
        curl('getChanges', { query: 'limit=10', auth }),
        `# Professional tier and the subscribe:webhooks scope; WEBHOOK_URL is your HTTPS receiver`,
        curl('createSubscription', {
          auth,
          headers: [`idempotency-key: ${NEW_UUID}`],
          body: { webhook_url: v('WEBHOOK_URL') },
        }),
        curl('listSubscriptions', { auth }),
        curl('listAnchors', {}),
      ],
    ),
  ]
}

function accountingFirmWeek(): RecipeScript[] {
  const auth = '$PLIKT_KEY'
  const params = { portfolio_id: '$PORTFOLIO' }
  return [
    script(
      'Monday: the clients in a portfolio, every deadline of the next year (JSON, CSV, MCP, a calendar feed), and what changed',
      ['PLIKT_KEY'],
      [
        `PORTFOLIO=$(${curl('createPortfolio', { auth, body: { name: 'Klienter' } })} | ${field('portfolio_id')})`,
        `# replace with your clients' organisation numbers (at most 1 000; a sub-unit's stands for its legal entity)`,
        curl('setPortfolioCompanies', { params, auth, body: { org_numbers: [PRODUCTION_EXAMPLE_ORG, '923609016'] } }),
        `# new clients are "pending" until their register data is fetched in the background: the answer never waits`,
        `for i in $(seq 1 30); do ${curl('getPortfolioDeadlines', { params, auth })} | grep -q '"pending":0' && break; sleep 2; done`,
        `# 50 øre a call, whatever the number of clients`,
        curl('getPortfolioDeadlines', { params, query: 'horizon_months=12', auth }),
        `# the same rows for the spreadsheet`,
        curl('getPortfolioDeadlines', { params, auth, headers: ['accept: text/csv'] }),
        mcpCall('getPortfolioDeadlines', { portfolio_id: v('PORTFOLIO'), horizon_months: 12 }, auth),
        `# a calendar feed for the firm's calendar program: its URL is shown once; the program polls it without a key`,
        `FEED_URL=$(${curl('createPortfolioFeed', { params, auth })} | ${field('feed_url')})`,
        `# what the calendar program reads: iCalendar, one all-day event per deadline (first of the Oslo day 50 øre, the rest free)`,
        `FEED_HEADERS=$(mktemp)`,
        `curl -sS --fail-with-body -D "$FEED_HEADERS" "$FEED_URL" | head -n 12`,
        `# asked again with its ETag: 304, free`,
        `curl -sS -o /dev/null -w '%{http_code}\n' -H "if-none-match: $(sed -n 's/^etag: *//Ip' "$FEED_HEADERS" | tr -d '\r')" "$FEED_URL"`,
        `rm -f "$FEED_HEADERS"`,
        curl('listPortfolios', { auth }),
        `# through the week: what changed across the clients (read:changes), followed with next_cursor`,
        curl('getChanges', { query: 'portfolio_id=$PORTFOLIO&limit=50', auth }),
      ],
    ),
  ]
}

const INTROS: Record<string, string> = {
  'sandbox-tour': 'Runs as it stands: no key, no sign-up. Only organisation 999999999 is served here.',
  'rehearse-in-sandbox':
    'Runs as it stands. The synthetic bearer needs no sign-up; its suffix keeps your approval tokens and audit rows apart from everyone else’s.',
  'first-metered-answer':
    'Set EMAIL to an address a person reads. The second script needs the key the magic link shows.',
  'file-vat-return':
    'Needs a key (see “Get a key and a metered answer”) and a person with signing authority for the company. Replace ORG with the company you act for.',
  'monitor-changes':
    'Needs a Professional key with the subscribe:webhooks scope and an HTTPS receiver of yours in WEBHOOK_URL (verify deliveries as /docs/webhook-signature shows).',
  'accounting-firm-week':
    'Needs a Professional key with read:register and read:changes, and credits. Replace the organisation numbers with your clients’.',
}

/** The recipes, one per workflow, in the workflows' order; `now` picks the VAT term a live filing is for. */
export function recipes(now: Date): Recipe[] {
  const scripts: Record<string, () => RecipeScript[]> = {
    'sandbox-tour': sandboxTour,
    'rehearse-in-sandbox': rehearse,
    'first-metered-answer': firstMeteredAnswer,
    'file-vat-return': () => fileVatReturn(now),
    'monitor-changes': monitorChanges,
    'accounting-firm-week': accountingFirmWeek,
  }
  return WORKFLOWS.map((workflow) => {
    const build = scripts[workflow.id]
    if (!build) throw new Error(`workflow ${workflow.id} has no recipe`)
    return { workflow, intro_en: INTROS[workflow.id]!, scripts: build() }
  })
}

/** The first lines every script is run after: where the service is. */
export const baseLine = (baseUrl: string) => `BASE='${baseUrl}'`
