-- Accounts and access: consumers, their API keys, browser sessions, magic links, issuance tokens,
-- prepaid credits, top-up requests, rate-limit windows, idempotency records and the audit log.
-- Every token and key is stored as its SHA-256 (hex) only.

create table consumers (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  company_name text,
  tier text not null default 'free' check (tier in ('free', 'starter', 'professional', 'enterprise')),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index consumers_email_key on consumers (email);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  consumer_id uuid not null references consumers (id),
  key_hash text not null unique,
  display_prefix text not null,
  label text not null,
  scopes text[] not null,
  source text not null check (source in ('signup', 'dashboard', 'admin', 'issuance', 'oauth')),
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index api_keys_active_by_consumer on api_keys (consumer_id) where revoked_at is null;

create table magic_links (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique,
  email text not null,
  company_name text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique,
  consumer_id uuid not null references consumers (id),
  -- not a credential on its own: it only proves a form came from our page
  csrf_token text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  ended_at timestamptz
);

-- Mail that could not be sent because SMTP_URL is unset: readable by the operator, purged after a day.
create table outbox_emails (
  id uuid primary key default gen_random_uuid(),
  to_email text not null,
  subject text not null,
  body_text text not null,
  created_at timestamptz not null default now()
);

create table issuance_tokens (
  id uuid primary key default gen_random_uuid(),
  consumer_id uuid not null references consumers (id),
  token_hash text not null unique,
  display_prefix text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  redeemed_at timestamptz,
  redeemed_key_id uuid references api_keys (id),
  revoked_at timestamptz
);
create index issuance_tokens_by_consumer on issuance_tokens (consumer_id);

-- The balance is a cache of the ledger, kept in the same transaction as every ledger row; the
-- check constraint makes "never below zero" a database fact rather than an application hope.
create table credit_balances (
  consumer_id uuid primary key references consumers (id),
  balance_ore bigint not null default 0 check (balance_ore >= 0),
  updated_at timestamptz not null default now()
);

create table credit_ledger (
  id bigint generated always as identity primary key,
  consumer_id uuid not null references consumers (id),
  amount_ore bigint not null check (amount_ore <> 0),
  kind text not null check (kind in ('topup', 'admin_credit', 'debit', 'refund')),
  reason text not null,
  operation_id text,
  correlation_id text,
  refund_of bigint references credit_ledger (id),
  created_at timestamptz not null default now()
);
create index credit_ledger_by_consumer on credit_ledger (consumer_id, id);
-- A debit is refunded at most once.
create unique index credit_ledger_one_refund on credit_ledger (refund_of) where refund_of is not null;

-- A debit is held until the call it paid for has succeeded. A process that dies mid-call leaves
-- its hold behind, and the expiry sweep refunds it: nothing is charged for a call that never finished.
create table credit_holds (
  ledger_id bigint primary key references credit_ledger (id),
  consumer_id uuid not null references consumers (id),
  created_at timestamptz not null default now()
);

create table topup_requests (
  id uuid primary key default gen_random_uuid(),
  consumer_id uuid not null references consumers (id),
  key_id uuid references api_keys (id),
  amount_ore bigint not null check (amount_ore > 0),
  status text not null default 'pending' check (status in ('pending', 'approved', 'expired', 'checkout_started')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  decided_at timestamptz,
  ledger_id bigint references credit_ledger (id)
);
create index topup_requests_pending on topup_requests (consumer_id) where status = 'pending';

-- Fixed windows: one row per (bucket, window start), incremented by one upsert per request.
-- Unlogged: counters are soft state (a crash only resets them), and skipping the WAL makes the
-- per-request upsert cheap. Unlogged tables are not replicated; every instance uses the primary.
create unlogged table rate_limit_windows (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null,
  expires_at timestamptz not null,
  primary key (bucket, window_start)
);
create index rate_limit_windows_expiry on rate_limit_windows (expires_at);

create table idempotency_records (
  scope text not null,
  idempotency_key uuid not null,
  operation_id text not null,
  fingerprint text not null,
  state text not null check (state in ('in_progress', 'done')),
  response_status integer,
  response_body text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (scope, idempotency_key)
);

create table audit_log (
  id uuid primary key default gen_random_uuid(),
  occurred_at timestamptz not null default now(),
  consumer_id uuid,
  actor text not null,
  action text not null,
  org_number text,
  correlation_id text,
  details jsonb not null default '{}'::jsonb
);
create index audit_log_by_consumer on audit_log (consumer_id, occurred_at);

create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger audit_log_no_update_delete before update or delete on audit_log
  for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_append_only();
