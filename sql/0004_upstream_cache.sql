-- Company data from the open registers (DESIGN §6).
--
-- source_snapshots: the append-only archive of every upstream answer that fed a response; its id is
-- `_meta.source_snapshot_id` and the daily Merkle anchor is built over `content_sha256`. The body
-- lives in a separate table so that a unit the register removes for legal reasons (HTTP 410) can
-- be purged while the archive's hash chain stays intact.
create table source_snapshots (
  id uuid primary key default gen_random_uuid(),
  system text not null,
  resource_key text not null,
  -- the organisation the answer is about, when there is one: what a 410 purges
  org_number text,
  url text not null,
  http_status integer not null,
  content_sha256 text not null,
  fetched_at timestamptz not null
);
create index source_snapshots_by_day on source_snapshots (fetched_at);
create index source_snapshots_by_org on source_snapshots (org_number) where org_number is not null;

create function source_snapshots_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'source_snapshots is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger source_snapshots_no_update_delete before update or delete on source_snapshots
  for each row execute function source_snapshots_append_only();
create trigger source_snapshots_no_truncate before truncate on source_snapshots
  for each statement execute function source_snapshots_append_only();

create table source_snapshot_bodies (
  snapshot_id uuid primary key references source_snapshots (id),
  content_type text,
  body text not null
);

-- The newest usable answer per upstream resource; `fetched_at` decides fresh, stale or too old.
create table upstream_cache (
  system text not null,
  resource_key text not null,
  snapshot_id uuid not null references source_snapshots (id),
  org_number text,
  url text not null,
  http_status integer not null,
  content_type text,
  body text not null,
  fetched_at timestamptz not null,
  primary key (system, resource_key)
);
create index upstream_cache_by_org on upstream_cache (org_number) where org_number is not null;

-- Where the register's update feed was last read (one row per feed).
create table upstream_feed_cursors (
  feed text primary key,
  last_id bigint not null,
  updated_at timestamptz not null
);
