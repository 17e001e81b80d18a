/** Calendar feeds of portfolios: found by their token's hash; every change names the owning consumer. */
import type { Sql } from './db.ts'

export interface FeedRow {
  id: string
  portfolio_id: string
  created_at: Date
}

/** What a feed's read is answered for: the feed, its portfolio and the owner with the owner's plan. */
export interface FeedOwnerRow {
  feed_id: string
  portfolio_id: string
  consumer_id: string
  tier: 'free' | 'starter' | 'professional' | 'enterprise'
}

export async function countFeeds(sql: Sql, portfolioId: string): Promise<number> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from portfolio_feeds where portfolio_id = ${portfolioId}`
  return row!.n
}

export async function insertFeed(
  sql: Sql,
  consumerId: string,
  portfolioId: string,
  tokenHash: string,
  now: Date,
): Promise<FeedRow> {
  const [row] = await sql<FeedRow[]>`
    insert into portfolio_feeds (portfolio_id, consumer_id, token_hash, created_at)
    values (${portfolioId}, ${consumerId}, ${tokenHash}, ${now})
    returning id, portfolio_id, created_at`
  return row!
}

/** The portfolio's feeds, oldest first (never their tokens: only the hash is kept). */
export async function listFeeds(sql: Sql, consumerId: string, portfolioId: string): Promise<FeedRow[]> {
  return sql<FeedRow[]>`
    select id, portfolio_id, created_at from portfolio_feeds
    where portfolio_id = ${portfolioId} and consumer_id = ${consumerId} order by created_at, id`
}

/** Deletes the consumer's feed of that portfolio; false when there is none. */
export async function deleteFeed(sql: Sql, consumerId: string, portfolioId: string, feedId: string): Promise<boolean> {
  const rows = await sql`
    delete from portfolio_feeds where id = ${feedId} and portfolio_id = ${portfolioId} and consumer_id = ${consumerId}
    returning id`
  return rows.length === 1
}

/** The feed whose token has this hash, with its owner, while the owner is active; null otherwise. */
export async function feedByTokenHash(sql: Sql, tokenHash: string): Promise<FeedOwnerRow | null> {
  const [row] = await sql<FeedOwnerRow[]>`
    select f.id as feed_id, f.portfolio_id, f.consumer_id, c.tier
    from portfolio_feeds f join consumers c on c.id = f.consumer_id
    where f.token_hash = ${tokenHash} and c.active`
  return row ?? null
}

/** The feed by id, with its owner, while the owner is active (a read's principal looked up again). */
export async function feedById(sql: Sql, feedId: string): Promise<FeedOwnerRow | null> {
  const [row] = await sql<FeedOwnerRow[]>`
    select f.id as feed_id, f.portfolio_id, f.consumer_id, c.tier
    from portfolio_feeds f join consumers c on c.id = f.consumer_id
    where f.id = ${feedId} and c.active`
  return row ?? null
}

/**
 * Marks `day` as the feed's charged day; true only for the one call that marked it (concurrent
 * reads of the same day: exactly one wins).
 */
export async function markChargedDay(sql: Sql, feedId: string, day: string): Promise<boolean> {
  const rows = await sql`
    update portfolio_feeds set charged_on = ${day}::date
    where id = ${feedId} and charged_on is distinct from ${day}::date returning id`
  return rows.length === 1
}
