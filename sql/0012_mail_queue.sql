-- Outgoing mail is queued and sent by a job (jobs/mail-queue.ts), never in the request path: asking
-- for a magic link writes one row whether or not the address has an account, so the answer's
-- timing (and SMTP being down) cannot tell the two apart.
--
-- to_email is null on a row that leads to no mail (an unknown address asking to sign in): it is
-- written only so that the request does the same work, keeps no address, and the job deletes it.
-- A claimed row's next_attempt_at is its lease: a sender that dies mid-send leaves the row due
-- again once the lease runs out. A sent row keeps no body (it held a live link).
create table mail_queue (
  id uuid primary key default gen_random_uuid(),
  to_email text,
  subject text not null,
  body_text text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  check (to_email is not null or status = 'queued')
);

create index mail_queue_due on mail_queue (next_attempt_at) where status = 'queued';
