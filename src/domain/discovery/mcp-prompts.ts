/**
 * The MCP prompts (ARCHITECTURE.md "MCP resources, prompts and completions"): one per workflow of
 * `/workflows.json`, generated from it. A prompt's arguments are what its steps' operations take
 * that the person must say (the organisation, the VAT period) plus the language (bokmål or
 * English); `prompts/get` answers one message that walks the agent through the workflow, naming
 * each step's MCP tool in order with its arguments filled in, or the REST call where the step has
 * no tool.
 */
import type { TObject } from '@sinclair/typebox'
import { SANDBOX_BEARER_PREFIX } from '../access/types.ts'
import { openApiPath, toolArgumentName, type Operation } from '../../operations/index.ts'
import { currentVatTerm } from './recipes.ts'
import { operationOf, toolOf, WORKFLOWS, type WorkflowDef } from './workflows.ts'

export const PROMPT_LANGUAGES = ['nb', 'en'] as const
export type PromptLanguage = (typeof PROMPT_LANGUAGES)[number]

/** The arguments a prompt may ask for: the inputs a person names, in the order a host shows them. */
export const PROMPT_ARGUMENTS = ['org_number', 'period', 'language'] as const
export type PromptArgumentName = (typeof PROMPT_ARGUMENTS)[number]

const ARGUMENT_DESCRIPTIONS: Record<PromptArgumentName, string> = {
  org_number:
    'The organisation number: 9 digits with a valid MOD-11 check digit (complete it from a name fragment). / Organisasjonsnummeret: 9 sifre.',
  period:
    'The VAT period: YYYY-T1 to YYYY-T6 (two-month term), YYYY-A (annual) or YYYY-MM (monthly); default the current two-month term. / Mva-perioden.',
  language: 'nb (bokmål, the default) or en (English): the language the steps are written in. / Språk: nb eller en.',
}

export interface PromptArgument {
  name: PromptArgumentName
  description: string
  required: boolean
}

export interface PromptDescriptor {
  name: string
  title: string
  description: string
  arguments: PromptArgument[]
  workflow: WorkflowDef
}

/** An operation's inputs by tool argument name, each with whether REST requires it. */
function inputsOf(op: Operation): Map<string, boolean> {
  const out = new Map<string, boolean>()
  const add = (shape: TObject | undefined, rename: (n: string) => string, allRequired: boolean) => {
    const required = new Set(shape?.required ?? [])
    for (const k of Object.keys(shape?.properties ?? {})) out.set(rename(k), allRequired || required.has(k))
  }
  add(op.request.params, toolArgumentName, true)
  add(op.request.query as TObject | undefined, (n) => n, false)
  add(op.request.body as TObject | undefined, (n) => n, false)
  return out
}

function argumentsOf(w: WorkflowDef): PromptArgument[] {
  const found = new Map<PromptArgumentName, boolean>()
  for (const s of w.steps) {
    for (const [name, required] of inputsOf(operationOf(s.op))) {
      if (name === 'language' || !(PROMPT_ARGUMENTS as readonly string[]).includes(name)) continue
      if (w.fixed?.[name] !== undefined) continue
      const n = name as PromptArgumentName
      // The period has a default (the current term); the organisation does not.
      found.set(n, (found.get(n) ?? false) || (required && n === 'org_number'))
    }
  }
  return [
    ...PROMPT_ARGUMENTS.filter((n) => found.has(n)).map((n) => ({
      name: n,
      description: ARGUMENT_DESCRIPTIONS[n],
      required: found.get(n)!,
    })),
    { name: 'language', description: ARGUMENT_DESCRIPTIONS.language, required: false },
  ]
}

/** The prompts, one per workflow, in the workflows' order. */
export const PROMPTS: readonly PromptDescriptor[] = WORKFLOWS.map((w) => ({
  name: w.id,
  title: w.title_en,
  description: `${w.summary_en} (${w.title_nb}.) Walks the agent through the steps, each MCP tool named in order with its arguments filled in; in bokmål or English.`,
  arguments: argumentsOf(w),
  workflow: w,
}))

