/**
 * Company: organisation numbers and the business register behind the company routes
 * (domain/company/, domain/sources.ts).
 */
import type { CatalogueEntry } from './entry.ts'

export const COMPANY_CATALOGUE = {
  COMPANY_NOT_FOUND: {
    status: 404,
    category: 'not_found',
    retryable: false,
    fix_hint_en: 'Check the organisation number, or search for the company by name to find the right one.',
    fix_hint_nb: 'Kontroller organisasjonsnummeret, eller søk etter virksomheten på navn for å finne riktig nummer.',
    explanation: {
      summary: 'Finner ikke {org_number} i Enhetsregisteret.',
      summary_en: 'Could not find {org_number} in the Central Coordinating Register for Legal Entities.',
      why: 'Nummeret har gyldig kontrollsiffer, men Enhetsregisteret har ingen enhet med dette nummeret. Det kan være skrevet feil.',
      why_en:
        'The number has a valid check digit, but the Central Coordinating Register for Legal Entities has no entity with it. It may be mistyped.',
      fix_steps: [
        'Kontroller at nummeret er skrevet av riktig.',
        'Søk etter virksomheten på navn for å finne riktig organisasjonsnummer.',
        'Send forespørselen med riktig nummer.',
      ],
      fix_steps_en: [
        'Check that the number was copied correctly.',
        'Search for the company by name to find the right organisation number.',
        'Send the request with the right number.',
      ],
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: null,
    },
  },
  ORG_NUMBER_IS_SUB_UNIT: {
    status: 422,
    category: 'validation',
    retryable: false,
    fix_hint_en:
      'Send the request again with the legal entity’s organisation number, given in parent_org_number: a sub-unit has no obligations, delegations or filings of its own.',
    fix_hint_nb:
      'Send forespørselen på nytt med hovedenhetens organisasjonsnummer, som står i parent_org_number: en underenhet har ingen egne plikter, delegeringer eller innsendinger.',
    explanation: {
      summary: 'Nummeret er en underenhet av {parent_org_number}, ikke en juridisk person.',
      summary_en: 'The number is a sub-unit of {parent_org_number}, not a legal entity.',
      why: 'Nummeret tilhører en underenhet (en avdeling, butikk eller driftssted). Delegeringer og innsendinger gjelder den juridiske personen den hører til. Ingenting er sendt eller lagret.',
      why_en:
        'The number belongs to a sub-unit (a branch, shop or site). Delegations and filings are the legal entity’s it belongs to. Nothing was sent or stored.',
      fix_steps: [
        'Bruk hovedenhetens organisasjonsnummer, {parent_org_number}, i stedet for underenhetens.',
        'Send forespørselen på nytt med det nummeret.',
      ],
      fix_steps_en: [
        'Use the legal entity’s organisation number, {parent_org_number}, instead of the sub-unit’s.',
        'Send the request again with that number.',
      ],
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: null,
    },
  },
  SUB_UNIT_DELETED: {
    status: 404,
    category: 'not_found',
    retryable: false,
    fix_hint_en:
      'Search for the legal entity by name: the register no longer shows which entity this deleted sub-unit belonged to.',
    fix_hint_nb:
      'Søk etter hovedenheten på navn: registeret viser ikke lenger hvilken enhet denne slettede underenheten hørte til.',
    explanation: {
      summary: '{org_number} er en slettet underenhet i Enhetsregisteret.',
      summary_en: '{org_number} is a deleted sub-unit in the register of legal entities.',
      why: 'Nummeret tilhørte en underenhet (en avdeling eller et driftssted) som er slettet. Registeret viser ikke lenger hvilken juridisk person den hørte til, så Plikt kan ikke svare for den.',
      why_en:
        'The number belonged to a sub-unit (a branch or site) that is deleted. The register no longer shows which legal entity it belonged to, so Plikt cannot answer for it.',
      fix_steps: [
        'Søk etter virksomheten på navn for å finne hovedenhetens organisasjonsnummer.',
        'Send forespørselen med hovedenhetens nummer.',
      ],
      fix_steps_en: [
        'Search for the business by name to find the legal entity’s organisation number.',
        'Send the request with the legal entity’s number.',
      ],
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: null,
    },
  },
  COMPANY_INACTIVE: {
    status: 422,
    category: 'validation',
    retryable: false,
    fix_hint_en:
      'Check the company’s status in the register: nothing can be filed for a deleted or inactive organisation.',
    fix_hint_nb:
      'Kontroller virksomhetens status i registeret: det kan ikke leveres noe for en slettet eller inaktiv enhet.',
    explanation: {
      summary: '{org_number} er registrert, men slettet eller ikke lenger aktiv.',
      summary_en: '{org_number} is registered, but deleted or no longer active.',
      why: 'Enheten finnes i Enhetsregisteret, men er slettet eller ikke lenger aktiv. Plikt sender ikke inn noe på vegne av en slik enhet, og godkjenningstokenet er ikke brukt.',
      why_en:
        'The entity exists in the Central Coordinating Register for Legal Entities but is deleted or no longer active. Plikt submits nothing for such an entity, and the approval token was not spent.',
      fix_steps: [
        'Kontroller at organisasjonsnummeret er riktig.',
        'Se virksomhetens status i Enhetsregisteret.',
        'Spør regnskapsføreren hvordan eventuelle gjenstående plikter for enheten skal håndteres.',
      ],
      fix_steps_en: [
        'Check that the organisation number is right.',
        'Look up the company’s status in the register.',
        'Ask the accountant how any remaining obligations of the entity are to be handled.',
      ],
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: {
        who: 'accountant',
        where: 'Brønnøysundregistrene',
        what: 'Avklar hvilke plikter en slettet eller inaktiv enhet fortsatt har.',
        what_en: 'Clarify which obligations a deleted or inactive entity still has.',
        why: 'Avvikling og sletting har regnskaps- og skattemessige følger som krever faglige vurderinger.',
        why_en: 'Winding up and deletion have accounting and tax consequences that call for professional judgement.',
      },
    },
  },
  ORG_NUMBER_INVALID_CHECKSUM: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Check the nine digits of the organisation number; the last one is a MOD-11 check digit.',
    fix_hint_nb: 'Kontroller de ni sifrene i organisasjonsnummeret; det siste er et kontrollsiffer etter MOD-11.',
    explanation: {
      summary: 'Organisasjonsnummeret har feil kontrollsiffer.',
      summary_en: 'The organisation number has an invalid check digit.',
      why: 'Det siste sifferet i et organisasjonsnummer er et kontrollsiffer etter MOD-11 med vektene 3, 2, 7, 6, 5, 4, 3, 2. Nummeret du sendte, består ikke kontrollen og er trolig skrevet feil.',
      why_en:
        'The last digit of an organisation number is a MOD-11 check digit with the weights 3, 2, 7, 6, 5, 4, 3, 2. The number you sent fails the check and is probably mistyped.',
      fix_steps: [
        'Kontroller at alle ni sifrene er skrevet av riktig.',
        'Søk etter virksomheten på navn hvis du er usikker på nummeret.',
        'Send forespørselen med det rettede nummeret.',
      ],
      fix_steps_en: [
        'Check that all nine digits were copied correctly.',
        'Search for the company by name if you are unsure of the number.',
        'Send the request with the corrected number.',
      ],
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: null,
    },
  },
  REGISTER_DOWN: {
    status: 503,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait, honouring Retry-After if present, and retry with increasing backoff.',
    fix_hint_nb: 'Vent, følg «Retry-After» hvis den er satt, og prøv igjen med økende ventetid.',
    explanation: {
      summary: 'Registeret hos Brønnøysundregistrene svarer ikke akkurat nå.',
      summary_en: 'A register at the Brønnøysund Register Centre is not responding right now.',
      why: 'Registeret vi henter data fra, er nede eller svarer ikke. Slike brudd er som regel forbigående.',
      why_en: 'The register we read from is down or not responding. Such outages are usually temporary.',
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
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: null,
    },
  },
  COMPANY_LOOKUP_FAILED: {
    status: 502,
    category: 'upstream',
    retryable: true,
    fix_hint_en: 'Wait briefly and retry the lookup with increasing backoff.',
    fix_hint_nb: 'Vent litt, og gjør oppslaget på nytt med økende ventetid.',
    explanation: {
      summary: 'Oppslaget av {org_number} i Enhetsregisteret feilet.',
      summary_en: 'The register lookup for {org_number} failed.',
      why: 'Vi fikk ikke et gyldig svar fra Enhetsregisteret. Det betyr ikke at virksomheten mangler i registeret.',
      why_en:
        'We got no valid answer from the Central Coordinating Register for Legal Entities. This does not mean the entity is missing from it.',
      fix_steps: [
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Gjør oppslaget på nytt.',
        'Øk ventetiden mellom hvert forsøk hvis feilen varer.',
      ],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Repeat the lookup.',
        'Increase the wait between attempts if the error persists.',
      ],
      relevant_link: 'https://www.brreg.no/',
      legal_basis: null,
      handover: null,
    },
  },
} as const satisfies Record<string, CatalogueEntry>
