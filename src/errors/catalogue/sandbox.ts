/**
 * Sandbox: the sandbox's own refusals and its edge (handlers/sandbox/, http/sandbox-edge.ts,
 * mcp/sandbox.ts).
 */
import type { CatalogueEntry } from './entry.ts'

export const SANDBOX_CATALOGUE = {
  AGENT_LOOP_DETECTED: {
    status: 429,
    category: 'rate_limit',
    retryable: true,
    fix_hint_en: 'Break the loop in your agent, wait a moment, and send a request only when something has changed.',
    fix_hint_nb: 'Bryt løkken i agenten, vent litt, og send en forespørsel bare når noe er endret.',
    explanation: {
      summary: 'Sandkassen oppdaget at agenten sender samme forespørsel i en løkke.',
      summary_en: 'The sandbox detected the agent sending the same request in a loop.',
      why: 'Den samme agenten har sendt en identisk forespørsel mange ganger på kort tid. Det tyder på en løkke, så sandkassen stanser den en stund.',
      why_en:
        'The same agent has sent an identical request many times in a short period. That suggests a loop, so the sandbox holds it back for a while.',
      fix_steps: [
        'Stopp løkken i agenten, og finn ut hvorfor den gjentar seg.',
        'Vent litt før du sender flere forespørsler.',
        'Send forespørselen på nytt bare når noe i den eller i tilstanden er endret.',
      ],
      fix_steps_en: [
        'Stop the loop in your agent and find out why it repeats.',
        'Wait a moment before sending more requests.',
        'Send the request again only when something in it or in the state has changed.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  SANDBOX_TEST_KEY_REQUIRED: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Use the synthetic bearer svc_sandbox_test_<suffix> with a random suffix for sandbox magic features.',
    fix_hint_nb: 'Bruk testnøkkelen svc_sandbox_test_<suffiks> med et tilfeldig suffiks for sandkassefunksjonene.',
    explanation: {
      summary: 'Denne sandkassefunksjonen krever testnøkkelen svc_sandbox_test_<suffiks>.',
      summary_en: 'This sandbox feature needs the synthetic bearer svc_sandbox_test_<suffix>.',
      why: 'Funksjoner som «as_of» og headeren «X-Service-Simulate» virker bare med den syntetiske testnøkkelen, ikke med en ekte API-nøkkel.',
      why_en:
        'Features such as "as_of" and the X-Service-Simulate header only work with the synthetic test bearer, not with a real API key.',
      fix_steps: [
        'Lag et tilfeldig suffiks for økten, for eksempel en UUID.',
        'Send «Authorization: Bearer svc_sandbox_test_<suffiks>».',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        'Create a random suffix for the session, for example a UUID.',
        'Send "Authorization: Bearer svc_sandbox_test_<suffix>".',
        'Send the request again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  TEST_KEY_PRODUCTION_ONLY: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en:
      'Call this operation with a production key (svc_free_ or svc_live_), or rehearse it in the sandbox under /api/v1/sandbox.',
    fix_hint_nb:
      'Kall denne operasjonen med en produksjonsnøkkel (svc_free_ eller svc_live_), eller øv på den i sandkassen under /api/v1/sandbox.',
    explanation: {
      summary: 'En testnøkkel får bare syntetiske svar, og denne operasjonen har ikke noe slikt svar.',
      summary_en: 'A test key gets only synthetic answers, and this operation has none.',
      why: 'Testnøkler (svc_test_) svarer fra sandkassens data og når aldri et register eller kreditter. Denne operasjonen virker bare mot ekte systemer eller data.',
      why_en:
        'Test keys (svc_test_) answer from the sandbox data and never reach a register or credits. This operation works only with real systems or data.',
      fix_steps: [
        'Bruk en produksjonsnøkkel (svc_free_ eller svc_live_) for denne operasjonen.',
        'Øv på flyten i sandkassen under /api/v1/sandbox i stedet.',
      ],
      fix_steps_en: [
        'Use a production key (svc_free_ or svc_live_) for this operation.',
        'Rehearse the flow in the sandbox under /api/v1/sandbox instead.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  SANDBOX_TOOL_UNAVAILABLE: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en: 'Call this tool with a real API key, or test with a tool that has a sandbox version.',
    fix_hint_nb: 'Kall dette verktøyet med en ekte API-nøkkel, eller test med et verktøy som finnes i sandkassen.',
    explanation: {
      summary: 'Dette MCP-verktøyet finnes ikke i sandkassen.',
      summary_en: 'This MCP tool has no sandbox version.',
      why: 'Verktøyet har ingen utgave i sandkassen og kan derfor ikke kalles med testnøkkelen. Det krever en ekte API-nøkkel.',
      why_en: 'The tool has no sandbox version, so it cannot be called with the test bearer. It needs a real API key.',
      fix_steps: [
        'Bruk en ekte API-nøkkel for dette verktøyet.',
        'Test med et verktøy som finnes i sandkassen, for eksempel «get_company_deadlines».',
      ],
      fix_steps_en: [
        'Use a real API key for this tool.',
        'Test with a tool that has a sandbox version, such as "get_company_deadlines".',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  PUBLIC_SANDBOX_ORG_NOT_PERMITTED: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en:
      'Use organisation number 999999999 on /public/*, or the regular sandbox routes for other test numbers.',
    fix_hint_nb:
      'Bruk organisasjonsnummer 999999999 mot /public/*, eller de vanlige sandkasserutene for andre testnummer.',
    explanation: {
      summary: 'Den åpne sandkassen godtar bare organisasjonsnummer 999 999 999.',
      summary_en: 'The public sandbox only accepts organisation number 999 999 999.',
      why: 'Den åpne delen av sandkassen (/public/*) er låst til ett testnummer. Andre testnummer krever de vanlige sandkasserutene med testnøkkel.',
      why_en:
        'The public part of the sandbox (/public/*) is locked to a single test number. Other test numbers need the regular sandbox routes with a test bearer.',
      fix_steps: [
        'Bruk organisasjonsnummer 999999999 mot /public/*.',
        'Bruk de vanlige sandkasserutene med testnøkkelen for andre testnummer.',
      ],
      fix_steps_en: [
        'Use organisation number 999999999 on /public/*.',
        'Use the regular sandbox routes with the test bearer for other test numbers.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  PUBLIC_SANDBOX_BODY_TOO_LARGE: {
    status: 413,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Keep public sandbox POST bodies under 32 KiB, or use the regular sandbox routes.',
    fix_hint_nb: 'Hold innholdet i POST mot den åpne sandkassen under 32 KiB, eller bruk de vanlige sandkasserutene.',
    explanation: {
      summary: 'Forespørselen er for stor for den åpne sandkassen (over 32 KiB).',
      summary_en: 'The request is too large for the public sandbox (over 32 KiB).',
      why: 'POST-forespørsler mot den åpne sandkassen (/public/*) kan være på høyst 32 KiB.',
      why_en: 'POST requests to the public sandbox (/public/*) may be at most 32 KiB.',
      fix_steps: [
        'Gjør innholdet mindre enn 32 KiB.',
        'Bruk de vanlige sandkasserutene med testnøkkelen for større innhold.',
      ],
      fix_steps_en: [
        'Make the body smaller than 32 KiB.',
        'Use the regular sandbox routes with the test bearer for larger bodies.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  SANDBOX_TEMPORARILY_UNAVAILABLE: {
    status: 503,
    category: 'internal',
    retryable: true,
    fix_hint_en: 'Wait briefly, honouring Retry-After if present, and retry.',
    fix_hint_nb: 'Vent litt, følg «Retry-After» hvis den er satt, og prøv igjen.',
    explanation: {
      summary: 'Sandkassen er midlertidig utilgjengelig.',
      summary_en: 'The sandbox is temporarily unavailable.',
      why: 'Sandkassen kan ikke svare akkurat nå. Ingen ekte systemer er berørt.',
      why_en: 'The sandbox cannot answer right now. No real systems are affected.',
      fix_steps: ['Vent litt, og følg «Retry-After» hvis svaret har den headeren.', 'Send forespørselen på nytt.'],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the request again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
} as const satisfies Record<string, CatalogueEntry>
