/**
 * The mock digital agency's approval page: where a mock request's confirmUrl (the delegation_url
 * an agent hands on) leads. A person the business register lists as able to approve chooses who
 * they are — the mock world's stand-in for logging in with ID-porten — and approves or rejects.
 *
 * There is no session here (the approver is no Plikt customer), so the form is guarded by the
 * same-site check every form has (http/same-site.ts) and a token of its own: an HMAC over the
 * request id and an expiry under a key derived from the server secret (lib/form-token.ts).
 */
import { AppError } from '../../errors/app-error.ts'
import { checkFormToken, formToken } from '../../lib/form-token.ts'
import type { ApproverGround } from '../../domain/company/approvers.ts'
import { approvalView, decideRequest, type ApprovalView } from '../../domain/delegation/mock-approval.ts'
import { approvalPath } from '../../upstream/digital-agency/mock.ts'
import type { SystemUserRequestStatus } from '../../upstream/digital-agency/port.ts'
import type { AgencyDecisionForm, AgencyRequestParam } from '../../schemas/pages.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import { bi, esc, htmlResponse, osloTime, page, redirect, table } from '../html.ts'

const FORM_PURPOSE = 'mock-agency-decision'
const FORM_TOKEN_TTL_MS = 60 * 60 * 1000

const PACKAGES: Record<string, [nb: string, en: string]> = {
  merverdiavgift: ['Merverdiavgift', 'VAT'],
  skattegrunnlag: ['Skattegrunnlag', 'Tax basis'],
  foretaksskatt: ['Foretaksskatt', 'Corporate tax'],
  'a-ordning': ['A-ordningen', 'Employer reporting (a-ordning)'],
  'regnskapsforer-med-signeringsrettighet': [
    'Regnskapsfører med signeringsrettighet',
    'Accountant with signing rights',
  ],
  'regnskapsforer-uten-signeringsrettighet': [
    'Regnskapsfører uten signeringsrettighet',
    'Accountant without signing rights',
  ],
  'regnskapsforer-lonn': ['Regnskapsfører lønn', 'Payroll accountant'],
  'ansvarlig-revisor': ['Ansvarlig revisor', 'Responsible auditor'],
  revisormedarbeider: ['Revisormedarbeider', 'Audit staff'],
}

const ROLES_EN: Record<string, string> = {
  DAGL: 'general manager',
  LEDE: 'chair of the board',
  INNH: 'proprietor',
  DTPR: 'partner with full liability',
  DTSO: 'partner with shared liability',
  KOMP: 'general partner',
  BEST: 'managing shipowner',
  KNUF: 'contact person of the branch',
}

const STATUS: Record<SystemUserRequestStatus, [nb: string, en: string]> = {
  New: ['Venter på svar', 'Awaiting an answer'],
  Accepted: ['Godkjent', 'Approved'],
  Rejected: ['Avvist', 'Rejected'],
  Denied: ['Avslått', 'Denied'],
  Timedout: ['Utløpt', 'Timed out'],
}

function packageItem(urn: string): string {
  const label = PACKAGES[urn.replace(/^urn:altinn:accesspackage:/, '')]
  return `<li>${label ? bi(esc(label[0]), esc(label[1])) : bi('Tilgangspakke', 'Access package')} <code>${esc(urn)}</code></li>`
}

function ground(g: ApproverGround): string {
  if (g.kind === 'role')
    return `${bi(esc(g.description ?? g.code), esc(ROLES_EN[g.code] ?? g.code))} <code>${esc(g.code)}</code>`
  return `${bi('signerer alene etter signaturregelen', 'signs alone under the signing rule')}${g.code ? ` <code>${esc(g.code)}</code>` : ''}`
}

function issuedToken(deps: AppDeps, id: string): string {
  return formToken(deps.serverKeys.forms, FORM_PURPOSE, id, new Date(deps.clock.now().getTime() + FORM_TOKEN_TTL_MS))
}

/** Only an http(s) address is a way back; anything else the requester sent is neither a link nor a redirect. */
function returnAddress(url: string | null): string | null {
  return url && URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol) ? url : null
}

function backLink(url: string | null): string {
  if (!returnAddress(url)) return ''
  return `<p><a id="back" href="${esc(url)}">${bi('Tilbake til tjenesten som spurte', 'Back to the service that asked')}</a></p>`
}

