-- Delegation (issue 13): agent principals, the delegations brokered for them, their signed
-- receipts, the conflict locks of live filings, and the filings recorded. The state machines are
-- enforced here, not only in code: a revoked principal is never resurrected, a principal's system
-- user is bound once, and a revoked delegation is a marker row that supersedes the grant.

-- An agent's identity at one consumer, for one organisation. `id` is the agent_principal_id the
-- caller chose; another consumer using the same uuid has a principal of its own.
create table agent_principals (
  consumer_id uuid not null references consumers (id),
  id uuid not null,
  org_number text not null,
  state text not null check (state in ('pending', 'active', 'revoked')),
  -- the system user the organisation created for Plikt; write-once (trigger below)
  system_user_id uuid,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  revoked_at timestamptz,
  revoke_reason text,
  primary key (consumer_id, id),
  check ((state = 'revoked') = (revoked_at is not null))
);

create function agent_principal_transitions() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'agent principals are never deleted' using errcode = 'P0001';
  end if;
  if old.state = 'revoked' and (new.state <> 'revoked' or new.system_user_id is distinct from old.system_user_id) then
    raise exception 'agent principal % is revoked: a revoked principal is never resurrected', old.id using errcode = 'P0001';
  end if;
  if old.state = 'active' and new.state = 'pending' then
    raise exception 'agent principal % cannot return to pending', old.id using errcode = 'P0001';
  end if;
  if old.system_user_id is not null and new.system_user_id is distinct from old.system_user_id then
    raise exception 'agent principal % is bound to system user % already', old.id, old.system_user_id using errcode = 'P0001';
  end if;
  if new.org_number <> old.org_number or new.consumer_id <> old.consumer_id or new.id <> old.id then
    raise exception 'an agent principal keeps its consumer and organisation' using errcode = 'P0001';
  end if;
  return new;
end $$;
create trigger agent_principals_transitions before update or delete on agent_principals
  for each row execute function agent_principal_transitions();

-- A grant: a request to the digital agency for a system user with some scopes, pending until a
-- person with signing authority approves it. A revocation is a row of its own (kind 'revocation')
-- naming the grant it supersedes; the grant row is then frozen.
create table delegations (
  id uuid primary key,
  kind text not null check (kind in ('grant', 'revocation')),
  consumer_id uuid not null references consumers (id),
  principal_id uuid not null,
  org_number text not null,
  scopes text[] not null,
  -- grants only: ours, one per (consumer, principal, organisation); the agency finds a retried request by it
  external_ref text,
  -- 'requesting' until the agency has answered; then its request id and confirm URL are kept
  status text not null check (status in ('requesting', 'pending', 'active', 'rejected', 'expired', 'revoked')),
  request_id text,
  delegation_url text,
  system_user_id uuid,
  supersedes uuid references delegations (id),
  reason text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  activated_at timestamptz,
  foreign key (consumer_id, principal_id) references agent_principals (consumer_id, id),
  check ((kind = 'revocation') = (supersedes is not null)),
  check ((kind = 'revocation') = (status = 'revoked')),
  check (kind = 'revocation' or external_ref is not null)
);
-- at most one revocation per grant: a second revoke finds the marker and is a no-op
create unique index delegations_one_revocation on delegations (supersedes) where kind = 'revocation';
-- at most one live grant per principal (a retried request finds it)
create index delegations_by_principal on delegations (consumer_id, principal_id, created_at);
create index delegations_by_org on delegations (consumer_id, org_number, created_at);
create index delegations_pending on delegations (status) where status in ('requesting', 'pending');

create function delegation_transitions() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'delegations are never deleted; a revocation is a marker row' using errcode = 'P0001';
  end if;
  if old.kind = 'revocation' then
    raise exception 'a revocation marker never changes' using errcode = 'P0001';
  end if;
  if exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = old.id) then
    raise exception 'delegation % is superseded by its revocation', old.id using errcode = 'P0001';
  end if;
  if new.kind <> old.kind or new.consumer_id <> old.consumer_id or new.principal_id <> old.principal_id
     or new.org_number <> old.org_number or new.scopes <> old.scopes or new.external_ref <> old.external_ref then
    raise exception 'a delegation keeps what was asked for' using errcode = 'P0001';
  end if;
  if not (new.status = old.status
          or (old.status = 'requesting' and new.status in ('pending', 'active', 'rejected', 'expired'))
          or (old.status = 'pending' and new.status in ('active', 'rejected', 'expired'))) then
    raise exception 'delegation % cannot go from % to %', old.id, old.status, new.status using errcode = 'P0001';
  end if;
  if old.system_user_id is not null and new.system_user_id is distinct from old.system_user_id then
    raise exception 'delegation % is bound to a system user already', old.id using errcode = 'P0001';
  end if;
  return new;
end $$;
create trigger delegations_transitions before update or delete on delegations
  for each row execute function delegation_transitions();

-- Signed delegation receipts, append-only: what a consumer can later show.
create table delegation_receipts (
  id uuid primary key,
  consumer_id uuid not null references consumers (id),
  event text not null check (event in ('delegation_granted', 'delegation_revoked')),
  delegation_id uuid not null references delegations (id),
  issued_at timestamptz not null,
  receipt jsonb not null
);
create index delegation_receipts_newest on delegation_receipts (consumer_id, issued_at desc, id desc);
create unique index delegation_receipts_once on delegation_receipts (delegation_id, event, ((receipt->>'delegation_status')));

create function delegation_receipts_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'delegation receipts are append-only' using errcode = 'P0001';
end $$;
create trigger delegation_receipts_no_update_delete before update or delete on delegation_receipts
  for each row execute function delegation_receipts_append_only();

-- Conflict locks of live filings: one agent at a time per organisation, kind and period, for the
-- kind's TTL (spec Limits). Taken before the approval token is spent; kept after a filing.
create table action_locks (
  org_number text not null,
  kind text not null,
  period text not null,
  holder text not null,
  acquired_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (org_number, kind, period)
);

-- Filings made through Plikt: what the tier_2 summary marks `filed`.
create table filings (
  id uuid primary key,
  consumer_id uuid not null references consumers (id),
  org_number text not null,
  action_type text not null,
  period text not null,
  receipt_id text not null,
  portal_instance_id text,
  filed_at timestamptz not null
);
create index filings_by_org on filings (org_number, action_type, period);
