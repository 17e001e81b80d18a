/**
 * MCP prompts and completions (ARCHITECTURE.md "MCP resources, prompts and completions").
 *
 * Prompts: one per workflow of `/workflows.json` (src/domain/discovery/mcp-prompts.ts builds them
 * and their text), offered to every caller, a key or none: they are text about the tools, and cost
 * nothing. `prompts/get` checks the arguments as the tools would (an organisation number with its
 * MOD-11 check digit — a sandbox number in a sandbox workflow —, a VAT period the rulebook knows,
 * `nb` or `en`) and refuses them with the REST error body as JSON-RPC -32602's `data`.
 *
 * Completions (`completion/complete`) for a prompt's or a resource template's arguments:
 * - `org_number` from a name fragment: with a key, a `search_companies` call through the
 *   orchestrator — charged as that tool is (50 øre when it finds something; zero hits are free),
 *   refused as it is — whose candidates' numbers are the values; under a test key or the sandbox
 *   bearer, and for a sandbox workflow's prompt, the sandbox's synthetic companies by name (free);
 *   without a key nothing is looked up. A fragment of digits is never looked up: nine of them are
 *   offered back as they are. Fewer than two characters look nothing up.
 * - `entity_type` (and any input that names its values): those values;
 * - `period`: the VAT periods of the current and the previous year, the current term first;
 * - `year`: the rulebook's years, this one first; `language`: `nb`, `en`.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CompleteRequestSchema,
  ErrorCode as RpcError,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type CompleteResult,
} from '@modelcontextprotocol/sdk/types.js'
import { Type, type TObject } from '@sinclair/typebox'
import { SANDBOX_COMPANIES } from '../../fixtures/sandbox/companies.ts'
import { parsePeriod } from '../domain/actions/period.ts'
import type { Principal } from '../domain/access/types.ts'
import { enumValues } from '../domain/discovery/mcp-resources.ts'
import {
  PROMPT_LANGUAGES,
  PROMPTS,
  renderPrompt,
  restToolInputs,
  type PromptDescriptor,
  type ToolInputs,
  type PromptValues,
} from '../domain/discovery/mcp-prompts.ts'
import { currentVatTerm } from '../domain/discovery/recipes.ts'
import { osloDate } from '../lib/oslo-time.ts'
import { AppError, validationError } from '../errors/app-error.ts'
import type { AppDeps } from '../pipeline/context.ts'
import { buildMeta } from '../pipeline/envelope.ts'
import { checkInput } from '../pipeline/validation.ts'
import { OrgNumber } from '../schemas/company.ts'
import { SandboxOrg } from '../schemas/sandbox.ts'
import { refusal, type Resource } from './resources.ts'
import type { RunCall } from './server.ts'
import type { Tool } from './tools.ts'

/** The most values one completion answers (MCP: at most 100). */
const MAX_VALUES = 100

/** The tool whose data completes an organisation number from a name. */
export const ORG_COMPLETION_TOOL = 'search_companies'

/** The years a year is completed from: the rulebook's range (PublicDeadlinesQuery). */
const YEARS = { min: 2020, max: 2100 }

const PromptOrg = Type.Object({ org_number: OrgNumber })
const PromptSandboxOrg = Type.Object({ org_number: SandboxOrg })

/** The prompt's arguments as its text takes them, or the refusal the tools would give them. */
function checkedValues(p: PromptDescriptor, args: Record<string, string>): PromptValues {
  for (const name of Object.keys(args))
    if (!p.arguments.some((a) => a.name === name))
      throw validationError([{ field: name, message: `the prompt ${p.name} takes no argument ${name}` }])
  for (const a of p.arguments)
    if (a.required && (args[a.name] ?? '') === '') throw validationError([{ field: a.name, message: 'required' }])
  const out: PromptValues = {}
  if (args.org_number !== undefined) {
    checkInput(
      p.workflow.environment === 'sandbox' ? PromptSandboxOrg : PromptOrg,
      { org_number: args.org_number },
      'arguments',
    )
    out.org_number = args.org_number
  }
  if (args.period !== undefined && args.period !== '') {
    const parsed = parsePeriod('mva_melding', args.period)
    if (!parsed.ok) throw validationError(parsed.details)
    out.period = args.period
  }
  if (args.language !== undefined && args.language !== '') {
    if (!(PROMPT_LANGUAGES as readonly string[]).includes(args.language))
      throw validationError([{ field: 'language', message: `must be one of ${PROMPT_LANGUAGES.join(', ')}` }])
    out.language = args.language as PromptValues['language']
  }
  return out
}

const startsWith = (values: readonly string[], prefix: string) => {
  const p = prefix.trim().toLowerCase()
  return values.filter((v) => v.toLowerCase().startsWith(p))
}

const completion = (values: string[], meta?: Record<string, unknown>): CompleteResult => ({
  completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
  ...(meta ? { _meta: meta } : {}),
})

