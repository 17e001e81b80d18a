/**
 * Auth: the caller's credential and what it is allowed on a route — the pipeline's key, session,
 * scope and tier checks (pipeline/admission.ts), and the expired one-time link or token (domain/access/signin.ts).
 */
import type { CatalogueEntry } from './entry.ts'

export const AUTH_CATALOGUE = {
  AUTH_EXPIRED_TOKEN: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      'Get a new one: a person confirms the action again for an approval token, or asks for a new sign-in link.',
    fix_hint_nb:
      'Skaff et nytt: en person bekrefter handlingen på nytt for et godkjenningstoken, eller ber om en ny innloggingslenke.',
    explanation: {
      summary: 'Tokenet eller lenken er ikke lenger gyldig fordi levetiden er ute eller den er brukt.',
      summary_en: 'The token or link is no longer valid: it has expired or was already used.',
      why: 'Godkjenningstokener, innloggingslenker og tokener fra offentlige tjenester gjelder bare en begrenset tid, og noen kan bare brukes én gang. Dette er utløpt eller brukt, så ingenting ble utført.',
      why_en:
        'Approval tokens, sign-in links and tokens from government services are valid for a limited time, and some only once. This one has expired or was used, so nothing was carried out.',
      fix_steps: [
        'For et godkjenningstoken: be en person bekrefte handlingen på nytt, og send det nye tokenet i «X-Approval-Token» kort tid etter.',
        'For en innloggingslenke: be om en ny lenke på innloggingssiden og bruk den innen den utløper.',
        'For et token fra en offentlig tjeneste: hent et nytt og prøv igjen.',
      ],
      fix_steps_en: [
        'For an approval token: ask a person to confirm the action again, and send the new token in X-Approval-Token soon after.',
        'For a sign-in link: ask for a new link on the sign-in page and use it before it expires.',
        'For a token from a government service: get a new one and try again.',
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
  AUTH_MISSING: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Send the API key as "Authorization: Bearer <key>".',
    fix_hint_nb: 'Send API-nøkkelen som «Authorization: Bearer <nøkkel>».',
    explanation: {
      summary: 'Forespørselen mangler API-nøkkel.',
      summary_en: 'The request carries no API key.',
      why: 'Dette endepunktet krever en gyldig API-nøkkel i Authorization-headeren, men headeren var tom eller manglet.',
      why_en: 'This endpoint needs a valid API key in the Authorization header, but the header was empty or missing.',
      fix_steps: [
        'Hent en API-nøkkel i dashbordet, eller løs inn et utstedelsestoken.',
        'Legg nøkkelen i headeren «Authorization: Bearer <nøkkel>».',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        'Get an API key from the dashboard, or redeem an issuance token.',
        'Put the key in the header "Authorization: Bearer <key>".',
        'Send the request again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  AUTH_SESSION_REQUIRED: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      'Sign in at sign_in_url in a browser and manage the account there; API keys are not accepted on account management routes.',
    fix_hint_nb:
      'Logg inn på sign_in_url i en nettleser, og administrer kontoen der; API-nøkler godtas ikke på endepunktene for kontoadministrasjon.',
    explanation: {
      summary: 'Dette endepunktet krever en innlogget nettleserøkt.',
      summary_en: 'This route needs a signed-in browser session.',
      why: 'Kontoadministrasjon, som å lage og trekke tilbake nøkler, gjøres bare av en person som har logget inn med lenken på e-post. En API-nøkkel godtas ikke her, og forespørselen hadde ingen gyldig økt.',
      why_en:
        'Account management, such as minting and revoking keys, is done only by a person signed in by e-mailed link. An API key is not accepted here, and the request had no valid session.',
      fix_steps: [
        'Be eieren av kontoen logge inn på påloggingssiden (/login) med lenken på e-post.',
        'Gjør endringen i dashbordet, eller send forespørselen med øktens informasjonskapsel og «X-CSRF-Token».',
        'Bruk API-nøkkelen bare mot endepunktene som tar nøkkel.',
      ],
      fix_steps_en: [
        'Ask the account owner to sign in at the sign-in page (/login) with the e-mailed link.',
        'Make the change in the dashboard, or send the request with the session cookie and X-CSRF-Token.',
        'Use the API key only on the routes that take a key.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Plikt-dashbordet (/dashboard)',
        what: 'Logg inn, og gjør endringen i dashbordet, for eksempel lag eller trekk tilbake en nøkkel.',
        what_en: 'Sign in and make the change in the dashboard, for example mint or revoke a key.',
        why: 'Bare en person som er logget inn, kan administrere kontoen.',
        why_en: 'Only a signed-in person can manage the account.',
      },
    },
  },
  AUTH_INVALID_KEY: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      'Check that you send the complete, current API key; if it was revoked, get a new one from the account owner.',
    fix_hint_nb:
      'Kontroller at du sender hele den gjeldende API-nøkkelen; er den trukket tilbake, må du få en ny av eieren av kontoen.',
    explanation: {
      summary: 'API-nøkkelen ble ikke godtatt.',
      summary_en: 'The API key was not accepted.',
      why: 'Nøkkelen er ukjent, har feil format eller er trukket tilbake. Av sikkerhetshensyn sier vi ikke hvilket av disse som gjelder.',
      why_en: 'The key is unknown, malformed or revoked. For security reasons we do not say which.',
      fix_steps: [
        'Kontroller at hele nøkkelen er med, og at den står etter «Bearer » i Authorization-headeren.',
        'Bruk en ekte API-nøkkel mot produksjonsendepunktene; testnøkkelen for sandkassen virker bare der.',
        'Be eieren av kontoen om en ny nøkkel eller et utstedelsestoken hvis nøkkelen er trukket tilbake.',
      ],
      fix_steps_en: [
        'Check that the whole key is present and follows "Bearer " in the Authorization header.',
        'Use a real API key on the production endpoints; the sandbox test bearer only works in the sandbox.',
        'Ask the account owner for a new key or an issuance token if the key was revoked.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  AUTH_CONSUMER_INACTIVE: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Stop calling with this key and ask the account owner to contact Plikt support.',
    fix_hint_nb: 'Stopp kallene med denne nøkkelen, og be eieren av kontoen kontakte Plikt-support.',
    explanation: {
      summary: 'Kontoen som API-nøkkelen hører til, er deaktivert.',
      summary_en: 'The account this API key belongs to is deactivated.',
      why: 'Nøkkelen i seg selv er gyldig, men kontoen den hører til, er deaktivert. Derfor avviser vi alle kall med den.',
      why_en:
        'The key itself is valid, but the account it belongs to is deactivated, so every call with it is refused.',
      fix_steps: [
        'Stopp videre kall med denne nøkkelen.',
        'Be eieren av kontoen kontakte Plikt-support for å få kontoen aktivert igjen.',
      ],
      fix_steps_en: [
        'Stop making calls with this key.',
        'Ask the account owner to contact Plikt support to have the account reactivated.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'service_support',
        where: 'Plikt-support',
        what: 'Finn ut hvorfor kontoen er deaktivert, og aktiver den igjen hvis det er grunnlag for det.',
        what_en: 'Find out why the account was deactivated, and reactivate it if there are grounds to.',
        why: 'Bare Plikt kan endre statusen til en konto.',
        why_en: 'Only Plikt can change the status of an account.',
      },
    },
  },
  SCOPE_INSUFFICIENT: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en: 'Use an API key that has the required scope, or ask the account owner to create one.',
    fix_hint_nb: 'Bruk en API-nøkkel som har tilgangen som kreves, eller be eieren av kontoen lage en.',
    explanation: {
      summary: 'API-nøkkelen mangler {scope}.',
      summary_en: 'The API key lacks {scope}.',
      why: 'Nøkkelen du brukte, har ikke fått {scope}, som dette endepunktet krever.',
      why_en: 'The key you used has not been given {scope}, which this endpoint requires.',
      fix_steps: [
        'Bruk en annen nøkkel som har {scope}, hvis du har en.',
        'Be eieren av kontoen lage en nøkkel med {scope} i dashbordet.',
        'Send forespørselen på nytt med den nye nøkkelen.',
      ],
      fix_steps_en: [
        'Use another key that has {scope}, if you have one.',
        'Ask the account owner to create a key with {scope} in the dashboard.',
        'Send the request again with the new key.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Plikt-dashbordet (/dashboard)',
        what: 'Lag en API-nøkkel med tilgangen som endepunktet krever, og gi den til agenten.',
        what_en: 'Create an API key with the scope the endpoint requires and give it to the agent.',
        why: 'Bare eieren av kontoen kan lage nøkler og bestemme hvilke tilganger de har.',
        why_en: 'Only the account owner can create keys and decide which scopes they carry.',
      },
    },
  },
  PLAN_INSUFFICIENT: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en: 'Validate with dry_run=true and hand the live filing over to a person in Altinn.',
    fix_hint_nb: 'Valider med «dry_run=true», og overlat selve innsendingen til en person i Altinn.',
    explanation: {
      summary: 'Handlingen er ikke tilgjengelig for ekte innsending i Plikt.',
      summary_en: 'This action is not available for live submission through Plikt.',
      why: 'Ekte innsending av denne handlingen, for eksempel a-melding, er ikke tilgjengelig i Plikt. Innsendingen må gjøres på en annen måte.',
      why_en:
        'Live submission of this action, such as the a-melding, is not available in Plikt. It has to be submitted another way.',
      fix_steps: [
        'Valider innholdet med «dry_run=true».',
        'Be en person levere i Altinn eller i lønns- eller regnskapssystemet.',
      ],
      fix_steps_en: [
        'Validate the content with dry_run=true.',
        'Ask a person to file in Altinn or in the payroll or accounting system.',
      ],
      relevant_link: 'https://www.altinn.no/',
      legal_basis: null,
      handover: {
        who: 'portal_user',
        where: 'Altinn',
        what: 'Lever innsendingen selv i Altinn eller via lønns- eller regnskapssystemet.',
        what_en: 'File the submission yourself in Altinn or through the payroll or accounting system.',
        why: 'Plikt kan ikke sende inn denne handlingen, så en person må gjøre det.',
        why_en: 'Plikt cannot submit this action, so a person has to.',
      },
    },
  },
} as const satisfies Record<string, CatalogueEntry>
