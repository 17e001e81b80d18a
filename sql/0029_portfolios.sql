-- Portfolios (issue 30, item 1): an accounting firm's clients, named lists of organisation numbers
-- a consumer keeps so one call answers every client's deadlines. Owned by the consumer (every key
-- of the account sees them); every lookup names the consumer, so another account's id is not
-- found. At most 20 portfolios a consumer and 1 000 companies a portfolio, counted under the
-- consumer's row lock (domain/portfolios/portfolios.ts). A number is kept as given: a sub-unit's
-- stands for its legal entity when the portfolio is read, never resolved (nor fetched) on write.
create table portfolios (
  id uuid primary key default gen_random_uuid(),
  consumer_id uuid not null references consumers (id),
  name text not null check (char_length(name) between 1 and 80),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  check (updated_at >= created_at)
);
create index portfolios_by_consumer on portfolios (consumer_id, created_at, id);

create table portfolio_companies (
  portfolio_id uuid not null references portfolios (id) on delete cascade,
  org_number text not null check (org_number ~ '^[0-9]{9}$'),
  added_at timestamptz not null,
  primary key (portfolio_id, org_number)
);
-- the background warm-up asks which numbers any portfolio holds
create index portfolio_companies_by_org on portfolio_companies (org_number);