/** The VAT periods an agent is likely to mean: this year's and last year's terms, months and annual term, the current term first. */
function periods(now: Date): string[] {
  const current = currentVatTerm(now)
  const year = Number(osloDate(now).slice(0, 4))
  const ofYear = (y: number) => [
    ...[6, 5, 4, 3, 2, 1].map((t) => `${y}-T${t}`),
    `${y}-A`,
    ...Array.from({ length: 12 }, (_, i) => `${y}-${String(12 - i).padStart(2, '0')}`),
  ]
  return [current, ...[...ofYear(year), ...ofYear(year - 1)].filter((p) => p !== current)]
}

function years(now: Date): string[] {
  const year = Number(osloDate(now).slice(0, 4))
  const out = [year, year + 1, ...Array.from({ length: year - YEARS.min }, (_, i) => year - 1 - i)]
  return out.filter((y) => y >= YEARS.min && y <= YEARS.max).map(String)
}

/** The sandbox's synthetic companies whose name holds the fragment: what a test key or the sandbox bearer reads. */
function syntheticOrgs(fragment: string): string[] {
  const f = fragment.toLowerCase()
  return SANDBOX_COMPANIES.filter((c) => c.name.toLowerCase().includes(f)).map((c) => c.org_number)
}

/** The arguments each step's tool really takes: the tool of that operation, or the production tool that rehearses it. */
function toolInputsOf(all: readonly Tool[]): ToolInputs {
  return (name, op) => {
    const tool = all.find((t) => t.name === name && t.operation.id === op.id) ?? all.find((t) => t.name === name)
    if (!tool) return restToolInputs(name, op)
    const schema = tool.input as TObject
    const required = new Set(schema.required ?? [])
    return new Map(Object.keys(schema.properties ?? {}).map((k) => [k, required.has(k)]))
  }
}

export function servePrompts(
  server: Server,
  ctx: {
    principal: Principal
    deps: AppDeps
    /** the tools this credential is offered */
    tools: readonly Tool[]
    /** every tool of the surface, whose inputs the prompts' steps name */
    allTools: readonly Tool[]
    resources: readonly Resource[]
    run: RunCall
  },
): void {
  const { principal, deps, tools, resources, run } = ctx
  const toolInputs = toolInputsOf(ctx.allTools)

  /** Organisation numbers for a name fragment (the module's comment says from where, and what it costs). */
  async function orgNumbers(value: string, sandbox: boolean, signal: AbortSignal): Promise<CompleteResult> {
    const fragment = value.trim()
    if (/^[\d ]+$/.test(fragment)) {
      const digits = fragment.replaceAll(' ', '')
      return completion(digits.length === 9 ? [digits] : [])
    }
    if (fragment.length < 2) return completion([])
    if (sandbox || principal.kind === 'sandbox' || (principal.kind === 'key' && principal.test))
      return completion(syntheticOrgs(fragment), { source: 'sandbox' })
    const search = tools.find((t) => t.name === ORG_COMPLETION_TOOL)
    if (!search) return completion([])
    const ran = await run(search, { name: fragment }, signal)
    if ('error' in ran) {
      if (ran.error.code === 'NOT_FOUND') return completion([])
      throw refusal(ran.error, ran.now, deps)
    }
    const found = ran.answer.output.result as { candidates: { org_number: string }[] }
    return completion(
      found.candidates.map((c) => c.org_number),
      { tool: ORG_COMPLETION_TOOL, ...buildMeta(ran.answer.output.meta ?? {}, ran.now, ran.answer.output.hash) },
    )
  }

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })),
  }))

  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const p = PROMPTS.find((x) => x.name === req.params.name)
    if (!p) throw new McpError(RpcError.InvalidParams, `Unknown prompt: ${req.params.name}`)
    const now = deps.clock.now()
    let values: PromptValues
    try {
      values = checkedValues(p, req.params.arguments ?? {})
    } catch (e) {
      if (e instanceof AppError) throw refusal(e, now, deps)
      throw e
    }
    const { description, text } = renderPrompt(p, values, deps.config.baseUrl, now, toolInputs)
    return { description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] }
  })

  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
    const { ref, argument } = req.params
    const now = deps.clock.now()
    if (ref.type === 'ref/prompt') {
      const p = PROMPTS.find((x) => x.name === ref.name)
      if (!p) throw new McpError(RpcError.InvalidParams, `Unknown prompt: ${ref.name}`)
      switch (argument.name) {
        case 'org_number':
          return orgNumbers(argument.value, p.workflow.environment === 'sandbox', extra.signal)
        case 'period':
          return completion(startsWith(periods(now), argument.value))
        case 'language':
          return completion(startsWith(PROMPT_LANGUAGES, argument.value))
        default:
          return completion([])
      }
    }
    const r = resources.find((x) => x.descriptor.uriTemplate === ref.uri)
    if (!r) throw new McpError(RpcError.InvalidParams, `Resource template not found: ${ref.uri}`)
    if (argument.name === 'org_number') return orgNumbers(argument.value, false, extra.signal)
    const named = enumValues(r.descriptor.inputs[argument.name])
    if (named) return completion(startsWith(named, argument.value))
    if (argument.name === 'year') return completion(startsWith(years(now), argument.value))
    return completion([])
  })
}
