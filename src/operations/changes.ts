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
      'The append-only archive of every change Plikt detected: `annual_accounts` rows from the daily accounts diff (one per ' +
      'changed field: `/last_accounts_year`, `/has_filed_annual_accounts` — the rows webhooks deliver as `accounts.updated`) and ' +
      '`company` rows from the business register’s update feed. Filters: `source`, `entity_type`, `entity_id`, `change_type`, ' +
      '`since` (detected at or after). Pages are in archive order; `next_cursor` is always given: ask again with it to get ' +
      'the rows after this page — at once while `has_more`, or later to follow new rows. Rows are committed in cursor order, so ' +
      'following the cursor never skips a row that arrives meanwhile and never repeats one. `limit` 1 to 200, default 50.',
    request: { query: S.ChangesQuery },
    response: S.ChangesPage,
    capability: {
      name_en: 'Change archive',
      name_nb: 'Endringsarkiv',
      description_en: 'Every change detected in the business register, including new annual-accounts filings, with a cursor.',
      description_nb: 'Alle endringer oppdaget i Enhetsregisteret, også nye årsregnskap, med markør for å følge nye.',
      data_sources: ['enhetsregisteret', 'regnskapsregisteret'],
      freshness: 'cached',
      status: 'live',
    },
  }),
] as const satisfies readonly Operation[]