export interface PromptValues {
  org_number?: string
  period?: string
  language?: PromptLanguage
}

const TEXT = {
  en: {
    for: (org: string | undefined, period: string | undefined) =>
      [org ? `organisation ${org}` : null, period ? `period ${period}` : null].filter((x) => x).join(', '),
    intro:
      'Take these steps in order. Each names the MCP tool on this server to call, with its arguments filled in, or — where the step has no tool — the REST call to make with the same credential. After each call read the answer: on a failure (isError, or success false) stop, and act on its error_code and remediation before going on.',
    sandbox: `Connect with the synthetic bearer \`${SANDBOX_BEARER_PREFIX}<any suffix>\`: the company tools then answer from the sandbox's synthetic companies, and nothing real is touched or charged.`,
    production:
      'Use a key with credits: metered reads cost what plikt://pricing says (a company read 50 øre); nothing is charged when a call fails.',
    call: (tool: string) => `call \`${tool}\``,
    with: 'with',
    body: 'with the body',
    also: 'and also',
    publicSandbox:
      'No key is needed: the public mirror answers anyone, for its one synthetic organisation, and nothing real is touched.',
    person: 'a person does this: tell them what the previous answer says they must do, and wait until they have',
    recipe: 'Runnable recipe',
  },
  nb: {
    for: (org: string | undefined, period: string | undefined) =>
      [org ? `organisasjon ${org}` : null, period ? `periode ${period}` : null].filter((x) => x).join(', '),
    intro:
      'Ta stegene i rekkefølge. Hvert steg navngir MCP-verktøyet på denne serveren som skal kalles, med argumentene fylt inn, eller — der steget ikke har noe verktøy — REST-kallet du gjør med samme legitimasjon. Les svaret etter hvert kall: ved feil (isError, eller success false) stopper du, og følger error_code og rådene i svaret før du går videre.',
    sandbox: `Koble til med den syntetiske nøkkelen \`${SANDBOX_BEARER_PREFIX}<valgfri endelse>\`: selskapsverktøyene svarer da fra sandkassens syntetiske selskaper, og ingenting ekte blir berørt eller belastet.`,
    production:
      'Bruk en nøkkel med kreditter: betalte oppslag koster det plikt://pricing sier (et selskapsoppslag 50 øre); ingenting trekkes når et kall feiler.',
    call: (tool: string) => `kall \`${tool}\``,
    with: 'med',
    body: 'med innholdet',
    also: 'og i tillegg',
    publicSandbox:
      'Ingen nøkkel trengs: det åpne speilet svarer alle, for sin ene syntetiske organisasjon, og ingenting ekte blir berørt.',
    person: 'et menneske gjør dette: fortell dem hva forrige svar sier de må gjøre, og vent til de har gjort det',
    recipe: 'Kjørbar oppskrift',
  },
} as const

/**
 * The arguments a step's tool takes, each with whether it is required; the MCP surface knows its
 * tools' real inputs (a tool may have its own shape), so it hands them in.
 */
export type ToolInputs = (tool: string, op: Operation) => Map<string, boolean>

/** Without the surface: a tool takes its REST inputs flattened, and the write arguments its operation declares. */
export const restToolInputs: ToolInputs = (_tool, op) => {
  const out = inputsOf(op)
  if (op.idempotency) out.set('idempotency_key', op.idempotency === 'required')
  if (op.approval) out.set('approval_token', false)
  return out
}

const code = (names: string[]) => names.map((n) => `\`${n}\``).join(', ')
/** A purpose as the end of a sentence: a question keeps its mark. */
const sentence = (text: string) => (/[?!]$/.test(text) ? text : `${text.replace(/\.+$/, '')}.`)

