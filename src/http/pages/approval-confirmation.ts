/**
 * The confirmation page of a production approval token (its `confirmation_url`): the account's
 * owner, signed in, sees what the token would let an agent file — organisation, action, period,
 * the payload's amounts — and the five checks run now, and confirms or declines it. A session
 * page like the dashboard: a visitor without a session is sent to sign in, a key is no session,
 * another account's token is a 404 page, and the form carries the session's CSRF token (checked
 * at admission for every session write).
 */
import { explain } from '../../errors/explain.ts'
import { confirmationPath } from '../../domain/actions/approval.ts'
import {
  confirmationView,
  decideConfirmation,
  type ConfirmationState,
  type ConfirmationView,
} from '../../domain/actions/confirmation.ts'
import { delegationEnvFor } from '../../handlers/delegation.ts'
import { osloDate } from '../../lib/oslo-time.ts'
import { sessionOf } from '../../pipeline/admission.ts'
import type { IdParam } from '../../schemas/access.ts'
import type { ApprovalDecisionForm } from '../../schemas/pages.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import type { Principal } from '../../domain/access/types.ts'
import { bi, esc, htmlResponse, osloTime, page } from '../html.ts'

type Session = Extract<Principal, { kind: 'session' }>

const ACTIONS: Record<string, [nb: string, en: string]> = {
  mva_melding: ['Mva-melding', 'VAT return'],
  a_melding: ['A-melding', 'Employer report (a-melding)'],
}

/** The payload's amounts in kroner by their field names, as the dry run reads them. */
const AMOUNTS: Record<string, [nb: string, en: string]> = {
  total_revenue_nok: ['Samlet omsetning', 'Total revenue'],
  output_vat_nok: ['Utgående merverdiavgift', 'Output VAT'],
  input_vat_nok: ['Inngående merverdiavgift', 'Input VAT'],
  gross_salary_nok: ['Brutto lønn', 'Gross salary'],
  tax_withheld_nok: ['Forskuddstrekk', 'Tax withheld'],
  employer_contribution_nok: ['Arbeidsgiveravgift', 'Employer contribution'],
  employee_count: ['Antall ansatte', 'Employees'],
}

const STATES: Record<ConfirmationState, [nb: string, en: string]> = {
  awaiting: ['Venter på din bekreftelse', 'Awaiting your confirmation'],
  confirmed: ['Bekreftet: agenten kan sende inn én gang', 'Confirmed: the agent may file once'],
  declined: ['Avslått: tokenet kan aldri brukes', 'Declined: the token can never be used'],
  expired: ['Utløpt: ingenting kan sendes inn med det', 'Expired: nothing can be filed with it'],
  used: ['Brukt: agenten har sendt inn', 'Used: the agent has filed'],
}

function kroner(n: number): string {
  return `${n.toLocaleString('nb-NO', { maximumFractionDigits: 2 })} kr`
}

function payloadRows(payload: Record<string, unknown>): string {
  return Object.entries(payload)
    .map(([k, v]) => {
      const label = AMOUNTS[k]
      const shown =
        typeof v === 'number' && k.endsWith('_nok')
          ? kroner(v)
          : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
            ? esc(String(v))
            : `<code>${esc(JSON.stringify(v))}</code>`
      return `<tr><th scope="row">${label ? bi(esc(label[0]), esc(label[1])) : ''} <code>${esc(k)}</code></th><td data-field="${esc(k)}">${shown}</td></tr>`
    })
    .join('')
}

function checksHtml(v: ConfirmationView): string {
  if (v.checks) {
    const items = v.checks.validation.checks
      .map(
        (c) =>
          `<li data-check="${esc(c.name)}" data-passed="${c.passed}">${c.passed ? '✓' : '✗'} ${bi(esc(c.explanation_summary), esc(c.explanation_summary_en))}</li>`,
      )
      .join('')
    const verdict = v.checks.validation.all_passed
      ? bi('Alle de fem kontrollene består nå.', 'All five checks pass now.')
      : bi(
          'Minst én kontroll feiler nå: innsendingen vil bli stoppet før noe sendes inn.',
          'At least one check fails now: the filing will be stopped before anything is sent.',
        )
    return `<ul id="checks">${items}</ul><p id="checks-verdict">${verdict}</p>`
  }
  const x = v.checks_unavailable ? explain(v.checks_unavailable.code, v.checks_unavailable.options.context) : null
  return `<p class="error" id="checks-unavailable">${bi('Kontrollene kunne ikke kjøres akkurat nå', 'The checks could not be run just now')}${x ? `: ${bi(esc(x.summary), esc(x.summary_en))}` : ''}. ${bi('De kjøres uansett på nytt før noe sendes inn.', 'They run again anyway before anything is filed.')}</p>`
}

