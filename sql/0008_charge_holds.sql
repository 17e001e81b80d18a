-- Holds are kept per charge batch instead of per call. A metered call's debit is written in a
-- batch with the other calls charged at that moment (store/credits.ts chargeBatch); one hold row
-- covers the batch's debits and is deleted once every call in it has finished (settled or
-- refunded). A process that dies mid-call leaves the row behind and the expiry sweep refunds the
-- batch's debits that were not refunded already (at most once each: credit_ledger_one_refund).
-- One row per batch instead of an insert and a delete per call halves the metered path's writes.
create table charge_holds (
  id bigint generated always as identity primary key,
  ledger_ids bigint[] not null check (cardinality(ledger_ids) > 0),
  created_at timestamptz not null default now()
);
create index charge_holds_created_at on charge_holds (created_at);

insert into charge_holds (ledger_ids, created_at) select array[ledger_id], created_at from credit_holds;
drop table credit_holds;
