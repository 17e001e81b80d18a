-- When each pending delegation was last asked about at the digital agency, and when it is next
-- due (issue: the delegation refresh stalled on the same 50). The refresh claims due grants by
-- moving next_at, so instances running it at once ask each grant once, and it goes round the
-- accounts fairly instead of by the grant's own updated_at, which a still-pending answer never
-- moves. Expand-only: a new table; a grant without a row was never asked.
create table delegation_asks (
  delegation_id uuid primary key references delegations (id),
  asked_at timestamptz not null,
  next_at timestamptz not null
);
create index delegation_asks_next on delegation_asks (next_at);
