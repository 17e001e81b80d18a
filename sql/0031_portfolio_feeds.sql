-- Calendar feeds of portfolios (issue 30, item 4): a secret URL a calendar program subscribes to
-- and polls without a key. The token is shown once, at creation, and kept here as its SHA-256 only
-- (as API keys are); a feed is found by that hash, so a revoked (deleted) feed and a token that
-- never existed are the same miss. Deleting the portfolio deletes its feeds. At most 5 feeds a
-- portfolio, counted under the consumer's row lock (domain/portfolios/feeds.ts).
-- `charged_on`: the Oslo day of the feed's last charged read — its first calendar of each day is
-- charged, the day's other reads are free (domain/portfolios/feeds.ts `firstReadOfDay`).
create table portfolio_feeds (
  id uuid primary key default gen_random_uuid(),
  portfolio_id uuid not null references portfolios (id) on delete cascade,
  consumer_id uuid not null references consumers (id),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null,
  charged_on date
);
create index portfolio_feeds_by_portfolio on portfolio_feeds (portfolio_id, created_at, id);

-- Whether a consumer may be charged with the plan a call was resolved with: the liveness the
-- charge statement checks for a call that came with no key (a calendar feed's read), as
-- key_is_live (sql/0025) does for a keyed one.
create or replace function consumer_is_live(p_consumer_id uuid, p_tier text) returns boolean
language sql stable as $$
  select coalesce((select c.active and c.tier = p_tier from consumers c where c.id = p_consumer_id), false)
$$;
