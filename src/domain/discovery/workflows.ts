/**
 * The agent workflows: which calls, in which order, solve a task. Each step names a registry
 * operation by id (an unknown id fails the typecheck, and `workflowsDocument` refuses it at load),
 * so its method, path and MCP tool come from the registry and cannot drift.
 */
import { PUBLIC_SANDBOX_ORG } from '../../../fixtures/sandbox/companies.ts'
import { allOperations, openApiPath, type Operation, type OperationId } from '../../operations/index.ts'

/** `/workflows.json`'s own version: minor for a new workflow or step, major when a step changes or goes. */
export const WORKFLOWS_VERSION = '2.3.0'

export interface StepDef {
  step: string
  op: OperationId
  purpose_en: string
  purpose_nb: string
  /** arguments this step is always taken with (the dry run's `dry_run: true`): the MCP prompts fill them in */
  with?: Record<string, unknown>
  /** a person, not the agent, takes this step */
  person?: boolean
}

export interface WorkflowDef {
  id: string
  title_en: string
  title_nb: string
  summary_en: string
  summary_nb: string
  /** arguments the whole workflow is taken with, not asked for (the public mirror serves one organisation) */
  fixed?: Record<string, string>
  environment: 'sandbox' | 'production'
  steps: StepDef[]
}