function confirmationPage(v: ConfirmationView, s: Session, notice = ''): string {
  const t = v.token
  const [actionNb, actionEn] = ACTIONS[t.action.action_type] ?? [t.action.action_type, t.action.action_type]
  const payload =
    t.action.payload && typeof t.action.payload === 'object' && !Array.isArray(t.action.payload)
      ? (t.action.payload as Record<string, unknown>)
      : {}
  const [stateNb, stateEn] = STATES[v.state]
  const decided = t.decided_at ? `<p id="decided">${bi('Besluttet', 'Decided')} ${osloTime(t.decided_at)}.</p>` : ''
  const form =
    v.state === 'awaiting'
      ? `<form method="post" action="${esc(confirmationPath(t.id))}/decision"><input type="hidden" name="csrf_token" value="${esc(s.csrfToken)}">
<p>${bi('Bekrefter du, kan agenten sende inn akkurat dette én gang, innen', 'If you confirm, the agent may file exactly this once, before')} ${osloTime(t.expires_at)}. ${bi('Endres noe av innholdet, gjelder ikke bekreftelsen.', 'If anything in it changes, the confirmation does not apply.')}</p>
<button type="submit" name="decision" value="confirm" id="confirm">${bi('Bekreft innsendingen', 'Confirm the filing')}</button>
<button type="submit" name="decision" value="decline" id="decline" class="secondary">${bi('Avslå', 'Decline')}</button></form>`
      : `<p>${bi('Denne forespørselen kan ikke lenger besvares.', 'This request can no longer be answered.')}</p>`
  return page(
    'Bekreft innsending',
    `<h1>${bi('Bekreft en innsending', 'Confirm a filing')}</h1>
${notice}
<p>${bi('En agent med en API-nøkkel på kontoen din ber om å sende inn dette på vegne av virksomheten. Ingenting sendes inn før du har bekreftet det.', 'An agent with an API key of your account asks to file this on the organisation’s behalf. Nothing is filed until you confirm it.')}</p>
<table><tbody>
<tr><th scope="row">${bi('Virksomhet', 'Organisation')}</th><td><strong id="org-name">${esc(v.company_name ?? '–')}</strong>, ${bi('org.nr.', 'org. no.')} <span id="org-number">${esc(t.org_number)}</span></td></tr>
<tr><th scope="row">${bi('Handling', 'Action')}</th><td id="action-type">${bi(esc(actionNb), esc(actionEn))} <code>${esc(t.action.action_type)}</code></td></tr>
<tr><th scope="row">${bi('Periode', 'Period')}</th><td id="period">${esc(t.action.period)}</td></tr>
<tr><th scope="row">${bi('Handlings-ID', 'Action id')}</th><td><code id="action-id">${esc(t.action_id)}</code></td></tr>
<tr><th scope="row">Status</th><td><strong id="state" data-state="${v.state}">${bi(esc(stateNb), esc(stateEn))}</strong> · ${bi('utløper', 'expires')} ${osloTime(t.expires_at)}</td></tr>
</tbody></table>
${decided}
<h2>${bi('Innhold som sendes inn', 'What would be filed')}</h2>
<div class="table-wrap"><table id="payload"><tbody>${payloadRows(payload)}</tbody></table></div>
<h2>${bi('De fem kontrollene, kjørt nå', 'The five checks, run now')}</h2>
${checksHtml(v)}
${form}`,
    { signedIn: { csrf: s.csrfToken } },
  )
}

async function viewFor(deps: AppDeps, s: Session, id: string, now: Date): Promise<ConfirmationView> {
  return confirmationView(
    { sql: deps.sql, reads: deps.reads, delegation: delegationEnvFor(deps, s), today: osloDate(now), now },
    id,
  )
}

export const approvalConfirmationHandlers = {
  approvalConfirmationPage: (async ({ principal, params, deps, now }) => {
    const s = sessionOf(principal)
    return htmlResponse(confirmationPage(await viewFor(deps, s, params.id, now), s))
  }) satisfies Handler<{ params: typeof IdParam }>,

  approvalConfirmationDecide: (async ({ principal, params, body, deps, now, state }) => {
    const s = sessionOf(principal)
    const outcome = await decideConfirmation(deps.sql, {
      consumerId: s.consumerId,
      id: params.id,
      decision: body.decision,
      sessionId: s.sessionId,
      correlationId: state.correlationId,
      now,
    })
    const view = await viewFor(deps, s, params.id, now)
    if (outcome.kind === 'decided') {
      const notice =
        body.decision === 'confirm'
          ? `<p class="flash" role="status" id="outcome">${bi('Bekreftet. Du kan gå tilbake til agenten: den kan nå sende inn dette én gang.', 'Confirmed. You may return to your agent: it can now file this once.')}</p>`
          : `<p class="flash" role="status" id="outcome">${bi('Avslått. Agenten kan ikke sende inn dette med tokenet.', 'Declined. The agent cannot file this with the token.')}</p>`
      return htmlResponse(confirmationPage(view, s, notice))
    }
    const notice = `<p class="error" role="alert" id="refused">${bi('Forespørselen er allerede besvart, brukt eller utløpt. Ingenting ble endret.', 'The request has already been answered, used or has expired. Nothing was changed.')}</p>`
    return htmlResponse(confirmationPage(view, s, notice), 409)
  }) satisfies Handler<{ params: typeof IdParam; body: typeof ApprovalDecisionForm }>,
}
