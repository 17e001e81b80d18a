-- What the expiry sweep deletes by: approval tokens a day after they expire, sandbox audit rows
-- thirty days after they were written (rehearsals, not records).
create index approval_tokens_expires_at on approval_tokens (expires_at);
create index sandbox_audit_created_at on sandbox_audit (created_at);
