-- The sandbox's audit trail: rows written by sandbox rehearsals (approval tokens, executes),
-- namespaced by caller so one synthetic-bearer suffix never sees another's. The synthetic history
-- each fixture company starts with is not stored: it is computed from the fixtures.
create table sandbox_audit (
  id uuid primary key,
  namespace text not null,
  org_number text not null,
  occurred_at timestamptz not null,
  action text not null,
  initiated_by text not null,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);

create index sandbox_audit_namespace_org on sandbox_audit (namespace, org_number, occurred_at desc);
