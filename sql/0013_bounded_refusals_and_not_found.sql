-- Refused credentials, counted rather than each written to the append-only audit log
-- (src/domain/access/refusals.ts). The first refusal of a kind in an hour — one client address,
-- one error code, one actor (`key:<id>` or `anonymous`), one operation — gets an audit row of its
-- own at once; every one of that hour's refusals is counted here, and once the hour is over the
-- expiry sweep deletes the tally and appends one audit row with the count of those not yet
-- audited, in one statement. No refusal goes unrecorded; the audit rows per address stay bounded.
create table refusal_tallies (
  window_start timestamptz not null,
  ip text not null,
  error_code text not null,
  actor text not null,
  -- '' when the refusal came outside an operation
  operation text not null,
  consumer_id uuid,
  refusals integer not null,
  -- whether the first refusal got its own audit row (not when the address was over its budget)
  first_audited boolean not null,
  first_at timestamptz not null,
  last_at timestamptz not null,
  primary key (window_start, ip, error_code, actor, operation)
);

-- A "not found" answer of the register (a unit it does not know, or removed from open data) is
-- cached, so repeated lookups stay cheap, but not archived: it backs no answer (COMPANY_NOT_FOUND
-- and a bulk-status `not_found` row cite no snapshot), and the archive is append-only. Its cache
-- row has no snapshot.
alter table upstream_cache alter column snapshot_id drop not null;
