/** Portfolios and their companies: every statement names the owning consumer, so another account's row is never seen. */
import type { Sql } from './db.ts'

export interface PortfolioRow {
  id: string
  name: string
  company_count: number
  created_at: Date
  updated_at: Date
}

const COLUMNS = (sql: Sql) => sql`
  p.id, p.name, p.created_at, p.updated_at,
  (select count(*)::int from portfolio_companies c where c.portfolio_id = p.id) as company_count`

export async function countPortfolios(sql: Sql, consumerId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from portfolios where consumer_id = ${consumerId}`
  return row!.n
}

export async function insertPortfolio(sql: Sql, consumerId: string, name: string, now: Date): Promise<PortfolioRow> {
  const [row] = await sql<PortfolioRow[]>`
    insert into portfolios (consumer_id, name, created_at, updated_at)
    values (${consumerId}, ${name}, ${now}, ${now})
    returning id, name, 0 as company_count, created_at, updated_at`
  return row!
}

/** The consumer's portfolios, oldest first. */
export async function listPortfolios(sql: Sql, consumerId: string): Promise<PortfolioRow[]> {
  return sql<PortfolioRow[]>`
    select ${COLUMNS(sql)} from portfolios p where p.consumer_id = ${consumerId} order by p.created_at, p.id`
}

export async function findPortfolio(sql: Sql, consumerId: string, id: string): Promise<PortfolioRow | null> {
  const [row] = await sql<PortfolioRow[]>`
    select ${COLUMNS(sql)} from portfolios p where p.id = ${id} and p.consumer_id = ${consumerId}`
  return row ?? null
}

/** The portfolio's organisation numbers, ascending (as given: a sub-unit's stays a sub-unit's). */
export async function portfolioCompanies(
  sql: Sql,
  portfolioId: string,
): Promise<{ org_number: string; added_at: Date }[]> {
  return sql<{ org_number: string; added_at: Date }[]>`
    select org_number, added_at from portfolio_companies where portfolio_id = ${portfolioId} order by org_number`
}

/**
 * Replaces the portfolio's companies with `orgNumbers` (distinct), keeping the `added_at` of those
 * it already held; false when the consumer has no such portfolio. Run it in a transaction.
 */
export async function replaceCompanies(
  sql: Sql,
  consumerId: string,
  id: string,
  orgNumbers: string[],
  now: Date,
): Promise<boolean> {
  const [owned] = await sql`
    update portfolios set updated_at = greatest(${now}::timestamptz, created_at)
    where id = ${id} and consumer_id = ${consumerId} returning id`
  if (!owned) return false
  await sql`delete from portfolio_companies where portfolio_id = ${id} and not (org_number = any(${orgNumbers}::text[]))`
  await sql`
    insert into portfolio_companies (portfolio_id, org_number, added_at)
    select ${id}, o, ${now} from unnest(${orgNumbers}::text[]) as o
    on conflict (portfolio_id, org_number) do nothing`
  return true
}

export async function deletePortfolio(sql: Sql, consumerId: string, id: string): Promise<boolean> {
  const rows = await sql`delete from portfolios where id = ${id} and consumer_id = ${consumerId} returning id`
  return rows.length === 1
}
