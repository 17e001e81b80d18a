-- The change archive (issue 14): every change Plikt detects upstream, append-only like the audit
-- log, read by GET /api/v1/changes and the source of webhook deliveries.
--
-- `seq` orders the archive for cursors. Rows are only ever inserted under one transaction-scoped
-- advisory lock (src/store/changes.ts), so seq values become visible in the order they were
-- assigned: a reader that has seen seq n never later finds a new row below n.
-- `source_ref` is the upstream's own name for a change (the register feed's update id), so a feed
-- page read twice adds nothing the second time.
create table changes (
  seq bigint generated always as identity primary key,
  id uuid not null unique default gen_random_uuid(),
  source text not null,
  entity_type text not null,
  entity_id text not null,
  change_type text not null,
  field_path text,
  before_value jsonb,
  after_value jsonb,
  diff jsonb not null default '[]'::jsonb check (jsonb_typeof(diff) = 'array'),
  detected_at timestamptz not null,
  source_snapshot_id uuid references source_snapshots (id),
  source_ref text unique
);
create index changes_by_entity on changes (entity_id, seq);
create index changes_by_detected on changes (detected_at, seq);

create function changes_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'changes is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger changes_no_update_delete before update or delete on changes
  for each row execute function changes_append_only();
create trigger changes_no_truncate before truncate on changes
  for each statement execute function changes_append_only();

-- The private baseline of the daily accounts diff (jobs/accounts-diff.ts): the filing status last
-- observed per company. Its first row for a company is written silently (no change, no event).
-- `observed_at` is also the diff's place in the day: a run takes the companies not observed since
-- the day began, so a run that dies is resumed, not repeated, by the next. `org_form` is kept once
-- known, so an answer of "no accounts" keeps meaning the same after the unit leaves the cache.
create table accounts_baseline (
  org_number text primary key check (org_number ~ '^[0-9]{9}$'),
  has_filed_annual_accounts boolean,
  last_accounts_year integer,
  org_form text,
  observed_at timestamptz not null
);
