/** The rulebook in public: every deadline of a year, and the obligations by company type (Category A). */
import {
  PublicDeadlines,
  PublicDeadlinesQuery,
  PublicObligations,
  PublicObligationsQuery,
} from '../schemas/rulebook.ts'
import { CACHE, op, type Operation } from './define.ts'

export const rulebookOperations = [
  op({
    id: 'getPublicDeadlines',
    mcpResource: { uri: 'plikt://rulebook/deadlines{?year,entity_type}', name: 'rulebook-deadlines' },
    cache: CACHE.rulebook,
    method: 'GET',
    path: '/api/v1/public/deadlines',
    category: 'A',
    format: 'envelope',
    tag: 'Rulebook',
    summary: 'Every statutory deadline falling in a year',
    description:
      'The universal Norwegian deadline calendar for a calendar year (Europe/Oslo): one entry per period and ' +
      'obligation, with the date after any weekend/holiday shift, the legal date it moved from and why, and the ' +
      'law. Deterministic for a rulebook version. Each due date is the whole Oslo day (`T23:59:59` with the ' +
      "day's offset). An entry belongs to the year its deadline falls in: `mva-termin-6-2025` is listed under 2026. " +
      'Where the rulebook records an open point for a period — e.g. sources that give two dates for the Q2 ' +
      'reverse-charge return; the earlier is answered — the entry carries it in `uncertainties`, dated and sourced.',
    request: { query: PublicDeadlinesQuery },
    response: PublicDeadlines,
    scope: 'read:rulebook',
    mcpTool: 'get_public_deadlines',
    capability: {
      name_en: 'Deadline calendar',
      name_nb: 'Fristkalender',
      description_en:
        'Every statutory filing and payment deadline of a year, moved off weekends and holidays where the law says so.',
      description_nb:
        'Alle lovbestemte frister for levering og betaling i et år, flyttet fra helg og helligdag der loven sier det.',
      data_sources: ['rulebook'],
      freshness: 'static',
      status: 'live',
    },
  }),
  op({
    id: 'getPublicObligations',
    mcpResource: { uri: 'plikt://rulebook/obligations/{entity_type}', name: 'rulebook-obligations' },
    cache: CACHE.rulebook,
    method: 'GET',
    path: '/api/v1/public/obligations',
    category: 'A',
    format: 'envelope',
    tag: 'Rulebook',
    summary: 'The obligations a company of a given type may have',
    description:
      'Each rule of the rulebook that concerns the entity type, with the condition in words and `tier_2_required`: ' +
      'true when deciding it for a specific company needs commercial data (employees, turnover, balance) that the ' +
      'open registers do not give. A rule with open points carries them in `uncertainties`.',
    request: { query: PublicObligationsQuery },
    response: PublicObligations,
    scope: 'read:rulebook',
    mcpTool: 'get_public_obligations',
    capability: {
      name_en: 'Obligations by company type',
      name_nb: 'Plikter etter selskapsform',
      description_en: 'What an AS, ENK, ANS, DA or NUF must do, with the law and what data decides it.',
      description_nb:
        'Hva et AS, ENK, ANS, DA eller NUF må gjøre, med lovhjemmel og hvilke opplysninger som avgjør det.',
      data_sources: ['rulebook'],
      freshness: 'static',
      status: 'live',
    },
  }),
] as const satisfies readonly Operation[]
