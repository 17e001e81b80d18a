-- A production approval token is confirmed by a person (issue 31, item 10; spec state table:
-- "human confirmed action"). The key route mints it `awaiting`; it is usable only once the
-- account's owner, signed in, has confirmed exactly this action on the confirmation page
-- (`confirmed`); `declined` makes it unusable for good. Sandbox tokens are minted `automatic`:
-- the sandbox rehearses and never files.
--
-- Expand-only. A row written by the release before this one takes the default, `awaiting`: that
-- release's production tokens (15 minutes at most) need a person's confirmation like every other;
-- its sandbox tokens are still usable, since the sandbox's gate never asks for a confirmation.
alter table approval_tokens add column confirmation text not null default 'awaiting'
  check (confirmation in ('automatic', 'awaiting', 'confirmed', 'declined'));
-- what the person confirms: org_number, action_type, period and payload (their digest is action_id)
alter table approval_tokens add column action jsonb;
-- who decided (`session:<id>`) and when; the audit row says the same
alter table approval_tokens add column decided_at timestamptz;
alter table approval_tokens add column decided_by text;
alter table approval_tokens add constraint approval_tokens_decision_recorded
  check ((confirmation in ('confirmed', 'declined')) = (decided_at is not null and decided_by is not null));
