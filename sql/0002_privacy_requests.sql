-- Data-subject requests (GDPR arts. 15–21) received through POST /api/v1/privacy/dsr. The e-mail is
-- kept in clear because it is how the answer reaches the person who asked.
create table privacy_requests (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  request_type text not null check (request_type in ('access', 'rectification', 'erasure', 'restriction', 'portability', 'objection')),
  details text,
  status text not null default 'received' check (status in ('received', 'in_progress', 'completed', 'rejected')),
  received_at timestamptz not null default now(),
  respond_by timestamptz not null
);
create index privacy_requests_open on privacy_requests (respond_by) where status in ('received', 'in_progress');
