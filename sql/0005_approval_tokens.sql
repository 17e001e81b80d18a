-- Approval tokens (POST /api/v1/auth/approval-token): a person's single-use permission to submit
-- one action (its id is a digest of the filing content) for one organisation. Only the SHA-256 of
-- the token is kept. `namespace` isolates callers (`sandbox:<suffix>`, `consumer:<uuid>`): lookups
-- always name it, so a token minted in one namespace is unknown in every other.
create table approval_tokens (
  id uuid primary key default gen_random_uuid(),
  namespace text not null,
  token_hash text not null unique,
  org_number text not null,
  action_id text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- set once, by the single conditional UPDATE that consumes the token
  consumed_at timestamptz,
  check (expires_at > created_at)
);
