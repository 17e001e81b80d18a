-- The credit ledger's scale story (issue 33 item 5; ARCHITECTURE.md "The credit ledger over
-- time"). credit_ledger keeps one row per paid call, forever; a balance check that sums a
-- consumer's whole history grows with it. Each Oslo calendar month is closed once it is over:
-- every consumer's closing balance (the previous closing plus the month's rows) with the month's
-- row count and a checksum of its rows, so the nightly consistency check starts from the last
-- closed month and reads only the rows after it — flat however long the history.
--
-- Expand-only: new tables, and storage parameters (which no code reads). No column, index or
-- trigger is added to credit_ledger: the metered path writes it once per paid call, and an index
-- built inside the migration's transaction would stop charges for as long as it takes to read
-- the table. A month's rows are found by their ids instead: ids come from one sequence, and
-- ledger_marks remembers the sequence's value at instants, so a row created after a mark has a
-- greater id than the mark's.

-- The sequence's value at an instant (one per hourly tick of the ledger-close job). Every row
-- created at or after `at` has an id greater than `last_id`.
create table ledger_marks (
  at timestamptz primary key,
  last_id bigint not null
);

-- One row per month being closed or closed; the close's progress lives here, so a close that
-- died is resumed by the next tick. The month's rows are those with from_id < id <= through_id
-- and starts_at <= created_at < ends_at (rows of the neighbouring months may interleave near both
-- ends; created_at tells them apart). rows, sum_ore and digest are the month's totals, computed
-- when the close began; the close ends only once the consumers' closings add up to them.
-- next_from_id: every row created at or after ends_at has a greater id (the nightly check reads
-- the rows after the month from there).
create table ledger_months (
  month date primary key check (extract(day from month) = 1),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  from_id bigint not null,
  through_id bigint not null,
  next_from_id bigint not null,
  rows bigint not null,
  sum_ore bigint not null,
  digest numeric not null,
  -- progress: consumers are closed in id order, one batch per transaction
  after_consumer uuid,
  consumers integer not null default 0,
  started_at timestamptz not null default now(),
  closed_at timestamptz,
  -- the last time the nightly check read the month's rows again and found them as closed
  audited_at timestamptz,
  -- `plikt archive-ledger <month> <file> --delete`: the file's SHA-256 and how many of the
  -- month's rows left the database with it (those a later row or a top-up refers to stay)
  archived_at timestamptz,
  archive_sha256 text,
  archived_rows bigint
);

-- A consumer's month: opening (the previous month's closing, 0 before the first), the month's
-- rows (their sum, count and checksum) and the closing balance. A consumer with nothing to
-- carry (opening 0, no rows) has no row: its closing is 0.
create table credit_closings (
  month date not null references ledger_months (month),
  consumer_id uuid not null references consumers (id),
  opening_ore bigint not null,
  delta_ore bigint not null,
  closing_ore bigint not null check (closing_ore = opening_ore + delta_ore),
  rows bigint not null,
  digest numeric not null,
  primary key (month, consumer_id)
);
create index credit_closings_by_consumer on credit_closings (consumer_id, month);

-- The nightly consistency check, one row per UTC day: its progress (a batch of consumers per
-- statement), what it found, and which closed month it read again.
create table ledger_checks (
  day date primary key,
  after_consumer uuid,
  consumers integer not null default 0,
  mismatches jsonb not null default '[]'::jsonb,
  audited_month date,
  audit_mismatches jsonb,
  started_at timestamptz not null default now(),
  finished_at timestamptz
);

-- credit_ledger is insert-only: autovacuum's insert threshold (1 000 rows + 20 % of the table)
-- would vacuum a ten-million-row ledger once per two million new rows, and then for long. Vacuum
-- it every 100 000 new rows instead, so the visibility map and freezing keep up in small steps
-- (docs/deploy.md "The ledger over time"). charge_holds needs nothing: nearly empty, its default
-- threshold (50 dead rows + 20 %) is crossed every minute, and autovacuum empties it each time.
alter table credit_ledger set (autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 100000);