export const WORKFLOWS: readonly WorkflowDef[] = [
  {
    id: 'sandbox-tour',
    title_en: 'Two-minute tour: the public sandbox, no key, no setup',
    title_nb: 'Tur på to minutter: den åpne sandkassen, uten nøkkel',
    summary_en:
      'Read a synthetic company, plan a VAT return, mint the approval token a person would, and file it to a signed sandbox receipt — org 999999999 only, nothing real is touched.',
    summary_nb:
      'Les et syntetisk selskap, planlegg en mva-melding, lag godkjenningstokenet et menneske ville laget, og send den inn til en signert sandkassekvittering — bare org 999999999, ingenting ekte blir berørt.',
    environment: 'sandbox',
    fixed: { org_number: PUBLIC_SANDBOX_ORG },
    steps: [
      {
        step: 'orient',
        op: 'publicGetSandboxContext',
        purpose_en: 'who the company is',
        purpose_nb: 'hvem selskapet er',
      },
      {
        step: 'deadlines',
        op: 'publicGetSandboxDeadlines',
        purpose_en: 'what falls due, and when',
        purpose_nb: 'hva som forfaller, og når',
      },
      {
        step: 'plan',
        op: 'publicPlanSandboxAction',
        purpose_en: 'the action id, the five checks and the steps that would file it',
        purpose_nb: 'handlings-id-en, de fem kontrollene og stegene som ville sendt den inn',
      },
      {
        step: 'approve',
        op: 'publicCreateSandboxApprovalToken',
        purpose_en: 'the single-use approval token a person mints for exactly this action',
        purpose_nb: 'engangstokenet et menneske lager for akkurat denne handlingen',
        person: true,
      },
      {
        step: 'file',
        op: 'publicExecuteSandboxAction',
        purpose_en: 'file it: a signed sandbox receipt; nothing is submitted anywhere',
        purpose_nb: 'send den inn: en signert sandkassekvittering; ingenting sendes noe sted',
      },
    ],
  },
  {
    id: 'rehearse-in-sandbox',
    title_en: 'Rehearse a filing in the sandbox, with your own namespace',
    title_nb: 'Øv på en innsending i sandkassen, i ditt eget navnerom',
    summary_en:
      'The whole filing journey against deterministic synthetic companies under the synthetic bearer svc_sandbox_test_<suffix>: your tokens and audit rows are yours alone; MCP tools answer from the sandbox too.',
    summary_nb:
      'Hele innsendingen mot deterministiske syntetiske selskaper med den syntetiske nøkkelen svc_sandbox_test_<suffix>: tokenene og revisjonsradene dine er bare dine; MCP-verktøyene svarer også fra sandkassen.',
    environment: 'sandbox',
    steps: [
      {
        step: 'catalogue',
        op: 'getSandboxFixtures',
        purpose_en: 'the companies, magic scenarios, reserved error orgs and knobs',
        purpose_nb: 'selskapene, de magiske scenarioene, de reserverte feil-org-numrene og innstillingene',
      },
      { step: 'orient', op: 'getSandboxContext', purpose_en: 'who the company is', purpose_nb: 'hvem selskapet er' },
      {
        step: 'verify',
        op: 'getSandboxVerification',
        purpose_en: 'whether it may be acted for: active, signing rule, distress flags',
        purpose_nb: 'om noen kan handle for det: aktivt, signaturregel, tegn på økonomiske problemer',
      },
      {
        step: 'obligations',
        op: 'getSandboxObligations',
        purpose_en: 'what it must file, with the law',
        purpose_nb: 'hva det må levere, med lovhjemmel',
      },
      {
        step: 'deadlines',
        op: 'getSandboxDeadlines',
        purpose_en: 'when each filing falls due',
        purpose_nb: 'når hver innsending forfaller',
      },
      {
        step: 'dry-run',
        op: 'planSandboxAction',
        purpose_en: 'the action id and the five checks, nothing filed',
        purpose_nb: 'handlings-id-en og de fem kontrollene, ingenting sendt inn',
      },
      {
        step: 'approve',
        op: 'createSandboxApprovalToken',
        purpose_en: 'the approval token a person mints for this action',
        purpose_nb: 'godkjenningstokenet et menneske lager for denne handlingen',
        person: true,
      },
      {
        step: 'file',
        op: 'executeSandboxAction',
        with: { dry_run: false },
        purpose_en: 'file it: a signed sandbox receipt',
        purpose_nb: 'send den inn: en signert sandkassekvittering',
      },
      {
        step: 'audit',
        op: 'getSandboxAudit',
        purpose_en: 'the trail the filing left',
        purpose_nb: 'sporet innsendingen etterlot',
      },
    ],
  },
  {
    id: 'first-metered-answer',
    title_en: 'Get a key and a metered answer',
    title_nb: 'Skaff en nøkkel og et betalt svar',
    summary_en:
      'Sign up (a magic link; the first key is shown once), check the credit balance, top up if it is short (a person approves), then ask a metered question about a real company.',
    summary_nb:
      'Registrer deg (en innloggingslenke; den første nøkkelen vises én gang), sjekk kredittsaldoen, fyll på om den er for lav (et menneske godkjenner), og still så et betalt spørsmål om et ekte selskap.',
    environment: 'production',
    steps: [
      {
        step: 'sign-up',
        op: 'signup',
        purpose_en: 'e-mails a magic link; following it creates the account and shows its first key once',
        purpose_nb:
          'sender en innloggingslenke på e-post; å følge den oppretter kontoen og viser den første nøkkelen én gang',
        person: true,
      },
      {
        step: 'balance',
        op: 'getCreditBalance',
        purpose_en: 'credits left, and where to top up',
        purpose_nb: 'kreditter igjen, og hvor du fyller på',
      },
      {
        step: 'top-up',
        op: 'createTopupRequest',
        purpose_en: 'asks a person to approve a top-up (nothing is charged until they do)',
        purpose_nb: 'ber et menneske godkjenne en påfylling (ingenting trekkes før de gjør det)',
      },
      {
        step: 'answer',
        op: 'getCompanySummary',
        purpose_en: 'what the company must do and when: a metered read (50 øre)',
        purpose_nb: 'hva selskapet må gjøre og når: et betalt oppslag (50 øre)',
      },
    ],
  },
  {
    id: 'file-vat-return',
    title_en: 'File a VAT return for a company',
    title_nb: 'Send inn mva-melding for en virksomhet',
    summary_en:
      'Orient, verify, find the obligation and its deadline, get a delegation approved by the signing authority, dry-run, mint an approval token, have the account’s owner confirm it at its confirmation_url (signed in: an agent cannot), and file — a signed receipt at the end.',
    summary_nb:
      'Orienter deg, verifiser, finn plikten og fristen, få en delegering godkjent av den som har signaturrett, prøvekjør, lag et godkjenningstoken, la kontoens eier bekrefte det på confirmation_url (innlogget: en agent kan ikke), og send inn — en signert kvittering til slutt.',
    environment: 'production',
    steps: [
      {
        step: 'orient',
        op: 'getCompanyContext',
        purpose_en: 'who the company is, from the open register',
        purpose_nb: 'hvem selskapet er, fra Enhetsregisteret',
      },
      {
        step: 'verify',
        op: 'verifyCompany',
        purpose_en: 'pass, fail or unknown: may it be acted for?',
        purpose_nb: 'bestått, ikke bestått eller ukjent: kan noen handle for det?',
      },
      {
        step: 'obligations',
        op: 'getCompanyObligations',
        purpose_en: 'each obligation decided for this company, with the law',
        purpose_nb: 'hver plikt avgjort for dette selskapet, med lovhjemmel',
      },
      {
        step: 'deadlines',
        op: 'getCompanyDeadlines',
        purpose_en: 'the due dates, shifted off weekends and holidays',
        purpose_nb: 'fristene, flyttet fra helg og helligdag',
      },
      {
        step: 'delegate',
        op: 'requestFullmakt',
        purpose_en: 'asks for a system user with the VAT scope; the signing authority approves at delegation_url',
        purpose_nb: 'ber om en systembruker med mva-tilgang; den som har signaturrett godkjenner på delegation_url',
        person: true,
      },
      {
        step: 'check-delegation',
        op: 'getPermissions',
        purpose_en: 'whether the delegation is in force',
        purpose_nb: 'om delegeringen er i kraft',
      },
      {
        step: 'dry-run',
        op: 'executeAction',
        with: { dry_run: true },
        purpose_en: 'the five checks with ?dry_run=true; nothing is submitted',
        purpose_nb: 'de fem kontrollene med ?dry_run=true; ingenting sendes inn',
      },
      {
        step: 'approval-token',
        op: 'createApprovalToken',
        purpose_en:
          'a single-use token for exactly this filing (send the dry run’s action with its action_id), minted awaiting confirmation: the answer’s confirmation_url and ask_the_person say what to ask the person',
        purpose_nb:
          'et engangstoken for akkurat denne innsendingen (send prøvekjøringens handling med action_id), laget i påvente av bekreftelse: svarets confirmation_url og ask_the_person sier hva du skal be mennesket om',
      },
      {
        step: 'confirm',
        op: 'approvalConfirmationPage',
        purpose_en:
          'the account’s owner, signed in to Plikt, opens confirmation_url, sees the organisation, period, amounts and the five checks, and confirms (or declines); until then the token is refused with APPROVAL_TOKEN_UNCONFIRMED',
        purpose_nb:
          'kontoens eier, innlogget i Plikt, åpner confirmation_url, ser organisasjonen, perioden, beløpene og de fem kontrollene, og bekrefter (eller avslår); til da avvises tokenet med APPROVAL_TOKEN_UNCONFIRMED',
        person: true,
      },
      {
        step: 'file',
        op: 'executeAction',
        with: { dry_run: false },
        purpose_en: 'files it with Idempotency-Key and X-Approval-Token once confirmed; a signed receipt',
        purpose_nb:
          'sender den inn med Idempotency-Key og X-Approval-Token når den er bekreftet; en signert kvittering',
      },
    ],
  },
  {
    id: 'monitor-changes',
    title_en: 'Monitor changes to companies',
    title_nb: 'Følg med på endringer i virksomheter',
    summary_en:
      'Page through the change archive, subscribe a signed webhook to what matters, and prove a change against the daily Merkle anchor.',
    summary_nb:
      'Bla gjennom endringsarkivet, abonner med en signert webhook på det som betyr noe, og bevis en endring mot det daglige Merkle-ankeret.',
    environment: 'production',
    steps: [
      {
        step: 'changes',
        op: 'getChanges',
        purpose_en: 'the append-only change archive, by cursor',
        purpose_nb: 'det endringsarkivet som bare legges til, side for side med cursor',
      },
      {
        step: 'subscribe',
        op: 'createSubscription',
        purpose_en: 'a signed webhook for matching changes (Professional tier)',
        purpose_nb: 'en signert webhook for endringer som passer (Professional-nivå)',
      },
      {
        step: 'subscriptions',
        op: 'listSubscriptions',
        purpose_en: 'your active subscriptions',
        purpose_nb: 'de aktive abonnementene dine',
      },
      {
        step: 'anchors',
        op: 'listAnchors',
        purpose_en: 'the daily Merkle anchors a change can be proved against',
        purpose_nb: 'de daglige Merkle-ankrene en endring kan bevises mot',
      },
    ],
  },
  {
    id: 'accounting-firm-week',
    title_en: 'An accounting firm’s week: every client’s deadlines in one answer',
    title_nb: 'Regnskapsførerens uke: alle klienters frister i ett svar',
    summary_en:
      'Keep the clients in a portfolio, read every deadline of the next year in one call (JSON, the CSV a spreadsheet takes, or the MCP tool), and follow what changed across the clients (Professional tier).',
    summary_nb:
      'Hold klientene i en portefølje, les alle frister det neste året i ett kall (JSON, CSV for regnearket eller MCP-verktøyet), og følg med på hva som er endret hos klientene (Professional).',
    environment: 'production',
    steps: [
      {
        step: 'portfolio',
        op: 'createPortfolio',
        purpose_en: 'a named list for the clients',
        purpose_nb: 'en navngitt liste over klientene',
      },
      {
        step: 'clients',
        op: 'setPortfolioCompanies',
        purpose_en: 'the clients’ organisation numbers, replaced whole; new ones are fetched in the background',
        purpose_nb: 'klientenes organisasjonsnumre, erstattet i sin helhet; nye hentes i bakgrunnen',
      },
      {
        step: 'deadlines',
        op: 'getPortfolioDeadlines',
        purpose_en:
          'every client’s deadlines merged by due date, each client’s state; Accept: text/csv for the spreadsheet',
        purpose_nb:
          'alle klienters frister etter forfallsdato, med hver klients tilstand; Accept: text/csv for regnearket',
      },
      {
        step: 'calendar',
        op: 'createPortfolioFeed',
        purpose_en:
          'a secret iCalendar URL (shown once) for the firm’s calendar program to subscribe to: the program, not the agent, polls it, without a key; revoke it with DELETE …/feeds/{feed_id}',
        purpose_nb:
          'en hemmelig iCalendar-adresse (vises én gang) som kalenderprogrammet til byrået abonnerer på: programmet, ikke agenten, henter den, uten nøkkel; tilbakekall den med DELETE …/feeds/{feed_id}',
      },
      {
        step: 'portfolios',
        op: 'listPortfolios',
        purpose_en: 'the account’s portfolios',
        purpose_nb: 'kontoens porteføljer',
      },
      {
        step: 'changes',
        op: 'getChanges',
        purpose_en: 'what changed across the clients: the archive by portfolio_id',
        purpose_nb: 'hva som er endret hos klientene: arkivet etter portfolio_id',
      },
    ],
  },
]

