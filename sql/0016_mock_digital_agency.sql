-- The mock digital agency (src/upstream/digital-agency/mock.ts): the system-user requests an
-- organisation is asked to approve, and the system users approving them creates. Kept in the
-- database so that every instance, and an instance after a restart, sees the same requests.
--
-- status holds decisions only ('New' until someone decides); 'Timedout' is read, not written: a
-- request still 'New' at or after expires_at has timed out, judged by the caller's clock.
-- A pending request that is revoked is deleted; an accepted one keeps its row and its system user
-- is marked deleted (system_user_deleted_at), which frees (party_org_no, external_ref) for a new
-- request — one live request per pair, enforced by the partial unique index below.
create table mock_system_user_requests (
  id uuid primary key default gen_random_uuid(),
  external_ref text not null,
  system_id text not null,
  party_org_no text not null,
  access_packages text[] not null,
  redirect_url text,
  status text not null default 'New' check (status in ('New', 'Accepted', 'Rejected')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  -- who decided and when: set once, by the single conditional UPDATE that leaves 'New'
  decided_at timestamptz,
  decided_by_name text,
  decided_by_basis text,
  system_user_id uuid unique,
  system_user_deleted_at timestamptz,
  check (expires_at > created_at),
  check ((status = 'New') = (decided_at is null)),
  check ((status = 'New') = (decided_by_name is null)),
  check ((status = 'Accepted') = (system_user_id is not null)),
  check (system_user_deleted_at is null or system_user_id is not null)
);

create unique index mock_system_user_requests_live on mock_system_user_requests (party_org_no, external_ref) where system_user_deleted_at is null;
