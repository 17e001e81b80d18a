/**
 * The accounts diff's private baseline (sql/0018_change_archive.sql) and the companies it covers:
 * every company in the cache (looked up through the register) and every company it has a baseline
 * for, so a company stays covered after the register feed drops its cached answers.
 */
import type { Sql } from './db.ts'

export interface Baseline {
  has_filed_annual_accounts: boolean | null
  last_accounts_year: number | null
  org_form: string | null
}

export interface DiffCandidate {
  org_number: string
  /** null: never observed (its first observation is silent) */
  baseline: Baseline | null
  /** the cached register answer about the unit, read only while its organisation form is unknown */
  unit_body: string | null
}

interface CandidateRow {
  org_number: string
  observed: boolean
  has_filed_annual_accounts: boolean | null
  last_accounts_year: number | null
  org_form: string | null
  unit_body: string | null
}

function candidate(r: CandidateRow): DiffCandidate {
  return {
    org_number: r.org_number,
    baseline: r.observed
      ? {
          has_filed_annual_accounts: r.has_filed_annual_accounts,
          last_accounts_year: r.last_accounts_year,
          org_form: r.org_form,
        }
      : null,
    unit_body: r.unit_body,
  }
}

/**
 * The next companies after `after` (by org number) of one kind: `observed`, those with a baseline
 * last observed at or before `observedUpTo`; `new`, cached companies with no baseline yet. Each
 * query walks its index from `after` and stops at `limit` rows, so a run that takes one kind to its
 * end and then the other reads each row about once, however many companies there are.
 */
export async function nextDiffCandidates(
  sql: Sql,
  kind: 'observed' | 'new',
  after: string,
  observedUpTo: Date,
  limit: number,
): Promise<DiffCandidate[]> {
  const due =
    kind === 'observed'
      ? sql`select org_number from accounts_baseline where org_number > ${after} and observed_at <= ${observedUpTo} order by org_number limit ${limit}`
      : // By the org-number index alone (`enhet:` keys are the register's units only): naming the
        // system too lets the planner scan every unit's key per batch.
        sql`select u.org_number from upstream_cache u
          where u.org_number > ${after} and u.resource_key = 'enhet:' || u.org_number
            and not exists (select 1 from accounts_baseline b where b.org_number = u.org_number)
          order by u.org_number limit ${limit}`
  const rows = await sql<CandidateRow[]>`
    with due as (${due})
    ${candidateColumns(sql)}
    from due d
    left join accounts_baseline b on b.org_number = d.org_number
    order by d.org_number`
  return rows.map(candidate)
}

/** The same for named companies: those the diff covers (cached or with a baseline), whenever observed. */
export async function diffCandidatesFor(sql: Sql, orgNumbers: string[]): Promise<DiffCandidate[]> {
  if (orgNumbers.length === 0) return []
  const rows = await sql<CandidateRow[]>`
    with due as (
      select org_number from accounts_baseline where org_number = any(${orgNumbers})
      union
      select org_number from upstream_cache where system = 'enhetsregisteret' and resource_key = 'enhet:' || org_number and org_number = any(${orgNumbers})
    )
    ${candidateColumns(sql)}
    from due d
    left join accounts_baseline b on b.org_number = d.org_number
    order by d.org_number`
  return rows.map(candidate)
}

/**
 * The unit's cached answer is read by its key, one row per company and only while the form is
 * unknown: a join would let the planner scan every cached body.
 */
function candidateColumns(sql: Sql) {
  return sql`
    select d.org_number, b.org_number is not null as observed, b.has_filed_annual_accounts, b.last_accounts_year, b.org_form,
      case when b.org_form is null then (
        select u.body from upstream_cache u where u.system = 'enhetsregisteret' and u.resource_key = 'enhet:' || d.org_number and u.http_status = 200
      ) end as unit_body`
}

/** Locks the baselines of these companies for the rest of the transaction; those that exist, by org number. */
export async function lockBaselines(tx: Sql, orgNumbers: string[]): Promise<Map<string, Baseline>> {
  const rows = await tx<(Baseline & { org_number: string })[]>`
    select org_number, has_filed_annual_accounts, last_accounts_year, org_form from accounts_baseline
    where org_number = any(${orgNumbers}) order by org_number for update`
  return new Map(
    rows.map((r) => [
      r.org_number,
      {
        has_filed_annual_accounts: r.has_filed_annual_accounts,
        last_accounts_year: r.last_accounts_year,
        org_form: r.org_form,
      },
    ]),
  )
}

export interface Observation extends Baseline {
  org_number: string
}

/** Writes what was observed (new, changed or the same) as the baselines, observed at `now`. */
export async function writeBaselines(tx: Sql, observed: Observation[], now: Date): Promise<void> {
  if (observed.length === 0) return
  await tx`
    insert into accounts_baseline (org_number, has_filed_annual_accounts, last_accounts_year, org_form, observed_at)
    select o.org_number, o.has_filed_annual_accounts, o.last_accounts_year, o.org_form, ${now}
    from jsonb_to_recordset(${tx.json(observed as never)}) as o(org_number text, has_filed_annual_accounts boolean, last_accounts_year integer, org_form text)
    on conflict (org_number) do update set
      has_filed_annual_accounts = excluded.has_filed_annual_accounts, last_accounts_year = excluded.last_accounts_year,
      org_form = coalesce(excluded.org_form, accounts_baseline.org_form), observed_at = excluded.observed_at`
}
