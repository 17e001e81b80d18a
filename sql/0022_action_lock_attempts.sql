-- A conflict lock is owned by the filing attempt that took it (issue: the same VAT period filed
-- twice): a retry with the same Idempotency-Key re-enters the lock of its holder, but only the
-- attempt that inserted it, or took it over once it had expired, may give it back. Expand-only:
-- a lock written by the release before this one has no attempt, and only expiry frees it.
alter table action_locks add column attempt_id uuid;
