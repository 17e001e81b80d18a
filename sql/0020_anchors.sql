-- Daily Merkle anchors over the snapshot archive (issue 14): one per UTC day, only hashes, dates
-- and counts. The tree is RFC 6962's over the day's snapshots ordered by (fetched_at, id);
-- docs/anchor-proof.md is the recipe a third party verifies a proof with.
--
-- anchor_chunks keeps the root of every aligned block of CHUNK_LEAVES leaves and the first leaf of
-- the block, so an inclusion proof reads one block and the day's chunk roots, never the whole day.
-- anchor_timestamps holds the RFC 3161 token of a root when TSA_URL is set (added once, later than
-- the anchor when the authority was down). All three are append-only.
create index source_snapshots_by_fetch_order on source_snapshots (fetched_at, id);

create table anchors (
  day date primary key,
  root text not null check (root ~ '^[0-9a-f]{64}$'),
  leaf_count bigint not null check (leaf_count >= 0),
  chunk_leaves integer not null,
  created_at timestamptz not null
);

create table anchor_chunks (
  day date not null references anchors (day),
  chunk_index integer not null,
  first_fetched_at timestamptz not null,
  first_snapshot_id uuid not null,
  leaf_count integer not null,
  root text not null,
  primary key (day, chunk_index)
);

create table anchor_timestamps (
  day date primary key references anchors (day),
  tsa_url text not null,
  token text not null,
  gen_time timestamptz not null,
  created_at timestamptz not null
);

create function anchors_append_only() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only: % is not allowed', tg_table_name, tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger anchors_no_update_delete before update or delete on anchors for each row execute function anchors_append_only();
create trigger anchors_no_truncate before truncate on anchors for each statement execute function anchors_append_only();
create trigger anchor_chunks_no_update_delete before update or delete on anchor_chunks for each row execute function anchors_append_only();
create trigger anchor_chunks_no_truncate before truncate on anchor_chunks for each statement execute function anchors_append_only();
create trigger anchor_timestamps_no_update_delete before update or delete on anchor_timestamps for each row execute function anchors_append_only();
create trigger anchor_timestamps_no_truncate before truncate on anchor_timestamps for each statement execute function anchors_append_only();

-- An operator's run of a scheduled job (POST /api/v1/admin/jobs/{name}/run) claims a tick of its
-- own, so the list of last runs tells it from the scheduled ones.
alter table job_ticks add column manual boolean not null default false;
