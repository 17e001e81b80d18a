-- OAuth for MCP hosts: an (issuer, subject) pair from a verified access token, mapped to one
-- dedicated API key once the signed-in account owner approves it at /oauth/consent.
create table oauth_connections (
  id uuid primary key default gen_random_uuid(),
  issuer text not null,
  subject text not null,
  status text not null check (status in ('pending', 'active', 'revoked')),
  consumer_id uuid references consumers (id),
  key_id uuid references api_keys (id),
  created_at timestamptz not null default now(),
  approved_at timestamptz,
  revoked_at timestamptz,
  check (status <> 'active' or (consumer_id is not null and key_id is not null))
);
-- At most one live (pending or active) connection per subject.
create unique index oauth_connections_live on oauth_connections (issuer, subject) where status in ('pending', 'active');
