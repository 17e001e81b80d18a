/**
 * Tools: the currency and date inputs of the exchange-rate tool (domain/tools/).
 */
import type { CatalogueEntry } from './entry.ts'

export const TOOLS_CATALOGUE = {
  INVALID_CURRENCY: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Use a three-letter ISO 4217 currency code such as "EUR".',
    fix_hint_nb: 'Bruk en valutakode på tre bokstaver etter ISO 4217, for eksempel «EUR».',
    explanation: {
      summary: 'Ugyldig valutakode.',
      summary_en: 'Invalid currency code.',
      why: 'Valutaen må oppgis som en kode på tre bokstaver etter ISO 4217, for eksempel «EUR» eller «USD». Koden du sendte, kjenner vi ikke igjen.',
      why_en:
        'The currency must be a three-letter ISO 4217 code, such as "EUR" or "USD". We do not recognise the code you sent.',
      fix_steps: [
        'Bruk en valutakode på tre bokstaver etter ISO 4217.',
        'Kontroller at Norges Bank publiserer kurs for valutaen.',
        'Send forespørselen på nytt med den rettede koden.',
      ],
      fix_steps_en: [
        'Use a three-letter ISO 4217 currency code.',
        'Check that Norges Bank publishes a rate for the currency.',
        'Send the request again with the corrected code.',
      ],
      relevant_link: 'https://www.norges-bank.no/en/topics/Statistics/exchange_rates/',
      legal_basis: null,
      handover: null,
    },
  },
  INVALID_DATE: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Send a real calendar date in the format YYYY-MM-DD.',
    fix_hint_nb: 'Send en dato som finnes, på formen ÅÅÅÅ-MM-DD.',
    explanation: {
      summary: 'Ugyldig dato.',
      summary_en: 'Invalid date.',
      why: 'Datoen må skrives som ÅÅÅÅ-MM-DD og være en dato som finnes, for eksempel «2026-04-10».',
      why_en: 'The date must be written as YYYY-MM-DD and be a real calendar date, for example "2026-04-10".',
      fix_steps: [
        'Skriv datoen på formen ÅÅÅÅ-MM-DD.',
        'Kontroller at datoen finnes i kalenderen.',
        'Send forespørselen på nytt.',
      ],
      fix_steps_en: [
        'Write the date in the format YYYY-MM-DD.',
        'Check that the date exists in the calendar.',
        'Send the request again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  UNSUPPORTED_CURRENCY_PAIR: {
    status: 400,
    category: 'validation',
    retryable: false,
    fix_hint_en: 'Make exactly one side of the currency pair NOK.',
    fix_hint_nb: 'La nøyaktig én av valutaene i paret være NOK.',
    explanation: {
      summary: 'Valutaparet støttes ikke; nøyaktig én av valutaene må være NOK.',
      summary_en: 'Unsupported currency pair; exactly one side must be NOK.',
      why: 'Norges Bank publiserer bare kurser mot norske kroner. Derfor må nøyaktig én av valutaene være NOK og den andre en utenlandsk valuta.',
      why_en:
        'Norges Bank only publishes rates against the Norwegian krone, so exactly one currency must be NOK and the other a foreign currency.',
      fix_steps: [
        'Sett NOK som den ene valutaen i paret.',
        'Hent to kurser mot NOK og regn ut krysskursen selv hvis du trenger to utenlandske valutaer.',
      ],
      fix_steps_en: [
        'Set NOK as one side of the pair.',
        'Fetch two rates against NOK and compute the cross rate yourself if you need two foreign currencies.',
      ],
      relevant_link: 'https://www.norges-bank.no/en/topics/Statistics/exchange_rates/',
      legal_basis: null,
      handover: null,
    },
  },
  NO_RATE_AVAILABLE: {
    status: 404,
    category: 'not_found',
    retryable: false,
    fix_hint_en: 'Ask for the nearest earlier business day, or check that the currency is published.',
    fix_hint_nb: 'Spør etter nærmeste virkedag før datoen, eller kontroller at valutaen publiseres.',
    explanation: {
      summary: 'Norges Bank har ingen kurs for denne valutaen og datoen.',
      summary_en: 'Norges Bank has no rate for this currency and date.',
      why: 'Norges Bank publiserer kurser bare på virkedager, rundt kl. 16. Helger, helligdager og dager som ikke er publisert ennå, har ingen kurs, og noen valutaer er stanset.',
      why_en:
        'Norges Bank publishes rates only on business days, around 16:00. Weekends, public holidays and days not yet published have no rate, and some currencies are suspended.',
      fix_steps: [
        'Bruk nærmeste virkedag før datoen hvis det passer formålet.',
        'Kontroller at Norges Bank publiserer kurs for valutaen.',
        'Send forespørselen med den nye datoen.',
      ],
      fix_steps_en: [
        'Use the nearest earlier business day if that suits your purpose.',
        'Check that Norges Bank publishes a rate for the currency.',
        'Send the request with the new date.',
      ],
      relevant_link: 'https://www.norges-bank.no/en/topics/Statistics/exchange_rates/',
      legal_basis: null,
      handover: null,
    },
  },
} as const satisfies Record<string, CatalogueEntry>