const byId = new Map(allOperations.map((o) => [o.id, o]))

export function operationOf(id: string): Operation {
  const op = byId.get(id)
  if (!op) throw new Error(`a workflow step names the unknown operation ${id}`)
  return op
}

/**
 * The MCP tool that takes a step: the operation's own, or — for a sandbox read — the production
 * tool it mirrors (under the synthetic bearer that tool answers from the sandbox). The public
 * mirror has no MCP tools.
 */
export function toolOf(op: Operation): string | null {
  if (op.mcpTool) return op.mcpTool
  return allOperations.find((o) => o.sandboxMirror === op.id)?.mcpTool ?? null
}

export function workflowsDocument(baseUrl: string) {
  return {
    version: WORKFLOWS_VERSION,
    workflows: WORKFLOWS.map((w) => ({
      id: w.id,
      title_en: w.title_en,
      title_nb: w.title_nb,
      summary_en: w.summary_en,
      summary_nb: w.summary_nb,
      environment: w.environment,
      recipe_url: `${baseUrl}/recipes#${w.id}`,
      steps: w.steps.map((s) => {
        const op = operationOf(s.op)
        return {
          step: s.step,
          purpose_en: s.purpose_en,
          purpose_nb: s.purpose_nb,
          operation_id: op.id,
          method: op.method,
          path: openApiPath(op.path),
          mcp_tool: toolOf(op),
          person: s.person ?? false,
        }
      }),
    })),
  }
}
