/** Keyless tools: exchange rates and the Altinn 2 → 3 role migration. */
import * as T from '../schemas/tools.ts'
import { op, type Operation } from './define.ts'

export const toolsOperations = [
  op({
    id: 'getExchangeRate',
    method: 'GET',
    path: '/api/v1/tools/exchange-rate',
    category: 'A',
    format: 'envelope',
    tag: 'Tools',
    summary: 'Norges Bank’s exchange rate: NOK per one unit of a currency',
    description:
      '`rate` is NOK per ONE unit of the quoted currency (Norges Bank quotes some currencies per 100; the multiplier is applied and shown). ' +
      'Labelling, the same on REST and MCP `get_exchange_rate`: the response is always `base: "NOK"` with `quote` = `currency` = the ' +
      'foreign currency, so `rate` reads as NOK per 1 `quote` (e.g. base NOK, quote EUR, rate 11.5). Norges Bank’s series key ' +
      '(`series`, e.g. `EXR/B.EUR.NOK.SP`) names the same pair the other way round (its BASE_CUR is EUR); the number is the same. ' +
      'MCP takes `base` and `quote` and accepts NOK on either side; the answer is the same base-NOK answer. ' +
      '`date` is the publication date used, `requested_date` the date asked for: weekends, holidays, days without ' +
      'publication (24 December) and today before 16:00 Europe/Oslo fall back to the prior published day, and ' +
      '`fallback_reason` says why. A gap longer than one unexplained working day answers `NO_RATE_AVAILABLE` rather than an old rate.',
    request: { query: T.ExchangeRateQuery },
    response: T.ExchangeRateResult,
    errors: [
      'INVALID_CURRENCY',
      'INVALID_DATE',
      'NO_RATE_AVAILABLE',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_TIMEOUT',
      'GOVERNMENT_API_ERROR',
    ],
    scope: 'read:centralbank',
    mcpTool: 'get_exchange_rate',
    capability: {
      name_en: 'Exchange rates',
      name_nb: 'Valutakurser',
      description_en: 'Norges Bank’s daily rates, with the business-day fallback explained.',
      description_nb: 'Norges Banks daglige kurser, med forklart fallback til forrige virkedag.',
      data_sources: ['norges-bank'],
      freshness: 'cached',
      status: 'live',
    },
  }),
  op({
    id: 'getPortalMigration',
    method: 'GET',
    path: '/api/v1/tools/portal-migration',
    category: 'A',
    format: 'envelope',
    tag: 'Tools',
    summary: 'The Altinn 3 access packages that replace an Altinn 2 role or register role',
    description:
      'Accepts an Altinn 2 role code (e.g. `A0239`, `HADM`, `UTINN`), a register role code (`DAGL`, `REGN` …) or ' +
      'their URN forms. Act on an answer only when `verified === true` (backed by Altinn’s seed data or Digdir); ' +
      'name-only matches are `verified: false`, and general Altinn 2 roles with no one-to-one package answer an ' +
      'empty list. `portal2_status` tells where the Altinn 2 shutdown stands today.',
    request: { query: T.PortalMigrationQuery },
    response: T.PortalMigrationResult,
    capability: {
      name_en: 'Altinn 2 → 3 migration',
      name_nb: 'Fra Altinn 2 til Altinn 3',
      description_en: 'Which access packages replace a legacy role, and how sure that is.',
      description_nb: 'Hvilke tilgangspakker som erstatter en gammel rolle, og hvor sikkert det er.',
      data_sources: ['altinn'],
      freshness: 'static',
      status: 'live',
    },
  }),
] as const satisfies readonly Operation[]
