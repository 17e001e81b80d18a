/**
 * Service: what any route can answer — validation, not found, method, body size, idempotency, rate
 * limits, internal faults and the explainer's fallback UNKNOWN.
 */
import type { CatalogueEntry } from './entry.ts'

export const SERVICE_CATALOGUE = {
  VALIDATION_FAILED: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Correct the fields listed in explanation.details and send the request again.',
    fix_hint_nb: 'Rett feltene som står i «explanation.details», og send forespørselen på nytt.',
    explanation: {
      summary: 'Ugyldig eller manglende verdi i {field}.',
      summary_en: 'Invalid or missing value in {field}.',
      why: 'Forespørselen følger ikke skjemaet for endepunktet. Feltene som feiler, står i «explanation.details» med sti, for eksempel «payload.period».',
      why_en:
        'The request does not follow the endpoint\'s schema. The failing fields are listed in "explanation.details" by path, for example "payload.period".',
      fix_steps: [
        'Les «explanation.details» for å se hvilke felt som feiler.',
        'Rett {field} etter skjemaet i OpenAPI-dokumentet.',
        'Send den rettede forespørselen.',
      ],
      fix_steps_en: [
        'Read "explanation.details" to see which fields fail.',
        'Correct {field} to match the schema in the OpenAPI document.',
        'Send the corrected request.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  NOT_FOUND: {
    status: 404,
    category: 'not_found',
    retryable: false,
    fix_hint_en: 'Check the path and the identifier you looked up.',
    fix_hint_nb: 'Kontroller stien og identifikatoren du slo opp.',
    explanation: {
      summary: 'Fant ikke adressen eller ressursen du ba om.',
      summary_en: 'The requested route or resource was not found.',
      why: 'Enten finnes ikke stien i API-et, eller så finnes ikke ressursen i kilderegisteret.',
      why_en: 'Either the path does not exist in the API, or the resource does not exist in the source register.',
      fix_steps: [
        'Kontroller stien mot OpenAPI-dokumentet.',
        'Kontroller identifikatoren du slo opp, for eksempel organisasjonsnummeret.',
        'Unngå å sende samme forespørsel på nytt; svaret blir det samme.',
      ],
      fix_steps_en: [
        'Check the path against the OpenAPI document.',
        'Check the identifier you looked up, such as the organisation number.',
        'Avoid resending the same request; the answer will not change.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Use one of the methods listed in the Allow header.',
    fix_hint_nb: 'Bruk en av metodene som står i headeren «Allow».',
    explanation: {
      summary: 'Stien finnes, men ikke med denne HTTP-metoden.',
      summary_en: 'The path exists, but not with this HTTP method.',
      why: 'Endepunktet støtter ikke metoden du brukte. Headeren «Allow» i svaret viser hvilke metoder som er tillatt.',
      why_en:
        'The endpoint does not support the method you used. The Allow header in the response lists the permitted methods.',
      fix_steps: ['Les headeren «Allow» i svaret.', 'Send forespørselen med en av metodene som står der.'],
      fix_steps_en: [
        'Read the Allow header in the response.',
        'Send the request with one of the methods listed there.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  REQUEST_TOO_LARGE: {
    status: 413,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Reduce the request body to under 256 KB and send it again.',
    fix_hint_nb: 'Gjør innholdet i forespørselen mindre enn 256 KB, og send den på nytt.',
    explanation: {
      summary: 'Forespørselen er for stor (over 256 KB).',
      summary_en: 'The request body is too large (over 256 KB).',
      why: 'Innholdet i forespørselen er større enn grensen på 256 KB, og den ble derfor avvist.',
      why_en: 'The request body exceeds the 256 KB limit, so it was refused.',
      fix_steps: [
        'Fjern unødvendige data fra innholdet.',
        'Del innholdet opp i flere forespørsler hvis endepunktet tillater det.',
        'Send forespørselen på nytt når den er under 256 KB.',
      ],
      fix_steps_en: [
        'Remove unnecessary data from the body.',
        'Split the content into several requests if the endpoint allows it.',
        'Send the request again once it is under 256 KB.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Send a fresh RFC 4122 UUID in the Idempotency-Key header.',
    fix_hint_nb: 'Send en ny UUID etter RFC 4122 i headeren «Idempotency-Key».',
    explanation: {
      summary: 'Headeren «Idempotency-Key» mangler.',
      summary_en: 'The Idempotency-Key header is missing.',
      why: 'Ekte innsendinger krever en idempotensnøkkel, slik at samme handling aldri blir sendt inn to ganger hvis forespørselen gjentas.',
      why_en:
        'Live submissions need an idempotency key, so that the same action is never submitted twice if the request is repeated.',
      fix_steps: [
        'Lag en ny UUID etter RFC 4122 for handlingen.',
        'Send den i headeren «Idempotency-Key».',
        'Bruk samme nøkkel hvis du må sende nøyaktig samme forespørsel igjen.',
      ],
      fix_steps_en: [
        'Generate a new RFC 4122 UUID for the action.',
        'Send it in the Idempotency-Key header.',
        'Reuse the same key if you have to send exactly the same request again.',
      ],
      relevant_link: 'https://www.rfc-editor.org/rfc/rfc4122',
      legal_basis: null,
      handover: null,
    },
  },
  IDEMPOTENCY_KEY_INVALID_FORMAT: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Send an RFC 4122 UUID as the Idempotency-Key.',
    fix_hint_nb: 'Send en UUID etter RFC 4122 som «Idempotency-Key».',
    explanation: {
      summary: 'Verdien i «Idempotency-Key» er ikke en gyldig UUID.',
      summary_en: 'The Idempotency-Key value is not a valid UUID.',
      why: 'Idempotensnøkkelen må være en UUID etter RFC 4122, for eksempel «3f2b8c1e-9d4a-4e7b-8a61-0c5d2e7f9a13».',
      why_en: 'The idempotency key must be an RFC 4122 UUID, for example "3f2b8c1e-9d4a-4e7b-8a61-0c5d2e7f9a13".',
      fix_steps: [
        'Lag en UUID med et standardbibliotek, for eksempel crypto.randomUUID().',
        'Send den i headeren «Idempotency-Key».',
      ],
      fix_steps_en: [
        'Generate a UUID with a standard library, for example crypto.randomUUID().',
        'Send it in the Idempotency-Key header.',
      ],
      relevant_link: 'https://www.rfc-editor.org/rfc/rfc4122',
      legal_basis: null,
      handover: null,
    },
  },
  IDEMPOTENCY_KEY_MISMATCH: {
    status: 422,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Use a new idempotency key for a new request, or resend the original body with the old key.',
    fix_hint_nb:
      'Bruk en ny idempotensnøkkel for en ny forespørsel, eller send det opprinnelige innholdet med den gamle.',
    explanation: {
      summary: 'Idempotensnøkkelen er allerede brukt med et annet innhold.',
      summary_en: 'The idempotency key was already used with a different body.',
      why: 'En idempotensnøkkel hører til nøyaktig én forespørsel. Du sendte samme nøkkel med et annet innhold, så vi avviste forespørselen for å unngå en feil innsending.',
      why_en:
        'An idempotency key belongs to exactly one request. You sent the same key with a different body, so we refused it to avoid a wrong submission.',
      fix_steps: [
        'Bruk en ny UUID hvis dette er en ny handling.',
        'Send det opprinnelige innholdet hvis du ville gjenta den første forespørselen.',
      ],
      fix_steps_en: [
        'Use a new UUID if this is a new action.',
        'Send the original body if you meant to repeat the first request.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    category: 'validation',
    retryable: true,
    fix_hint_en:
      'Wait a few seconds, honouring Retry-After if present, then resend the same request with the same key.',
    fix_hint_nb: 'Vent noen sekunder, følg «Retry-After» hvis den er satt, og send samme forespørsel med samme nøkkel.',
    explanation: {
      summary: 'En tidligere forespørsel med samme idempotensnøkkel pågår fortsatt.',
      summary_en: 'An earlier request with the same idempotency key is still running.',
      why: 'Vi behandler fortsatt den første forespørselen med denne nøkkelen. For å unngå dobbel innsending avviser vi denne til den første er ferdig.',
      why_en:
        'We are still processing the first request with this key. To avoid a double submission, this one is refused until the first has finished.',
      fix_steps: [
        'Vent noen sekunder, og følg «Retry-After» hvis svaret har den headeren.',
        'Send nøyaktig samme forespørsel med samme nøkkel på nytt.',
      ],
      fix_steps_en: [
        'Wait a few seconds, honouring Retry-After if the response has that header.',
        'Send exactly the same request with the same key again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    category: 'rate_limit',
    retryable: true,
    fix_hint_en: 'Wait for the time in Retry-After and retry.',
    fix_hint_nb: 'Vent så lenge «Retry-After» angir, og prøv igjen.',
    explanation: {
      summary: 'For mange kall per minutt med denne API-nøkkelen.',
      summary_en: 'Too many calls per minute with this API key.',
      why: 'Hver nøkkel har en grense per minutt: 30 for Free, 150 for Starter og 300 for Professional. Grensen er nådd for dette minuttet.',
      why_en:
        'Each key has a per-minute limit: 30 on Free, 150 on Starter and 300 on Professional. The limit has been reached for this minute.',
      fix_steps: [
        'Vent så lenge «Retry-After» angir.',
        'Send forespørselen på nytt.',
        'Spre kallene jevnere, eller vurder en større plan hvis du ofte når grensen.',
      ],
      fix_steps_en: [
        'Wait for the time given in Retry-After.',
        'Send the request again.',
        'Spread your calls more evenly, or consider a larger plan if you often hit the limit.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  RATE_LIMITED: {
    status: 429,
    category: 'rate_limit',
    retryable: true,
    fix_hint_en: 'Wait for the time in Retry-After and retry.',
    fix_hint_nb: 'Vent så lenge «Retry-After» angir, og prøv igjen.',
    explanation: {
      summary: 'For mange endringer per time på konto- eller betalingsendepunktene.',
      summary_en: 'Too many writes per hour on the account or billing endpoints.',
      why: 'Endepunktene for konto og betaling har en grense for endringer per time, for å hindre misbruk.',
      why_en: 'The account and billing endpoints limit the number of writes per hour to prevent abuse.',
      fix_steps: [
        'Vent så lenge «Retry-After» angir.',
        'Send forespørselen på nytt.',
        'Unngå å gjenta samme endring i en løkke.',
      ],
      fix_steps_en: [
        'Wait for the time given in Retry-After.',
        'Send the request again.',
        'Avoid repeating the same change in a loop.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  FEED_RATE_LIMITED: {
    status: 429,
    category: 'rate_limit',
    retryable: true,
    fix_hint_en: 'Poll the calendar feed at most 60 times an hour; wait for the time in Retry-After.',
    fix_hint_nb: 'Hent kalenderstrømmen høyst 60 ganger i timen; vent så lenge «Retry-After» angir.',
    explanation: {
      summary: 'Kalenderstrømmen er hentet for mange ganger denne timen.',
      summary_en: 'The calendar feed was fetched too many times this hour.',
      why: 'Hver kalenderstrøm kan hentes høyst 60 ganger i timen, uansett hvem som henter den. En kalender trenger sjelden mer enn én henting i timen: fristene endres sjelden oftere enn én gang om dagen.',
      why_en:
        'Each calendar feed may be fetched at most 60 times an hour, whoever fetches it. A calendar rarely needs more than one fetch an hour: deadlines seldom change more than once a day.',
      fix_steps: [
        'Vent så lenge «Retry-After» angir.',
        'Still kalenderprogrammet til å oppdatere abonnementet sjeldnere, for eksempel hver time.',
        'Del ikke strømmens adresse bredere enn nødvendig; opprett en egen strøm per bruker om mange henter den.',
      ],
      fix_steps_en: [
        'Wait for the time given in Retry-After.',
        'Set the calendar program to refresh the subscription less often, for instance hourly.',
        'Do not share the feed’s URL more widely than needed; create a feed per user if many fetch it.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  INTERNAL_ERROR: {
    status: 500,
    category: 'internal',
    retryable: true,
    fix_hint_en: 'Wait briefly and retry; if it persists, contact support with the X-Correlation-ID value.',
    fix_hint_nb: 'Vent litt og prøv igjen; varer feilen, kontakter du support med verdien i «X-Correlation-ID».',
    explanation: {
      summary: 'Det oppstod en uventet feil hos Plikt.',
      summary_en: 'An unexpected error occurred in Plikt.',
      why: 'Feilen skyldes ikke forespørselen din. Korrelasjons-ID-en i headeren «X-Correlation-ID» hjelper oss å finne den.',
      why_en:
        'The error was not caused by your request. The correlation id in the X-Correlation-ID header helps us find it.',
      fix_steps: [
        'Sjekk kvitteringene først hvis forespørselen var en innsending.',
        'Vent litt, og send forespørselen på nytt.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis feilen gjentar seg.',
      ],
      fix_steps_en: [
        'Check the receipts first if the request was a submission.',
        'Wait a moment, then send the request again.',
        'Contact Plikt support with the X-Correlation-ID value if the error keeps recurring.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  SERVER_ERROR: {
    status: 500,
    category: 'internal',
    retryable: true,
    fix_hint_en: 'Wait briefly and retry; if it persists, contact support with the X-Correlation-ID value.',
    fix_hint_nb: 'Vent litt og prøv igjen; varer feilen, kontakter du support med verdien i «X-Correlation-ID».',
    explanation: {
      summary: 'Serveren kunne ikke behandle forespørselen.',
      summary_en: 'The server could not process the request.',
      why: 'En feil på serversiden stoppet forespørselen. Den er som regel forbigående.',
      why_en: 'A server-side fault stopped the request. It is usually temporary.',
      fix_steps: [
        'Sjekk kvitteringene først hvis forespørselen var en innsending.',
        'Vent litt, og send forespørselen på nytt.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis feilen gjentar seg.',
      ],
      fix_steps_en: [
        'Check the receipts first if the request was a submission.',
        'Wait a moment, then send the request again.',
        'Contact Plikt support with the X-Correlation-ID value if the error keeps recurring.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  UNKNOWN: {
    status: 500,
    category: 'internal',
    retryable: false,
    fix_hint_en: 'Fetch the current error catalogue from GET /api/v1/errors and check the code you received.',
    fix_hint_nb: 'Hent den gjeldende feilkatalogen med GET /api/v1/errors, og kontroller koden du fikk.',
    explanation: {
      summary: 'Ukjent feilkode.',
      summary_en: 'Unknown error code.',
      why: 'Koden finnes ikke i feilkatalogen, så vi kan ikke forklare den nærmere. Den kan komme fra en nyere versjon av tjenesten.',
      why_en:
        'The code is not in the error catalogue, so we cannot explain it further. It may come from a newer version of the service.',
      fix_steps: [
        'Hent den gjeldende feilkatalogen med GET /api/v1/errors.',
        'Kontroller at du leser «error_code» riktig fra svaret.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis koden fortsatt er ukjent.',
      ],
      fix_steps_en: [
        'Fetch the current error catalogue with GET /api/v1/errors.',
        'Check that you read "error_code" correctly from the response.',
        'Contact Plikt support with the X-Correlation-ID value if the code is still unknown.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
} as const satisfies Record<string, CatalogueEntry>
