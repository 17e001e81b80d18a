-- The background warm-up of portfolio companies' register data (issue 30, Scale). A portfolio's
-- merged deadlines are read from the register cache alone, so a portfolio of 1 000 new clients is
-- never a burst of 1 000 upstream calls; each organisation number a portfolio holds has a row here,
-- and the `register-warmup` queue job claims the due ones a few at a time (FOR UPDATE SKIP LOCKED)
-- and reads them through the cache: at once when added, again before the cached answer stops being
-- fresh, later after a failure. `last_error_code` is what the last attempt failed with (null after
-- a success): a portfolio read answers such a client as unavailable with that code.
create table register_warmups (
  org_number text primary key check (org_number ~ '^[0-9]{9}$'),
  next_at timestamptz not null,
  attempts integer not null default 0 check (attempts >= 0),
  last_attempt_at timestamptz,
  last_error_code text,
  warmed_at timestamptz
);
create index register_warmups_due on register_warmups (next_at);