/** One step as a line: the tool (or REST call) with what it is given, and why. */
function stepLine(
  i: number,
  step: WorkflowDef['steps'][number],
  values: Record<string, string>,
  lang: PromptLanguage,
  base: string,
  toolInputs: ToolInputs,
): string {
  const t = TEXT[lang]
  const op = operationOf(step.op)
  const tool = toolOf(op)
  const purpose = sentence(lang === 'nb' ? step.purpose_nb : step.purpose_en)
  const head = `${i + 1}. ${step.step}${step.person ? ` (${t.person})` : ''}`
  const path = openApiPath(op.path).replace('{org}', values.org_number ?? '{org}')
  if (op.format === 'html') return `${head}: \`${op.method} ${base}${path}\` — ${purpose}`
  const dryRun = step.with?.dry_run === true
  const fill = (inputs: Map<string, boolean>) => {
    const given: Record<string, unknown> = {}
    for (const [name] of inputs) if (values[name] !== undefined) given[name] = values[name]
    for (const [name, value] of Object.entries(step.with ?? {})) if (inputs.has(name)) given[name] = value
    // A live filing needs the confirmed approval token; the dry run does not.
    const missing = [...inputs]
      .filter(([n, required]) => !(n in given) && (required || (n === 'approval_token' && !dryRun)))
      .map(([n]) => n)
    return { given, missing }
  }
  if (tool) {
    const { given, missing } = fill(toolInputs(tool, op))
    const args = Object.keys(given).length > 0 ? ` ${t.with} ${JSON.stringify(given)}` : ''
    const also = missing.length > 0 ? ` ${t.also} ${code(missing)}` : ''
    return `${head}: ${t.call(tool)}${args}${also} — ${purpose}`
  }
  const params = new Set(Object.keys(op.request.params?.properties ?? {}).map(toolArgumentName))
  const query = new Set(Object.keys(op.request.query?.properties ?? {}))
  const { given, missing } = fill(inputsOf(op))
  const queryPart = Object.entries(given).filter(([n]) => query.has(n))
  const bodyPart = Object.fromEntries(Object.entries(given).filter(([n]) => !params.has(n) && !query.has(n)))
  const qs =
    queryPart.length > 0 ? `?${queryPart.map(([n, v]) => `${n}=${encodeURIComponent(String(v))}`).join('&')}` : ''
  const body = Object.keys(bodyPart).length > 0 ? ` ${t.body} ${JSON.stringify(bodyPart)}` : ''
  const also = missing.length > 0 ? ` ${t.also} ${code(missing)}` : ''
  return `${head}: \`${op.method} ${base}${path}${qs}\`${body}${also} — ${purpose}`
}

/**
 * The prompt's one message: the workflow for these values, in the language asked for. `values`
 * are already checked (src/mcp/prompts.ts); a period left out is the current two-month term.
 */
export function renderPrompt(
  p: PromptDescriptor,
  given: PromptValues,
  base: string,
  now: Date,
  toolInputs: ToolInputs = restToolInputs,
): { description: string; text: string } {
  const w = p.workflow
  const lang = given.language ?? 'nb'
  const t = TEXT[lang]
  const asks = new Set(p.arguments.map((a) => a.name))
  const values: Record<string, string> = { ...w.fixed }
  if (given.org_number !== undefined) values.org_number = given.org_number
  if (asks.has('period')) values.period = given.period ?? currentVatTerm(now)
  const title = lang === 'nb' ? w.title_nb : w.title_en
  const summary = lang === 'nb' ? w.summary_nb : w.summary_en
  const subject = t.for(values.org_number, values.period)
  const text = [
    `# ${title}${subject ? ` — ${subject}` : ''}`,
    '',
    summary,
    '',
    t.intro,
    w.environment === 'production'
      ? t.production
      : w.steps.some((s) => toolOf(operationOf(s.op)))
        ? t.sandbox
        : t.publicSandbox,
    '',
    ...w.steps.map((s, i) => stepLine(i, s, values, lang, base, toolInputs)),
    '',
    `${t.recipe}: ${base}/recipes#${w.id}`,
  ].join('\n')
  return { description: `${title}${subject ? ` (${subject})` : ''}`, text }
}
