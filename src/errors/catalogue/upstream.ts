/**
 * Upstream: a government system failing or refusing us, whichever route called it (upstream/http.ts,
 * domain/sources.ts), and the service's own token-service client.
 */
import type { CatalogueEntry } from './entry.ts'

export const UPSTREAM_CATALOGUE = {
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait briefly, honouring Retry-After if present, and retry.',
    fix_hint_nb: 'Vent litt, følg «Retry-After» hvis den er satt, og prøv igjen.',
    explanation: {
      summary: 'Får ikke kontakt med {upstream_system} akkurat nå.',
      summary_en: 'Cannot reach {upstream_system} right now.',
      why: 'Vi får ikke svar fra {upstream_system}, som vi henter data fra eller sender til. Slike brudd er som regel forbigående.',
      why_en:
        'We get no answer from {upstream_system}, which we read from or send to. Such outages are usually temporary.',
      fix_steps: [
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Send forespørselen på nytt.',
        'Øk ventetiden mellom hvert forsøk hvis feilen varer.',
      ],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the request again.',
        'Increase the wait between attempts if the error persists.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait briefly and retry; for a submission, check receipts first.',
    fix_hint_nb: 'Vent litt og prøv igjen; for en innsending sjekker du kvitteringene først.',
    explanation: {
      summary: 'Fikk ikke svar fra {upstream_system} i tide.',
      summary_en: 'No answer from {upstream_system} in time.',
      why: 'Forespørselen til {upstream_system} gikk ut på tid. Det er som regel forbigående.',
      why_en: 'The request to {upstream_system} timed out. This is usually temporary.',
      fix_steps: [
        'Sjekk kvitteringene først hvis forespørselen var en innsending.',
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        'Check the receipts first if the request was a submission.',
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the request again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  GOVERNMENT_API_ERROR: {
    status: 502,
    category: 'upstream',
    retryable: false,
    fix_hint_en: 'Read the error details and check the request; do not resend it unchanged.',
    fix_hint_nb: 'Les detaljene i feilen, og kontroller forespørselen; send den ikke uendret på nytt.',
    explanation: {
      summary: 'Det offentlige systemet svarte med en feil.',
      summary_en: 'The government system answered with an error.',
      why: 'Etaten svarte med en feil som ikke er forbigående. Et identisk nytt forsøk vil trolig feile på samme måte.',
      why_en:
        'The authority answered with an error that is not temporary. An identical new attempt will probably fail the same way.',
      fix_steps: [
        'Les detaljene i feilsvaret.',
        'Kontroller innholdet i forespørselen, og sjekk kvitteringene hvis det var en innsending.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis du ikke finner årsaken.',
      ],
      fix_steps_en: [
        'Read the details in the error response.',
        'Check the content of the request, and the receipts if it was a submission.',
        'Contact Plikt support with the X-Correlation-ID value if you cannot find the cause.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  GOVERNMENT_RATE_LIMITED: {
    status: 503,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait for the time in Retry-After, or at least a few seconds, and retry.',
    fix_hint_nb: 'Vent så lenge «Retry-After» angir, eller minst noen sekunder, og prøv igjen.',
    explanation: {
      summary: 'Det offentlige systemet begrenser antall kall akkurat nå.',
      summary_en: 'The government system is limiting calls right now.',
      why: 'Etaten har sagt fra at vi sender for mange kall. Vi må vente før vi kan sende flere.',
      why_en: 'The authority has signalled that we are sending too many calls. We have to wait before sending more.',
      fix_steps: [
        'Vent så lenge «Retry-After» angir, eller minst noen sekunder.',
        'Send forespørselen på nytt.',
        'Spre kallene dine over tid hvis feilen gjentar seg.',
      ],
      fix_steps_en: [
        'Wait for the time given in Retry-After, or at least a few seconds.',
        'Send the request again.',
        'Spread your calls over time if the error keeps recurring.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  GOVERNMENT_UNAVAILABLE: {
    status: 503,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait, honouring Retry-After if present, and retry later.',
    fix_hint_nb: 'Vent, følg «Retry-After» hvis den er satt, og prøv igjen senere.',
    explanation: {
      summary: 'Det offentlige systemet er utilgjengelig akkurat nå.',
      summary_en: 'The government system is unavailable right now.',
      why: 'Etaten svarer ikke, for eksempel på grunn av vedlikehold eller driftsforstyrrelser.',
      why_en: 'The authority is not answering, for example because of maintenance or an outage.',
      fix_steps: [
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Send forespørselen på nytt.',
        'Sjekk driftsmeldingene hos etaten hvis feilen varer.',
      ],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the request again.',
        "Check the authority's service status notices if the error persists.",
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  TOKEN_SERVICE_AUTH_FAILED: {
    status: 502,
    category: 'upstream',
    retryable: false,
    fix_hint_en: 'Report the error to Plikt support with the correlation id; it cannot be fixed from the client side.',
    fix_hint_nb: 'Meld feilen til Plikt-support med korrelasjons-ID-en; den kan ikke rettes fra din side.',
    explanation: {
      summary: 'Maskinporten avviste tjenestens forespørsel om token.',
      summary_en: "Maskinporten refused the service's token request.",
      why: 'Feilen ligger i oppsettet hos Plikt, for eksempel sertifikat eller klientregistrering, og ikke i forespørselen din.',
      why_en:
        "The fault lies in Plikt's own setup, such as its certificate or client registration, not in your request.",
      fix_steps: [
        'Meld feilen til Plikt-support med verdien i «X-Correlation-ID».',
        'Vent med å sende forespørselen på nytt til support har rettet feilen.',
      ],
      fix_steps_en: [
        'Report the error to Plikt support with the X-Correlation-ID value.',
        'Hold off resending the request until support has fixed the fault.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'service_support',
        where: 'Plikt-support',
        what: 'Rett Maskinporten-oppsettet til tjenesten, for eksempel sertifikat eller klientregistrering.',
        what_en: "Fix the service's Maskinporten setup, such as the certificate or client registration.",
        why: 'Oppsettet mot Maskinporten hører til tjenesten, og bare Plikt kan endre det.',
        why_en: 'The Maskinporten setup belongs to the service, and only Plikt can change it.',
      },
    },
  },
} as const satisfies Record<string, CatalogueEntry>
