/** The change archive (spec: GET /api/v1/changes; query and page shape are ours). */
import * as S from '../schemas/changes.ts'
import { op, type Operation } from './define.ts'

export const changesOperations = [
  op({
    id: 'getChanges',
    method: 'GET',
    path: '/api/v1/changes',
    category: 'B',
    format: 'envelope',
    tag: 'Change archive',
    scope: 'read:changes',
    summary: 'Changes detected upstream, oldest first, with a cursor to follow new ones',
    description:
      'The append-only archive of every change Plikt detected upstream. From the business register (`source` `register`): ' +
      '`annual_accounts` rows from the daily accounts diff (one per changed field: `/last_accounts_year`, `/has_filed_annual_accounts` ' +
      '— the rows webhooks deliver as `accounts.updated`) and `company` rows from the register’s update feed. From the other sources, ' +
      'values the service reads in its work, archived when they differ from the value last observed (the first observation is a ' +
      'baseline, not a change; reading the same value again adds nothing): `tax_authority` `vat_registration` (VAT-register ' +
      'membership, `/mva_registered`), `centralbank` `exchange_rate` (a series’ new value, `/rate`; `entity_id` is the currency), ' +
      '`labour_register` `employees` and `portal` `filings` (a delegated company’s employee count or filings changed; the values ' +
      'are Tier 2 data and not shown — read them with your own delegation), `directorate` `delegation` (the agency decided a ' +
      'delegation request: `/status` from `pending` to `active`, `rejected` or `expired`). Only `accounts.updated` is delivered ' +
      'by webhook; every other row is read here. Filters: `source`, `entity_type`, `entity_id`, `change_type`, ' +
      '`since` (detected at or after), and `portfolio_id`: only the changes of one of your portfolios’ companies (the numbers ' +
      'it holds and, for a sub-unit, its legal entity; another account’s portfolio is 404 `NOT_FOUND`), with the same cursor. Pages are in archive order; `next_cursor` is always given: ask again with it to get ' +
      'the rows after this page — at once while `has_more`, or later to follow new rows. Rows are committed in cursor order, so ' +
      'following the cursor never skips a row that arrives meanwhile and never repeats one. `limit` 1 to 200, default 50.',
    request: { query: S.ChangesQuery },
    response: S.ChangesPage,
    capability: {
      name_en: 'Change archive',
      name_nb: 'Endringsarkiv',
      description_en:
        'Every change detected upstream — the business register (with new annual-accounts filings), VAT-register membership, exchange rates, employee counts, filings at the portal, delegation decisions — with a cursor.',
      description_nb:
        'Alle endringer oppdaget hos kildene — Enhetsregisteret (med nye årsregnskap), Merverdiavgiftsregisteret, valutakurser, antall ansatte, innsendinger i Altinn, vedtak om delegering — med markør for å følge nye.',
      data_sources: ['enhetsregisteret', 'regnskapsregisteret', 'norges-bank', 'aa-registeret', 'altinn', 'digdir'],
      freshness: 'cached',
      status: 'live',
    },
  }),
] as const satisfies readonly Operation[]
