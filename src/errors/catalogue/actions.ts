/**
 * Actions: approving and executing a filing — approval tokens, the risk check, the filing deadline,
 * and the outcomes of a submission (domain/actions/, domain/sandbox/actions.ts).
 */
import type { CatalogueEntry } from './entry.ts'

export const ACTIONS_CATALOGUE = {
  DEADLINE_PASSED: {
    status: 422,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Hand the late filing over to the accountant instead of submitting it automatically.',
    fix_hint_nb: 'Overlat den forsinkede innleveringen til regnskapsføreren i stedet for å sende den automatisk.',
    explanation: {
      summary: 'Fristen for denne innleveringen er allerede ute.',
      summary_en: 'The filing deadline for this submission has already passed.',
      why: 'Fristen er passert, så innleveringen ble ikke sendt. Sen levering kan gi gebyr eller tvangsmulkt og bør vurderes av en regnskapsfører.',
      why_en:
        'The deadline has passed, so the submission was not sent. Late filing can lead to a fee or a coercive fine and should be assessed by an accountant.',
      fix_steps: [
        'Kontroller at perioden i forespørselen er riktig.',
        'Overlat den forsinkede innleveringen til regnskapsføreren.',
        'Be regnskapsføreren levere i Altinn og følge opp et eventuelt gebyr eller en tvangsmulkt.',
      ],
      fix_steps_en: [
        'Check that the period in the request is correct.',
        'Hand the late filing over to the accountant.',
        'Ask the accountant to file in Altinn and follow up any fee or coercive fine.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'accountant',
        where: 'Altinn',
        what: 'Lever den forsinkede innleveringen, og følg opp eventuelle gebyrer eller tvangsmulkt.',
        what_en: 'File the late submission and follow up any fees or coercive fines.',
        why: 'Sen levering har økonomiske følger og krever faglige vurderinger som en agent ikke bør ta alene.',
        why_en:
          'Late filing has financial consequences and calls for professional judgement an agent should not make alone.',
      },
    },
  },
  APPROVAL_TOKEN_REQUIRED: {
    status: 400,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Have a person confirm the action, then send the approval token in the X-Approval-Token header.',
    fix_hint_nb: 'La en person bekrefte handlingen, og send godkjenningstokenet i headeren «X-Approval-Token».',
    explanation: {
      summary: 'Ekte innsending krever et godkjenningstoken i «X-Approval-Token».',
      summary_en: 'A live submission needs an approval token in X-Approval-Token.',
      why: 'Før Plikt sender noe inn på vegne av en virksomhet, må en person bekrefte handlingen. Bekreftelsen gir et engangstoken som sendes i headeren «X-Approval-Token».',
      why_en:
        'Before Plikt submits anything for an organisation, a person must confirm the action. The confirmation yields a one-time token sent in the X-Approval-Token header.',
      fix_steps: [
        'Bruk «dry_run=true» hvis du bare vil validere.',
        'Be en person med myndighet i virksomheten bekrefte handlingen.',
        'Hent godkjenningstokenet for samme handling og organisasjonsnummer.',
        'Send innsendingen på nytt med tokenet i headeren «X-Approval-Token».',
      ],
      fix_steps_en: [
        'Use dry_run=true if you only want to validate.',
        'Ask a person with authority in the organisation to confirm the action.',
        'Get the approval token for the same action and organisation number.',
        'Send the submission again with the token in the X-Approval-Token header.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'POST /api/v1/auth/approval-token',
        what: 'Bekreft handlingen, slik at agenten får et godkjenningstoken.',
        what_en: 'Confirm the action so the agent gets an approval token.',
        why: 'En ekte innsending har rettslige følger for virksomheten og skal alltid bekreftes av en person.',
        why_en:
          'A live submission has legal consequences for the organisation and must always be confirmed by a person.',
      },
    },
  },
  APPROVAL_TOKEN_INVALID: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Send the approval token exactly as issued, or ask for a new confirmation.',
    fix_hint_nb: 'Send godkjenningstokenet nøyaktig slik det ble utstedt, eller be om en ny bekreftelse.',
    explanation: {
      summary: 'Godkjenningstokenet er ugyldig.',
      summary_en: 'The approval token is invalid.',
      why: 'Vi kjenner ikke igjen tokenet i «X-Approval-Token». Det kan være skrevet av feil, avkortet eller aldri utstedt.',
      why_en:
        'We do not recognise the token in X-Approval-Token. It may have been mistyped, truncated or never issued.',
      fix_steps: [
        'Kontroller at du sender tokenet nøyaktig slik du fikk det.',
        'Be om en ny bekreftelse og et nytt godkjenningstoken hvis tokenet er tapt.',
      ],
      fix_steps_en: [
        'Check that you send the token exactly as you received it.',
        'Ask for a new confirmation and a new approval token if the token is lost.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  APPROVAL_TOKEN_USED: {
    status: 409,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Check the audit log and receipts before doing anything else; the action may already be submitted.',
    fix_hint_nb: 'Sjekk revisjonsloggen og kvitteringene før du gjør noe mer; handlingen kan allerede være sendt inn.',
    explanation: {
      summary: 'Godkjenningstokenet er allerede brukt.',
      summary_en: 'The approval token has already been used.',
      why: 'Et godkjenningstoken kan bare brukes én gang. Handlingen det gjaldt, kan allerede være sendt inn.',
      why_en: 'An approval token can only be used once. The action it was for may already have been submitted.',
      fix_steps: [
        'Sjekk revisjonsloggen og kvitteringene for å se om handlingen allerede er sendt inn.',
        'Be om en ny bekreftelse bare hvis handlingen faktisk skal utføres på nytt.',
      ],
      fix_steps_en: [
        'Check the audit log and receipts to see whether the action was already submitted.',
        'Ask for a new confirmation only if the action really is to be carried out again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  APPROVAL_TOKEN_EXPIRED: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Ask a person to confirm the action again and use the new approval token promptly.',
    fix_hint_nb: 'Be en person bekrefte handlingen på nytt, og bruk det nye godkjenningstokenet med en gang.',
    explanation: {
      summary: 'Godkjenningstokenet er utløpt.',
      summary_en: 'The approval token has expired.',
      why: 'Et godkjenningstoken gjelder bare en begrenset tid etter at handlingen ble bekreftet. Den tiden er ute, så ingenting ble sendt inn.',
      why_en:
        'An approval token is only valid for a limited time after the action was confirmed. That time has passed, so nothing was submitted.',
      fix_steps: [
        'Be administratoren i virksomheten bekrefte handlingen på nytt.',
        'Hent et nytt godkjenningstoken for samme handling og organisasjonsnummer.',
        'Send tokenet i headeren «X-Approval-Token» kort tid etter at du har fått det.',
      ],
      fix_steps_en: [
        'Ask the company administrator to confirm the action again.',
        'Get a new approval token for the same action and organisation number.',
        'Send the token in the X-Approval-Token header soon after you receive it.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'POST /api/v1/auth/approval-token',
        what: 'Bekreft handlingen på nytt, slik at agenten får et nytt godkjenningstoken.',
        what_en: 'Confirm the action again so the agent gets a new approval token.',
        why: 'Et godkjenningstoken kan bare utstedes etter at en person har bekreftet handlingen.',
        why_en: 'An approval token can only be issued after a person has confirmed the action.',
      },
    },
  },
  APPROVAL_TOKEN_MISMATCH: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Use the approval token issued for this action id and organisation, or ask for a new confirmation.',
    fix_hint_nb:
      'Bruk godkjenningstokenet som ble utstedt for denne handlingen og virksomheten, eller be om en ny bekreftelse.',
    explanation: {
      summary: 'Godkjenningstokenet gjelder en annen handling eller virksomhet.',
      summary_en: 'The approval token belongs to another action or organisation.',
      why: 'Hvert godkjenningstoken er knyttet til én handlings-ID og ett organisasjonsnummer. Forespørselen gjelder noe annet enn det tokenet ble utstedt for.',
      why_en:
        'Each approval token is bound to one action id and one organisation number. The request concerns something other than what the token was issued for.',
      fix_steps: [
        'Kontroller at handlings-ID og organisasjonsnummer er de samme som da tokenet ble utstedt.',
        'Bruk tokenet som hører til denne handlingen, eller be om en ny bekreftelse.',
      ],
      fix_steps_en: [
        'Check that the action id and organisation number match those the token was issued for.',
        'Use the token that belongs to this action, or ask for a new confirmation.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  APPROVAL_TOKEN_UNCONFIRMED: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      'Ask the account owner to open confirmation_url, sign in and confirm the action; then send the same request again.',
    fix_hint_nb:
      'Be kontoeieren åpne «confirmation_url», logge inn og bekrefte handlingen; send så den samme forespørselen på nytt.',
    explanation: {
      summary: 'Ingen person har bekreftet handlingen ennå, så godkjenningstokenet kan ikke brukes.',
      summary_en: 'No person has confirmed the action yet, so the approval token cannot be used.',
      why: 'Et godkjenningstoken for en ekte innsending virker først når kontoeieren, innlogget, har sett og bekreftet akkurat denne handlingen. Ingenting ble sendt inn, og tokenet er ikke brukt.',
      why_en:
        'An approval token for a live submission works only once the account owner, signed in, has seen and confirmed exactly this action. Nothing was submitted and the token was not used.',
      fix_steps: [
        'Gi kontoeieren lenken i «confirmation_url».',
        'La kontoeieren logge inn, se gjennom handlingen og bekrefte den.',
        'Send den samme forespørselen på nytt med det samme tokenet før det utløper.',
      ],
      fix_steps_en: [
        'Give the account owner the link in confirmation_url.',
        'Let the account owner sign in, review the action and confirm it.',
        'Send the same request again with the same token before it expires.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'confirmation_url (a page at /approvals/ for the signed-in account owner)',
        what: 'Logg inn, se gjennom handlingen og bekreft den hvis den er riktig.',
        what_en: 'Sign in, review the action and confirm it if it is right.',
        why: 'En ekte innsending har rettslige følger for virksomheten, og en agent kan ikke bekrefte den selv.',
        why_en: 'A live submission has legal consequences for the organisation, and an agent cannot confirm it itself.',
      },
    },
  },
  APPROVAL_TOKEN_DECLINED: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      'Do not file this action; ask the account owner what should change, then dry-run and ask for a new confirmation.',
    fix_hint_nb:
      'Ikke send inn denne handlingen; spør kontoeieren hva som skal endres, prøvekjør og be om en ny bekreftelse.',
    explanation: {
      summary: 'Kontoeieren avslo handlingen, så godkjenningstokenet kan aldri brukes.',
      summary_en: 'The account owner declined the action, so the approval token can never be used.',
      why: 'Kontoeieren så handlingen på bekreftelsessiden og avslo den. Ingenting ble sendt inn, og tokenet kan ikke brukes igjen.',
      why_en:
        'The account owner saw the action on the confirmation page and declined it. Nothing was submitted, and the token can never be used.',
      fix_steps: [
        'Ikke prøv å sende inn handlingen med dette tokenet igjen.',
        'Spør kontoeieren hva som er feil med handlingen.',
        'Prøvekjør den rettede handlingen og be om et nytt godkjenningstoken.',
      ],
      fix_steps_en: [
        'Do not try to file the action with this token again.',
        'Ask the account owner what is wrong with the action.',
        'Dry-run the corrected action and ask for a new approval token.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  RISK_ELEVATED: {
    unused: 'every production filing needs a person’s confirmation already',
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Stop and ask the company administrator to review and approve the action.',
    fix_hint_nb: 'Stopp, og be administratoren i virksomheten gå gjennom og godkjenne handlingen.',
    explanation: {
      summary: 'Uvanlig aktivitet: handlingen må godkjennes av en person.',
      summary_en: 'Unusual activity: a person must approve this action.',
      why: 'Den automatiske risikokontrollen reagerte på denne forespørselen. For å beskytte virksomheten blir handlingen ikke utført før en person har sett på den.',
      why_en:
        'The automatic risk check flagged this request. To protect the organisation, the action is not carried out until a person has reviewed it.',
      fix_steps: [
        'Stopp handlingen, og vis den til administratoren i virksomheten.',
        'La administratoren vurdere og eventuelt godkjenne handlingen.',
        'Send forespørselen på nytt først når den er godkjent.',
      ],
      fix_steps_en: [
        'Stop the action and show it to the company administrator.',
        'Let the administrator review and, if appropriate, approve the action.',
        'Send the request again only once it has been approved.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'POST /api/v1/auth/approval-token',
        what: 'Gå gjennom handlingen, og godkjenn den bare hvis den er ønsket.',
        what_en: 'Review the action and approve it only if it is intended.',
        why: 'Risikokontrollen krever at en person vurderer handlingen før den kan utføres.',
        why_en: 'The risk check requires a person to assess the action before it can be carried out.',
      },
    },
  },
  EXECUTION_FAILED: {
    status: 502,
    category: 'upstream',
    retryable: false,
    fix_hint_en: 'Check the audit log and receipts to see what was submitted before doing anything else.',
    fix_hint_nb: 'Sjekk revisjonsloggen og kvitteringene for å se hva som ble sendt inn, før du gjør noe mer.',
    explanation: {
      summary: 'Innsendingen feilet etter at godkjenningstokenet var brukt.',
      summary_en: 'The submission failed after the approval token was consumed.',
      why: 'Godkjenningstokenet er brukt opp, men innsendingen ble ikke fullført. Noe kan likevel ha nådd mottakeren, så et nytt forsøk kan gi dobbel innsending.',
      why_en:
        'The approval token is used up, but the submission did not complete. Something may still have reached the recipient, so a new attempt could cause a double submission.',
      fix_steps: [
        'Sjekk revisjonsloggen og kvitteringene for handlingen.',
        'Kontroller i Altinn om innsendingen er registrert.',
        'Be om en ny bekreftelse bare hvis du har slått fast at ingenting ble sendt inn.',
      ],
      fix_steps_en: [
        'Check the audit log and receipts for the action.',
        'Check in Altinn whether the submission was registered.',
        'Ask for a new confirmation only once you have established that nothing was submitted.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: null,
    },
  },
  EXECUTION_TIMEOUT: {
    status: 504,
    category: 'upstream',
    retryable: false,
    fix_hint_en: 'Reconcile first: check receipts and Altinn before deciding whether to submit again.',
    fix_hint_nb: 'Avstem først: sjekk kvitteringene og Altinn før du bestemmer om du skal sende inn på nytt.',
    explanation: {
      summary: 'Innsendingen fikk tidsavbrudd, og utfallet er ukjent.',
      summary_en: 'The submission timed out, and the outcome is unknown.',
      why: 'Vi fikk ikke svar i tide, så vi vet ikke om innsendingen kom fram. Et nytt forsøk før du har avstemt, kan gi dobbel innsending.',
      why_en:
        'We got no answer in time, so we do not know whether the submission arrived. Trying again before reconciling could cause a double submission.',
      fix_steps: [
        'Sjekk revisjonsloggen og kvitteringene for handlingen.',
        'Kontroller i Altinn om innsendingen er registrert.',
        'Send inn på nytt bare hvis du har slått fast at ingenting kom fram.',
      ],
      fix_steps_en: [
        'Check the audit log and receipts for the action.',
        'Check in Altinn whether the submission was registered.',
        'Submit again only once you have established that nothing arrived.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: null,
    },
  },
  FOLLOWUP_REQUIRED: {
    status: 422,
    category: 'upstream',
    retryable: false,
    fix_hint_en: 'Read outcome.followup_action and hand the follow-up over to a person in Altinn.',
    fix_hint_nb: 'Les «outcome.followup_action», og overlat oppfølgingen til en person i Altinn.',
    explanation: {
      summary: 'Innsendingen krever oppfølging.',
      summary_en: 'The submission needs a follow-up.',
      why: 'Innsendingen er ikke avsluttet; mottakeren trenger noe mer før den er ferdig. Hva som trengs, står i «outcome.followup_action».',
      why_en:
        'The submission is not complete; the recipient needs something more before it is done. What is needed is in "outcome.followup_action".',
      fix_steps: [
        'Les «outcome.followup_action» i svaret.',
        'Gi oppgaven videre til en person som har tilgang til virksomheten i Altinn.',
        'Sjekk status igjen når oppfølgingen er gjort.',
      ],
      fix_steps_en: [
        'Read "outcome.followup_action" in the response.',
        'Pass the task to a person with access to the organisation in Altinn.',
        'Check the status again once the follow-up is done.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'portal_user',
        where: 'Altinn → Innboks',
        what: 'Gjør oppfølgingen som står i «outcome.followup_action».',
        what_en: 'Carry out the follow-up described in "outcome.followup_action".',
        why: 'Oppfølgingen må gjøres av en person som er logget inn i Altinn på vegne av virksomheten.',
        why_en: 'The follow-up must be done by a person signed in to Altinn on behalf of the organisation.',
      },
    },
  },
  EXECUTION_DEADLINE_EXCEEDED: {
    status: 504,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait briefly and retry; for a submission, reuse the same Idempotency-Key.',
    fix_hint_nb: 'Vent litt og prøv igjen; for en innsending bruker du samme «Idempotency-Key».',
    explanation: {
      summary: 'Kallet brukte mer enn tidsbudsjettet på 8 sekunder.',
      summary_en: 'The call exceeded its 8-second time budget.',
      why: 'Hele kjøringen, med nye forsøk mot {upstream_system}, må bli ferdig innen 8 sekunder. Denne gangen tok det for lang tid.',
      why_en:
        'The whole run, including retries against {upstream_system}, must finish within 8 seconds. This time it took too long.',
      fix_steps: [
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Send forespørselen på nytt, med samme «Idempotency-Key» hvis det er en innsending.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis feilen gjentar seg.',
      ],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the request again, with the same Idempotency-Key if it is a submission.',
        'Contact Plikt support with the X-Correlation-ID value if the error keeps recurring.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  EXECUTION_CIRCUIT_OPEN: {
    status: 503,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait for the time in Retry-After (about 30 seconds) and retry.',
    fix_hint_nb: 'Vent så lenge «Retry-After» angir (omtrent 30 sekunder), og prøv igjen.',
    explanation: {
      summary: 'Kall til {upstream_system} er midlertidig stanset.',
      summary_en: 'Calls to {upstream_system} are paused for now.',
      why: 'Etter gjentatte feil har vi stanset kall til {upstream_system} i omtrent 30 sekunder, slik at systemet får hente seg inn.',
      why_en: 'After repeated failures, calls to {upstream_system} are paused for about 30 seconds to let it recover.',
      fix_steps: ['Vent så lenge «Retry-After» angir.', 'Send forespørselen på nytt.'],
      fix_steps_en: ['Wait for the time given in Retry-After.', 'Send the request again.'],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  RETRY_BUDGET_EXHAUSTED: {
    status: 503,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait a while, honouring Retry-After if present, then retry.',
    fix_hint_nb: 'Vent en stund, følg «Retry-After» hvis den er satt, og prøv igjen.',
    explanation: {
      summary: 'Alle forsøkene mot {upstream_system} feilet.',
      summary_en: 'Every attempt to reach {upstream_system} failed.',
      why: 'Vi prøvde opptil tre ganger uten å lykkes. Feilen er trolig forbigående.',
      why_en: 'We tried up to three times without success. The fault is probably temporary.',
      fix_steps: [
        'Vent en stund, og følg «Retry-After» hvis svaret har den headeren.',
        'Send forespørselen på nytt, med samme «Idempotency-Key» hvis det er en innsending.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis feilen varer.',
      ],
      fix_steps_en: [
        'Wait a while, honouring Retry-After if the response has that header.',
        'Send the request again, with the same Idempotency-Key if it is a submission.',
        'Contact Plikt support with the X-Correlation-ID value if the error persists.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  GOVERNMENT_VALIDATION_REJECTED: {
    status: 422,
    category: 'upstream',
    retryable: false,
    fix_hint_en: "Correct the content according to the authority's findings and validate again before submitting.",
    fix_hint_nb: 'Rett innholdet etter avvikene fra etaten, og valider på nytt før du sender inn.',
    explanation: {
      summary: 'Etaten avviste innholdet i innsendingen.',
      summary_en: 'The authority rejected the content of the submission.',
      why: 'Innholdet bestod ikke etatens egne kontroller, for eksempel regler for summer eller perioder.',
      why_en: "The content failed the authority's own checks, for example rules on totals or periods.",
      fix_steps: [
        'Les avvikene i feilsvaret.',
        'Rett innholdet etter avvikene.',
        'Valider på nytt med «dry_run=true» før du sender inn.',
      ],
      fix_steps_en: [
        'Read the findings in the error response.',
        'Correct the content according to the findings.',
        'Validate again with dry_run=true before submitting.',
      ],
      relevant_link: 'https://www.skatteetaten.no/',
      legal_basis: null,
      handover: null,
    },
  },
  PORTAL_ACK_UNPARSEABLE: {
    status: 502,
    category: 'upstream',
    retryable: false,
    fix_hint_en: 'Do not resubmit; check Altinn and report the case to Plikt support for manual reconciliation.',
    fix_hint_nb: 'Send ikke inn på nytt; sjekk Altinn, og meld saken til Plikt-support for manuell avstemming.',
    explanation: {
      summary: 'Altinn bekreftet mottak, men svaret kunne ikke leses.',
      summary_en: 'Altinn acknowledged receipt, but the answer could not be read.',
      why: 'Innsendingen kan ha gått gjennom, men vi kan ikke bekrefte det. Et nytt forsøk kan gi dobbel innsending, så saken må avstemmes manuelt.',
      why_en:
        'The submission may have gone through, but we cannot confirm it. A new attempt could cause a double submission, so the case must be reconciled manually.',
      fix_steps: [
        'Send ikke innsendingen på nytt.',
        'Kontroller i Altinn om innsendingen er registrert.',
        'Meld saken til Plikt-support med verdien i «X-Correlation-ID».',
      ],
      fix_steps_en: [
        'Do not resubmit.',
        'Check in Altinn whether the submission was registered.',
        'Report the case to Plikt support with the X-Correlation-ID value.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'service_support',
        where: 'Plikt-support',
        what: 'Avstem innsendingen mot Altinn, og registrer riktig utfall.',
        what_en: 'Reconcile the submission against Altinn and record the correct outcome.',
        why: 'Utfallet er uklart, og et nytt forsøk kan gi dobbel innsending. Bare en manuell kontroll kan avgjøre det.',
        why_en:
          'The outcome is unclear, and a new attempt could cause a double submission. Only a manual check can settle it.',
      },
    },
  },
  EXECUTION_CONFLICT: {
    status: 409,
    category: 'rate_limit',
    retryable: true,
    fix_hint_en:
      'Another agent is filing this for the organisation and period: wait for Retry-After, check the filing history, and file only if it is still needed.',
    fix_hint_nb:
      'En annen agent sender inn dette for virksomheten og perioden: vent så lenge «Retry-After» angir, sjekk innsendingshistorikken, og send bare inn hvis det fortsatt trengs.',
    explanation: {
      summary: 'En annen innsending for {org_number} og samme periode pågår.',
      summary_en: 'Another filing for {org_number} and the same period is in progress.',
      why: 'For å hindre dobbel innsending slipper bare én agent til per virksomhet, skjema og periode om gangen. Låsen varer en fast tid (mva-melding 10 minutter). Godkjenningstokenet ditt er ikke brukt.',
      why_en:
        'To prevent a double filing, only one agent at a time may file per organisation, form and period. The lock lasts a fixed time (VAT return 10 minutes). Your approval token was not spent.',
      fix_steps: [
        'Vent så lenge «Retry-After» angir.',
        'Sjekk innsendingshistorikken for perioden før du prøver igjen.',
        'Send inn på nytt bare hvis perioden fortsatt ikke er levert.',
      ],
      fix_steps_en: [
        'Wait for the time given in Retry-After.',
        'Check the filing history for the period before trying again.',
        'File again only if the period is still not filed.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
} as const satisfies Record<string, CatalogueEntry>
