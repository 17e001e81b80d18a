/**
 * Delegation: what the organisation has granted the Plikt system user in Altinn — roles, access
 * packages and token-service scopes — and the portal refusing it.
 */
import type { CatalogueEntry } from './entry.ts'

export const DELEGATION_CATALOGUE = {
  AUTH_INSUFFICIENT_ROLE: {
    unused: 'the portal does not say which right a refusal lacks',
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Ask the company administrator to give the system user the required role in Altinn.',
    fix_hint_nb: 'Be administratoren i virksomheten gi systembrukeren rollen som kreves, i Altinn.',
    explanation: {
      summary: 'Systembrukeren mangler {role} i Altinn.',
      summary_en: 'The system user lacks {role} in Altinn.',
      why: 'Handlingen krever at systembrukeren har {role} for virksomheten i Altinn. Uten den kan Plikt ikke handle på vegne av virksomheten.',
      why_en:
        "The action requires the system user to hold {role} for the organisation in Altinn. Without it, Plikt cannot act on the organisation's behalf.",
      fix_steps: [
        'Be administratoren i virksomheten gi systembrukeren {role} i Altinn.',
        'Vent til endringen er registrert i Altinn.',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        'Ask the company administrator to give the system user {role} in Altinn.',
        'Wait until the change is registered in Altinn.',
        'Send the request again.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Gi systembrukeren til Plikt rollen som handlingen krever.',
        what_en: 'Give the Plikt system user the role the action requires.',
        why: 'Bare en person med rett til å delegere i virksomheten kan gi systembrukeren nye rettigheter.',
        why_en: 'Only a person allowed to delegate for the organisation can give the system user new rights.',
      },
    },
  },
  AUTH_NO_DELEGATION: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Ask the company administrator to approve the Plikt system user in Altinn.',
    fix_hint_nb: 'Be administratoren i virksomheten godkjenne systembrukeren til Plikt i Altinn.',
    explanation: {
      summary: 'Systembrukeren har ingen aktiv fullmakt for {org_number}.',
      summary_en: 'The system user has no active delegation for {org_number}.',
      why: 'Plikt kan bare handle for en virksomhet som har godkjent systembrukeren i Altinn. Vi fant ingen aktiv godkjenning for {org_number}.',
      why_en:
        'Plikt can only act for an organisation that has approved its system user in Altinn. No active approval was found for {org_number}.',
      fix_steps: [
        'Be administratoren i virksomheten godkjenne systembrukeren i Altinn.',
        'Vent til fullmakten er aktiv. Du kan sjekke status med «check_fullmakt».',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        'Ask the company administrator to approve the system user in Altinn.',
        'Wait until the delegation is active. You can check its status with "check_fullmakt".',
        'Send the request again.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Godkjenn systembrukeren til Plikt for virksomheten.',
        what_en: 'Approve the Plikt system user for the organisation.',
        why: 'Bare virksomheten selv kan gi en systembruker fullmakt, og det krever en person med rett til å delegere, for eksempel daglig leder.',
        why_en:
          'Only the organisation itself can grant a system user a delegation, and that takes a person allowed to delegate, such as the general manager.',
      },
    },
  },
  AUTH_MISSING_DELEGATION: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      'Handle this like AUTH_NO_DELEGATION: hand over to the company administrator to approve the system user.',
    fix_hint_nb:
      'Behandle koden som AUTH_NO_DELEGATION, og overlat godkjenningen av systembrukeren til administratoren.',
    explanation: {
      summary: 'Systembrukeren har ingen aktiv fullmakt for {org_number} (simulert i sandkassen).',
      summary_en: 'The system user has no active delegation for {org_number} (simulated in the sandbox).',
      why: 'Sandkassen simulerer at fullmakten mangler. I produksjon gir samme situasjon AUTH_NO_DELEGATION, og da må virksomheten godkjenne systembrukeren i Altinn.',
      why_en:
        'The sandbox simulates a missing delegation. In production the same situation gives AUTH_NO_DELEGATION, and the organisation must approve the system user in Altinn.',
      fix_steps: [
        'Behandle koden på samme måte som AUTH_NO_DELEGATION i agenten.',
        'Kontroller at agenten overlater godkjenningen til administratoren i virksomheten.',
        'Bruk et annet organisasjonsnummer fra testdataene i sandkassen for å teste et vellykket kall.',
      ],
      fix_steps_en: [
        'Handle the code the same way as AUTH_NO_DELEGATION in your agent.',
        'Check that your agent hands the approval over to the company administrator.',
        'Use another organisation number from the sandbox test data to test a successful call.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Godkjenn systembrukeren til Plikt for virksomheten.',
        what_en: 'Approve the Plikt system user for the organisation.',
        why: 'Bare virksomheten selv kan gi en systembruker fullmakt. Sandkassen øver på denne overleveringen.',
        why_en:
          'Only the organisation itself can grant a system user a delegation. The sandbox rehearses this handover.',
      },
    },
  },
  FULLMAKT_PACKAGE_NOT_GRANTED: {
    unused: 'the portal does not say which right a refusal lacks',
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Ask the company administrator to add the required access package to the system user in Altinn.',
    fix_hint_nb: 'Be administratoren i virksomheten gi systembrukeren tilgangspakken som kreves, i Altinn.',
    explanation: {
      summary: 'Fullmakten mangler en tilgangspakke som handlingen krever.',
      summary_en: 'The delegation lacks an access package the action requires.',
      why: 'Systembrukeren er godkjent, men fullmakten omfatter ikke tilgangspakken i Altinn som trengs for denne handlingen.',
      why_en:
        'The system user is approved, but its delegation does not include the Altinn access package this action needs.',
      fix_steps: [
        'Be administratoren i virksomheten legge tilgangspakken til fullmakten for systembrukeren i Altinn.',
        'Vent til endringen er registrert i Altinn.',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        "Ask the company administrator to add the access package to the system user's delegation in Altinn.",
        'Wait until the change is registered in Altinn.',
        'Send the request again.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Gi systembrukeren til Plikt tilgangspakken som handlingen krever.',
        what_en: 'Give the Plikt system user the access package the action requires.',
        why: 'Bare en person som kan delegere for virksomheten, kan utvide en fullmakt.',
        why_en: 'Only a person who can delegate for the organisation can extend a delegation.',
      },
    },
  },
  SCOPE_MISSING: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en: 'Ask the company to approve the missing scope for the system user in Altinn, then call again.',
    fix_hint_nb:
      'Be virksomheten godkjenne tilgangen som mangler for systembrukeren i Altinn, og kall på nytt etterpå.',
    explanation: {
      summary: 'Tildelingen fra Maskinporten mangler {scope}.',
      summary_en: 'The Maskinporten grant lacks {scope}.',
      why: 'Handlingen krever {scope}, men virksomheten har ikke gitt systembrukeren denne tilgangen. Et nytt forsøk gir samme svar til tilgangen er godkjent.',
      why_en:
        'The action needs {scope}, but the company has not given the system user this access. A new attempt gives the same answer until it is approved.',
      fix_steps: [
        'Stopp handlingen og ikke prøv igjen med en gang.',
        'Be daglig leder eller tilgangsstyrer godkjenne {scope} for systembrukeren i Altinn.',
        'Kontroller med «check_authorization» at tilgangen er aktiv før du prøver igjen.',
      ],
      fix_steps_en: [
        'Stop the action and do not retry straight away.',
        'Ask the general manager or access manager to approve {scope} for the system user in Altinn.',
        'Confirm with "check_authorization" that the scope is active before you try again.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Godkjenn {scope} for systembrukeren som handler på vegne av virksomheten.',
        what_en: 'Approve {scope} for the system user acting on behalf of the company.',
        why: 'Bare virksomheten selv kan gi systembrukeren nye tilganger i Altinn.',
        why_en: 'Only the company itself can give the system user new access in Altinn.',
      },
    },
  },
  SCOPE_INSUFFICIENT_FOR_ACTION: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en: 'Ask the company administrator to extend the delegation with the scopes in missing_scopes.',
    fix_hint_nb: 'Be administratoren i virksomheten utvide fullmakten med tilgangene i «missing_scopes».',
    explanation: {
      summary: 'Fullmakten mangler tilganger som handlingen krever.',
      summary_en: 'The delegation lacks scopes this action requires.',
      why: 'Fullmakten virksomheten har gitt, dekker ikke alle tilgangene handlingen trenger. Tilgangene som mangler, står i «missing_scopes».',
      why_en:
        'The delegation the organisation has given does not cover every scope the action needs. The missing ones are listed in "missing_scopes".',
      fix_steps: [
        'Les «missing_scopes» i svaret.',
        'Be administratoren i virksomheten utvide fullmakten med disse tilgangene i Altinn.',
        'Send forespørselen på nytt når fullmakten er oppdatert.',
      ],
      fix_steps_en: [
        'Read "missing_scopes" in the response.',
        'Ask the company administrator to extend the delegation with those scopes in Altinn.',
        'Send the request again once the delegation is updated.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Utvid fullmakten til Plikt med tilgangene som står i «missing_scopes».',
        what_en: 'Extend the Plikt delegation with the scopes listed in "missing_scopes".',
        why: 'Bare virksomheten kan utvide en fullmakt, og det krever en person med rett til å delegere.',
        why_en: 'Only the organisation can extend a delegation, and that takes a person allowed to delegate.',
      },
    },
  },
  PORTAL_DELEGATION_MISSING: {
    status: 403,
    category: 'upstream',
    retryable: false,
    fix_hint_en: "Ask the company administrator to check the system user's delegation in Altinn.",
    fix_hint_nb: 'Be administratoren i virksomheten kontrollere fullmakten til systembrukeren i Altinn.',
    explanation: {
      summary: 'Altinn avviste systembrukeren for {org_number}.',
      summary_en: 'Altinn refused the system user for {org_number}.',
      why: 'Altinn svarte at systembrukeren ikke har rett til å handle for {org_number}. Fullmakten mangler, er trukket tilbake eller dekker ikke handlingen.',
      why_en:
        'Altinn answered that the system user may not act for {org_number}. The delegation is missing, revoked or does not cover the action.',
      fix_steps: [
        'Be administratoren i virksomheten kontrollere fullmakten til systembrukeren i Altinn.',
        'Sjekk fullmakten med «check_fullmakt» når den er godkjent.',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        "Ask the company administrator to check the system user's delegation in Altinn.",
        'Check the delegation with "check_fullmakt" once it is approved.',
        'Send the request again.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Altinn → Tilgangsstyring',
        what: 'Kontroller at systembrukeren til Plikt er godkjent og har tilgangene handlingen krever.',
        what_en: 'Check that the Plikt system user is approved and has the access the action requires.',
        why: 'Bare virksomheten kan gi eller gjenopprette en fullmakt i Altinn.',
        why_en: 'Only the organisation can grant or restore a delegation in Altinn.',
      },
    },
  },
  AGENT_PRINCIPAL_REVOKED: {
    status: 409,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'A revoked agent principal is never used again: request the delegation with a new agent_principal_id.',
    fix_hint_nb: 'En tilbakekalt agentprinsipal brukes aldri igjen: be om fullmakt med en ny agent_principal_id.',
    explanation: {
      summary: 'Agentprinsipalen er tilbakekalt.',
      summary_en: 'The agent principal has been revoked.',
      why: 'Når en agentprinsipal er tilbakekalt, er det endelig. Den kan ikke få fullmakt igjen, slik at en tilbakekalling aldri blir opphevet i det stille.',
      why_en:
        'Revoking an agent principal is final. It cannot be given a delegation again, so a revocation is never silently undone.',
      fix_steps: [
        'Lag en ny agent_principal_id (en ny UUID) for agenten.',
        'Be om fullmakt på nytt med den nye id-en.',
        'La en person med signaturrett i virksomheten godkjenne forespørselen.',
      ],
      fix_steps_en: [
        'Create a new agent_principal_id (a new UUID) for the agent.',
        'Request the delegation again with the new id.',
        'Have a person with signing authority in the organisation approve the request.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  AGENT_PRINCIPAL_CONFLICT: {
    status: 409,
    category: 'validation',
    retryable: false,
    fix_hint_en:
      'An agent principal acts for one organisation with one open delegation: use a new agent_principal_id for another organisation or other scopes.',
    fix_hint_nb:
      'En agentprinsipal handler for én virksomhet med én åpen fullmakt: bruk en ny agent_principal_id for en annen virksomhet eller andre tilganger.',
    explanation: {
      summary: 'Agentprinsipalen har allerede en annen fullmakt.',
      summary_en: 'The agent principal already holds another delegation.',
      why: 'Hver agentprinsipal er bundet til én virksomhet og én systembruker, og har høyst én åpen fullmakt. Forespørselen gjelder en annen virksomhet eller andre tilganger enn den som allerede er åpen.',
      why_en:
        'Each agent principal is bound to one organisation and one system user and holds at most one open delegation. The request names another organisation or other scopes than the open one.',
      fix_steps: [
        'Bruk en ny agent_principal_id for den nye forespørselen.',
        'Eller tilbakekall den gamle fullmakten først hvis den ikke skal brukes lenger.',
      ],
      fix_steps_en: [
        'Use a new agent_principal_id for the new request.',
        'Or revoke the old delegation first if it is no longer needed.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  DELEGATION_REQUESTS_LIMIT: {
    status: 409,
    category: 'validation',
    retryable: false,
    fix_hint_en:
      'Too many open delegation requests for this organisation: revoke the ones nobody will answer, or wait for answers, before asking again.',
    fix_hint_nb:
      'For mange åpne fullmaktsforespørsler for denne virksomheten: tilbakekall dem ingen vil svare på, eller vent på svar, før du spør igjen.',
    explanation: {
      summary: 'Kontoen har for mange åpne fullmaktsforespørsler for virksomheten.',
      summary_en: 'The account has too many open delegation requests for the organisation.',
      why: 'En konto kan ha høyst 100 åpne (ubesvarte) fullmaktsforespørsler per virksomhet. Hver åpen forespørsel spørres om hos Digitaliseringsdirektoratet, så grensen holder arbeidet for alle andre nede.',
      why_en:
        'An account may hold at most 100 open (unanswered) delegation requests per organisation. Each open request is asked about at the Norwegian Digitalisation Agency, so the limit keeps that work bounded for everyone else.',
      fix_steps: [
        'Se de åpne forespørslene med GET /api/v1/fullmakt/{org_number}.',
        'Tilbakekall forespørsler ingen vil svare på med POST /api/v1/fullmakt/revoke.',
        'Eller vent til en person med signaturrett svarer, eller til forespørslene utløper.',
      ],
      fix_steps_en: [
        'List the open requests with GET /api/v1/fullmakt/{org_number}.',
        'Revoke requests nobody will answer with POST /api/v1/fullmakt/revoke.',
        'Or wait until a person with signing authority answers, or the requests expire.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
} as const satisfies Record<string, CatalogueEntry>
