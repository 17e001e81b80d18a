-- Which deliveries are in flight, so a per-receiver bound holds across instances (issue 31 tidy
-- list: one slow receiver must not delay every other). A claim sets lease_until (as well as
-- next_attempt_at, which older code claims by) to the lease's end; recording the attempt clears it.
-- A delivery is in flight while it is pending with lease_until in the future. Expand-only: a
-- nullable column; code that does not set it undercounts while it still runs, and a lease it
-- leaves set ends with the lease.
alter table webhook_deliveries add column lease_until timestamptz;
create index webhook_deliveries_in_flight on webhook_deliveries (subscription_id, lease_until) where status = 'pending' and lease_until is not null;