function approvalPage(deps: AppDeps, { request: r, company: c }: ApprovalView, notice = ''): string {
  const approverRows = c.approvers
    .map((a) => `<tr><td>${esc(a.name)}</td><td>${a.grounds.map(ground).join('<br>')}</td></tr>`)
    .join('')
  const rule =
    c.signature_rule.length > 0
      ? c.signature_rule.map((t) => `«${esc(t)}»`).join(' ')
      : bi('ingen kodet regel registrert', 'no coded rule registered')
  let action: string
  if (r.status !== 'New') {
    const decided = r.decision
      ? `<p id="decision">${bi('Besvart av', 'Answered by')} <strong>${esc(r.decision.by)}</strong> (<code>${esc(r.decision.basis)}</code>) ${osloTime(r.decision.at)}.</p>`
      : ''
    action = `${decided}<p>${bi('Forespørselen kan ikke lenger besvares.', 'The request can no longer be answered.')}</p>${backLink(r.redirectUrl)}`
  } else if (c.approvers.length === 0) {
    action = `<p class="error">${bi('Registeret viser ingen som kan godkjenne for virksomheten nå. Ingenting kan besvares her.', 'The register shows no one who can approve for the organisation now. Nothing can be answered here.')}</p>`
  } else {
    const choices = c.approvers
      .map(
        (a, i) =>
          `<label><input type="radio" name="approver" id="approver-${i}" value="${esc(a.name)}" required> ${esc(a.name)}</label>`,
      )
      .join('\n')
    action = `<form method="post" action="${esc(approvalPath(r.id))}/decision"><input type="hidden" name="csrf_token" value="${esc(issuedToken(deps, r.id))}">
<fieldset><legend>${bi('Hvem er du?', 'Who are you?')}</legend>
<p class="note">${bi('I Altinn logger du inn med ID-porten, og Altinn vet hvem du er. I denne etterligningen velger du selv blant personene registeret viser.', 'In Altinn you log in with ID-porten and Altinn knows who you are. In this mock you choose yourself among the people the register shows.')}</p>
${choices}</fieldset>
<button type="submit" name="decision" value="approve" id="approve">${bi('Godkjenn', 'Approve')}</button>
<button type="submit" name="decision" value="reject" id="reject" class="secondary">${bi('Avvis', 'Reject')}</button></form>`
  }
  const [statusNb, statusEn] = STATUS[r.status]
  return page(
    'Godkjenn systembruker',
    `<p class="flash" id="mock-notice">${bi('Etterligning: denne siden står i stedet for Altinns side for å godkjenne en systembruker. Ingenting sendes til Altinn.', 'Mock: this page stands in for Altinn’s page for approving a system user. Nothing is sent to Altinn.')}</p>
<h1>${bi('Godkjenn tilgang for Plikt', 'Approve access for Plikt')}</h1>
${notice}
<p>${bi(`Systemet <strong>Plikt</strong> ber om en systembruker for`, `The system <strong>Plikt</strong> asks for a system user for`)} <strong id="org-name">${esc(c.name)}</strong>, ${bi('org.nr.', 'org. no.')} <span id="org-number">${esc(c.org_number)}</span>.</p>
<p>Status: <strong id="status">${bi(statusNb, statusEn)}</strong> · ${bi('utløper', 'expires')} ${osloTime(r.expires)} · ${bi('system-ID', 'system id')} <code>${esc(r.systemId)}</code></p>
<h2>${bi('Tilgangspakker det spørres om', 'Access packages asked for')}</h2>
<ul id="packages">${r.accessPackages.map((p) => packageItem(p.urn)).join('')}</ul>
<h2 id="approvers">${bi('Hvem kan godkjenne', 'Who may approve')}</h2>
<p class="note">${bi('Fra Brønnøysundregistrene: den som leder virksomheten (daglig leder, styrets leder, innehaver, deltaker, kontaktperson for NUF) og den som kan signere alene etter signaturregelen.', 'From the Brønnøysund registers: whoever leads the organisation (general manager, chair of the board, proprietor, partner, contact person of a branch) and whoever may sign alone under the signing rule.')}
${bi('Signaturregel', 'Signing rule')}: ${rule}</p>
${table(`<th>${bi('Navn', 'Name')}</th><th>${bi('Grunnlag', 'Ground')}</th>`, approverRows, 'Ingen i registeret.', 'No one in the register.', 2)}
${action}`,
  )
}

export const delegationApprovalHandlers = {
  mockAgencyApprovalPage: (async ({ params, deps }) =>
    htmlResponse(approvalPage(deps, await approvalView(deps.digitalAgency, deps.reads, params.id)))) satisfies Handler<{
    params: typeof AgencyRequestParam
  }>,

  mockAgencyDecide: (async ({ params, body, deps, now }) => {
    if (!checkFormToken(deps.serverKeys.forms, FORM_PURPOSE, params.id, body.csrf_token, now)) {
      throw new AppError('VALIDATION_FAILED', {
        details: [
          {
            field: 'csrf_token',
            message: 'is missing, forged, for another request or expired: open the approval page again',
          },
        ],
      })
    }
    const outcome = await decideRequest(deps.digitalAgency, deps.reads, params.id, body.approver ?? null, body.decision)
    // As the agency does: the person is sent back to the requester's return address when it gave one.
    if (outcome.kind === 'decided')
      return redirect(returnAddress(outcome.request.redirectUrl) ?? approvalPath(outcome.request.id))
    if (outcome.kind === 'not_open') {
      const notice = `<p class="error" id="refused">${bi('Forespørselen er allerede besvart eller utløpt. Ingenting ble endret.', 'The request has already been answered or has timed out. Nothing was changed.')}</p>`
      return htmlResponse(approvalPage(deps, outcome.view, notice), 409)
    }
    const notice = `<div class="error" id="refused"><p>${
      body.approver
        ? bi(
            `<strong>${esc(body.approver)}</strong> er ikke blant dem registeret viser som kan godkjenne for virksomheten. Ingenting ble endret.`,
            `<strong>${esc(body.approver)}</strong> is not among those the register shows as able to approve for the organisation. Nothing was changed.`,
          )
        : bi(
            'Velg hvem du er blant personene i listen. Ingenting ble endret.',
            'Choose who you are among the people listed. Nothing was changed.',
          )
    }</p></div>`
    return htmlResponse(approvalPage(deps, outcome.view, notice), body.approver ? 403 : 400)
  }) satisfies Handler<{ params: typeof AgencyRequestParam; body: typeof AgencyDecisionForm }>,
}
